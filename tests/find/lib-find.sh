#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The find tests' tree, expressions and check(), shared by
# test-find-eval.sh (the evaluator on any filesystem, through find_fts),
# test-find.sh and test-find-edges.sh (xbulk find on XFS).  Source it.

# check NAME: compare $tmp/want and $tmp/got and the statuses $wrc and
# $grc; count in $pass and $fail, and say what differs
check()
{
	if cmp -s "$tmp/want" "$tmp/got" && ((wrc == grc)); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1 (status $wrc, got $grc)"
		diff "$tmp/want" "$tmp/got" | head -6 | cut -c1-160 || true
	fi
}

# xf_small_fs: the start of the tests on one small image: $XBULK made
# absolute (they change directory), skip unless root and loop devices;
# a 512 MiB XFS of 4 AGs mounted, $tmp off it, $T (made) on it; the
# counts $pass and $fail at 0
xf_small_fs()
{
	XBULK=$(realpath "${XBULK:?}")
	xb_require_root_loop
	pass=0 fail=0
	xb_mkfs_mount 512M "-d agcount=4"
	tmp=$XB_TMP
	T=$XB_MNT/t
	mkdir "$T"
}

# xf_paths WORD...: the PATHs before "--" in $XF_PATHS (an array), and
# in $XF_USED how many words they and "--" take (for shift)
xf_paths()
{
	XF_PATHS=()
	while [[ $1 != -- ]]; do
		XF_PATHS+=("$1")
		shift
	done
	XF_USED=$((${#XF_PATHS[@]} + 1))
}

# xf_next_opt: with XF_ALTERNATE=1, set XOPT to -j 1 and -j 2 in turn,
# one case each
XF_CASES=0
xf_next_opt()
{
	if [[ ${XF_ALTERNATE:-0} == 1 ]]; then
		XOPT="-j $((1 + XF_CASES % 2))"
		XF_CASES=$((XF_CASES + 1))
	fi
}

# same PATH... -- EXPR...: find -xdev and xbulk find $XOPT, stdout and
# stderr together (find's order, "find: " as "xbulk find: "), and the
# status; then check().  Each reads stdin from $SAME_IN (/dev/null).
same()
{
	local -a paths

	xf_paths "$@"
	shift "$XF_USED"
	paths=("${XF_PATHS[@]}")
	xf_next_opt
	find "${paths[@]}" -xdev "$@" <"${SAME_IN:-/dev/null}" >"$tmp/want" \
		2>&1 && wrc=0 || wrc=$?
	sed -i 's/^find: /xbulk find: /' "$tmp/want"
	# shellcheck disable=SC2086
	"$XBULK" find $XOPT "${paths[@]}" "$@" <"${SAME_IN:-/dev/null}" \
		>"$tmp/got" 2>&1 && grc=0 || grc=$?
	check "find $XOPT ${paths[*]} $*"
}

# Make the odd tree under $1 (root for chown, mknod; times relative to
# $XF_NOW so that -mtime and -mmin tests stay away from boundaries).
# $2 = "deep" adds a path longer than PATH_MAX.
xf_make_tree()
{
	local top=$1 i d now=$XF_NOW long

	mkdir -p "$top" && cd "$top" || return 1
	mkdir -p d1/sub d2/deeper/deepest emptydir D3 noperm
	touch 'sp ace' $'nl\nname' $'tab\tname' "quo'te" 'dq"x' 'back\slash' \
		-- '-dash' '--double' 'UPPER.TXT' lower.txt d1/a.txt \
		d1/sub/b.txt d2/c.dat
	printf 'x' > $'\xff\xfeinvalid'
	# UTF-8 names, valid or not, printable or not (U+200B, U+009B)
	mkdir utf
	touch utf/$'\xc3\xa9' utf/$'\xc3\x89COLE' utf/$'caf\xc3\xa9' \
		utf/$'a\xc3' utf/$'\xe2\x80\x8b' utf/$'c\xc2\x9bd'
	long=$(printf 'L%.0s' $(seq 1 255))
	touch "$long"
	# sizes around find's units
	for i in 0 1 511 512 513 1023 1024 1025 2047 2048; do
		head -c "$i" /dev/zero > "size$i"
	done
	truncate -s 1048575 mib-1
	truncate -s 1048576 mib
	truncate -s 1048577 mib+1
	truncate -s 3G sparse3g
	head -c 2000000 /dev/urandom > dense2m
	# links, specials
	echo ref > ref
	ln ref hardlink1
	ln ref d1/hardlink2
	ln -s ref sym-ref
	ln -s nowhere sym-dangling
	ln -s d1 sym-dir
	ln -s sym-loop2 sym-loop1
	ln -s sym-loop1 sym-loop2
	mkfifo fifo
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock
	mknod cdev c 1 3 2>/dev/null || true
	mknod bdev b 7 200 2>/dev/null || true
	# owners and modes
	chown 12345:54321 size1 2>/dev/null || true
	chown 0:54321 size2048 2>/dev/null || true
	chmod 4755 size511
	chmod 2750 size513
	chmod 1777 emptydir
	chmod 600 size1023
	chmod 711 d2
	chmod 0 size1025
	# times: old, before 1970, 2038, far future, and relative to now
	touch -d '1960-05-05 01:02:03.25' -- '-dash'
	touch -d '1969-12-31 23:59:30.5' 'sp ace'
	touch -d '2038-01-19 03:14:37.5' d1/a.txt
	touch -d '2200-06-15 12:34:56.125' 'UPPER.TXT'
	touch -d '2020-02-29 12:30:45.75' lower.txt
	touch -d "@$((now - 3 * 86400 + 43210))" size0
	touch -d "@$((now - 5400 - 17))" size512
	touch -d "@$((now - 40 * 86400 - 3333))" d2/c.dat
	touch -a -d "@$((now - 2 * 86400 - 5000))" size1024
	touch -a -d "@$((now + 3 * 86400 + 5000))" size2047
	touch -d "@$((now - 7200 - 11))" ref
	# deep nesting past PATH_MAX
	if [[ ${2:-} == deep ]]; then
		d=deep
		mkdir deep
		(
			cd deep || exit 1
			for i in $(seq 1 40); do
				d=$(printf 'dir%03d%.0s' "$i" $(seq 1 30))
				mkdir "${d:0:200}" && cd "${d:0:200}" || exit 1
			done
			touch deepfile
		)
	fi
	chmod 0 noperm
	cd - >/dev/null || return 1
}

# The expressions, one a line, as shell words (eval'd).  REF_INUM is
# the inode number of ./ref.
xf_expressions()
{
	cat <<'EOF_EXPR'
-print
-print0
-name '*.txt'
-iname '*.TXT'
-name 'sp ace'
-name '*[[:space:]]*'
-name '-*'
-name '*\\*'
-name 'L*'
-path './d1/*'
-ipath '*/D1/*'
-wholename '*sub*'
-regex '.*/[a-c][^/]*'
-iregex '.*/u.*'
-regextype posix-extended -regex '.*/(size|mib)[0-9+-]*'
-regextype posix-basic -regex '.*/size\(1\|2\)'
-type f
-type d
-type l
-type p
-type s
-type c,b
-type f,l
-xtype l
-xtype d
-size 0
-size -1
-size 1
-size +1
-size 512c
-size -513c
-size +511c
-size 2
-size 1k
-size -2k
-size +1k
-size 1M
-size +1M
-size -1M
-size 2w
-size 3G
-size +2G
-empty
-empty -type d
-mtime 0
-mtime -1
-mtime +1
-mtime 2
-mtime +39
-mmin -100
-mmin +100
-mmin 91
-amin +60
-atime +1
-atime -4
-ctime -1
-daystart -mtime 2
-daystart -mtime -5
-daystart -mmin +30
-used +1
-used -1
-newer ref
-anewer ref
-cnewer ref
-newermt '2038-01-19 03:14:07'
-newermt 1970-01-01
-newermt '2020-02-29T12:30:45'
-newerat ref
-newermm ref
-newermt @0 -not -newermt @2000000000
-uid 0
-uid +1000
-gid 54321
-user root
-user 12345
-group 54321
-nouser
-nogroup
-perm 644
-perm -644
-perm /111
-perm -u+s
-perm /g+s,o+t
-perm u=rwx,go=rx
-perm -a+r
-perm 000
-perm -g=x
-links 1
-links +1
-links -2
-links 3
-inum $REF_INUM
-samefile hardlink1
-empty -o -size +1M
! -type f
-not -name '*a*'
-type f -a -size +0
-type f -o -type d
-name 'size*' , -type d
\( -type f -o -type l \) -a -name '*1*'
-path ./d1 -prune -o -print
-path ./d1 -prune -o -type f -print
-name d2 -prune
-maxdepth 1
-maxdepth 0
-mindepth 2
-mindepth 1 -maxdepth 2 -type d
-depth
-depth -name 'size*'
-depth -maxdepth 1
-true
-false
-false -o -print
-print -quit
-maxdepth 0 -printf '%p\c'
-printf '%p %s\n'
-printf '%p|%f|%h|%P|%H|%d|%y|%m|%M|%n|%i\n'
-printf '%p %s %b %k %S\n'
-printf '%p %u %g %U %G\n'
-printf '%p %t %a %c\n'
-printf '%p %T+ %A@ %C@ %TS %TY-%Tm-%Td %TH:%TM %Tk %Tb %TZ %Tc\n'
-printf '%p %l %Y\n'
-printf '%-20p|%10s|%-5m|%05d|%+d|%.3f|%#m\n'
-printf '%p\0'
-printf 'a\tb\\n\101%%%q\n'
-printf '%D %F\n'
-ls
-lname '*ef*'
-ilname '*REF*'
-readable
-writable
-executable
-fstype xfs
-name '*.txt' -printf '%f\n' -o -type d -printf 'dir %p\n'
EOF_EXPR
}
