#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk find against GNU find 4.9 on a loop-mounted XFS: every expression
# of lib-find.sh on the odd tree (paths past PATH_MAX included), compared
# as sorted records and in order, with stderr and the exit status, at -j 1
# and -j 3 (the same bytes; every third expression at the standard
# depth); then PATH forms (subtree, several, a file,
# trailing slashes, links, a FIFO, missing, not XFS, a bind mount of a
# subdirectory, a mount point inside), names in C.UTF-8 and on a terminal,
# output errors, an idmapped mount (IDMAP_MOUNT: the idmap_mount helper),
# refused actions, bad expressions (find's message and status), --format,
# output files on the scanned filesystem (as find), not root with and without the
# capabilities, and last a directory damaged with xfs_db.  TZ=UTC
# LC_ALL=C.
#
# FIND_GEOMETRIES=all: the expression matrix on every geometry of
# xb_geometries (1 KiB blocks, 2 KiB inodes, bigtime=0...), not only
# agcount=4 (about a minute; scripts/check runs the one geometry).
set -euo pipefail
export TZ=UTC LC_ALL=C

here=$(dirname "$0")
. "$here/../integration/lib.sh"
. "$here/lib-find.sh"

XBULK=$(realpath "${XBULK:?}")	# the test changes directory
IDMAP_MOUNT=$(realpath "${IDMAP_MOUNT:-/nonexistent}" 2>/dev/null || true)
xb_require_root_loop
XF_NOW=$(date +%s)
tmp=
pass=0 fail=0

# setup MKFS_OPTS: a new image with the odd tree at $T (paths past
# PATH_MAX), a tmpfs mounted inside it; cd $T
setup()
{
	xb_mkfs_mount 1G "$1" noatime
	T=$XB_MNT/t
	tmp=$XB_TMP
	xf_make_tree "$T" deep
	# bulkstat's bs_size is the size on disk: data not yet written back
	# does not count yet (a documented difference)
	sync
	mkdir -p "$T/mnt" && mount -t tmpfs none "$T/mnt"
	xb_at_exit "umount -l '$T/mnt' 2>/dev/null || true"
	touch "$T/mnt/under-tmpfs"
	cd "$T"
	REF_INUM=$(stat -c %i ref)
}

teardown()
{
	cd /
	umount "$T/mnt"
}

# matrix LABEL: find . -xdev EXPR vs xbulk find . EXPR for every
# expression: stdout sorted and in order, stderr (find's messages with
# "xbulk find: "), exit status; and -j 3 the same bytes as -j 1 (every
# third expression; each with XB_TEST_DEPTH=full)
matrix()
{
	local expr n=0

	while IFS= read -r expr; do
		n=$((n + 1))
		eval "set -- $expr"
		find . -xdev "$@" >"$tmp/w" 2>"$tmp/w.err" && wrc=0 || wrc=$?
		"$XBULK" find -j 1 . "$@" >"$tmp/g" 2>"$tmp/g.err" && grc=0 ||
			grc=$?
		sort "$tmp/w" >"$tmp/want"
		sort "$tmp/g" >"$tmp/got"
		check "${1}sorted: find . $expr"
		cp "$tmp/w" "$tmp/want"
		cp "$tmp/g" "$tmp/got"
		check "${1}in order: find . $expr"
		sed 's/^find: /xbulk find: /' "$tmp/w.err" >"$tmp/want"
		cp "$tmp/g.err" "$tmp/got"
		check "${1}stderr: find . $expr"
		((n % 3 == 0)) || xb_full || continue
		"$XBULK" find -j 3 . "$@" >"$tmp/want" 2>/dev/null || true
		cp "$tmp/g" "$tmp/got"
		wrc=$grc
		check "${1}-j 3 = -j 1: find . $expr"
	done < <(xf_expressions)
}

# FIND_GEOMETRIES=all: the matrix on every geometry of the suite first
if [[ ${FIND_GEOMETRIES:-} == all ]]; then
	while IFS= read -r geom; do
		[[ $geom == "-d agcount=4" ]] && continue
		setup "$geom"
		matrix "[$geom] "
		teardown
	done < <(xb_geometries)
