#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk du --ncdu against ncdu 1.x itself (its -o export, its -f import),
# on a tree with hard links inside and across directories (one with a
# link outside the PATH), sparse and empty files, odd names (newline,
# tab, quote, backslash, control bytes, invalid UTF-8, a leading dash),
# symlinks, fifos, a tmpfs mounted on a subdirectory, a file of it
# bind-mounted on a file, and xb_populate's 3000 entries:
# - ncdu -o -x MNT and ours: the same tree (check_ncdu.py), and the same
#   bytes but the header (the walks read directories in the same order);
#   also with --exclude, of a subdirectory, and with du's -a -d 1 lines;
# - ncdu's interface on ours, driven under tmux (ncdu_tui.py): the top
#   directories and, after Enter, the largest one's, at GNU du's sizes,
#   and the screens ncdu shows on its own export;
# - ncdu -f ours re-exports what ncdu -f of its own re-exports;
# - a directory one cannot read: ncdu as nobody (EACCES) and xbulk
#   without CAP_FOWNER both mark it read_error, exit 1 and the export
#   placed (as --svg's picture is);
# - du's lines are the same with --ncdu and without it;
# - bad input, one message each: FILE on the scanned filesystem, "-",
#   two PATHs, a PATH that is not a directory, --unreachable (exit 2),
#   a directory that is not there, a symlink at FILE (exit 1); mode 0600;
#   the old file kept when du fails.
#
# Environment: XBULK (the binary).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
CHECK=$(dirname "$0")/check_ncdu.py
TUI=$(dirname "$0")/ncdu_tui.py

. "$(dirname "$0")/lib-reliability.sh"
rel_init du-ncdu
for tool in ncdu python3 setpriv tmux; do
	command -v "$tool" >/dev/null || xb_skip "$tool not installed (scripts/deps)"
done

# The tree, made in the current directory.
ncdu_tree()
{
	mkdir -p links/a links/b odd/sub mnt locked/in
	echo data >links/a/one
	ln links/a/one links/a/two
	ln links/a/one links/b/three
	head -c 100000 /dev/zero >links/b/big
	ln links/b/big odd/big_link
	xfs_io -f -c 'truncate 10g' -c 'pwrite -q 5g 64k' odd/sparse
	: >odd/empty
	touch odd/$'new\nline' odd/$'tab\there' odd/\"q\' odd/'back\slash' \
	      odd/-dash odd/$'bad\xffutf8' odd/$'ctl\x01\x7f\b\f\r' odd/'é'
	mkdir odd/$'dir\nnl'
	echo x >odd/$'dir\nnl'/in
	ln -s ../links odd/symlink
	mkfifo odd/fifo
	echo covered >odd/covered
	touch locked/file locked/in/deeper
	chown -R 12345 locked
	chmod 700 locked
	sync
}

# same WHAT PATH [XBULK-OPTIONS...]: ncdu -o -x PATH and ours (with the
# --exclude options given to both), as trees and as bytes.
same()
{
	local what=$1 path=$2 rc=0

	shift 2
	ncdu -o "$T/theirs.json" -x "$@" "$path" 2>"$T/ncdu.err" ||
		rel_fail "$what: ncdu -o failed"
	"$XBULK" du "$@" --ncdu "$T/ours.json" "$path" >/dev/null 2>"$T/err" ||
		rc=$?
	rel_check "$what: exit status" 0 "$rc"
	rel_ok "$what: the tree ncdu exports" \
		"$CHECK" same "$T/theirs.json" "$T/ours.json"
	rel_ok "$what: ncdu's bytes but the header" \
		cmp -s <(tail -n +2 "$T/theirs.json") <(tail -n +2 "$T/ours.json")
}

test_same()
{
	same "whole tree" "$XB_MNT"
	same "a subdirectory" "$XB_MNT/links"
	same "--exclude" "$XB_MNT" --exclude 'b*' --exclude 'odd/s*'
	# ncdu -f reads ours as it reads its own (its re-export of "othfs"
	# is "pattern" either way: ncdu 1.18's import)
	same "for the re-export" "$XB_MNT"
	ncdu -f "$T/ours.json" -o "$T/re-ours.json" ||
		rel_fail "ncdu -f ours failed"
	ncdu -f "$T/theirs.json" -o "$T/re-theirs.json"
	rel_ok "ncdu -f: ours re-exported as its own" \
		"$CHECK" same "$T/re-theirs.json" "$T/re-ours.json"
	rel_ok "--ncdu: mode 0600 (it names every file)" \
		test "$(stat -c %a "$T/ours.json")" = 600
	# du's lines do not change
	"$XBULK" du -a -d 1 "$XB_MNT" >"$T/plain.out"
	"$XBULK" du -a -d 1 --ncdu "$T/ours.json" "$XB_MNT" >"$T/with.out"
	rel_ok "--ncdu: du's lines as without it" \
		cmp -s "$T/plain.out" "$T/with.out"
}

