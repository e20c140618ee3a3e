# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/scan.sh: the scan suite of bench/run (its header says how a
# suite declares contenders).  xbulk bulkstat against xfs_io, find and the
# bare ioctl floor (bench/floor.c) in its three splits; the targets of
# issue 11.  With XBULK_OLD set to another build's xbulk, its bulkstat
# runs too (old_q_1, old_text_2...), in the same rounds: a comparison of
# two builds, interleaved.

scan_contenders() {
	local j=$JOBS

	contender xfsio_text "exec xfs_io -c bulkstat $M >/dev/null"
	contender xfsio_q "exec xfs_io -c 'bulkstat -q' $M"
	contender xfsio_perag "for a in \$(seq 0 $((AGCOUNT - 1))); do xfs_io -c \"bulkstat -a \$a -q\" $M & done; wait"
	contender find "exec find $M -printf '%i %s %b %A@ %C@ %T@ %U %G %n %m\\n' >/dev/null" \
		records=names
	contender floor_1 "exec $FLOOR -j 1 $M >/dev/null"
	contender "floor_${j}_ag" "exec $FLOOR -j $j --split ag $M >/dev/null"
	contender "floor_${j}_chunks" \
		"exec $FLOOR -j $j --split chunks $M >/dev/null"
	scan_xbulk xbulk "$XBULK"
	# another build beside this one, run for run (bench/run's rounds)
	[ -z "${XBULK_OLD:-}" ] || scan_xbulk old "$XBULK_OLD"
	# The formatter's CPU per record (ns), for the hot text bound.
	contender fmt "$BUILD/bench/fmtbench -n 200000 -r 3 --only bulkstat |
		awk '{ for (i = 1; i < NF; i++) if (\$(i + 1) == \"ns/record,\") print \$i }'" \
		check=none states=hot out=1
}

# scan_xbulk NAME BIN: xbulk's contenders, NAME_q_1, NAME_text_J...
scan_xbulk() {
	local x=$1 bin=$2 j=$JOBS st='--stats=json --stats-file "$BENCH_STATS"'

	contender "${x}_q_1" "exec $bin bulkstat -q -j 1 $st $M"
	contender "${x}_q_$j" "exec $bin bulkstat -q -j $j $st $M"
	contender "${x}_text_1" "exec $bin bulkstat -j 1 $st $M >/dev/null"
	contender "${x}_text_$j" \
		"exec $bin bulkstat -j $j $st $M >/dev/null"
}

# scan_best STATE NAME...: the highest median rate among the NAMEs.
scan_best() {
	local state=$1 name r best=

	shift
	for name; do
		r=$(med "$state" "$name" rate)
		[ -n "$r" ] || continue
		if [ -z "$best" ] || [ "$r" -gt "$best" ]; then
			best=$r
		fi
	done
	echo "$best"
}

scan_targets() {
	local j=$JOBS state fmt bound n rss

	for state in $STATES; do
		target "$state" "xbulk -q -j 1 rate / floor -j 1 rate" \
			"$(ratio "$(med "$state" xbulk_q_1 rate)" \
				"$(med "$state" floor_1 rate)")" ">=" 0.97
		target "$state" "xbulk -q -j $j rate / best floor -j $j rate" \
			"$(ratio "$(med "$state" "xbulk_q_$j" rate)" \
				"$(scan_best "$state" "floor_${j}_ag" \
					"floor_${j}_chunks")")" ">=" 0.95
		case $state in
		hot)
			# CPU bound: (CPU of -q -j J + formatter CPU) / J.
			fmt=$(med "$state" fmt out)
			bound=
			if [ -n "$fmt" ] &&
			   [ -n "$(med "$state" "xbulk_q_$j" user)" ]; then
				bound=$(awk -v u="$(med "$state" "xbulk_q_$j" user)" \
					-v s="$(med "$state" "xbulk_q_$j" sys)" \
					-v f="$fmt" -v n="$NINODES" -v j="$j" \
					'BEGIN { printf "%.4f", (u + s + f * n / 1e9) / j }')
			fi
			target "$state" "xbulk text -j $j wall / CPU bound $bound s" \
				"$(ratio "$(med "$state" "xbulk_text_$j" wall)" \
					"$bound")" "<=" 1.05
			;;
		*)
			target "$state" "xbulk text -j $j wall / xbulk -q -j $j wall" \
				"$(ratio "$(med "$state" "xbulk_text_$j" wall)" \
					"$(med "$state" "xbulk_q_$j" wall)")" "<=" 1.10
			;;
		esac
		for n in xbulk_q_1 "xbulk_q_$j" xbulk_text_1 "xbulk_text_$j"; do
			rss=$(med "$state" "$n" rss_kib)
			[ -n "$rss" ] || continue
			target "$state" "$n peak RSS (MiB)" \
				"$(awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }')" \
				"<=" 32
		done
	done
}