fi
setup "-d agcount=4"
matrix ""

# PATH forms, with the names of each
fmt='%p %i %s %y [%h][%f][%P][%H] %d\n'
for paths in "d1" "d1/sub ref d2" "ref" "./d1/" "sym-dir" "$T" "d1//" \
	     "./" ".//" "d1/sub/" "d1//sub//" "$T/" "d2/c.dat" "sym-dangling" \
	     "fifo d1" "sym-loop1" "nosuch nosuch2" "nosuch ref"; do
	# shellcheck disable=SC2086
	find $paths -xdev -printf "$fmt" >"$tmp/want" 2>&1 && wrc=0 ||
		wrc=$?
	# shellcheck disable=SC2086
	"$XBULK" find $paths -printf "$fmt" >"$tmp/got" 2>&1 &&
		grc=0 || grc=$?
	sed -i 's/^find: /xbulk find: /' "$tmp/want"
	check "PATHs: $paths"
done
# Off XFS a plain walk answers (test-strategy.sh has more); a scan or a
# walk cannot
"$XBULK" find --strategy scan /proc -maxdepth 0 >/dev/null 2>"$tmp/got" &&
	grc=0 || grc=$?
grep -q "not on an XFS filesystem" "$tmp/got" && ((grc == 1)) &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: not XFS"; }
find /proc -maxdepth 0 -printf '%p %y %m\n' >"$tmp/want" 2>&1 && wrc=0 ||
	wrc=$?
"$XBULK" find /proc -maxdepth 0 -printf '%p %y %m\n' >"$tmp/got" 2>&1 &&
	grc=0 || grc=$?
check "not XFS: a plain walk"
# A symbolic link off XFS (on the tmpfs) to a directory on it: the
# message names the PATH, not the directory the link is in
ln -s "$T/d1" mnt/to-xfs
"$XBULK" find --strategy walk mnt/to-xfs >/dev/null 2>"$tmp/got" && grc=0 ||
	grc=$?
rm mnt/to-xfs
[[ $(cat "$tmp/got") == "xbulk find: 'mnt/to-xfs': not on an XFS filesystem" ]] &&
	((grc == 1)) && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: symlink off XFS: $(cat "$tmp/got")"; }
"$XBULK" find . nosuch -maxdepth 0 >"$tmp/got" 2>"$tmp/got.err" && grc=0 ||
	grc=$?
find . nosuch -maxdepth 0 >"$tmp/want" 2>"$tmp/want.err" && wrc=0 || wrc=$?
sed -i 's/^find: /xbulk find: /' "$tmp/want.err"
cat "$tmp/want.err" >>"$tmp/want"
cat "$tmp/got.err" >>"$tmp/got"
check "a PATH that does not exist"
# A PATH on another filesystem mounted inside: find -xdev walks it, a
# scan cannot (one XFS mount per run): the others' output, a message,
# exit 1; a plain walk can
find "$T" -xdev >"$tmp/want" && wrc=1
"$XBULK" find --strategy scan "$T" "$T/mnt" >"$tmp/got" 2>"$tmp/got.err" &&
	grc=0 || grc=$?
grep -q "not on the XFS mount of" "$tmp/got.err" || grc=99
check "a PATH on a filesystem mounted inside"
find "$T" "$T/mnt" -xdev >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
"$XBULK" find "$T" "$T/mnt" >"$tmp/got" 2>&1 && grc=0 || grc=$?
check "a PATH on a filesystem mounted inside, a plain walk"

# A bind mount of a subdirectory: paths never leave it
B=$XB_TMP/bind
mkdir "$B" && mount --bind "$T/d1" "$B"
xb_at_exit "umount -l '$B' 2>/dev/null || true"
find "$B" -xdev | sort >"$tmp/want"; wrc=0
"$XBULK" find "$B" | sort >"$tmp/got"; grc=0
check "bind mount of a subdirectory"
umount "$B"

