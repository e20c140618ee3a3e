#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The names engine's strategies give the same output: xbulk find with
# --strategy scan, walk and names (the plain walk) and xbulk du with scan
# and walk, byte for byte (and their exit statuses), on a tree with a
# small and a large subtree, -maxdepth cases, a hard link crossing a
# subtree's border, a mount point inside a subtree, a symlink operand,
# nested and several operands, and the mount's top; then every
# expression of the find matrix (lib-find.sh) on its odd tree with each
# strategy forced, --stats=json saying the one taken; --stats=json says
# the strategy taken: the forced one, auto's walk for a leaf and scan for
# the top (or below directories with no other subdirectory) when the
# expression stat()s, names when it reads names only,
# stat off XFS, follow with -L; du --unreachable with --strategy walk and
# -L with --strategy scan are usage errors.  Last, find -L against GNU
# find on a tree of symbolic link loops, links to directories and
# dangling links, on the XFS and on a tmpfs; and off XFS against GNU
# find: /, /// and an overlayfs (when this kernel mounts one).
#
# Environment: XBULK (the binary).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../find/lib-find.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
XBULK=$(realpath "$XBULK")
xb_require_root_loop
xb_mkfs_mount 512M "-d agcount=4" noatime
M=$XB_MNT
pass=0 fail=0

mkdir -p "$M/big/sub1" "$M/small/a/b" "$M/other" "$M/empty"
for i in $(seq 1 400); do echo "$i" > "$M/big/f$i"; done
for i in $(seq 1 60); do
	mkdir "$M/big/sub1/d$i"
	touch "$M/big/sub1/d$i/x"
	mkdir "$M/big/sub1/d$i/e"
done
echo hi > "$M/small/a/file"
head -c 100000 /dev/urandom > "$M/other/o"
ln "$M/other/o" "$M/small/a/link"	# crosses small's border
ln "$M/other/o" "$M/small/a/b/link2"	# and twice inside it
ln -s ../other "$M/small/sym"
mkdir "$M/small/mnt"
mount -t tmpfs tmpfs "$M/small/mnt"
xb_at_exit "umount '$M/small/mnt' 2>/dev/null"
touch "$M/small/mnt/t"

