#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk find against GNU find 4.9 where find's answer is easy to get
# wrong: numbers with a second sign or a leading blank, %Y of a link
# whose target path meets a file (ENOTDIR), a bind mount over a file,
# file names in messages (quoted as find quotes them, in C and in
# C.UTF-8), sizes right after a write (syncfs first; du -b too), and a
# low limit of open files (the readers' fd budget).  One small image.
set -euo pipefail
export TZ=UTC LC_ALL=C

here=$(dirname "$0")
. "$here/../integration/lib.sh"
. "$here/lib-find.sh"

xf_small_fs
cd "$T"
touch file f2 $'nl\nname' "quo'te" 'back\slash' $'\xff\xfe' $'\xc3\xa9t\xc3\xa9' \
	$'c\xc2\x9bd' $'tab\tx'
chown 1:1 f2
ln -s file/x notdir
ln -s nowhere dangling
touch null
mount --bind /dev/null null
xb_at_exit "umount -l '$T/null' 2>/dev/null || true"
mkdir -p d/e
sync

for XOPT in "-j 1" "-j 2"; do
	# A second sign or a leading blank after the comparison's
	ino=$(stat -c %i file)
	for e in "-uid -+1" "-gid -+1" "-links ++0" "-size -+1" \
		 "-links ' +1'" "-inum ' +$ino'" "-inum '+ $ino'" \
		 "-size -+1k" "-uid +-1" "-uid '1 '" "-size +-1" "-links --1"
	do
		eval "set -- $e"
		same . -- -name '[fdn]*' "$@" -print
	done
	# %Y: nothing there (N) also when the path meets a file
	same notdir dangling file -- -printf '%p %y%Y\n'
	same . -- -name notdir -xtype l
	# A file covered by a bind mount: the mount's stat, as find
	for e in "-xtype c" "-perm 666" "-type c" "-type f" "-links 1 -user root"; do
		eval "set -- $e"
		same . -- -name null "$@"
	done
	same . -- -name null -printf '%y%Y %m\n'
	# Names in messages, as find quotes them
	for loc in C C.UTF-8; do
		LC_ALL=$loc same nosuch $'a\nb' $'\xff' $'\xc3\xa9' "it's" \
			'a\b' $'c\xc2\x9bd' $'t\tx' ./file -- -maxdepth 0
		LC_ALL=$loc same . -- -newer $'nl\nname2'
		LC_ALL=$loc same . -- -fprint /nonexistent/$'x\ny'
	done
done

# Sizes right after a write: bulkstat's is the size on disk until
# writeback; syncfs first makes it stat()'s (find, du -b)
echo baz >"$T/new"
printf 'new 4\n' >"$tmp/want"
wrc=0
"$XBULK" find "$T/new" -printf '%f %s\n' >"$tmp/got" && grc=0 || grc=$?
check "find -printf %s right after a write"
head -c 5000 /dev/zero >"$T/new2"
"$XBULK" find "$T" -name new2 -size 5000c -printf '%f %s\n' \
	>"$tmp/got" && grc=0 || grc=$?
printf 'new2 5000\n' >"$tmp/want"
check "find -size right after a write"
head -c 7777 /dev/zero >"$T/d/new3"
printf '7777\t%s\n' "$T/d/new3" >"$tmp/want"
"$XBULK" du -b "$T/d/new3" >"$tmp/got" && grc=0 || grc=$?
check "du -b right after a write"

# The same right after a write for du --apparent-size and --by
# size-class; and --no-sync: no syncfs, so the size on disk (0) while
# the data waits for writeback (checked with xfs_io's bulkstat first:
# if writeback came already, that case is left out)
head -c 300000 /dev/zero >"$T/d/new4"
printf '293\t%s\n' "$T/d/new4" >"$tmp/want"
"$XBULK" du --apparent-size "$T/d/new4" >"$tmp/got" && grc=0 || grc=$?
check "du --apparent-size right after a write"
mkdir "$T/sc"
head -c 300000 /dev/zero >"$T/sc/f"
printf '293\t1\t<1M\n1\t1\t<4K\n' >"$tmp/want"
"$XBULK" du --by size-class "$T/sc" | grep -v '^#' | cut -f2-4 \
	>"$tmp/got" && grc=0 || grc=$?
check "du --by size-class right after a write"
echo quux >"$T/nosync"
ino=$(stat -c %i "$T/nosync")
if xfs_io -r -c "bulkstat_single $ino" "$T" | grep -q 'bs_size = 0$'; then
	printf '0\n0\t%s\n' "$T/nosync" >"$tmp/want"
	{ "$XBULK" find --no-sync "$T/nosync" -printf '%s\n' &&
	  "$XBULK" du --no-sync -b "$T/nosync"; } >"$tmp/got" && grc=0 ||
		grc=$?
	check "find and du --no-sync: the size on disk"
fi
printf '5\n' >"$tmp/want"
"$XBULK" find "$T/nosync" -printf '%s\n' >"$tmp/got" && grc=0 || grc=$?
check "find without --no-sync: stat()'s size"

