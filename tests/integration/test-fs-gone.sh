#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The filesystem goes away (or stops) under a scan.  A scan of a 30k-inode
# filesystem is slowed down (a 1% CPU quota through a cgroup, see
# lib-reliability.sh) so that the test acts while it runs, then given full
# speed again; -j 1 and -j 2 each:
#
# (a) shutdown (`xfs_io -x -c shutdown`) mid-scan: every later ioctl fails
#     with EIO.  xbulk exits 1 with `PATH: bulkstat: Input/output
#     error`; it stops: from the shutdown on it makes at most two ioctl
#     calls per thread (counted by strace, attached while the scan is
#     stopped just before the shutdown): the call that fails, and the
#     bulkstat_single of the root that tells a shutdown (EIO everywhere)
#     from one unreadable inode (docs/design.md, "Unreadable inodes and
#     AGs"); what it wrote is whole records, a prefix of the full scan;
#     the process is gone (no thread left).  A scan started on
#     the shut-down filesystem fails at once (`PATH: Input/output error`:
#     the geometry ioctl fails when the filesystem is opened).
# (b) lazy unmount (`umount -l`) mid-scan: the scan's open fd keeps the
#     filesystem alive, so the scan completes, exit 0, the full output;
#     the path no longer leads to it (a new scan: "not on an XFS
#     filesystem", exit 1); once xbulk exits the filesystem is really
#     unmounted and its loop device freed.
# (c) freeze (`xfs_freeze -f`): bulkstat only reads, and reading a frozen
#     XFS neither blocks nor fails: a scan of a frozen filesystem (caches
#     dropped) and a scan during which it is frozen complete, exit 0, the
#     full output.  The filesystem is always thawed (trap) before it is
#     unmounted.
#
# Environment: XBULK, XB_RESULTS; ENTRIES (default 30000).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

ENTRIES=${ENTRIES:-30000}

rel_init fs-gone
command -v strace >/dev/null || xb_skip "strace not installed (run scripts/deps)"

# (registered first, so that it runs last, after rel_throttle_cleanup)
xb_at_exit 'xfs_freeze -u "$XB_MNT" 2>/dev/null'
rel_setup "$ENTRIES"

cases=0 survived=0

# wait for the loop device of XB_IMG to be released
wait_loop_free()
{
	local i

	for ((i = 0; i < 100; i++)); do
		[[ -z $(losetup -j "$XB_IMG" 2>/dev/null) ]] && return 0
		sleep 0.1
	done
	return 1
}

# scan_mid TAG J [ENV]: one more case: xbulk bulkstat -j J of M in the
# background (pid; output in T/out), caught mid-scan (see rel_mid_scan);
# ENV: a variable for env(1).
scan_mid()
{
	cases=$((cases + 1))
	rel_spawn "$T/out" "$T/err" env ${3:+"$3"} "$XBULK" bulkstat -j "$2" "$M"
	pid=$REL_PID
	rel_mid_scan "$1" "$T/out"
}

# --- (a) shutdown mid-scan
for j in 1 2; do
	tag="shutdown -j $j"
	if scan_mid "$tag" "$j" "$(rel_no_lsan)"; then
		threads=$(rel_threads "$pid")
		rel_stop
		rel_trace "$T/trace"
		xfs_io -x -c shutdown "$M"
		kill -CONT "$pid"
		REL_STOPPED=
		rel_after
		calls=$(rel_calls "$T/trace")
		echo "  [$tag] exit $REL_RC after ${REL_MS} ms (printed only);" \
			"$threads threads while running; $calls ioctl calls" \
			"after the shutdown"
		rel_check "[$tag] exit status" 1 "$REL_RC"
		rel_ok "[$tag] $calls ioctl calls after the shutdown > $((2 * j))" \
			test "$calls" -le $((2 * j))
		rel_ok "[$tag] stderr: $(head -c 300 "$T/err")" \
			grep -qxF "xbulk bulkstat: $M: bulkstat: Input/output error" \
			"$T/err"
		rel_check "[$tag] stderr lines" 1 "$(wc -l <"$T/err")"
		rel_ok "[$tag] output is not whole records" \
			rel_whole_records "$T/out"
		rel_ok "[$tag] output is not a prefix of the full scan" \
			rel_is_prefix "$T/out" "$T/ref.txt"
		rel_gone "$pid" "$tag"
		((REL_RC == 1)) && survived=$((survived + 1))
		echo "  [$tag] $(grep -c '^bs_ino' "$T/out") records written before the shutdown"
	fi
	# a scan started on the shut-down filesystem
	for cmd in bulkstat inumbers; do
		cases=$((cases + 1))
		rc=0
		timeout 30 "$XBULK" "$cmd" -j "$j" "$M" >"$T/out2" 2>"$T/err2" ||
			rc=$?
		rel_check "[$tag, then $cmd] exit status" 1 "$rc"
		rel_ok "[$tag, then $cmd] stderr: $(head -c 300 "$T/err2")" \
			grep -qxF "xbulk $cmd: $M: Input/output error" \
			"$T/err2"
		rel_check "[$tag, then $cmd] stdout bytes" 0 \
			"$(stat -c %s "$T/out2")"
		((rc == 1)) && survived=$((survived + 1))
	done
	xb_umount || xb_die "cannot unmount $M after the shutdown"
	wait_loop_free || true
	xb_remount