# ncdu's interface under tmux, on ours: the top directories of pop/
# with the sizes GNU du gives, then (Enter) the largest one's; the same
# screens as on ncdu's own export.
test_tui()
{
	local pop=$XB_MNT/pop dir

	"$XBULK" du --ncdu "$T/tui.json" "$pop" >/dev/null ||
		rel_fail "tui: xbulk du --ncdu failed"
	ncdu -o "$T/tui-theirs.json" -x "$pop" ||
		rel_fail "tui: ncdu -o failed"
	"$TUI" screens "$T/tui.json" Enter >"$T/screens" ||
		rel_fail "tui: ncdu -f ours under tmux"
	"$TUI" screens "$T/tui-theirs.json" Enter >"$T/screens-theirs" ||
		rel_fail "tui: ncdu -f theirs under tmux"
	du -0 -B1 -d 1 "$pop" >"$T/du0"
	rel_ok "tui: the top directories, at du's sizes" \
		"$TUI" agree "$T/screens" 0 "$T/du0"
	dir=$(python3 -c 'import json, sys; print(json.load(sys.stdin)[1]["dir"])' \
		<"$T/screens")
	rel_ok "tui: Enter shows a directory below $pop" \
		test "${dir%/*}" = "$pop"
	du -0 -B1 -d 1 "$dir" >"$T/du0"
	rel_ok "tui: ${dir##*/}, at du's sizes" \
		"$TUI" agree "$T/screens" 1 "$T/du0"
	rel_ok "tui: ours browses as ncdu's own export" \
		cmp -s "$T/screens" "$T/screens-theirs"
}

# ncdu as nobody cannot read locked/ (mode 0700, another owner); xbulk
# without CAP_FOWNER cannot either: both mark it read_error.
test_unreadable()
{
	local rc=0

	setpriv --reuid=65534 --regid=65534 --clear-groups \
		ncdu --ignore-config -o - -x "$XB_MNT" >"$T/theirs.json" ||
		rel_fail "ncdu as nobody failed"
	setpriv --bounding-set=-fowner "$XBULK" du --ncdu "$T/ours.json" \
		"$XB_MNT" >/dev/null 2>"$T/err" || rc=$?
	rel_check "unreadable directory: exit status" 1 "$rc"
	rel_ok "unreadable directory: named" \
		grep -q "cannot read directory '$XB_MNT/locked'" "$T/err"
	rel_ok "unreadable directory: marked read_error" \
		grep -q '^\[{"name":"locked",.*"read_error":true}\]' \
		"$T/ours.json"
	rel_ok "unreadable directory: the tree ncdu exports" \
		"$CHECK" same "$T/theirs.json" "$T/ours.json"
}

# expect STATUS PATTERN ARGS...: xbulk du ARGS exits STATUS, stderr
# says PATTERN in one line (and the hint to --help after a usage error),
# nothing on stdout.
expect()
{
	rel_expect du "$@"
	rel_check "du ${*:3}: one line" $(($1 == 2 ? 2 : 1)) \
		"$(wc -l <"$T/bad.err")"
}

test_bad_input()
{
	local out=$T/never.json rc=0

	expect 2 "--ncdu: $XB_MNT/x.json is on the filesystem being scanned" \
		--ncdu "$XB_MNT/x.json" "$XB_MNT"
	rel_ok "--ncdu on the scanned fs writes nothing" \
		test ! -e "$XB_MNT/x.json"
	expect 2 "--ncdu: the export goes to a file" --ncdu - "$XB_MNT"
	expect 2 "--ncdu takes one PATH" --ncdu "$out" "$XB_MNT/links" \
		"$XB_MNT/odd"
	expect 2 "--ncdu: $XB_MNT/odd/empty is not a directory" \
		--ncdu "$out" "$XB_MNT/odd/empty"
	expect 2 "--unreachable and --ncdu cannot be combined" \
		--unreachable --ncdu "$out" "$XB_MNT"
	expect 2 "--ncdu: empty file name" --ncdu '' "$XB_MNT"
	rel_ok "usage errors write no --ncdu file" test ! -e "$out"
	expect 1 "--ncdu: $T/none/x.json: No such file" \
		--ncdu "$T/none/x.json" "$XB_MNT"
	expect 1 "cannot access '$XB_MNT/nx'" --ncdu "$out" "$XB_MNT/nx"
	ln -s "$XB_MNT/via-link.json" "$T/link.json"
	expect 1 "--ncdu: $T/link.json: not a regular file: left as it is" \
		--ncdu "$T/link.json" "$XB_MNT"
	rel_ok "--ncdu at a symlink: nothing on the scanned fs" \
		test ! -e "$XB_MNT/via-link.json"
	# a run that ends early leaves the old file, not a part
	echo old >"$T/early.json"
	"$XBULK" du -a --ncdu "$T/early.json" "$XB_MNT" | head -c 10 \
		>/dev/null || rc=${PIPESTATUS[0]}
	rel_check "--ncdu, reader gone: exit status" 141 "$rc"
	rel_check "--ncdu, reader gone: the old file stays" old \
		"$(cat "$T/early.json")"
}

xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
# ncdu as nobody walks to the mount
chmod 755 "$XB_TMP"
(cd "$XB_MNT" && ncdu_tree)
# enough lines for du -a | head -c 10 to lose its reader
mkdir "$XB_MNT/pop"
xb_populate "$XB_MNT/pop" 3000
# ... that nobody (ncdu as nobody) may read: locked/ is the one it may not
find "$XB_MNT/pop" -type d -exec chmod a+rx {} +
xb_at_exit "umount '$XB_MNT/mnt' 2>/dev/null || true"
xb_at_exit "umount '$XB_MNT/odd/covered' 2>/dev/null || true"
mount -t tmpfs -o size=1m tmpfs "$XB_MNT/mnt"
echo x >"$XB_MNT/mnt/inner"
mount --bind "$XB_MNT/mnt/inner" "$XB_MNT/odd/covered"
test_same
test_tui
test_unreadable
test_bad_input
rel_done
