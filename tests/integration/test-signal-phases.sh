#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SIGINT and SIGTERM end the command in every phase, within 100 ms of the
# running ioctl's return (issue 8): planning (the parallel scan's inumbers
# pass: xbulk 0.1 went on with it to the end), scanning (serial and
# parallel), stepping past an unreadable inode, a bulkstat_single list,
# and xbulk path (its lookups, its walk, its parent pointer reads, on an
# image of mkfs 6.13 with parent pointers: skipped without xfsprogs
# 6.13).  (Writing to a reader that has stopped: test-signals.sh.)
#
# Each phase is made long and easy to catch with strace's fault
# injection: every ioctl returns DELAY ms late (`-e inject=ioctl:
# delay_exit=`).  The signal is sent once strace's log shows the phase
# under way (the ioctls it makes).  What is judged is what the command
# does after it, in strace's log: the ioctl calls it starts after the
# signal's delivery are at most one per thread (each thread looks at the
# flag before each call, docs/design.md "Cancellation"; one may have
# looked just before the handler set it; a second would need the flag
# unseen for a whole delayed call).  A phase that went on would start a
# call every DELAY ms per thread until the 30 s guard (2,000 inodes, one
# a call).  How long it took is printed, not judged.  Each run must exit
# 130 or 143 and, for bulkstat text, end on a whole record.
#
# Environment: XBULK, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init signal-phases
command -v strace >/dev/null || xb_skip "strace not installed (run scripts/deps)"

DELAY_MS=200
# ioctl numbers as strace prints them: _IOC(_IOC_READ, 0x58, NR, SIZE)
BULKSTAT='0x58, 0x7f,'
INUMBERS='0x58, 0x80,'
GETPARENTS='0x58, 0x3f,'	# XFS_IOC_GETPARENTS_BY_HANDLE

xb_mkfs_mount 1G "-d agcount=4"
xb_populate "$XB_MNT" 2000
T=$XB_TMP
"$XBULK" bulkstat -j 1 "$XB_MNT" >"$T/ref.txt"
mapfile -t inos < <(sed -n 's/^bs_ino = //p' "$T/ref.txt")
max_ms=0
max_calls=0
cases=0

# calls_after_signal CALL: the CALL system calls strace saw start after
# the first signal it delivered (a call under way then ends later as
# "resumed").
calls_after_signal()
{
	awk -v call="$1(" '/--- SIG(INT|TERM) / { on = 1; next }
	     on && index($0, call) && !/resumed>/ { n++ }
	     END { print n + 0 }' "$T/strace.log"
}

# phase TAG SIGNAL WHEN CMD...: run CMD under strace, send SIGNAL once
# WHEN (a shell condition on $T/strace.log) holds, check the exit.  The
# system calls traced and made late: PHASE_CALLS (default ioctl).
phase()
{
	local tag=$1 sig=$2 when=$3 i pid xpid ms want threads calls
	local sc=${PHASE_CALLS:-ioctl}

	shift 3
	cases=$((cases + 1))
	: >"$T/strace.log"
	# (LeakSanitizer cannot stop the world under ptrace)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -o "$T/strace.log" -e trace="$sc" \
		-e inject="$sc":delay_exit=$((DELAY_MS * 1000)) \
		"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	for ((i = 0; i < 3000; i++)); do
		eval "$when" && break
		rel_alive "$pid" || break
		sleep 0.01
	done
	xpid=$(pgrep -P "$pid" | head -n 1)
	if ! rel_alive "$pid" || [[ -z $xpid ]]; then
		rel_fail "[$tag] the command ended before the phase was seen"
		rel_wait_exit "$pid" 10
		return 0
	fi
	# the scan's threads: -j N workers, or the one thread
	threads=1
	[[ $tag =~ -j\ ([0-9]+) ]] && threads=${BASH_REMATCH[1]}
	kill "-$sig" "$xpid"
	rel_wait_exit "$pid" 30
	ms=$((REL_MS))
	want=143
	[[ $sig == INT ]] && want=130
	rel_check "[$tag] exit status" "$want" "$REL_RC"
	calls=$(calls_after_signal "$sc")
	rel_ok "[$tag] $calls $sc calls started after SIG$sig > $threads" \
		test "$calls" -le "$threads"
	((ms > max_ms)) && max_ms=$ms
	((calls > max_calls)) && max_calls=$calls
	echo "  [$tag] SIG$sig: exit $REL_RC ${ms} ms after the signal" \
		"(printed only; ioctls $DELAY_MS ms late), $calls calls after it"
	# (stepping names the unreadable inodes it passed)
	rel_check "[$tag] stderr" "" "$(grep -v -e '^strace:' \
		-e 'inode [0-9]*: Structure needs cleaning (xbulk path -w .*)$' \
		"$T/err")"
}