done

# --- (b) lazy unmount mid-scan
for j in 1 2; do
	tag="umount -l -j $j"
	if scan_mid "$tag" "$j"; then
		umount -l "$M"
		rel_ok "[$tag] $M still a mount point" \
			test "$(mountpoint -q "$M" && echo yes)" = ""
		rc=0
		"$XBULK" bulkstat "$M" >"$T/out2" 2>"$T/err2" || rc=$?
		rel_check "[$tag] a new scan of $M: exit status" 1 "$rc"
		rel_check "[$tag] a new scan of $M: stderr" \
			"xbulk bulkstat: $M: not on an XFS filesystem" \
			"$(cat "$T/err2")"
		rel_unthrottle
		rel_wait_exit "$pid" 60
		echo "  [$tag] exit $REL_RC after ${REL_MS} ms"
		rel_check "[$tag] exit status" 0 "$REL_RC"
		rel_check "[$tag] stderr" "" "$(head -c 300 "$T/err")"
		rel_ok "[$tag] output differs from the full scan" \
			cmp -s "$T/out" "$T/ref.txt"
		rel_gone "$pid" "$tag"
		rel_ok "[$tag] loop device not released after the scan" \
			wait_loop_free
		((REL_RC == 0)) && survived=$((survived + 1))
	fi
	xb_umount
	wait_loop_free || true
	xb_remount
done

# --- (c) frozen filesystem
xfs_freeze -f "$M"
sync
echo 3 >/proc/sys/vm/drop_caches
for j in 1 2; do
	for cmd in bulkstat inumbers; do
		tag="frozen, $cmd -j $j"
		cases=$((cases + 1))
		t0=$(rel_now_ms)
		rc=0
		timeout 60 "$XBULK" "$cmd" -j "$j" "$M" >"$T/out" 2>"$T/err" ||
			rc=$?
		echo "  [$tag] exit $rc after $(($(rel_now_ms) - t0)) ms"
		rel_check "[$tag] exit status (124: blocked)" 0 "$rc"
		rel_check "[$tag] stderr" "" "$(head -c 300 "$T/err")"
		if [[ $cmd == bulkstat ]]; then
			rel_ok "[$tag] output differs from the unfrozen scan" \
				cmp -s "$T/out" "$T/ref.txt"
		else
			rel_ok "[$tag] no inumbers records" \
				grep -q '^xi_startino' "$T/out"
		fi
		((rc == 0)) && survived=$((survived + 1))
	done
done
xfs_freeze -u "$M"

for j in 1 2; do
	tag="freeze mid-scan -j $j"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	if scan_mid "$tag" "$j"; then
		xfs_freeze -f "$M"
		rel_unthrottle
		rel_wait_exit "$pid" 60
		xfs_freeze -u "$M"
		echo "  [$tag] exit $REL_RC after ${REL_MS} ms"
		rel_check "[$tag] exit status" 0 "$REL_RC"
		rel_check "[$tag] stderr" "" "$(head -c 300 "$T/err")"
		rel_ok "[$tag] output differs from the unfrozen scan" \
			cmp -s "$T/out" "$T/ref.txt"
		rel_gone "$pid" "$tag"
		((REL_RC == 0)) && survived=$((survived + 1))
	fi
done

rel_result "cases=$cases survived=$survived not_caught_mid_scan=$REL_NOT_MID" \
	"inodes=$(grep -c '^bs_ino' "$T/ref.txt") throttled=$REL_THROTTLED" \
	"passed=$REL_PASS failed=$REL_FAIL"
rel_done