# The user's locale (find's setlocale): in C.UTF-8 names match by
# characters and fold case beyond ASCII; on a terminal (script(1)) names
# show as find shows them there, in C and C.UTF-8
while IFS= read -r expr; do
	eval "set -- $expr"
	LC_ALL=C.UTF-8 find utf -xdev "$@" >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
	LC_ALL=C.UTF-8 "$XBULK" find utf "$@" >"$tmp/got" 2>&1 && grc=0 ||
		grc=$?
	check "C.UTF-8: find utf $expr"
done <<'EOF_UTF8'
-name '?'
-iname 'é*'
-iname 'école'
-name '[[:alpha:]]*'
-regex 'utf/.'
-iregex 'utf/ÉCOLE'
-printf '%-6f|%.2f|\n'
EOF_UTF8
for loc in C C.UTF-8; do
	fmt="%p|%-9f|%.4f|%l\n"
	script -qec "LC_ALL=$loc find . -maxdepth 1 -xdev -print \
		-printf '$fmt'" /dev/null >"$tmp/want" && wrc=0 || wrc=$?
	script -qec "LC_ALL=$loc '$XBULK' find . -maxdepth 1 -print \
		-printf '$fmt'" /dev/null >"$tmp/got" && grc=0 || grc=$?
	check "on a terminal, LC_ALL=$loc"
done

# Output errors: stdout closed (as xbulk's other commands, unless
# nothing is written), a -fprint FILE that fails (named, as find names
# it); exit 1
"$XBULK" find . -maxdepth 0 >&- 2>"$tmp/got" && grc=0 || grc=$?
grep -qx "xbulk find: write to stdout: Bad file descriptor" "$tmp/got" &&
	((grc == 1)) && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: stdout closed (status $grc)"; }
"$XBULK" find . -maxdepth 0 -printf '' >&- && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: stdout closed, nothing written"; }
find . -maxdepth 0 -fprint /dev/full 2>"$tmp/want" && wrc=0 || wrc=$?
"$XBULK" find . -maxdepth 0 -fprint /dev/full 2>"$tmp/got" && grc=0 ||
	grc=$?
sed -i 's/^find: /xbulk find: /' "$tmp/want"
check "-fprint /dev/full"
# -fprint '' names no file, also from a directory of the scanned fs
find . -maxdepth 0 -fprint '' 2>"$tmp/want" && wrc=0 || wrc=$?
"$XBULK" find . -maxdepth 0 -fprint '' 2>"$tmp/got" && grc=0 || grc=$?
sed -i 's/^find: /xbulk find: /' "$tmp/want"
check "-fprint ''"

# An idmapped mount: the kernel refuses bulkstat there; a scan says so
# in one line with what to use instead, exit 1; auto walks plainly, as
# find
if [[ -x ${IDMAP_MOUNT:-} ]]; then
	I=$XB_TMP/idmapped
	mkdir "$I"
	if "$IDMAP_MOUNT" "$XB_MNT" "$I" 2>/dev/null; then
		xb_at_exit "umount -l '$I' 2>/dev/null || true"
		find "$I/t/d1" -xdev >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
		"$XBULK" find "$I/t/d1" >"$tmp/got" 2>&1 && grc=0 || grc=$?
		check "idmapped mount, names only"
		find "$I/t/d1" -xdev -printf '%p %s %u\n' >"$tmp/want" 2>&1 &&
			wrc=0 || wrc=$?
		"$XBULK" find "$I/t/d1" -printf '%p %s %u\n' >"$tmp/got" 2>&1 &&
			grc=0 || grc=$?
		check "idmapped mount, auto stat()s"
		"$XBULK" find --strategy scan "$I/t" -maxdepth 0 >/dev/null \
			2>"$tmp/got" && grc=0 || grc=$?
		umount "$I"
		[[ $(wc -l <"$tmp/got") == 1 ]] && ((grc == 1)) &&
			grep -q "refuses bulkstat on idmapped mounts; use the" \
			"$tmp/got" && pass=$((pass + 1)) ||
			{ fail=$((fail + 1)); echo "FAIL: idmapped mount"; }
	fi
