#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk find's actions against GNU find 4.9 on XFS, at -j 1 and -j 2 in
# turn (each case at both with XB_TEST_DEPTH=full):
# -exec and -execdir with ';' and '{} +' (batches, exit statuses,
# commands killed by a signal or not found, output order), -ok and
# -okdir (answers from stdin), -delete, -H, -files0-from, the refusals
# (-L), and trees the expression itself changes (-delete, -exec rm,
# -execdir mv, a command that creates, removes or chmods files the walk
# has not reached).  Each such case runs find and xbulk on the same tree
# made afresh, and compares their output, messages, status and the tree
# they leave.
set -euo pipefail
export TZ=UTC LC_ALL=C

here=$(dirname "$0")
. "$here/../integration/lib.sh"
. "$here/lib-find.sh"

xf_small_fs

# The tree the changing cases start from (made the same way each time:
# the same names in the same order, so the same readdir order).
rm_tree()
{
	[[ ! -e $T/m ]] || find "$T/m" -type f -exec chattr -i {} + 2>/dev/null ||
		true
	rm -rf "$T/m"
}

mk_tree()
{
	rm_tree
	mkdir -p "$T/m/a/b" "$T/m/c/d" "$T/m/e" "$T/m/empty"
	touch "$T/m/a/f" "$T/m/a/b/g" "$T/m/c/h" "$T/m/c/d/i" "$T/m/x" \
		"$T/m/e/y" "$T/m/"$'nl\nname'
	echo data >"$T/m/e/sized"
	ln "$T/m/x" "$T/m/a/xl"
	ln -s a "$T/m/sl"
	sync -f "$T"
}

# The tree, with a file m/a/h, an empty directory m/a/z and a symbolic
# link m/a/zl after m/a/b in the walk, and a victim m/v/h: a command may
# put a symbolic link to m/v in place of m/a
mk_swap()
{
	mk_tree
	mkdir "$T/m/v"
	touch "$T/m/a/h" "$T/m/v/h"
	mkdir "$T/m/a/z"
	ln -s target "$T/m/a/zl"
	sync -f "$T"
}

# A chain of 25 directories of 240-byte names, deeper than PATH_MAX, two
# symbolic links at its end
mk_deep()
{
	local i d

	rm -rf "$T/deep"
	mkdir "$T/deep"
	(
		cd "$T/deep"
		for i in $(seq 1 25); do
			d=$(printf "d%03d%0236d" "$i" 0)
			mkdir "$d" && cd "$d" && : >"f$i"
		done
		ln -s f25 l25 && ln -s nowhere dangling
	)
	sync -f "$T"
}

# fill_env BYTES: export FILL0... so that find's command lines get
# about BYTES (findutils: ARG_MAX less the environment and 2048 bytes;
# the environment of each program differs in "_", its path: the cases
# stay 100 bytes away from a limit); unfill_env takes them away
fill_env()
{
	local left i=0 n

	left=$(($(getconf ARG_MAX) - 2048 - $1 - $(env | wc -c)))
	while ((left > 16)); do
		n=$((left > 100000 ? 100000 : left))
		# "FILLi=" VALUE NUL: n bytes
		export "FILL$i=$(head -c $((n - ${#i} - 6)) /dev/zero |
			tr '\0' x)"
		left=$((left - n))
		i=$((i + 1))
	done
}

unfill_env()
{
	unset "${!FILL@}"
}

