#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk find --snapshot FILE (issue 26, item 5): the expressions of
# lib-find.sh over a snapshot of the odd tree (paths past PATH_MAX
# included) against xbulk find over the filesystem itself at the same
# moment (nothing changes in between: noatime, the snapshot off the
# filesystem), compared sorted (a snapshot keeps no readdir order), with
# stderr and the exit status; the expressions a snapshot cannot answer
# refused with their primary named and status 2; PATH forms (the mount
# point, a trailing slash, ".", a subdirectory, a file, missing, outside
# the mount); the options of a live scan refused; a user who cannot
# read the file (0600: the kernel refuses); a truncated file, a flipped
# byte, a damaged record under right checksums: one line, status 1, no
# output.  TZ=UTC LC_ALL=C.
#
# Environment: XBULK, SNAP_RESEAL, SNAP_WALK (meson sets them).
set -euo pipefail
export TZ=UTC LC_ALL=C

here=$(dirname "$0")
. "$here/../integration/lib.sh"
. "$here/lib-find.sh"

XBULK=$(realpath "${XBULK:?}")	# the test changes directory
XF_NOW=$(date +%s)
xb_require_root_loop
pass=0 fail=0

xb_mkfs_mount 1G "-d agcount=4" noatime
tmp=$XB_TMP
M=$XB_MNT
xf_make_tree "$M/t" deep
sync
# the reference files of -newer... are found from here
cd "$M/t"
# shellcheck disable=SC2034	# read by xf_expressions' -inum
REF_INUM=$(stat -c %i ref)
S=$tmp/snap
"$XBULK" snapshot -j 2 "$M" "$S" || xb_die "xbulk snapshot"

# The expressions a snapshot cannot answer, and the primary (or
# -printf's directive) each names.
declare -A refused=(
	["-xtype l"]=-xtype ["-xtype d"]=-xtype
	["-samefile hardlink1"]=-samefile
	["-printf '%p %l %Y\n'"]="-printf %l"
	["-printf '%D %F\n'"]="-printf %D"
	["-ls"]=-ls ["-lname '*ef*'"]=-lname ["-ilname '*REF*'"]=-ilname
	["-readable"]=-readable ["-writable"]=-writable
	["-executable"]=-executable
	["-exec true {} \\;"]=-exec ["-execdir true {} +"]=-execdir
	["-ok true {} \\;"]=-ok ["-okdir true {} \\;"]=-okdir
	["-delete"]=-delete ["-fls $tmp/ls"]=-fls
	["-xfs-extsize 0"]=-xfs-extsize
	["-printf '%Xc\n'"]="-printf %Xc"
	["-name x -o -printf '%p %Y\n'"]="-printf %Y"
)

# run OUT [ARG...]: xbulk find ARG..., stdout to $tmp/OUT, stderr to
# $tmp/OUT.err, the status in $rc
run()
{
	local out=$1

	shift
	"$XBULK" find "$@" >"$tmp/$out" 2>"$tmp/$out.err" && rc=0 || rc=$?
}

# compare LABEL: the snapshot's run (s) against the live one (l), stdout
# sorted as sort -z sorts (NUL-terminated records when the output has a
# NUL), stderr and status
compare()
{
	local sort=(sort)

	if grep -qaP '\x00' "$tmp/l"; then
		sort=(sort -z)
	fi
	"${sort[@]}" "$tmp/l" >"$tmp/want"
	"${sort[@]}" "$tmp/s" >"$tmp/got"
	wrc=$lrc grc=$src
	check "$1"
	cp "$tmp/l.err" "$tmp/want"
	cp "$tmp/s.err" "$tmp/got"
	check "$1 (stderr)"
}

