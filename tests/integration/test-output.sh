#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Output failures, with -j 1 and -j 2 (and -j 4 for memory):
#   - stdout on a full filesystem (a 64 KiB tmpfs) and on /dev/full:
#     exit 1, `write to stdout: No space left on device`, promptly;
#   - stdout closed (`>&-`): exit 1, `write to stdout: Bad file
#     descriptor`; with -q nothing is written: exit 0, silent;
#   - `| head -1`: the reader goes away: exit 141, nothing on stderr, the
#     first line intact; and, with the scan slowed down to 1% of a CPU
#     and -n 1 (so that head exits early in the scan), xbulk stops at the
#     broken pipe, it does not scan on: the inode lookups it makes from
#     head's exit to its own (the "ig" count of the filesystem's XFS
#     statistics: one per inode bulkstat returns) stay within what its
#     design allows: the records of one output buffer (the write that
#     fails with EPIPE comes at the latest when the 1 MiB buffer,
#     XBL_OUT_BUFSIZE, is full again; here the writer is already
#     blocked in that write) plus the call under way of each thread
#     (-n 1: one inode each): with -j 1, ~2,300 (0 seen: the scan is
#     blocked in that write when head exits).  With -j 2 the workers
#     also go on until the writer, woken by the failed write, gets a CPU
#     and sets the abort flag: the scan stays throttled to its end, so
#     they share one quota with the writer and the scheduler runs it
#     within a few slices of theirs (400-1,500 lookups at -n 1 seen),
#     which no load changes: the bound is a quarter of the inodes
#     (~18,000).  A scan that went on would look up the ~70,000 inodes
#     after the first buffer's few thousand;
#   - a very slow reader (64 KiB every 5 ms, or nothing for 2 s then
#     all): the full output, exit 0, and the peak RSS stays under 32 MiB
#     on a filesystem whose text is larger than that.
#
# Environment: XBULK, XB_RESULTS; ENTRIES (default 72000: 35 MB of text).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

ENTRIES=${ENTRIES:-72000}
RSS_BOUND_KIB=$((32 * 1024))
RSS_LIMIT_KIB=$RSS_BOUND_KIB
# AddressSanitizer's shadow memory and quarantine are not xbulk's: the
# 32 MiB bound is checked on the normal build, a loose one under ASan.
if [[ ${XB_SANITIZE:-none} != none ]]; then
	RSS_LIMIT_KIB=$((96 * 1024))
fi

rel_init output

if [[ ! -x /usr/bin/time ]]; then
	apt-get install -y -qq time >/dev/null 2>&1 || true
fi

rel_setup "$ENTRIES"
rel_need_lookups
cases=0 survived=0 maxafter=0
# Records in one output buffer (1 MiB, XBL_OUT_BUFSIZE) at most.
buffer_records=$(((1 << 20) / $(rel_record_bytes "$T/ref.txt") + 1))
inodes=$(grep -c '^bs_ino' "$T/ref.txt")

# run_case TAG WANT-RC WANT-STDERR CMD...: run CMD (its redirections are
# in CMD through eval), check the exit status and the whole of stderr.
run_case()
{
	local tag=$1 want_rc=$2 want_err=$3 rc=0 t0

	shift 3
	cases=$((cases + 1))
	t0=$(rel_now_ms)
	eval "$*" 2>"$T/err" || rc=$?
	echo "  [$tag] exit $rc after $(($(rel_now_ms) - t0)) ms"
	rel_check "[$tag] exit status" "$want_rc" "$rc"
	rel_check "[$tag] stderr" "$want_err" "$(head -c 500 "$T/err")"
	((rc == want_rc)) && survived=$((survived + 1))
	return 0
}

# --- a full filesystem, /dev/full
mkdir "$T/full"
mount -t tmpfs -o size=64k tmpfs "$T/full"
xb_at_exit 'umount "$T/full" 2>/dev/null'
for j in 1 2; do
	rm -f "$T/full/out"
	run_case "tmpfs full, -j $j" 1 \
		"xbulk bulkstat: write to stdout: No space left on device" \
		timeout 60 '"$XBULK"' bulkstat -j "$j" '"$M"' '>"$T/full/out"'
	rm -f "$T/full/out"
	run_case "/dev/full, -j $j" 1 \
		"xbulk bulkstat: write to stdout: No space left on device" \
		timeout 60 '"$XBULK"' bulkstat -j "$j" '"$M"' '>/dev/full'
	run_case "/dev/full, inumbers -j $j" 1 \
		"xbulk inumbers: write to stdout: No space left on device" \
		timeout 60 '"$XBULK"' inumbers -j "$j" '"$M"' '>/dev/full'
done
umount "$T/full"

# --- stdout closed
for j in 1 2; do
	run_case "stdout closed, -j $j" 1 \
		"xbulk bulkstat: write to stdout: Bad file descriptor" \
		timeout 60 '"$XBULK"' bulkstat -j "$j" '"$M"' '>&-'
	run_case "stdout closed, inumbers -j $j" 1 \
		"xbulk inumbers: write to stdout: Bad file descriptor" \
		timeout 60 '"$XBULK"' inumbers -j "$j" '"$M"' '>&-'
	run_case "stdout closed, -q -j $j" 0 "" \
		timeout 60 '"$XBULK"' bulkstat -q -j "$j" '"$M"' '>&-'