# changes [PATH...] -- EXPR...: find and then xbulk find on a fresh tree
# each, in $T (PATH: m); output, messages, status and the tree left must
# be the same
changes()
{
	local dir
	local -a paths

	xf_paths "$@"
	shift "$XF_USED"
	paths=("${XF_PATHS[@]}")
	((${#paths[@]})) || paths=(m)
	xf_next_opt
	for dir in want got; do
		${MK:-mk_tree}
		if [[ $dir == want ]]; then
			(cd "$T" && find "${paths[@]}" -xdev "$@") >"$tmp/$dir" \
				2>&1 && wrc=0 || wrc=$?
			sed -i 's/^find: /xbulk find: /' "$tmp/$dir"
		else
			# shellcheck disable=SC2086
			(cd "$T" && "$XBULK" find $XOPT "${paths[@]}" "$@") \
				>"$tmp/$dir" 2>&1 && grc=0 || grc=$?
		fi
		echo "-- tree:" >>"$tmp/$dir"
		(cd "$T" && find "${paths[0]%%/*}" -printf '%p %y %m %n\n' 2>&1 |
			sort) >>"$tmp/$dir" || true
	done
	check "find $XOPT ${paths[*]} $* (the tree it changes)"
}

# A tree of names of every kind (lib-find.sh), and a directory of 3000
# long names: several '+' batches
XF_NOW=$(date +%s)
xf_make_tree "$T/n"
chmod 755 "$T/n/noperm"
mkdir "$T/big"
for i in $(seq 1 3000); do
	: >"$T/big/$(printf 'file%0100d' "$i")"
done
printf 'y\nn\nyes\n\nY\nno\ny\n' >"$tmp/answers"
printf 'n/d1\0\0n/d2\0nosuch\0big/%s' "$(printf 'file%0100d' 7)" \
	>"$tmp/files0"
printf '\0\0' >"$tmp/files0-empty"
ln -s n "$T/nlink"
# bfs's links: a dangling link, and one through a file (ENOTDIR)
mkdir "$T/links"
: >"$T/links/file"
ln -s file "$T/links/symlink"
ln -s nowhere "$T/links/broken"
ln -s symlink/file "$T/links/notdir"
ln -s file/ "$T/links/slash"
sync -f "$T"
cd "$T"

# The actions on trees they do not change, at $XOPT
unchanged_cases()
{
	# ';': once per file, in find's order, false when it fails
	same n -- -exec printf '[%s]\n' {} \;
	same n -- -name '*.txt' -exec echo {} {}/x x{}y \;
	same n -- -print -exec echo {} \; -print
	same n -- -exec sh -c 'exit 3' \; -o -printf 'failed %p\n'
	same n -- -name 'sp*' -exec sh -c 'kill -TERM $$' \; -o -name ref -print
	same n -- -name 'sp*' -exec no-such-command {} \; -o -name ref -print
	# '{} +': batches as find makes them, true, status 1 on failure
	same n -- -exec printf '[%s]\n' {} +
	same big n -- -exec sh -c 'echo $#' x {} +
	same n -- -exec sh -c 'exit 3' {} + -print
	same n -- -exec sh -c 'kill -PIPE $$' {} +
	same n big -- -name 'file*1' -exec sh -c 'echo $# $1' x {} + -quit
	# ';' past find's command line (about 850 bytes, then 1700; the
	# paths of the chain grow by 241): a word too long, a command line
	# too long, fatal (status 1, nothing more)
	mk_deep
	# past PATH_MAX: tests that stat a file, or a link's target
	same deep -- -type l -printf '%d %Y %l\n'
	same deep -- -xtype f -readable -writable -executable -printf '%d\n'
	fill_env 850
	same deep -- -mindepth 4 -exec echo {} \; -o -print
	unfill_env
	fill_env 1700
	same deep -- -exec echo {} {} \; -print
	same deep -- -name 'f*' -exec echo {} + -o -exec echo {} {} \;
	unfill_env
	# an output on stderr is unbuffered there (find's stderr), ahead of
	# what stdout holds when a command runs
	same n -- -maxdepth 1 -fprint /dev/stderr -exec true \; -print
	same n -- -maxdepth 1 -fprintf /dev/stderr '%f\n' -exec true \; -ls
	# -execdir: in the file's directory, "./NAME"; '+' per directory
	same n -- -execdir printf '%s\n' {} \;
	same n -- -execdir sh -c 'echo "${PWD#$0}" "$@"' "$T" {} +
	same n -- -depth -execdir sh -c 'echo "${PWD#$0}" "$@"' "$T" {} +
	same big -- -execdir sh -c 'echo $# "${PWD#$0}"' "$T" {} +
	same . ./ n/ n/d1 -- -maxdepth 0 -execdir sh -c 'echo "${PWD#$0}" $1' \
		"$T" {} \;
	PATH=.:$PATH same n -- -execdir true \;
	PATH=$PATH:bin same n -- -okdir true \;
	# -ok, -okdir: a prompt on stderr, the answer a line of stdin
	SAME_IN=$tmp/answers same n -- -maxdepth 1 -ok echo {} \;
	SAME_IN=$tmp/answers same n -- -maxdepth 1 -okdir echo {} \;
	SAME_IN=$tmp/answers same n -- -maxdepth 1 -ok sh -c \
		'read x || echo closed' \;
	# stdout closed: the commands get it closed too (a '+' batch that
	# fails makes the status 1)
	for e in "-exec echo {} ;" "-exec echo {} +"; do
		# shellcheck disable=SC2086
		find n -maxdepth 1 $e 2>"$tmp/want" >&- && wrc=0 || wrc=$?
		# shellcheck disable=SC2086
		"$XBULK" find $XOPT n -maxdepth 1 $e 2>"$tmp/got" >&- &&
			grc=0 || grc=$?
		check "find $XOPT n -maxdepth 1 $e >&-"
	done
	# -H: PATHs that are symbolic links are followed, and -newer's
	same -H nlink -- -maxdepth 1 -name 'd*'
	same nlink -- -maxdepth 1
	# ... also once a command ran (the walk reads it again), or dangling
	same -H nlink -- -maxdepth 1 -exec true \; -name 'd*' -print
	same -H n/size0 nlink -- -maxdepth 1 -exec true \; -name 'd*' -print
	same -H n/sym-dangling n/sym-dir -- -printf '%p %y %Y\n'
	same -H n/size0 n/sym-dangling -- -exec true \; -printf '%p %y %Y\n'
	same -H n -- -maxdepth 1 -newer n/sym-ref
	same n -- -maxdepth 1 -newer n/sym-ref
	# ... and a reference file that is a dangling link, or a link
	# through a file, is the link itself (find's fallback to lstat);
	# a loop, or a file followed by "/", is find's error
	for r in broken notdir slash symlink; do
		same -H links -- -samefile "links/$r"
		same links -- -samefile "links/$r"
	done
	same -H links -- -newer links/broken -o -samefile links/notdir
	same -H n -- -samefile n/sym-loop1
	same -H links -- -samefile links/file/
	# -files0-from: its names, find's messages
	same -- -files0-from "$tmp/files0" -print
	SAME_IN=$tmp/files0 same -- -files0-from - -name 'c*'
	SAME_IN=$tmp/files0 same -- -files0-from - -ok echo \;
	SAME_IN=$tmp/files0 same -- -files0-from "$tmp/files0" -ok echo \;
	same n -- -files0-from "$tmp/files0"
	same -- -files0-from /nonexistent
	same -- -files0-from n
	same -- -files0-from /dev/null
	# an empty name: find's message; the pending batches are dropped
	# then (but at -quit)
	same -- -files0-from "$tmp/files0" -exec echo {} +
	same -- -files0-from "$tmp/files0" -execdir echo {} +
	same '' n/d1 -- -exec echo {} +
	same n/size0 '' -- -execdir echo {} +
	same '' n/d1 -- -exec echo {} + -quit
	same '' '' -- -print
	same -- -files0-from "$tmp/files0-empty"
	# followed as find follows (a plain walk)
	same -L n -- -exec echo {} +
	same n -- -follow -execdir echo {} \;
}

# The trees the expression changes, at $XOPT
changing_cases()
{
	changes -- -delete
	changes -- -name c -delete
	changes -- -name c -prune -delete
	changes -- -depth -name c -prune -o -delete
	changes -- -name a -exec rm -rf {} \;
	changes -- -name a -exec rm -rf {} \; -o -print
	changes -- -depth -name a -exec rm -rf {} \; -o -print
	changes -- -name c -execdir mv {} cc \;
	changes -- -type f -execdir mv {} {}.new \; -print
	changes -- -name x -exec rm m/e/y \; -o -print
	changes -- -name x -exec rm m/e/y \; -o -printf '%s %p\n'
	changes -- -name x -exec touch m/e/new \; -o -print
	changes -- -name x -exec mkdir -p m/e/n1/n2 \; -o -print
	changes -- -name a -exec chmod 700 m/c/h \; -o -perm 700 -print
	changes -- -exec chmod 600 {} \; -printf '%m %p\n'
	changes -- -name sized -exec sh -c 'echo more >>{}' \; -printf '%s\n'
	changes -- -name xl -delete -o -printf '%n %p\n'
	changes m m/a -- -depth -name b -delete -o -printf '%n %p\n'
	changes -- -name d -exec rm -r {} \; -o -empty -print
	changes -- -name e -exec rm -r m/c \; -o -print
	changes -- -type d -exec sh -c 'rm -f {}/*' \; -o -print
	# a file a command removed after its directory was read, before
	# the walk reached it (bfs's remove-sibling): find's message where
	# its status is needed, and -delete's; none with
	# -ignore_readdir_race (-delete true then), which -execdir undoes
	local o sib='for f in "${1%/*}"/*; do [ "$f" = "$1" ] ||
		{ rm "$f"; exit; }; done'
	for o in -ignore_readdir_race -noignore_readdir_race; do
		changes m/e -- -mindepth 1 "$o" -links 1 \
			-exec sh -c "$sib" sh {} \;
		changes m/e -- -mindepth 1 "$o" -exec sh -c "$sib" sh {} \; \
			-printf '%p %s\n'
		changes m/e -- -mindepth 1 "$o" -exec sh -c "$sib" sh {} \; \
			-xtype f -print
		changes m/e -- -mindepth 1 "$o" -exec rm -f m/e/sized \; \
			-delete -print
	done
	# -xtype stats a file the walk has not reached again, as find does
	changes -- -name a -exec sh -c 'rm m/x && ln -s e m/x' \; -o \
		-xtype d -print
	changes m/e -- -mindepth 1 -ignore_readdir_race -execdir true \; \
		-exec sh -c "$sib" sh {} \; -links 1
	changes m/e -- -mindepth 1 -execdir true \; -ignore_readdir_race \
		-exec sh -c "$sib" sh {} \; -links 1
	# a directory above renamed, removed or replaced by a symbolic link
	# while the walk is inside it: the walk, -delete and -execdir go on
	# in the directory as the walk reached it (fts's fds)
	changes -- -name b -exec mv m/a m/aa \; -o -printf '%p %y %n\n'
	changes -- -name g -exec rm -r m/a \; -o -print
	MK=mk_swap changes -- -name g -exec mv m/a m/aa \; -o -empty \
		-printf '%p %y\n'
	changes -- -name f -exec mv m/a m/aa \; -o -readable -print
	MK=mk_swap changes -- -name b -exec mv m/a m/aa \; -o -type l \
		-printf '%p %l\n'
	changes m/a/b/.. -- -delete
	MK=mk_swap changes -- -name g -exec sh -c 'mv m/a m/a.old &&
		ln -s v m/a' \; -o -path m/a/h -delete
	MK=mk_swap changes -- -name g -exec sh -c 'mv m/a m/a.old &&
		ln -s v m/a' \; -o -path m/a/h -execdir rm {} \;
	# deeper than PATH_MAX: -delete, -execdir, a live walk there
	MK=mk_deep changes deep -- -name 'f1*' -delete
	MK=mk_deep changes deep -- -name 'f2*' -execdir rm {} \; -o \
		-printf '%d %s\n'
	MK=mk_deep changes deep -- -type f -execdir sh -c 'echo $#' x {} +
	MK=mk_deep changes deep -- -delete
	chattr_ok=1
	mk_tree
	chattr +i m/c/h 2>/dev/null || chattr_ok=0
	chattr -i m/c/h 2>/dev/null || true
	if ((chattr_ok)); then
		# -delete that fails: find's message, status 1
		changes -- -name h -exec chattr +i {} \; -o -delete
	fi
}

# Every case at -j 1 and at -j 2 with XB_TEST_DEPTH=full; at the
# standard depth each case once, at -j 1 and -j 2 in turn (the scan under
# the walk is the only part of find that -j changes, and find-xfs
# compares -j 1 and -j 3 on its expressions)
if xb_full; then
	for XOPT in "-j 1" "-j 2"; do
		unchanged_cases
		changing_cases
	done
else
	XF_ALTERNATE=1
	unchanged_cases
	changing_cases
	XF_ALTERNATE=0
fi
rm_tree

# The walk changed, -j 2, under a low limit of open files
mk_tree
want=$(cd "$T" && find m -xdev -name x -exec rm m/e/y \; -o -print | sort)
mk_tree
got=$(cd "$T" && ulimit -n 10 && "$XBULK" find -j 2 m -name x -exec rm m/e/y \; -o -print | sort)
if [[ $want == "$got" ]]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: -exec under ulimit -n 10 at -j 2"
fi

# A SIGTERM while a command runs, or while -ok waits for its answer
# (stdin a FIFO held open): xbulk ends at once as find does (status
# 143), the command left running; timeout(1) kills it after 20 s.
mkfifo "$tmp/answer"
exec 7<>"$tmp/answer"
for how in "-exec sleep 20 ;" "-ok true ;"; do
	rm -f "$tmp/err"
	# shellcheck disable=SC2086
	timeout -s KILL 20 "$XBULK" find -j 1 "$T/m" $how \
		<&7 2>"$tmp/err" &
	tpid=$!
	xpid='' kid=''
	for _ in $(seq 1 200); do
		xpid=$(pgrep -P "$tpid" || true)
		[[ -z $xpid ]] || kid=$(pgrep -P "$xpid" -x sleep || true)
		[[ -n $kid || -s $tmp/err ]] && break
		sleep 0.05
	done
	[[ -z $xpid ]] || kill -TERM "$xpid"
	wait "$tpid" && rc=0 || rc=$?
	# one command, one prompt: nothing after the signal
	if ((rc == 143)) && { [[ -z $kid ]] || kill -0 "$kid"; } &&
		(($(grep -o '?' "$tmp/err" | wc -l) <= 1)); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: SIGTERM during $how: status $rc"
	fi
	[[ -z $kid ]] || kill "$kid" 2>/dev/null || true
done
exec 7>&-

cd /
echo "$pass passed, $fail failed"
((fail == 0))
