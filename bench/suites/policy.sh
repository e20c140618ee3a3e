# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/policy.sh: the parallel scan's scheduling side by side
# with the floor probe's splits (bench/floor.c): one thread; one per AG;
# chunk ranges side by side, which is two threads in one AG.  Set
# XBULK_OLD to another build's xbulk to compare two policies in one run:
#   XBULK_OLD=/tmp/old/build/xbulk bench/run --suite policy --skew

policy_contenders() {
	local j=$JOBS

	contender floor_1 "exec $FLOOR -j 1 $M >/dev/null"
	contender "floor_${j}_ag" "exec $FLOOR -j $j --split ag $M >/dev/null"
	contender "floor_${j}_chunks" \
		"exec $FLOOR -j $j --split chunks $M >/dev/null"
	contender "xbulk_q_$j" "exec $XBULK bulkstat -q -j $j $M"
	contender "xbulk_text_$j" "exec $XBULK bulkstat -j $j $M >/dev/null"
	if [ -n "${XBULK_OLD:-}" ]; then
		contender "old_q_$j" "exec $XBULK_OLD bulkstat -q -j $j $M"
		contender "old_text_$j" \
			"exec $XBULK_OLD bulkstat -j $j $M >/dev/null"
	fi
}

policy_targets() {
	local j=$JOBS state

	for state in $STATES; do
		target "$state" "floor -j $j chunks rate / floor -j 1 rate" \
			"$(ratio "$(med "$state" "floor_${j}_chunks" rate)" \
				"$(med "$state" floor_1 rate)")" ">=" 1.05
		target "$state" "floor -j $j per AG rate / floor -j 1 rate" \
			"$(ratio "$(med "$state" "floor_${j}_ag" rate)" \
				"$(med "$state" floor_1 rate)")" ">=" 1.05
	done
}
