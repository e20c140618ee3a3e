#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SIGINT and SIGTERM during a scan writing to a file, with -j 1, -j 2 and
# -j 4 (and -n 7): the scan is slowed down (1% of a CPU through a cgroup,
# see lib-reliability.sh) so that the signal arrives mid-scan; then
#   - the process exits within 1 s of the signal (its CPU quota is lifted
#     right after the signal is sent), status 130 (SIGINT) or 143
#     (SIGTERM), with nothing on stderr;
#   - the output ends on a whole record (25 lines each, the last
#     `\tbs_extents64 = N`) and is a prefix of the full scan, shorter
#     than it;
#   - the process and all its threads are gone;
#   - with --stats=json --stats-file, the figures are still written, say
#     the scan did not complete and count at least the records written.
# And when stdout is a pipe whose reader has stopped reading, the first
# signal still ends the scan within 1 s.
#
# Environment: XBULK, XB_RESULTS; ENTRIES (default 30000).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

ENTRIES=${ENTRIES:-30000}

rel_init signals

rel_setup "$ENTRIES"

cases=0 stopped=0 maxms=0

for spec in "1 INT" "1 TERM" "2 INT" "2 TERM" "4 INT" "2 TERM -n 7" \
	    "1 INT -n 7 --stats=json" "2 TERM --stats=json"; do
	read -r j sig more <<<"$spec"
	extra=()
	stats=
	case $more in
	*-n\ 7*) extra+=(-n 7) ;;
	esac
	case $more in
	*--stats=json*)
		stats=$T/stats.json
		rm -f "$stats"
		extra+=(--stats=json --stats-file "$stats") ;;
	esac
	tag="SIG$sig -j $j${more:+ $more}"
	want=$((128 + $(kill -l "$sig")))
	cases=$((cases + 1))
	rel_spawn "$T/out" "$T/err" "$XBULK" bulkstat -j "$j" "${extra[@]}" "$M"
	pid=$REL_PID
	rel_mid_scan "$tag" "$T/out" || continue
	threads=$(rel_threads "$pid")
	kill -"$sig" "$pid" 2>/dev/null || true
	rel_unthrottle
	rel_wait_exit "$pid" 10
	((REL_MS > maxms)) && maxms=$REL_MS
	records=$(grep -c '^bs_ino' "$T/out" || true)
	echo "  [$tag] exit $REL_RC ${REL_MS} ms after the signal;" \
		"$threads threads; $records records written"
	rel_check "[$tag] exit status" "$want" "$REL_RC"
	rel_ok "[$tag] took ${REL_MS} ms (> 1000)" test "$REL_MS" -le 1000
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	rel_ok "[$tag] output does not end on a whole record" \
		rel_whole_records "$T/out"
	rel_ok "[$tag] output is not a prefix of the full scan" \
		rel_is_prefix "$T/out" "$T/ref.txt"
	rel_ok "[$tag] output is the full scan: the signal came too late" \
		test "$(stat -c %s "$T/out")" -lt "$REL_REF_BYTES"
	rel_gone "$pid" "$tag"
	if [[ -n $stats ]]; then
		rel_ok "[$tag] no --stats-file written" test -s "$stats"
		rel_ok "[$tag] --stats says the scan completed" \
			grep -Eq '"completed": *false' "$stats"
		# the scan's own count (each thread's follow in "workers")
		n=$(jq .records "$stats" 2>/dev/null || echo -1)
		rel_ok "[$tag] --stats records $n < $records written" \
			test "$n" -ge "$records"
	fi
	((REL_RC == want)) && stopped=$((stopped + 1))
done
rel_unthrottle

# A reader that stopped reading: the writer is blocked in write() on a
# full pipe.  One signal still ends the command within 1 s (the handler
# points stdout at /dev/null, so the restarted write returns), exit 130;
# what the reader then finds in the pipe is a prefix of the full scan
# (its last record may be cut: a write was under way, as when find is
# killed).
for j in 1 2; do
	tag="stalled reader, SIGINT, -j $j"
	cases=$((cases + 1))
	rel_stalled_reader "$tag" INT "$T/out" \
		"$XBULK" bulkstat -j "$j" "$M"
	pid=$REL_PID
	echo "  [$tag] exit $REL_RC ${REL_MS} ms after the signal;" \
		"$(stat -c %s "$T/out") bytes were in the pipe"
	rel_check "[$tag] exit status" 130 "$REL_RC"
	rel_ok "[$tag] took ${REL_MS} ms (> 1000)" test "$REL_MS" -le 1000
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	rel_ok "[$tag] what the reader got is not a prefix of the full scan" \
		rel_is_prefix "$T/out" "$T/ref.txt"
	rel_ok "[$tag] the reader got the full scan" \
		test "$(stat -c %s "$T/out")" -lt "$REL_REF_BYTES"
	rel_gone "$pid" "$tag"
	((REL_RC == 130)) && stopped=$((stopped + 1))
done

rel_result "cases=$cases stopped=$stopped not_caught_mid_scan=$REL_NOT_MID" \
	"max_ms_after_signal=$maxms throttled=$REL_THROTTLED" \
	"passed=$REL_PASS failed=$REL_FAIL"
rel_done