# the matrix, and what only a snapshot refuses
nref=0
while IFS= read -r expr; do
	eval "set -- $expr"
	run s --snapshot "$S" "$M/t" "$@"
	src=$rc
	if [[ -n ${refused[$expr]+x} ]]; then
		want="xbulk find: ${refused[$expr]}: not answerable from a snapshot"
		if ((src == 2)) && [[ ! -s $tmp/s && $(wc -l <"$tmp/s.err") == 1 ]] &&
		   grep -q "^$want " "$tmp/s.err"; then
			pass=$((pass + 1)) nref=$((nref + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: refused: find $expr (status $src)"
			head -3 "$tmp/s.err"
		fi
		continue
	fi
	run l "$M/t" "$@"
	lrc=$rc
	if [[ $expr == '-print -quit' ]]; then
		# the first file: find's and the snapshot's orders differ
		if [[ $(wc -l <"$tmp/s") == 1 ]] && ((src == lrc)); then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: -print -quit"
		fi
		continue
	fi
	compare "find $expr"
done < <(xf_expressions; printf '%s\n' "${!refused[@]}" |
	 grep -v '^-xtype\|^-samefile\|^-printf .%p %l\|^-printf .%D\|^-ls$\|^-lname\|^-ilname\|^-readable\|^-writable\|^-executable')
((nref == ${#refused[@]})) || {
	fail=$((fail + 1))
	echo "FAIL: $nref of ${#refused[@]} refusals seen"
}

cd "$M"

# the walk's entries from the file and from a live scan read as a
# snapshot (xbulk_snap_scan()): the same, in the same order
if [[ -x ${SNAP_WALK:-} ]]; then
	for start in . t/d1 "$M/t/"; do
		"$SNAP_WALK" "$S" "$start" post >"$tmp/want" 2>&1 && wrc=0 ||
			wrc=$?
		"$SNAP_WALK" "$M" "$start" post >"$tmp/got" 2>&1 && grc=0 ||
			grc=$?
		check "snap_walk $start: file and live scan"
	done
	if [[ $(grep -c '^post ' "$tmp/got") == \
	      $(grep -Ec '^pre [0-9]+ [0-9]+ 4[0-7]{4} ' "$tmp/got") &&
	      $(wc -l <"$tmp/got") -gt 100 ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: snap_walk: a POST for every directory"
	fi
fi

# PATH forms, from the mount's top: the mount point (with a trailing
# slash), ".", relative subdirectories, a file, several, a missing one
for paths in "$M" "$M/" . ./ t t/d1 "t/d1/" t/ref "t/d1 t/d2 t/ref" t/sym-dir \
	     "t/nope" "t/d1/nope/x" "$M/t/d2/deeper"; do
	read -r -a p <<<"$paths"
	run s --snapshot "$S" "${p[@]}" -printf '%p %d %s %n %y\n'
	src=$rc
	run l "${p[@]}" -printf '%p %d %s %n %y\n'
	lrc=$rc
	compare "PATHs $paths"
done
# -files0-from: the PATHs from a file, as find reads them
printf 't/d1\0t/ref\0' >"$tmp/files0"
run s --snapshot "$S" -files0-from "$tmp/files0" -print
src=$rc
run l -files0-from "$tmp/files0" -print
lrc=$rc
compare "-files0-from"

# find_no_hint ARG...: xbulk find ARG..., its usage errors' second line
# (the hint to --help) left out of stderr
find_no_hint()
{
	local rc=0

	"$XBULK" find "$@" 2>"$tmp/hint" || rc=$?
	grep -v "^Try 'xbulk find --help'" "$tmp/hint" >&2 || true
	return "$rc"
}

# want_error LABEL STATUS REGEX ARG...: xbulk find ARG... fails with
# STATUS, one line of stderr matching REGEX (a usage error: and the hint
# to --help), nothing on stdout (xb_want_fail: the test dies otherwise)
want_error()
{
	local label=$1 status=$2 re=$3

	shift 3
	xb_want_fail "$label" "$status" "$re" "$tmp/e" "$tmp/e.err" \
		find_no_hint "$@"
	pass=$((pass + 1))
}

want_error "outside the mount" 1 "^xbulk find: '/etc': not in the snapshot" \
	--snapshot "$S" /etc -print
want_error "-H and a symbolic link" 1 \
	"^xbulk find: 't/sym-dir': a symbolic link, which -H cannot follow" \
	--snapshot "$S" -H t/sym-dir -print
want_error "above its top" 1 "^xbulk find: '\.\.': not in the snapshot" \
	--snapshot "$S" .. -print
for opt in -j2 --format=jsonl --no-sync --strategy=walk --memory=1G --stats \
	   --progress; do
	want_error "$opt --snapshot" 2 \
		"^xbulk find: ${opt%%[=2]*}.* not with --snapshot" \
		"$opt" --snapshot "$S" .
done
want_error "--snapshot without its FILE" 2 "'--snapshot' needs a value" \
	--snapshot
want_error "missing file" 1 "^xbulk find: $tmp/none: No such file or directory$" \
	--snapshot "$tmp/none" .
want_error "not a snapshot" 1 "^xbulk find: /etc/passwd: not an xbulk snapshot$" \
	--snapshot /etc/passwd .

# not root: the file is 0600, the kernel refuses
if command -v setpriv >/dev/null; then
	[[ $(stat -c %a "$S") == 600 ]] || {
		fail=$((fail + 1))
		echo "FAIL: the snapshot is $(stat -c %a "$S"), not 0600"
	}
	chmod 755 "$tmp"
	xb_want_fail "not root" 1 "^xbulk find: $S: Permission denied$" \
		"$tmp/e" "$tmp/e.err" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all "$XBULK" find --snapshot "$S" .
	pass=$((pass + 1))
fi

# damage: truncated, a byte flipped, a record damaged under right
# checksums (snap_reseal): one line, status 1, nothing on stdout
size=$(stat -c %s "$S")
head -c $((size / 2)) "$S" >"$tmp/half"
want_error "truncated" 1 "^xbulk find: $tmp/half: truncated" \
	--snapshot "$tmp/half" . -print
cp "$S" "$tmp/flip"
byte=$(od -An -tu1 -j $((size / 3)) -N1 "$S")
printf '%b' "\\x$(printf %02x $((byte ^ 255)))" |
	dd of="$tmp/flip" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
cmp -s "$S" "$tmp/flip" && xb_die "the byte at $((size / 3)) did not change"
want_error "a byte flipped" 1 "^xbulk find: $tmp/flip: .*(damaged|checksum)" \
	--snapshot "$tmp/flip" . -print
if [[ -x ${SNAP_RESEAL:-} ]]; then
	touch "$M/damage-me-0123456789"
	"$XBULK" snapshot --level 0 "$M" "$tmp/rec" ||
		xb_die "snapshot --level 0"
	off=$(grep -boa 'damage-me-0123456789' "$tmp/rec" | cut -d: -f1)
	[[ $off =~ ^[0-9]+$ ]] || xb_die "the name is not once in the file"
	printf / | dd of="$tmp/rec" bs=1 seek=$((off + 6)) conv=notrunc \
		2>/dev/null
	"$SNAP_RESEAL" "$tmp/rec" || xb_die "snap_reseal"
	want_error "a damaged record" 1 \
		"^xbulk find: $tmp/rec: damaged record of inode [0-9]+ " \
		--snapshot "$tmp/rec" . -print
fi

echo "find --snapshot: $pass passed, $fail failed"
((fail == 0))
