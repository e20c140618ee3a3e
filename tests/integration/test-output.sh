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
#     and -n 1 (so that finishing the scan would take many seconds),
#     xbulk ends within 2 s of head's exit: it stops at the broken pipe,
#     it does not scan on;
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
cases=0 survived=0

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
	# at once once the reader is gone?
	((REL_THROTTLED)) || continue
	tag="slowed down, | head -1, -j $j"
	cases=$((cases + 1))
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	rel_spawn "$T/fifo" "$T/err" "$XBULK" bulkstat -j "$j" -n 1 "$M"
	pid=$REL_PID
	head -n 1 "$T/fifo" >"$T/head"
	rel_wait_exit "$pid" 30
	echo "  [$tag] exit $REL_RC ${REL_MS} ms after head exited"
	rel_check "[$tag] exit status" 141 "$REL_RC"
	rel_ok "[$tag] took ${REL_MS} ms (> 2000)" test "$REL_MS" -le 2000
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
	rel_ok "[$tag] output differs from the scan to a file" \
		cmp -s "$T/out" "$T/ref.txt"
	rel_ok "[$tag] peak RSS $rss KiB >= $RSS_LIMIT_KIB KiB" \
		test "$rss" -lt "$RSS_LIMIT_KIB"
	((rss > maxrss)) && maxrss=$rss
	((rc == 0)) && survived=$((survived + 1))
done
rel_ok "the text ($REL_REF_BYTES bytes) is larger than the 32 MiB bound" \
	test "$REL_REF_BYTES" -gt $((RSS_BOUND_KIB * 1024))

rel_result "cases=$cases survived=$survived max_rss_kib=$maxrss" \
	"text_bytes=$REL_REF_BYTES throttled=$REL_THROTTLED" \
	"passed=$REL_PASS failed=$REL_FAIL"
rel_done
