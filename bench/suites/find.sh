# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/find.sh: the find suite of bench/run (its header says how
# a suite declares contenders).  xbulk find -j 1 and -j 2 against GNU
# find, bfs and fd (for the queries fd can express) on the same tree,
# beside the names engine's floor (bench/names-floor: the bulkstat scan
# and every directory read, top-down by name, and nothing else), for
# three queries:
#   p: -printf '%p %s\n'      (every name, one field)
#   f: -type f -size +1M -print
#   m: -mtime +30 -user root -print0
# Targets of issue 9 (2 cores): xbulk find -j 2 >= 0.9x the floor,
# >= 2x the fastest of find/bfs/fd uncached, >= 3x cached; peak RSS.
# Run: bench/run --suite find [--small-dirs] (docs/performance.md).  With
# XBULK_OLD set to another build's xbulk, its find runs too (old_find_p_1
# ...), in the same rounds: a comparison of two builds, interleaved.

find_contenders() {
	local q nfd

	# find, bfs and fd stat only the directories and the regular files
	# when -type f comes first (d_type tells the rest): the inodes those
	# runs must look up, for the proof of the cache state
	nfd=$(find "$MNT" -xdev \( -type f -o -type d \) -printf '%i\n' |
		sort -u | wc -l)

	contender find_p "exec find $M -xdev -printf '%p %s\n' >/dev/null" \
		records=names
	contender find_f "exec find $M -xdev -type f -size +1M -print >/dev/null" \
		records=names check="$nfd"
	contender find_m "exec find $M -xdev -mtime +30 -user root -print0 >/dev/null" \
		records=names
	if command -v bfs >/dev/null; then
		contender bfs_p "exec bfs $M -xdev -printf '%p %s\n' >/dev/null" \
			records=names
		contender bfs_f "exec bfs $M -xdev -type f -size +1M -print >/dev/null" \
			records=names check="$nfd"
		contender bfs_m "exec bfs $M -xdev -mtime +30 -user root -print0 >/dev/null" \
			records=names
	fi
	if command -v fdfind >/dev/null; then
		contender fd_f "exec fdfind -HI --one-file-system -t f -S +1Mi . $M >/dev/null" \
			records=names check="$nfd"
		contender fd_m "exec fdfind -HI --one-file-system --changed-before 30d --owner root -0 . $M >/dev/null" \
			records=names
	fi
	if [ -x "$BUILD/bench/names-floor" ]; then
		contender names_floor_1 "exec $BUILD/bench/names-floor -j 1 $M >/dev/null" \
			records=names
		contender names_floor_2 "exec $BUILD/bench/names-floor -j 2 $M >/dev/null" \
			records=names
	fi
	find_xbulk xbulk_find "$XBULK"
	# another build beside this one, run for run (bench/run's rounds)
	[ -z "${XBULK_OLD:-}" ] || find_xbulk old_find "$XBULK_OLD"
}

# find_xbulk NAME BIN: xbulk find's contenders, NAME_p_1 ... NAME_m_2
find_xbulk() {
	local x=$1 bin=$2 j

	for j in 1 2; do
		contender "${x}_p_$j" \
			"exec $bin find -j $j $M -printf '%p %s\n' >/dev/null" \
			records=names
		contender "${x}_f_$j" \
			"exec $bin find -j $j $M -type f -size +1M -print >/dev/null" \
			records=names
		contender "${x}_m_$j" \
			"exec $bin find -j $j $M -mtime +30 -user root -print0 >/dev/null" \
			records=names
	done
}

find_targets() {
	local state want q n rss floor

	for state in $STATES; do
		case $state in
		hot) want=3 ;;
		*) want=2 ;;
		esac
		floor=$(med "$state" names_floor_2 wall)
		for q in p f m; do
			n=xbulk_find_${q}_2
			target "$state" "fastest of find/bfs/fd wall / $n wall" \
				"$(ratio "$(fastest "$state" "find_$q" \
						"bfs_$q" "fd_$q")" \
					"$(med "$state" "$n" wall)")" ">=" "$want"
			[ -n "$floor" ] && target "$state" \
				"names_floor_2 wall / $n wall" \
				"$(ratio "$floor" "$(med "$state" "$n" wall)")" \
				">=" 0.9
			rss=$(med "$state" "$n" rss_kib)
			[ -n "$rss" ] && target "$state" "$n peak RSS (MiB)" \
				"$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')" \
				"<=" 150
		done
	done
}