done
run_case "stdout closed, path" 1 \
	"xbulk path: write to stdout: Bad file descriptor" \
	timeout 60 '"$XBULK"' path '"$M"' 128 '>&-'

# --- the reader goes away: | head -1
first=$(head -n 1 "$T/ref.txt")
for j in 1 2; do
	tag="| head -1, -j $j"
	cases=$((cases + 1))
	# (errexit and pipefail are off on the left of ||)
	{
		"$XBULK" bulkstat -j "$j" "$M" 2>"$T/err" | head -n 1 >"$T/head"
		rc=${PIPESTATUS[0]}
	} || true
	rel_check "[$tag] exit status" 141 "$rc"
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	rel_check "[$tag] the line head read" "$first" "$(cat "$T/head")"
	((rc == 141)) && survived=$((survived + 1))

	# the same through a FIFO, with the scan slowed down: does it stop
	# once the reader is gone, or scan on?
	((REL_THROTTLED)) || continue
	tag="slowed down, | head -1, -j $j"
	cases=$((cases + 1))
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	rel_spawn "$T/fifo" "$T/err" "$XBULK" bulkstat -j "$j" -n 1 "$M"
	pid=$REL_PID
	head -n 1 "$T/fifo" >"$T/head"
	rel_mark
	rel_after --throttled
	echo "  [$tag] exit $REL_RC ${REL_MS} ms after head exited (printed only)"
	rel_check "[$tag] exit status" 141 "$REL_RC"
	if ((j == 1)); then
		rel_check_after "$tag" $((buffer_records + 1)) \
			"one buffer of $buffer_records records, one call"
	else
		rel_check_after "$tag" $((inodes / 4)) \
			"a quarter of the inodes: the writer's buffer, a call" \
			"per worker and their calls while the writer waits"
	fi
	((REL_AFTER > maxafter)) && maxafter=$REL_AFTER
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	rel_check "[$tag] the line head read" "$first" "$(cat "$T/head")"
	((REL_RC == 141)) && survived=$((survived + 1))
done
rel_unthrottle

# How long a whole scan takes at 1% of a CPU: its CPU time times 100.
/usr/bin/time -f '%U %S' -o "$T/cpu" "$XBULK" bulkstat -j 1 -n 1 "$M" \
	>/dev/null 2>&1 || true
read -r u s <"$T/cpu" || true
echo "  a whole scan takes $(awk -v u="${u:-0}" -v s="${s:-0}" \
	'BEGIN { printf "%.0f", (u + s) * 1000 }') ms of CPU: about" \
	"$(awk -v u="${u:-0}" -v s="${s:-0}" \
	'BEGIN { printf "%.0f", (u + s) * 100 }') s at 1%"

# --- a very slow reader: memory stays bounded
cat >"$T/slow.pl" <<'EOF'
# Read 64 KiB, sleep 5 ms, until EOF; write what was read to stdout.
use strict;
use warnings;
use Time::HiRes qw(usleep);
my $buf;
while (1) {
	my $n = sysread(STDIN, $buf, 65536);
	die "read: $!" unless defined $n;
	last if $n == 0;
	print $buf;
	usleep(5000);
}
EOF
maxrss=0
for spec in "1 sleep" "2 trickle" "2 sleep" "4 trickle"; do
	read -r j how <<<"$spec"
	tag="slow reader ($how), -j $j"
	cases=$((cases + 1))
	if [[ $how == sleep ]]; then
		reader=(sh -c 'sleep 2; exec cat')
	else
		reader=(perl "$T/slow.pl")
	fi
	t0=$(rel_now_ms)
	{
		/usr/bin/time -f '%M' -o "$T/rss" \
			"$XBULK" bulkstat -j "$j" "$M" 2>"$T/err" |
			"${reader[@]}" >"$T/out"
		rc=${PIPESTATUS[0]}
	} || true
	rss=$(tail -n 1 "$T/rss")
	echo "  [$tag] exit $rc after $(($(rel_now_ms) - t0)) ms," \
		"peak RSS $rss KiB"
	rel_check "[$tag] exit status" 0 "$rc"
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	if cmp -s "$T/out" "$T/ref.txt"; then
		rel_pass
	else
		rel_fail "[$tag] output differs from the scan to a file"
		rel_show_diff "$T/ref.txt" "$T/out"
	fi
	rel_ok "[$tag] peak RSS $rss KiB >= $RSS_LIMIT_KIB KiB" \
		test "$rss" -lt "$RSS_LIMIT_KIB"
	((rss > maxrss)) && maxrss=$rss
	((rc == 0)) && survived=$((survived + 1))
done
rel_ok "the text ($REL_REF_BYTES bytes) is larger than the 32 MiB bound" \
	test "$REL_REF_BYTES" -gt $((RSS_BOUND_KIB * 1024))

rel_result "cases=$cases survived=$survived max_rss_kib=$maxrss" \
	"text_bytes=$REL_REF_BYTES throttled=$REL_THROTTLED" \
	"max_lookups_after_head_exit=$maxafter" \
	"passed=$REL_PASS failed=$REL_FAIL"
rel_done
