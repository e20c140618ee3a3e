# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/du.sh: the du suite of bench/run (its header says how a
# suite declares contenders).  xbulk du against GNU du, ncdu, gdu and
# duc index on the same tree, beside the names engine's floor (bulkstat
# and every directory read by handle) where it is built; the targets of
# issue 10: >= 2x the fastest other tool uncached, >= 3x cached, and
# peak RSS per million inodes.  Issue 29's: the ncdu export against
# ncdu's own (-o, to a file on /dev/shm both) stated as a ratio, and
# the metrics file (-d 1 --prometheus) within 1.1x of --by uid.

du_contenders() {
	local j=$JOBS db out

	db=$(mktemp -u /dev/shm/xbulk-duc.XXXXXX)
	out=$(mktemp -u /dev/shm/xbulk-du-out.XXXXXX)
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
	# (the exit status is the tool's, the file removed after)
	contender ncdu_export "ncdu -q -x -o $out.json $M >/dev/null 2>&1;
		r=\$?; rm -f $out.json; exit \$r"
	contender "xbulk_du_ncdu_$j" "$XBULK du -s -j $j --ncdu $out.json $M \
		>/dev/null; r=\$?; rm -f $out.json; exit \$r"
	# the metrics file holds the tables by uid, gid and projid, and the
	# top directories
	contender "xbulk_du_prom_$j" "$XBULK du -d 1 -j $j --prometheus \
		$out.prom $M >/dev/null; r=\$?; rm -f $out.prom; exit \$r"
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
		target "$state" "ncdu -o wall / xbulk du --ncdu wall" \
			"$(ratio "$(med "$state" ncdu_export wall)" \
				"$(med "$state" "xbulk_du_ncdu_$j" wall)")" ">=" 1
		target "$state" "du -d 1 --prometheus / du --by uid wall" \
			"$(ratio "$(med "$state" "xbulk_du_prom_$j" wall)" \
				"$(med "$state" "xbulk_du_by_uid_$j" wall)")" "<=" 1.1
	done
}
