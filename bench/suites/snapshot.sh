# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/snapshot.sh: the snapshot suite of bench/run (issue 19).
# On the suite's tree (read-only), with every file written to tmpfs:
#   find_ip_2     xbulk find -j 2 MNT -printf '%i %p\n' (the same scan and
#                 names work as a snapshot)
#   snapshot_2    xbulk snapshot -j 2 MNT FILE (its syncfs and fsync counted)
#   diff_files    xbulk diff OLD NEW, two snapshots of the tree, NEW with 1%
#                 of the files changed (bench/snap-change: the image cannot
#                 change); reads no inode
#   diff_live_2   xbulk diff -j 2 OLD MNT
#   export_sqlite xbulk export --sqlite DB OLD; reads no inode
#   find_join     what people do today: GNU find listing the fields, sort,
#                 and comm against the previous listing (bfs_join with bfs)
# Targets (2 cores, 1M inodes): snapshot within 1.15x (uncached) and 1.3x
# (hot) of find_ip_2; diff_files under 0.5 s hot; diff_live within 1.15x
# of snapshot; 3x (hot) and 2.5x (uncached) faster than the fastest join;
# export within 3x of the uncached snapshot; sizes and diff's RSS per
# million inodes.  Run: bench/run --suite snapshot (docs/performance.md).

snapshot_contenders() {
	local d=${SHM:-/dev/shm}/xbulk-bench-snap fields

	mkdir -p "$d"
	SNAP_DIR=$d
	# OLD (a snapshot of the tree as it is), NEW (1% changed), and the
	# listings the join compares against: made once, outside the timing
	"$XBULK" snapshot -j 2 "$MNT" "$d/old" ||
		die "snapshot suite: xbulk snapshot failed"
	"$BUILD/bench/snap-change" "$d/old" "$d/new" 10 >/dev/null ||
		die "snapshot suite: snap-change failed"
	fields='%i %p %s %T@ %C@ %m %U %G %n\n'
	find "$MNT" -xdev -printf "$fields" | LC_ALL=C sort >"$d/old.lst"
	cp "$d/old.lst" "$d/old-bfs.lst"

	contender find_ip_2 \
		"exec $XBULK find -j 2 $M -printf '%i %p\n' >/dev/null" \
		records=names
	contender snapshot_2 "exec $XBULK snapshot -j 2 $M $d/s"
	contender diff_files "$XBULK diff $d/old $d/new >/dev/null; [ \$? -le 1 ]" \
		check=none
	contender diff_live_2 "$XBULK diff -j 2 $d/old $M >/dev/null; [ \$? -le 1 ]"
	contender export_sqlite "exec $XBULK export --sqlite $d/db $d/old" \
		check=none states=uncached
	contender find_join "find $M -xdev -printf '$fields' | LC_ALL=C sort |
		LC_ALL=C comm -3 $d/old.lst - >/dev/null" records=names
	if command -v bfs >/dev/null; then
		contender bfs_join "bfs $M -xdev -printf '$fields' | LC_ALL=C sort |
			LC_ALL=C comm -3 $d/old-bfs.lst - >/dev/null" records=names
	fi
}

snapshot_targets() {
	local state want size rss

	for state in $STATES; do
		case $state in
		hot) want=1.3 ;;
		*) want=1.15 ;;
		esac
		target "$state" "snapshot_2 wall / find_ip_2 wall" \
			"$(ratio "$(med "$state" snapshot_2 wall)" \
				"$(med "$state" find_ip_2 wall)")" "<=" "$want"
		target "$state" "diff_live_2 wall / snapshot_2 wall" \
			"$(ratio "$(med "$state" diff_live_2 wall)" \
				"$(med "$state" snapshot_2 wall)")" "<=" 1.15
		case $state in
		hot) want=3 ;;
		*) want=2.5 ;;
		esac
		target "$state" "fastest join wall / diff_live_2 wall" \
			"$(ratio "$(fastest "$state" find_join bfs_join)" \
				"$(med "$state" diff_live_2 wall)")" ">=" "$want"
		[ "$state" = hot ] && target hot "diff_files wall (s)" \
			"$(med hot diff_files wall)" "<=" 0.5
		rss=$(med "$state" diff_files rss_kib)
		[ -n "$rss" ] && target "$state" "diff_files peak RSS (MiB per 1M inodes)" \
			"$(awk -v r="$rss" -v n="$NINODES" \
				'BEGIN { printf "%.1f", r / 1024 * 1e6 / n }')" "<=" 200
	done
	target uncached "export_sqlite wall / snapshot_2 wall" \
		"$(ratio "$(med uncached export_sqlite wall)" \
			"$(med uncached snapshot_2 wall)")" "<=" 3
	size=$(stat -c %s "$SNAP_DIR/old" 2>/dev/null)
	[ -n "$size" ] && target all "snapshot bytes per inode (zstd level 1)" \
		"$(awk -v s="$size" -v n="$NINODES" 'BEGIN { printf "%.1f", s / n }')" \
		"<=" 64
	rm -rf "$SNAP_DIR"
}