# same ARGS...: find (scan, walk, names) or du (scan, walk), each
# strategy's output compared with the scan's
same()
{
	local s rc ok=1

	for s in scan walk names; do
		[[ $1 == du && $s == names ]] && continue
		rc=0
		"$XBULK" "$1" --strategy "$s" "${@:2}" >"$XB_TMP/$s" 2>&1 ||
			rc=$?
		echo "status $rc" >>"$XB_TMP/$s"
		[[ $s == scan ]] || cmp -s "$XB_TMP/scan" "$XB_TMP/$s" || {
			ok=0
			echo "FAIL: --strategy $s: $*"
			diff -a "$XB_TMP/scan" "$XB_TMP/$s" | head -6 || true
		}
	done
	if ((ok)); then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

P='%p %i %n %s %y %d %m\n'
same find "$M/small" -printf "$P"
same find "$M/small" -maxdepth 1 -printf "$P"
same find "$M/small" -maxdepth 0 -empty -printf "$P"
same find "$M/big" -maxdepth 1 -empty -printf "$P"
same find "$M/big" -maxdepth 2 -printf "$P"
same find "$M/big" -mindepth 2 -maxdepth 3 -type d -empty
same find "$M/big" -printf "$P"
same find "$M/big/sub1" -depth -printf "$P"
same find "$M/small" "$M/big/sub1" "$M/small/a" -printf "$P"
same find "$M/small" -samefile "$M/other/o"
same find "$M/small" -links +1 -type f -printf "$P"
same find -H "$M/small/sym" -printf "$P"
same find "$M/small/sym" -printf "$P"
same find "$M/small/a/file" -printf "$P"
same find "$M/small" -xdev -printf "$P"
same find "$M" -maxdepth 2 -printf "$P"
same find "$M/nonexistent" "$M/small" -printf "$P"
same du "$M/small"
same du -a "$M/small"
same du -s "$M/big"
same du -d 1 "$M/big"
same du -a --inodes "$M/small" "$M/other"
same du -s "$M/other" "$M/small"
same du -l "$M/small"
same du "$M/empty"
same du "$M"
same du -a --apparent-size "$M/small/a"

# stats=json: STRATEGY ARGS...: the strategy taken
taken()
{
	local want=$1 got

	shift
	got=$("$XBULK" "$1" --stats=json "${@:2}" 2>&1 >/dev/null |
	      sed -n 's/.*"strategy": "\(.*\)".*/\1/p')
	if [[ $got == "$want" ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $* took '$got', not $want"
	fi
}
taken walk find --strategy walk "$M"
taken scan find --strategy scan "$M/small"
taken walk find "$M/small/a" -size -1G
taken scan find "$M" -size -1G
taken scan find "$M/small" "$M" -printf "$P"
# the plain walk: names only, or forced, or off XFS, or -L
taken names find "$M/small/a"
taken names find "$M" -name '*.c' -o -type d -printf '%p %d\n'
taken stat find --strategy names "$M/small" -size -1G
taken stat find /proc -maxdepth 0 -size -1G
taken names find / -maxdepth 0
taken follow find -L "$M/small"
taken follow find "$M/small" -follow -printf "$P"
taken walk du "$M/small"
taken scan du "$M"
taken scan du --unreachable "$M/small"
# below directories with no other subdirectory (the top of a bind mount
# of chain/, which holds only/ alone): about the whole filesystem, the
# scan; the same output as the walk's
mkdir -p "$M/chain/only/deeper" "$XB_TMP/bind"
touch "$M/chain/top-file" "$M/chain/only/f" "$M/chain/only/deeper/g"
mount --bind "$M/chain" "$XB_TMP/bind"
xb_at_exit "umount '$XB_TMP/bind' 2>/dev/null"
taken scan find "$XB_TMP/bind/only" -size -1G
taken scan du "$XB_TMP/bind/only"
taken scan find "$XB_TMP/bind/only/deeper" -size -1G
taken walk find "$M/chain/only" -size -1G
same find "$XB_TMP/bind/only" -printf "$P"
same du "$XB_TMP/bind/only"
umount "$XB_TMP/bind"
rm -r "$M/chain"

rc=0
"$XBULK" du --strategy walk --unreachable "$M/small" >/dev/null 2>&1 || rc=$?
if ((rc == 2)); then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: du --unreachable --strategy walk"
fi
for a in "--strategy nope $M" "--strategy scan -L $M" \
	 "--strategy walk $M -follow"; do
	rc=0
	# shellcheck disable=SC2086
	"$XBULK" find $a >/dev/null 2>&1 || rc=$?
	if ((rc == 2)); then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: $a: status $rc"
	fi
done
umount "$M/small/mnt"

# The find matrix with each strategy forced: the same bytes, statuses
# and messages as the scan's, and --stats=json names the one taken (a
# forced plain walk: names, or stat when the expression stat()s)
XF_NOW=$(date +%s)
xf_make_tree "$M/t"
cd "$M/t" || exit 1
REF_INUM=$(stat -c %i ref)
while IFS= read -r expr; do
	eval "set -- $expr"
	ok=1
	for s in scan walk names; do
		rc=0
		"$XBULK" find --strategy "$s" --stats=json \
			--stats-file "$XB_TMP/$s.json" . "$@" >"$XB_TMP/$s" \
			2>&1 || rc=$?
		echo "status $rc" >>"$XB_TMP/$s"
		got=$(sed -n 's/.*"strategy": "\(.*\)".*/\1/p' \
		      "$XB_TMP/$s.json")
		[[ $got == "$s" || ($s == names && $got == stat) ]] || {
			ok=0; echo "FAIL: --strategy $s took $got: $expr"; }
		[[ $s == scan ]] || cmp -s "$XB_TMP/scan" "$XB_TMP/$s" || {
			ok=0; echo "FAIL: --strategy $s: find . $expr"
			diff -a "$XB_TMP/scan" "$XB_TMP/$s" | head -6 || true; }
	done
	if ((ok)); then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done < <(xf_expressions)
cd /

# gnu ARGS...: find ARGS and xbulk find ARGS (stdout, then stderr, then
# the status) compared; $where names the case
gnu()
{
	local wrc grc

	find "$@" >"$XB_TMP/want" 2>"$XB_TMP/want.err" && wrc=0 || wrc=$?
	sed 's/^find: /xbulk find: /' "$XB_TMP/want.err" \
		>>"$XB_TMP/want"
	echo "status $wrc" >>"$XB_TMP/want"
	"$XBULK" find "$@" >"$XB_TMP/got" 2>"$XB_TMP/got.err" && grc=0 ||
		grc=$?
	cat "$XB_TMP/got.err" >>"$XB_TMP/got"
	echo "status $grc" >>"$XB_TMP/got"
	if cmp -s "$XB_TMP/want" "$XB_TMP/got"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $where: find $*"
		diff -a "$XB_TMP/want" "$XB_TMP/got" | head -6 || true
	fi
}

# find -L against GNU find (stdout, then stderr, then the status): the
# odd tree plus directory loops (a link to an ancestor, two directories
# linking to each other), links to directories and to a link to one
# (none leaves the tree: -xdev, implied on XFS, changes nothing), on the
# XFS and on a tmpfs mounted for the test
lmake()
{
	xf_make_tree "$1"
	mkdir -p "$1/L/a/b" "$1/L/x" "$1/L/y"
	ln -s .. "$1/L/a/b/up"
	ln -s ../../.. "$1/L/a/b/top"
	ln -s ../y "$1/L/x/toy"
	ln -s ../x "$1/L/y/tox"
	ln -s a "$1/L/toa"
	ln -s toa "$1/L/totoa"
	ln -s ../d2 "$1/L/to-d2"
	ln -s gone "$1/L/dangling"
}
lcheck()
{
	local expr

	where="-L on $1"
	cd "$2" || exit 1
	# shellcheck disable=SC2034 # the expressions read it (eval)
	REF_INUM=$(stat -c %i ref)
	while IFS= read -r expr; do
		eval "set -- $expr"
		gnu -L . "$@"
	done < <(xf_expressions; printf '%s\n' "-depth -printf '%p %y %Y\n'" \
		 "-xtype l -printf '%p %l\n'" "-path ./L -prune -o -print")
	cd /
}
XF_NOW=$(date +%s)
lmake "$M/l"
lcheck XFS "$M/l"
TM=$XB_TMP/tmpfs
mkdir "$TM"
mount -t tmpfs -o noatime tmpfs "$TM"
xb_at_exit "umount -l '$TM' 2>/dev/null || true"
lmake "$TM/l"
lcheck tmpfs "$TM/l"
# -L onto another filesystem: a link on the XFS to a directory (and a
# file) on the tmpfs is its target, as find -L -xdev sees it: -type d
# matches it and %i is the target's, not the link's (no mount point)
mkdir -p "$M/lx" "$TM/tdir"
echo x >"$TM/tfile"
ln -s "$TM/tdir" "$M/lx/to-tmpfs"
ln -s "$TM/tfile" "$M/lx/to-tfile"
where="-L onto a tmpfs"
gnu -L "$M/lx" -xdev -type d
gnu -L "$M/lx" -xdev -printf '%p %y %Y %i %n\n'
# a directory of more than 10,000 entries: fts sorts it by inode on XFS,
# not on tmpfs
mkdir "$TM/big" "$M/big2"
where="a big directory"
for d in "$TM/big" "$M/big2"; do
	(cd "$d" && seq -f 'f%g' 1 10050 | xargs touch && rm f1?? &&
	 seq -f 'g%g' 1 300 | xargs touch)
	gnu "$d"
	gnu "$d" -printf '%p %i\n'
done
umount "$TM"

# Off XFS, auto (a plain walk) against GNU find: /, ///, an overlayfs
# (with and without -L); --stats says stat or names
where="off XFS"
gnu / -maxdepth 1 -printf '%p %y %m %u\n'
gnu /// -maxdepth 1 -printf '%p|%h|%f|%P|%d\n'
gnu /// -maxdepth 0 -empty
taken stat find / -maxdepth 0 -printf '%s\n'
OV=$XB_TMP/ov
mkdir -p "$OV/lower/d/e" "$OV/upper" "$OV/work" "$OV/m"
touch "$OV/lower/d/f" "$OV/lower/g"
if mount -t overlay overlay -o \
	"lowerdir=$OV/lower,upperdir=$OV/upper,workdir=$OV/work" "$OV/m" \
	2>/dev/null; then
	xb_at_exit "umount -l '$OV/m' 2>/dev/null || true"
	touch "$OV/m/d/new"
	rm "$OV/m/g"
	ln -s d "$OV/m/to-d"
	ln -s .. "$OV/m/d/e/up"
	gnu "$OV/m"
	gnu "$OV/m" -printf '%p %y %n %s %i\n'
	gnu -L "$OV/m" -printf '%p %y %Y %l\n'
	gnu "$OV/m" -depth -name '*e*'
	umount "$OV/m"
else
	echo "NOTE: no overlayfs here: not compared"
fi

echo "strategy: $pass passed, $fail failed"
((fail == 0))
