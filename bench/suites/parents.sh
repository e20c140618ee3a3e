# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/parents.sh: the parents suite of bench/run (issue 17).
# Should xbulk find and du resolve paths from parent pointers instead of
# reading every directory?  On a filesystem made with mkfs.xfs 6.13
# -n parent=1 (the suite asks bench/run for it), each -j 1 and -j 2:
#   xbulk_find_p     find -printf '%p\n': every path, from the directories
#   xbulk_find_sel   find -type f -size +1M -print: a query whose
#                    expression needs no name (the scan drops the rest;
#                    the directories are still all read, for the paths)
#   pp_all           parents-probe: the scan, then the paths of every
#                    non-directory from parent pointers
#   pp_sel           parents-probe -e 1000: the same for 0.1% of them
#   scan             xbulk bulkstat -q: the scan alone (what pp_* add to)
# The decision (docs/performance.md, "Parent pointers"): find uses parent
# pointers for a query only where pp_* beats xbulk_find_* at -j 2 in the
# uncached state by more than the noise (10%).
# Run: bench/run --suite parents --states hot,uncached

parents_mkfs="-n parent=1"

parents_contenders() {
	local j probe=$BUILD/bench/parents-probe

	[ -x "$probe" ] || die "$probe not built"
	for j in 1 2; do
		contender "xbulk_find_p_$j" \
			"exec $XBULK find -j $j $M -printf '%p\n' >/dev/null" \
			records=names
		contender "xbulk_find_sel_$j" \
			"exec $XBULK find -j $j $M -type f -size +1M -print >/dev/null"
		contender "pp_all_$j" "exec $probe -j $j $M >/dev/null"
		contender "pp_sel_$j" "exec $probe -j $j -e 1000 $M >/dev/null"
		contender "scan_$j" "exec $XBULK bulkstat -q -j $j $M"
	done
}

parents_targets() {
	local state

	for state in $STATES; do
		target "$state" "xbulk_find_p_2 wall / pp_all_2 wall" \
			"$(ratio "$(med "$state" xbulk_find_p_2 wall)" \
				"$(med "$state" pp_all_2 wall)")" ">=" 1.1
		target "$state" "xbulk_find_sel_2 wall / pp_sel_2 wall" \
			"$(ratio "$(med "$state" xbulk_find_sel_2 wall)" \
				"$(med "$state" pp_sel_2 wall)")" ">=" 1.1
	done
}
