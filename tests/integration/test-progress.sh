#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --progress of find, du, snapshot, diff and export (and bulkstat's, whose
# thread they share) on a populated image:
#   - stdout is byte-identical with and without --progress, stderr a
#     terminal or not;
#   - nothing on stderr when it is not a terminal;
#   - on a terminal (a pseudo-terminal: progress_tty.py) progress lines
#     are drawn, naming the command and its phase, and none is left on
#     the screen at the end: with stdout on that terminal too, the screen
#     holds the command's output and nothing else;
#   - a message printed while the line is up is a line of its own;
#   - --progress=x: a usage error (exit 2).
#
# Environment: XBULK (path of the xbulk binary, default the build
# directory), ENTRIES (files on the image, default 3000).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
ENTRIES=${ENTRIES:-3000}
PY=/usr/bin/python3
TTY="$PY $(dirname "$0")/progress_tty.py"

# counting (rel_ok, rel_check, rel_fail, rel_done)
. "$(dirname "$0")/lib-reliability.sh"
rel_init progress
[[ -x $PY ]] || xb_skip "$PY not installed (Debian's python3)"

# check NAME PHASE ARGS...: xbulk ARGS with and without --progress (the
# first argument is the command, --progress goes right after it), stdout
# to a file, stderr a terminal or not.  The runs without a terminal must
# be silent on stderr, the one on a terminal draw a line "CMD: PHASE"
# and leave none; the three must print the same bytes and end alike.
check()
{
	local name=$1 phase=$2 cmd=$3 want got rc

	shift 3
	set +e
	"$XBULK" "$cmd" "$@" >"$T/plain.out" 2>"$T/plain.err"
	want=$?
	"$XBULK" "$cmd" --progress "$@" >"$T/pipe.out" 2>"$T/pipe.err"
	got=$?
	$TTY run "$T/raw" "$T/tty.out" -- "$XBULK" "$cmd" --progress "$@"
	rc=$?
	set -e
	rel_check "$name: status without a terminal" "$want" "$got"
	rel_check "$name: status on a terminal" "$want" "$rc"
	rel_ok "$name: stdout the same without a terminal" \
		cmp -s "$T/plain.out" "$T/pipe.out"
	rel_ok "$name: stdout the same on a terminal" \
		cmp -s "$T/plain.out" "$T/tty.out"
	rel_ok "$name: stderr the same without a terminal" \
		cmp -s "$T/plain.err" "$T/pipe.err"
	rel_ok "$name: a '$cmd: $phase' line on the terminal" \
		grep -q "^$cmd: $phase " <($TTY lines "$T/raw")
	rel_ok "$name: the screen holds stderr alone at the end" \
		cmp -s "$T/plain.err" <($TTY screen "$T/raw")
}

# on_screen NAME ARGS...: with stdout on the terminal too, the screen
# at the end is the output without --progress, and the line was drawn.
on_screen()
{
	local name=$1 cmd=$2

	shift 2
	"$XBULK" "$cmd" "$@" >"$T/plain.out" 2>&1 || true
	$TTY run "$T/raw" tty -- "$XBULK" "$cmd" --progress "$@" || true
	rel_ok "$name on the terminal: the line was drawn" \
		grep -q "^$cmd: " <($TTY lines "$T/raw")
	rel_ok "$name on the terminal: the screen is the output alone" \
		cmp -s "$T/plain.out" <($TTY screen "$T/raw")
}

main()
{
	local snap1 snap2 d

	xb_mkfs_mount 1G "-d agcount=4"
	xb_populate "$XB_MNT" "$ENTRIES"
	T=$XB_TMP
	snap1=$T/1.snap
	snap2=$T/2.snap
	mkdir "$T/csv" "$T/csv2"

	check "du" scan du -a "$XB_MNT"
	check "find" scan find "$XB_MNT" -printf '%p %s %m\n'
	check "find, names only" walk find "$XB_MNT" -name '*1*'
	check "snapshot" scan snapshot "$XB_MNT" "$snap1"
	touch "$XB_MNT/new_file"
	mv "$XB_MNT/d00" "$XB_MNT/d00_renamed"
	"$XBULK" snapshot "$XB_MNT" "$snap2"
	check "diff of snapshots" compare diff "$snap1" "$snap2"
	check "diff against the mount" scan diff "$snap1" "$XB_MNT"
	check "export" write export --csv "$T/csv" "$snap2"
	"$XBULK" export --progress --csv "$T/csv2" "$snap2" 2>/dev/null
	for d in inodes entries; do
		rel_ok "export --progress: $d.csv the same" \
			cmp -s "$T/csv/$d.csv" "$T/csv2/$d.csv"
	done
	check "bulkstat -q" '' bulkstat -q "$XB_MNT"

	# a message after the build (the walk): a line of its own, the
	# progress line erased first
	check "du with a missing PATH" scan du "$XB_MNT" "$XB_MNT/nonexistent" \
		"$XB_MNT/d01"

	on_screen "du" du "$XB_MNT"
	# (the scan: a names-only walk prints as it goes, so it draws no
	# line with stdout on the terminal)
	on_screen "find" find --strategy scan "$XB_MNT"
	on_screen "diff" diff "$snap1" "$XB_MNT"

	for cmd in du find snapshot diff export; do
		set +e
		"$XBULK" "$cmd" --progress=x "$XB_MNT" >"$T/bad.out" \
			2>"$T/bad.err"
		rel_check "$cmd --progress=x: usage error" 2 "$?"
		set -e
		rel_check "$cmd --progress=x: its message" \
			"xbulk $cmd: option '--progress' takes no value" \
			"$(head -1 "$T/bad.err")"
		rel_check "$cmd --progress=x: nothing on stdout" 0 \
			"$(wc -c <"$T/bad.out")"
	done

	rel_done
}

main "$@"