fi

# Refused: exit 2 and a one-line message that says what to do instead
for a in -D:"no debug options"; do
	"$XBULK" find ${a%%:*} . 2>"$tmp/got" >/dev/null && grc=0 || grc=$?
	[[ $(wc -l <"$tmp/got") == 1 ]] && grep -q "${a#*:}" "$tmp/got" &&
		((grc == 2)) && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: ${a%%:*} not refused"; }
done

# xbulk's own options after the PATH: find's message and where they go
"$XBULK" find . -j 2 2>"$tmp/got" && grc=0 || grc=$?
[[ $(sed -n 2p "$tmp/got") == *"own options, come before the PATHs" ]] &&
	((grc == 1)) && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: -j after the PATH"; }

# xbulk's own options without their value: a usage error naming it
for a in -j --format; do
	"$XBULK" find "$a" 2>"$tmp/got" >/dev/null && grc=0 || grc=$?
	[[ $(head -1 "$tmp/got") == "xbulk find: option '$a' needs a value" ]] &&
		((grc == 2)) && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: $a without its value"; }
done

# Bad expressions: find's message and status
while IFS= read -r expr; do
	eval "set -- $expr"
	find . "$@" >/dev/null 2>"$tmp/want" && wrc=0 || wrc=$?
	"$XBULK" find . "$@" >/dev/null 2>"$tmp/got" && grc=0 || grc=$?
	sed -i 's/^find: /xbulk find: /' "$tmp/want"
	check "bad: find . $expr"
