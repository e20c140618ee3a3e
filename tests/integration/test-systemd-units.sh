#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The systemd template units (systemd/): xbulk-snapshot@.service as
# meson configured it and xbulk-snapshot@.timer, for a mount's instance
# (systemd-escape --path):
# - systemd-analyze verify takes them, without a word (no unit is
#   started);
# - the timer is daily and persistent, the state directory 0700;
# - the service's ExecStart run by hand (as systemd would: %i, %f, $$,
#   STATE_DIRECTORY, XBULK_TEXTFILE_DIR and the retention set, the
#   installed xbulk as the built one) writes a snapshot and its summary
#   into the history STATE_DIRECTORY/INSTANCE (0700) and the metrics
#   (promtool checks them if it is there), and a second run (a day later:
#   XBULK_HISTORY_NOW) adds a second snapshot beside the first;
# - with its lock held (a run by hand under the same flock), the
#   service waits and writes nothing.
#
# Environment: XBULK (the binary), SERVICE (the configured unit), TIMER,
# SBINDIR (where the unit says xbulk is).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
SERVICE=${SERVICE:-$TOP/build/systemd/xbulk-snapshot@.service}
TIMER=${TIMER:-$TOP/systemd/xbulk-snapshot@.timer}
SBINDIR=${SBINDIR:-/usr/local/sbin}

. "$(dirname "$0")/lib-reliability.sh"
rel_init systemd-units
for tool in systemd-analyze systemd-escape flock; do
	command -v "$tool" >/dev/null ||
		xb_skip "$tool not installed (scripts/deps)"
done

# The service's ExecStart for instance $INST of $XB_MNT, as a shell
# command line: continuation lines joined as systemd joins them.
exec_start()
{
	local line cmd=

	while IFS= read -r line; do
		[[ -n $cmd || $line == ExecStart=* ]] || continue
		if [[ $line == *\\ ]]; then
			cmd+="${line%\\} "
		else
			cmd+=$line
			break
		fi
	done <"$SERVICE"
	cmd=${cmd#ExecStart=}
	cmd=${cmd//%i/$INST}
	cmd=${cmd//%f/$XB_MNT}
	cmd=${cmd//\$\$/\$}
	printf '%s\n' "${cmd//$SBINDIR\/xbulk/$XBULK}"
}

# Run the service's command as systemd would; its exit status.
run_service()
{
	env STATE_DIRECTORY="$T/state" XBULK_TEXTFILE_DIR="$T/textfile" \
		XBULK_KEEP=7 XBULK_KEEP_SUMMARIES=800 \
		XBULK_HISTORY_NOW=$((1796256000 + DAY * 86400)) \
		"$@" bash -c "$CMD" >"$T/run.out" 2>&1
}

test_verify()
{
	local d=$T/units

	mkdir "$d"
	cp "$SERVICE" "$d/xbulk-snapshot@$INST.service"
	cp "$TIMER" "$d/xbulk-snapshot@$INST.timer"
	rel_ok "systemd-analyze verify" systemd-analyze verify --man=no \
		"$d/xbulk-snapshot@$INST.service" \
		"$d/xbulk-snapshot@$INST.timer" 2>"$T/verify.err"
	rel_check "systemd-analyze verify: nothing to say" "" \
		"$(cat "$T/verify.err")"
	rel_ok "the timer: daily" grep -qx 'OnCalendar=daily' "$TIMER"
	rel_ok "the timer: persistent" grep -qx 'Persistent=true' "$TIMER"
	rel_ok "the state directory: 0700" grep -qx 'StateDirectoryMode=0700' \
		"$SERVICE"
}

test_by_hand()
{
	local rc=0 h=$T/state/$INST day1 day2

	mkdir -m 700 "$T/state"
	mkdir -m 755 "$T/textfile"
	DAY=1
	run_service || rc=$?
	rel_check "by hand: exit status" 0 "$rc"
	day1=$h/20261204T000000Z
	rel_ok "by hand: the snapshot" test -s "$day1.xbs"
	rel_ok "by hand: its summary" test -s "$day1.summary.jsonl"
	rel_check "by hand: the history's mode" 700 "$(stat -c %a "$h")"
	rel_ok "by hand: the metrics" grep -q '^xbulk_scan_inodes{' \
		"$T/textfile/xbulk-$INST.prom"
	if command -v promtool >/dev/null; then
		rel_ok "by hand: promtool check metrics" promtool check \
			metrics <"$T/textfile/xbulk-$INST.prom"
	fi
	rc=0
	DAY=2
	run_service || rc=$?
	rel_check "again: exit status" 0 "$rc"
	day2=$h/20261205T000000Z
	rel_ok "again: the first snapshot kept" test -s "$day1.xbs"
	rel_ok "again: the second beside it" test -s "$day2.xbs"
	rc=0
	"$XBULK" diff "$day1.xbs" "$day2.xbs" >/dev/null || rc=$?
	rel_check "again: xbulk diff of the two: no change" 0 "$rc"
}

test_lock()
{
	local lock=/run/lock/xbulk-snapshot-$INST.lock holder rc=0

	rm -f "$T/textfile/xbulk-$INST.prom"
	# the holder is the sleep itself: killing it frees the lock
	(exec 9>"$lock" && flock 9 && exec sleep 60) &
	holder=$!
	xb_at_exit "kill $holder 2>/dev/null; rm -f '$lock'"
	# until the holder has it
	while flock -n "$lock" true 2>/dev/null; do
		sleep 0.05
	done
	run_service timeout 3 || rc=$?
	rel_check "lock held: the service waits" 124 "$rc"
	rel_ok "lock held: no metrics written" \
		test ! -e "$T/textfile/xbulk-$INST.prom"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
	rc=0
	DAY=3
	run_service || rc=$?
	rel_check "lock free again: exit status" 0 "$rc"
}

xb_mkfs_mount 512M ""
T=$XB_TMP
xb_populate "$XB_MNT" 200
xb_settle
INST=$(systemd-escape --path "$XB_MNT")
CMD=$(exec_start)
DAY=0	# run_service: the day of XBULK_HISTORY_NOW
test_verify
test_by_hand
test_lock
rel_done
