#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --stats latency percentiles against call times measured from outside:
# the same scan runs under `strace -T -e trace=ioctl`, and the
# percentiles xbulk reports (JSON: latency.call_ns) are checked against
# strace's bulkstat call times by what holds on any machine, however
# loaded: as many calls; min <= p50 <= ... <= max; each figure at least
# strace's (strace reads its clock while xbulk's call is stopped at its
# entry and its exit, so each of xbulk's times contains strace's, and so
# does each rank of them; less the histogram's half bucket, 1/64); and
# at most what the run allows: the longest call no longer than the whole
# run, and half the calls (those at or above p50) no longer together
# than the run times the threads.  (The tracer's stops, which fall
# inside xbulk's clock, make its figures larger than strace's by an
# amount only the load decides: no upper bound against strace's.)  The
# per-inode figures are the call figures over the records per call.
#
# Environment: XBULK (default the build directory), ENTRIES (default 4000).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
ENTRIES=${ENTRIES:-4000}

. "$(dirname "$0")/lib-reliability.sh"
rel_init latency
command -v strace >/dev/null || xb_skip "strace not installed"
command -v jq >/dev/null || xb_skip "jq not installed"

# strace's times (seconds) of XFS_IOC_BULKSTAT (_IOC(_IOC_READ, 0x58,
# 0x7f, 0x40)) calls in the files PREFIX.* (strace -ff: one file per
# thread, so no call is split), one per line, in ns, sorted.
strace_ns()
{
	cat "$1".* | grep -E 'ioctl\([0-9]+, (XFS_IOC_BULKSTAT|_IOC\(_IOC_READ, 0x58, 0x7f, 0x40\))' |
		sed -n 's/.*<\([0-9.]*\)>$/\1/p' |
		awk '{ printf "%.0f\n", $1 * 1e9 }' | sort -n
}

# pct FILE P: the P-th percentile of the sorted numbers in FILE, by rank
# ceil(P / 100 * n), as xbulk takes it.
pct()
{
	awk -v p="$2" '{ v[NR] = $1 } END {
		r = p / 100 * NR; k = int(r); if (r - k > 1e-6) k++
		if (k < 1) k = 1
		print v[k] }' "$1"
}

# atleast NAME OURS THEIRS: OURS >= THEIRS less 1/32 (a histogram
# bucket is 1/32 of its value wide, XBS_LAT_SUB_BITS; the midpoint is
# reported).
atleast()
{
	echo "  $1: xbulk $2 ns, strace $3 ns"
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(a >= b - b / 32) }'
}

# check_run JSON STRACE TAG WALL_NS THREADS
check_run()
{
	local json=$1 st=$2 wall=$4 threads=$5 n p key ok=0

	strace_ns "$st" >"$T/times"
	n=$(wc -l <"$T/times")
	rel_check "$3: calls (strace)" "$n" "$(jq .latency.call_ns.count "$json")"
	rel_ok "$3: min <= p50 <= p90 <= p99 <= p99.9 <= max" jq -e \
		'.latency.call_ns | .min <= .p50 and .p50 <= .p90 and
		 .p90 <= .p99 and .p99 <= .p99_9 and .p99_9 <= .max' \
		"$json" >/dev/null
	for p in min:0 p50:50 p90:90 p99:99 max:100; do
		key=${p%%:*}
		if [ "$key" = min ]; then
			theirs=$(head -n 1 "$T/times")
		else
			theirs=$(pct "$T/times" "${p#*:}")
		fi
		atleast "$key" "$(jq ".latency.call_ns.$key" "$json")" \
			"$theirs" || ok=1
	done
	rel_check "$3: percentiles at least strace's" 0 "$ok"
	rel_ok "$3: the longest call longer than the run ($wall ns)" jq -e \
		--argjson w "$wall" '.latency.call_ns.max <= $w' "$json" \
		>/dev/null
	rel_ok "$3: half the calls (p50 or more) longer than the run times $threads" \
		jq -e --argjson w "$wall" \
		--argjson t "$threads" '.latency.call_ns |
		 .p50 * ((.count + 1) / 2 | floor) <= $w * $t' "$json" \
		>/dev/null
	# Per inode: each call's time over its records; its median lies
	# between the fastest and slowest call over the most records.
	rel_ok "$3: per-inode p50 between call min / batch and call max" jq -e \
		'.latency.inode_ns.p50 <= .latency.call_ns.max and
		 .latency.inode_ns.p50 * .batch >= .latency.call_ns.min / 2' \
		"$json" >/dev/null
}

main()
{
	local j

	xb_mkfs_mount 1G "-d agcount=4"
	xb_populate "$XB_MNT" "$ENTRIES"
	T=$XB_TMP

	for j in 1 2; do
		# A fresh mount: this filesystem's inodes uncached, no other's
		xb_umount
		xb_remount
		# LeakSanitizer cannot run under ptrace (the ASan build)
		t0=$(date +%s%N)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -ff -T -e trace=ioctl -o "$T/st.$j" "$XBULK" bulkstat \
			-q -j $j -n 64 --stats=json --stats-file "$T/s.$j.json" \
			"$XB_MNT" || rel_fail "bulkstat -j $j under strace"
		check_run "$T/s.$j.json" "$T/st.$j" "-j $j -n 64" \
			$(($(date +%s%N) - t0)) "$j"
	done

	# --interval lines carry each interval's longest call, never more
	# than the scan's longest.
	"$XBULK" bulkstat -q -j 1 -n 16 --interval 0.1 --stats=json \
		--stats-file "$T/iv.json" "$XB_MNT" 2>"$T/iv.err"
	rel_ok "--interval: every line has its max call" \
		test "$(grep -c '  max call ' "$T/iv.err")" -eq \
		"$(jq '.timeline | length' "$T/iv.json")"
	rel_ok "--interval: max_call_ns <= the scan's max" jq -e \
		'[.timeline[].max_call_ns] | max <= input.latency.call_ns.max' \
		"$T/iv.json" "$T/iv.json" >/dev/null
	rel_ok "--interval: the slowest interval holds the slowest call" jq -e \
		'([.timeline[].max_call_ns] | max) == .latency.call_ns.max' \
		"$T/iv.json" >/dev/null

	rel_done
}

main "$@"