done <<'EOF_BAD'
-foo
-name
-o -print
\( -print
\( \)
-print \)
-name a b
-name size0 size1
\( -o ref
-type x
-type f,f
-size 1x
-size abc
-perm abc
-perm +222
-user nosuchuser
-group nosuchgroup
-uid abc
-mtime abc
-newer nosuchfile
-regextype foo
-maxdepth -1
-printf %
-printf %{
!
-print -o
-name x -o
-print ! \)
-newerta x
-used x
EOF_BAD

# Output files on the scanned filesystem: created (or truncated) before
# the walk, as find does, so they are in it; also through a dangling
# symbolic link (its target is made)
ln -s "$T/out" "$tmp/link-out"
for out in "$T/out" "$tmp/link-out"; do
	find . -xdev -fprint "$out" -name 'size*' -fprintf "$T/out2" '%p %s\n'
	mv "$T/out" "$tmp/want"
	mv "$T/out2" "$tmp/want2"
	"$XBULK" find . -fprint "$out" -name 'size*' \
		-fprintf "$T/out2" '%p %s\n' && grc=0 || grc=$?
	mv "$T/out" "$tmp/got"
	wrc=0
	check "-fprint $out (on the scanned filesystem)"
	mv "$T/out2" "$tmp/got"
	cp "$tmp/want2" "$tmp/want"
	check "-fprintf $T/out2 (on the scanned filesystem)"
done
rm "$tmp/link-out"

# Birth times (find 4.9 here has none): every file of the tree (the
# tmpfs aside) was born after 1970 and before the test began, none after
find . -xdev -path ./mnt -prune -o -print >"$tmp/want"
wrc=0
"$XBULK" find . -path ./mnt -prune -o -newerBt @0 -print >"$tmp/got" &&
	grc=0 || grc=$?
check "-newerBt @0"
"$XBULK" find . -path ./mnt -prune -o \
	-xfs-bmin -$(( ($(date +%s) - XF_NOW) / 60 + 60 )) -print \
	>"$tmp/got" && grc=0 || grc=$?
check "-xfs-bmin"
: >"$tmp/want"
"$XBULK" find . -path ./mnt -prune -o -newerBt "@$(($(date +%s) + 60))" \
	-print >"$tmp/got" && grc=0 || grc=$?
check "-newerBt in a minute"

# --format jsonl and csv: one record per path, the path exact (path_b64
# when it is not UTF-8; CSV quoting of commas, quotes, newlines), the
# fields find sees
find . -xdev -printf '%p/%i/%s/%U/%m\0' | sort -z >"$tmp/want"
wrc=0
for fmt in jsonl csv; do
	"$XBULK" find --format $fmt . >"$tmp/g" && grc=0 || grc=$?
	python3 - "$fmt" "$tmp/g" <<'EOF_PY' | sort -z >"$tmp/got"
import base64, csv, io, json, sys
raw = open(sys.argv[2], "rb").read()
if sys.argv[1] == "jsonl":
    recs = [json.loads(l) for l in raw.split(b"\n") if l]
else:
    recs = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
for r in recs:
    p = (base64.b64decode(r["path_b64"]) if r["path_b64"]
         else r["path"].encode())
    line = b"%s/%s/%s/%s/%o\0" % (p, str(r["bs_ino"]).encode(),
        str(r["bs_size"]).encode(), str(r["bs_uid"]).encode(),
        int(str(r["bs_mode"]), 8) & 0o7777)
    sys.stdout.buffer.write(line)
EOF_PY
	check "--format $fmt"
done
# CSV's header on each output -print and -fprint write to (and only
# there), even with no record; -print0 still prints the path
hdr=$("$XBULK" find --format csv . -name nosuch)
"$XBULK" find --format csv . -name ref -fprint "$tmp/f.csv" \
	-printf '%p\n' >"$tmp/got" && grc=0 || grc=$?
[[ $hdr == bs_ino,*,path,path_b64$'\r' && $(cat "$tmp/got") == ./ref &&
   $(head -1 "$tmp/f.csv") == "$hdr" && $(wc -l <"$tmp/f.csv") == 2 ]] &&
	((grc == 0)) && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: --format csv's headers"; }
printf './ref\0' >"$tmp/want"
wrc=0
"$XBULK" find --format jsonl . -name ref -print0 >"$tmp/got" && grc=0 ||
	grc=$?
check "--format jsonl -print0"

# Not root: with the three capabilities, the same output as root's;
# without CAP_SYS_ADMIN or CAP_DAC_READ_SEARCH, one message naming the
# one missing, exit 1; without CAP_FOWNER (O_NOATIME on a directory one
# does not own: the mount's root here, and so all below it), find goes
# on, naming the directory it cannot read where it descends, exit 1, as
# du does (test-du.sh)
if command -v setpriv >/dev/null; then
	chmod o+x "$XB_TMP"
	caps=+sys_admin,+dac_read_search,+fowner
	"$XBULK" find . -printf '%p %i\n' >"$tmp/want"; wrc=0
	setpriv --reuid=nobody --clear-groups --inh-caps=$caps \
		--ambient-caps=$caps "$XBULK" find . -printf '%p %i\n' \
		>"$tmp/got" && grc=0 || grc=$?
	check "not root, with the capabilities"
	for caps in -all:CAP_SYS_ADMIN +sys_admin:CAP_DAC_READ_SEARCH \
		    "+sys_admin,+dac_read_search:CAP_FOWNER"; do
		need=${caps#*:} caps=${caps%:*}
		setpriv --reuid=nobody --clear-groups --inh-caps=-all,$caps \
			--ambient-caps=-all,$caps "$XBULK" find \
			--strategy scan . >"$tmp/got" 2>"$tmp/got.err" &&
			grc=0 || grc=$?
		if [[ $need == CAP_FOWNER ]]; then
			msg="xbulk find: '.': Operation not permitted (reading a directory one does not own, .*needs $need)"
			out=.
		else
			msg="xbulk find: \\.: .*: Operation not permitted (.*needs $need)"
			out=
		fi
		[[ $(wc -l <"$tmp/got.err") == 1 && $(cat "$tmp/got") == "$out" ]] &&
			grep -qx "$msg" "$tmp/got.err" && ((grc == 1)) &&
			pass=$((pass + 1)) || {
			fail=$((fail + 1)); echo "FAIL: capabilities $caps"
			cat "$tmp/got" "$tmp/got.err"; }
	done
	# with none, auto walks plainly: find's output and messages, as
	# GNU find gives them to that user
	for e in "-printf %p_%s_%y\n" "-empty" "-type d"; do
		# shellcheck disable=SC2086
		setpriv --reuid=nobody --clear-groups --inh-caps=-all \
			find . -xdev $e >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
		sed -i 's/^find: /xbulk find: /' "$tmp/want"
		# shellcheck disable=SC2086
		setpriv --reuid=nobody --clear-groups --inh-caps=-all \
			--ambient-caps=-all "$XBULK" find . $e >"$tmp/got" \
			2>&1 && grc=0 || grc=$?
		check "not root, no capability: find . $e"
	done
	# ... and once -exec ran after a scan, directories are read as the
	# walk reaches them, still with O_NOATIME and never without: one
	# not one's own is named unreadable, its atime unchanged (relatime
	# would move an atime this old; a plain walk, find's own, reads it
	# as find does)
	mkdir -p "$T/own/sub"
	: >"$T/own/sub/f"
	chown nobody "$T/own"
	touch -a -d 2000-01-01 "$T/own/sub"
	caps=-all,+sys_admin,+dac_read_search
	setpriv --reuid=nobody --clear-groups --inh-caps=$caps \
		--ambient-caps=$caps "$XBULK" find --strategy scan "$T/own" \
		-exec true \; -print >"$tmp/got" 2>"$tmp/got.err" && grc=0 ||
		grc=$?
	[[ $(stat -c %X "$T/own/sub") == $(date -d 2000-01-01 +%s) ]] &&
		grep -q "/own/sub.: Operation not permitted" "$tmp/got.err" &&
		! grep -q "/own/sub/f" "$tmp/got" && ((grc == 1)) &&
		pass=$((pass + 1)) || {
		fail=$((fail + 1)); echo "FAIL: a live read changed an atime"
		stat -c %x "$T/own/sub"; cat "$tmp/got" "$tmp/got.err"; }
	rm -r "$T/own"
fi

# A damaged directory (xfs_db zeroes its block's magic): named where find
# reads it, when the walk descends into it (exit 1), in order with the
# output, and not where find does not (-maxdepth, -prune, -quit)
mkdir "$T/dmg"
for ((i = 0; i < 100; i++)); do : >"$T/dmg/f$i"; done
ino=$(stat -c %i "$T/dmg")
teardown
xb_umount
xfs_db -x -c "inode $ino" -c "dblock 0" -c "write -d bhdr.hdr.magic 0" \
	"$XB_IMG" >/dev/null
xb_remount
cd "$T"
ls dmg >/dev/null 2>&1 && xb_die "xfs_db did not damage dmg"
while IFS= read -r expr; do
	eval "set -- $expr"
	find . -xdev "$@" >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
	"$XBULK" find . "$@" >"$tmp/got" 2>&1 && grc=0 || grc=$?
	sed -i 's/^find: /xbulk find: /' "$tmp/want"
	check "damaged directory: find . $expr"
done <<'EOF_DMG'
-name 'dm*'
-maxdepth 1 -name dmg
-name dmg -prune
-name dmg -quit
-depth -name 'dm*'
-path ./dmg/f1
-maxdepth 1 -name dmg -o -name nosuch -empty
EOF_DMG
# -empty is false for it, as in find (which names it again for -empty)
for expr in "-empty" "! -empty"; do
	# shellcheck disable=SC2086
	find . -xdev -name dmg $expr >"$tmp/want" 2>/dev/null && wrc=0 ||
		wrc=$?
	# shellcheck disable=SC2086
	"$XBULK" find . -name dmg $expr >"$tmp/got" 2>/dev/null && grc=0 ||
		grc=$?
	check "damaged directory: find . -name dmg $expr"
done

cd /
echo "$pass passed, $fail failed"
((fail == 0))