calls()
{
	grep -c "$1" "$T/strace.log" 2>/dev/null || true
}

# Planning: the inumbers pass, one chunk a call with -n 1.
phase "inumbers -j 2 -n 1, planning" TERM \
	'(($(calls "$INUMBERS") >= 3))' \
	"$XBULK" inumbers -j 2 -n 1 "$XB_MNT"
phase "bulkstat -j 2 -n 1, planning" INT \
	'(($(calls "$INUMBERS") >= 3 && $(calls "$BULKSTAT") == 0))' \
	"$XBULK" bulkstat -j 2 -n 1 "$XB_MNT"
# Scanning
for j in 1 2; do
	phase "bulkstat -j $j -n 10, scanning" TERM \
		'(($(calls "$BULKSTAT") >= 3))' \
		"$XBULK" bulkstat -j "$j" -n 10 "$XB_MNT"
	rel_ok "[bulkstat -j $j, scanning] output is not whole records" \
		rel_whole_records "$T/out"
	rel_ok "[bulkstat -j $j, scanning] output is not a prefix of the scan" \
		rel_is_prefix "$T/out" "$T/ref.txt"
done
phase "inumbers -j 1 -n 1, scanning" INT \
	'(($(calls "$INUMBERS") >= 3))' \
	"$XBULK" inumbers -j 1 -n 1 "$XB_MNT"
# A bulkstat_single list
phase "bulkstat_single of ${#inos[@]} inodes" INT \
	'(($(calls "$BULKSTAT") >= 3))' \
	"$XBULK" bulkstat_single "$XB_MNT" "${inos[@]}"
rel_ok "[bulkstat_single] output is not whole records" \
	rel_whole_records "$T/out"
# xbulk path: looking the inodes up, and the walk (its bulkstat scan)
phase "path of ${#inos[@]} inodes, lookups" TERM \
	'(($(calls "$BULKSTAT") >= 3))' \
	"$XBULK" path "$XB_MNT" "${inos[@]}"
PHASE_CALLS=getdents64 phase "path -w of 3 inodes, reading directories" INT \
	'(($(calls "getdents64(") >= 3))' \
	"$XBULK" path -w -j 1 "$XB_MNT" "${inos[@]:0:3}"

# Stepping past an unreadable inode: the inumbers calls after a bulkstat
# call failed.  Damage one inode of AG 2 (its cluster goes with it).
agino_log=$(xfs_db -r -c 'sb 0' -c 'print agblklog inopblog' "$XB_IMG" |
	    awk '{ s += $3 } END { print s }')
victim=$(printf '%s\n' "${inos[@]}" |
	 awk -v lo=$((2 << agino_log)) '$1 >= lo' | sed -n 5p)
xb_umount
xfs_db -x -c "inode $victim" -c 'write -d core.magic 0' "$XB_IMG" >/dev/null
xb_remount
for j in 1 2; do
	phase "bulkstat -j $j, stepping past inode $victim" TERM \
		'grep -q "EUCLEAN" "$T/strace.log" &&
		 (($(grep -A3 EUCLEAN "$T/strace.log" | grep -c "$INUMBERS") >= 1))' \
		"$XBULK" bulkstat -j "$j" "$XB_MNT"
done

# xbulk path reading parent pointers: a file 6 directories deep, then
# the others (each name one GETPARENTS_BY_HANDLE call the first time).
if xb_have_new; then
	xb_mkfs_mount 1G "xfsprogs=6.13 -d agcount=2 -n parent=1"
	T=$XB_TMP
	mkdir -p "$XB_MNT/a/b/c/d/e/f"
	for i in 1 2 3; do
		: >"$XB_MNT/a/b/c/d/e/f/$i"
	done
	mapfile -t deep < <(find "$XB_MNT/a" -type f -printf '%i\n')
	phase "path of 3 files 6 directories deep, parent pointers" TERM \
		'(($(calls "$GETPARENTS") >= 3))' \
		"$XBULK" path "$XB_MNT" "${deep[@]}"
	rel_check "[path, parent pointers] stdout" "" "$(cat "$T/out")"
else
	echo "SKIP (part): xbulk path with parent pointers (xfsprogs 6.13 not installed: scripts/deps as root)"
fi

rel_result "cases=$cases delay_ms=$DELAY_MS max_ms_after_signal=$max_ms" \
	"max_calls_after_signal=$max_calls passed=$REL_PASS failed=$REL_FAIL"
rel_done