# -fls, -fprint0 and -fprint into the scanned filesystem, inside the
# tree walked: the file is there, empty, as find lists it (made anew
# each time: its inode number is not compared)
mkdir "$T/fo" && touch "$T/fo/a" "$T/fo/b"
fls_sed='s/ [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]\{4,5\} / DATE /'
fls_sed+=';/\/out$/s/^ *[0-9]*/INO/'
for act in -fls -fprint0 -fprint; do
	for XOPT in "-j 1" "-j 2"; do
		rm -f "$T/fo/out"
		find "$T/fo" $act "$T/fo/out" >"$tmp/want" 2>&1 && wrc=0 ||
			wrc=$?
		sed "$fls_sed" "$T/fo/out" >>"$tmp/want"
		rm -f "$T/fo/out"
		# shellcheck disable=SC2086
		"$XBULK" find $XOPT "$T/fo" $act "$T/fo/out" >"$tmp/got" 2>&1 &&
			grc=0 || grc=$?
		sed "$fls_sed" "$T/fo/out" >>"$tmp/got"
		check "find $XOPT $act FILE in the tree walked"
	done
done

# One FILE under two names (another path, a symbolic link): one stream,
# as find's sharefile makes it, the lines in find's order
ln -s out "$tmp/out-link"
for XOPT in "-j 1" "-j 2"; do
	for e in "-fprint $tmp/out -fprintf $tmp/../${tmp##*/}/out X%p\n" \
		 "-fprint $tmp/out-link -fls $tmp/out -fprint $tmp/out"; do
		# shellcheck disable=SC2086
		find "$T/fo" $e >"$tmp/want" 2>&1 && wrc=0 || wrc=$?
		sed 's/ [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]\{4,5\} / DATE /' \
			"$tmp/out" >>"$tmp/want"
		# shellcheck disable=SC2086
		"$XBULK" find $XOPT "$T/fo" $e >"$tmp/got" 2>&1 && grc=0 ||
			grc=$?
		sed 's/ [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]\{4,5\} / DATE /' \
			"$tmp/out" >>"$tmp/got"
		check "find $XOPT $e: one file under two names"
	done
done

# find's warnings (-warn), in find's words and order: a global option
# after a test, -d's deprecation, a -name with a '/', a -path ending in
# '/', -perm /000
for e in "-used 1 -d" "-name a -maxdepth 1" "-name a/b" "-path x/" \
	 "-perm /000 -depth"; do
	# shellcheck disable=SC2086
	find "$T/fo" -warn $e >/dev/null 2>"$tmp/want" && wrc=0 || wrc=$?
	# shellcheck disable=SC2086
	"$XBULK" find "$T/fo" -warn $e 2>&1 >/dev/null |
		sed 's/^xbulk find:/find:/' >"$tmp/got"
	grc=${PIPESTATUS[0]}
	check "find -warn $e: the warnings"
done

# A PATH on another filesystem, in a scan: named with the PATH whose
# filesystem is walked (not a missing one, not "." under -files0-from);
# the missing ones before a filesystem that cannot be opened are said
# too (a plain walk, auto's choice for names only, walks them all)
printf '%s\0/proc\0' "$T/file" >"$tmp/files0"
for args in "nosuch $T/file /proc" "-files0-from $tmp/files0" \
	    "nosuch /proc $T/file"; do
	# shellcheck disable=SC2086
	"$XBULK" find --strategy scan $args -maxdepth 0 >"$tmp/got" 2>&1 &&
		grc=0 || grc=$?
	case $args in
	nosuch\ /proc*)
		printf '%s\n' "xbulk find: 'nosuch': No such file or directory" \
			"xbulk find: '/proc': not on an XFS filesystem" ;;
	*)
		{
			[[ $args != nosuch* ]] ||
				echo "xbulk find: 'nosuch': No such file or directory"
			echo "$T/file"
			echo "xbulk find: '/proc': not on the XFS mount of" \
				"'$T/file' (one filesystem per run)"
		} ;;
	esac >"$tmp/want"
	wrc=1
	check "find $args: the filesystem's PATH in messages"
done

# A 4-level tree at -j 2 under a limit of 8 to 10 open files
mkdir -p "$T/four"
for a in 1 2 3; do
	for b in 1 2 3; do
		mkdir -p "$T/four/a$a/b$b/c1/d1" "$T/four/a$a/b$b/c2"
		touch "$T/four/a$a/b$b/c1/d1/f" "$T/four/a$a/b$b/c2/g"
	done
done
find "$T/four" -xdev | sort >"$tmp/want.four"
for n in 8 9 10; do
	for run in 1 2 3; do
		cp "$tmp/want.four" "$tmp/want"
		wrc=0
		(ulimit -n $n; "$XBULK" find -j 2 "$T/four") 2>&1 | sort \
			>"$tmp/got" && grc=0 || grc=$?
		check "4 levels, ulimit -n $n, -j 2 (run $run)"
	done
done

# A low limit of open files: what find does there (16 chains of 17
# directories of 255-byte names, deeper than PATH_MAX), at -j 1..3
mkdir "$T/deep"
long=$(printf 'n%.0s' $(seq 1 250))
for c in $(seq 1 16); do
	p="$T/deep/c$c"
	mkdir "$p" && cd "$p"
	for l in $(seq 1 17); do
		mkdir "$long$l" && cd "$long$l"
		touch f
	done
done
cd "$T"
find deep -xdev -type f | sort >"$tmp/want.deep"
for n in 10 12 16 20; do
	for j in 1 2 3; do
		cp "$tmp/want.deep" "$tmp/want"
		wrc=0
		(ulimit -n $n; "$XBULK" find -j $j deep -type f) 2>&1 |
			sort >"$tmp/got" && grc=0 || grc=$?
		check "ulimit -n $n, -j $j"
	done
done

cd /
umount "$T/null"
echo "$pass passed, $fail failed"
((fail == 0))
