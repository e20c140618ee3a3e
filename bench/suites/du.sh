# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/du.sh: the du suite of bench/run (its header says how a
# suite declares contenders).  xbulk du against GNU du, ncdu, gdu and
# duc index on the same tree, beside the names engine's floor (bulkstat
# and every directory read by handle) where it is built; the targets of
# issue 10: >= 2x the fastest other tool uncached, >= 3x cached, and
# peak RSS per million inodes.

du_contenders() {
	local j=$JOBS db

	db=$(mktemp -u /dev/shm/xbulk-duc.XXXXXX)
	contender gnu_du_s "exec du -x -s $M >/dev/null"
	contender gnu_du_d2 "exec du -x -d 2 $M >/dev/null"
	contender ncdu "exec ncdu -q -x -o /dev/null $M >/dev/null 2>&1"
	contender gdu "exec gdu -x -n -p $M >/dev/null"
	contender duc "rm -f $db; duc index -q -x -d $db $M >/dev/null 2>&1; rm -f $db"
	if [ -x "$BUILD/bench/names-floor" ]; then
		contender "names_floor_$j" \
			"exec $BUILD/bench/names-floor -j $j $M >/dev/null" \
			records=names
	fi
	contender "xbulk_du_s_$j" "exec $XBULK du -s -j $j $M >/dev/null"
	contender "xbulk_du_d2_$j" "exec $XBULK du -d 2 -j $j $M >/dev/null"
	contender "xbulk_du_by_uid_$j" \
		"exec $XBULK du --by uid -j $j $M >/dev/null"
}

du_targets() {
	local j=$JOBS state want n rss

	for state in $STATES; do
		case $state in
		hot) want=3 ;;
		*) want=2 ;;
		esac
		for n in "xbulk_du_s_$j" "xbulk_du_d2_$j" "xbulk_du_by_uid_$j"; do
			target "$state" "fastest other tool wall / $n wall" \
				"$(ratio "$(fastest "$state" gnu_du_s \
						gnu_du_d2 ncdu gdu duc)" \
					"$(med "$state" "$n" wall)")" ">=" "$want"
			rss=$(med "$state" "$n" rss_kib)
			[ -n "$rss" ] || continue
			target "$state" "$n peak RSS (MiB per 1M inodes)" \
				"$(awk -v r="$rss" -v n="$NINODES" \
					'BEGIN { printf "%.1f", r / 1024 * 1e6 / n }')" \
				"<=" 150
		done
	done
}
