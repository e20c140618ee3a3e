#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What xbulk does with the features of modern XFS that the xfs_io matrix
# (test-xfsio-matrix.sh) cannot compare byte for byte, on one image made
# by mkfs.xfs 6.13 with parent pointers and a metadata directory:
#
#  - bulkstat -m (-j 1 and -j 2) and bulkstat_single -m on a kernel that
#    rejects XFS_BULK_IREQ_METADIR (before 6.13): strace makes the first
#    bulkstat call fail with EINVAL, as such a kernel does; xbulk must say
#    so in one line and exit 1, with no record on stdout.
#  - xbulk path: for every inode find reaches, the same set of paths as
#    GNU find PATH -inum (hard links, names with odd bytes, a path past
#    PATH_MAX), from parent pointers, with -w (the walk), and under a
#    subdirectory; the same set as xfs_io 6.13's parent -p for inodes
#    whose paths are below PATH_MAX; on an image without parent pointers
#    (mkfs 6.1) the same paths and one line saying that it walks.
#  - xbulk path's exit status 141 when its reader goes away (130 and 143:
#    test-signal-phases.sh);
#  - bad input to xbulk path: one line and the documented exit status for
#    inode 0, past the end, free, not a number, another generation, an
#    open file already unlinked, a metadata inode, PATH not a directory;
#    a corrupt inode: named as unreadable, and with -w its path printed.
#  - damage reports, on a second parent-pointer image (check_damage,
#    check_cached): the kernel cannot give the parent pointers of an
#    unreadable inode, so bulkstat and bulkstat_single name each with the
#    command that looks for its paths, which finds them; xbulk path names
#    the unreadable directory above a readable file; an inode of a
#    damaged cluster that is in the inode cache is still read and named.
#
# Skips without xfsprogs 6.13 (scripts/trixie-tools xfsprogs), strace or
# python3.
# Environment: XBULK (the binary).

# shellcheck disable=SC2317 # functions run through rel_* helpers
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init modern
xb_have_new || xb_skip "xfsprogs 6.13 not installed (scripts/deps as root)"
command -v strace >/dev/null || xb_skip "strace not installed (scripts/deps)"
command -v python3 >/dev/null || xb_skip "python3 not installed (scripts/deps)"

W=
WALK_ERR=	# stderr of the last same_as_find
# LeakSanitizer cannot run under ptrace (strace): off for those runs.
NO_LSAN=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# ---------------------------------------------------------------------------
# A kernel that rejects XFS_BULK_IREQ_METADIR

# The number of the first XFS_IOC_BULKSTAT ioctl (_IOR('X', 127, 64
# bytes)) among the ioctls of xbulk ARGS..., as strace counts them.
first_bulkstat_call()
{
	ASAN_OPTIONS=$NO_LSAN strace -f -e trace=ioctl -o "$W/trace" "$XBULK" "$@" \
		>/dev/null 2>&1 || true
	grep -m 1 -n '0x58, 0x7f, 0x40' "$W/trace" | cut -d: -f1
}

# rejects WHAT ARGS...: xbulk ARGS with the first bulkstat call failing
# EINVAL must print one line naming the flag, nothing on stdout, exit 1.
rejects()
{
	local n rc=0 want='the kernel rejects XFS_BULK_IREQ_METADIR (-m needs Linux 6.13 or later)'

	n=$(first_bulkstat_call "$@")
	if [[ -z $n ]]; then
		rel_fail "xbulk $*: no bulkstat ioctl in strace's trace"
		return
	fi
	ASAN_OPTIONS=$NO_LSAN strace -f -o /dev/null -e trace=ioctl \
		-e "inject=ioctl:error=EINVAL:when=$n" "$XBULK" "$@" \
		>"$W/out" 2>"$W/err" || rc=$?
	if ((rc == 1)) && [[ ! -s $W/out ]] &&
	   [[ $(wc -l <"$W/err") == 1 ]] && grep -qF "$want" "$W/err"; then
		rel_pass
	else
		rel_fail "xbulk $* (bulkstat call $n fails EINVAL): exit status $rc, $(wc -c <"$W/out") bytes on stdout, stderr '$(head -n 2 "$W/err")'"
	fi
}

check_metadir_rejected()
{
	local meta

	rejects bulkstat -m -j 1 "$XB_MNT"
	rejects bulkstat -m -j 1 -d -n 7 "$XB_MNT"
	# Two workers: neither may print a record before the rejection is
	# known (without the check that -m makes first, the other worker's
	# records reached stdout).
	rejects bulkstat -m -j 2 "$XB_MNT"
	rejects bulkstat -m -j 2 -n 7 -o csv "$XB_MNT"
	meta=$(xb_new xfs_io -c 'bulkstat -m' "$XB_MNT" |
		sed -n 's/^bs_ino = //p' | sed -n 2p)
	rejects bulkstat_single -m "$XB_MNT" "$meta" root
	# Without -m the same calls carry no such flag: nothing to reject
	# (the injected EINVAL is then the kernel's answer to the call).
}

# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# xbulk path against find -inum and xfs_io 6.13's parent -p

# Names find and xfs_io must agree on: odd bytes (newline, \001, UTF-8,
# spaces, a backslash) and hard links between them; a chain of 600
# directories whose path is past PATH_MAX (made one level at a time), with
# a file at its end hard-linked near the top: resolving it grows the
# reader's directory table in the middle of a chain.
odd_tree()
{
	python3 - "$1" <<'PY'
import os, sys
top = sys.argv[1]
odd = os.path.join(top, "odd dir")
os.mkdir(odd)
names = ["new\nline", "ctl\x01", "caf\u00e9", "two  spaces", "back\\slash"]
first = os.path.join(odd, names[0])
open(first, "w").close()
for n in names[1:]:
    os.link(first, os.path.join(odd, n))
os.chdir(top)
os.mkdir("deep")
os.chdir("deep")
for i in range(600):	# more than the cache's first table holds (512)
    n = "level_with_a_rather_long_name_%03d" % i
    os.mkdir(n)
    os.chdir(n)
open("leaf", "w").close()
os.link("leaf", os.path.join(top, "odd dir", "leaf link"))
PY
}

# expect_paths DIR INUM...: what xbulk path -0 DIR INUM... prints, from
# find DIR -printf '%i\t%p\0': each inode's paths in byte order, the
# inodes in the order given.
expect_paths()
{
	local dir=$1

	shift
	find "$dir" -printf '%i\t%p\0' | python3 -c '
import sys
by = {}
for rec in sys.stdin.buffer.read().split(b"\0")[:-1]:
    ino, path = rec.split(b"\t", 1)
    by.setdefault(int(ino), []).append(path)
out = sys.stdout.buffer
for a in sys.argv[1:]:
    for p in sorted(by.get(int(a), [])):
        out.write(p + b"\0")
' "$@"
}

# same_as_find TAG DIR XBULK_PATH_OPTS...: every inode find reaches under
# DIR, at once.
same_as_find()
{
	local tag=$1 dir=$2 rc=0
	local -a inos

	shift 2
	mapfile -t inos < <(find "$dir" -printf '%i\n' | sort -un)
	expect_paths "$dir" "${inos[@]}" >"$W/exp"
	"$XBULK" path -0 "$@" "$dir" "${inos[@]}" >"$W/got" 2>"$W/err" ||
		rc=$?
	if ((rc == 0)) && cmp -s "$W/exp" "$W/got"; then
		rel_pass
	else
		rel_fail "[$tag] xbulk path -0 $* $dir (${#inos[@]} inodes) vs find -inum: exit status $rc, $(cmp "$W/exp" "$W/got" 2>&1 | sed 's|.*differ: ||'), stderr '$(head -n 1 "$W/err")'"
	fi
	WALK_ERR=$(cat "$W/err")
}

# Inodes with more than one path or an odd name, all below PATH_MAX:
# xfs_io 6.13's parent -p INO GEN prints the same set of paths.
same_as_parent_p()
{
	local ino gen n=0

	while read -r ino; do
		gen=$(xfs_io -c "bulkstat_single $ino" "$XB_MNT" |
		      sed -n 's/^\tbs_gen = //p')
		{ xb_new xfs_io -c "parent -p $ino $((gen))" "$XB_MNT" ||
		  true; } | LC_ALL=C sort >"$W/exp"
		"$XBULK" path "$XB_MNT" "$ino" | LC_ALL=C sort >"$W/got"
		if [[ -s $W/exp ]] && cmp -s "$W/exp" "$W/got"; then
			rel_pass
		else
			rel_fail "xbulk path $XB_MNT $ino vs xfs_io 6.13 -c 'parent -p $ino $((gen))': $(diff "$W/exp" "$W/got" | head -n 3 | tr '\n' ' ')"
		fi
		n=$((n + 1))
	done < <(find "$XB_MNT" -maxdepth 5 \( -links +1 -o -name '*[! -~]*' \) \
		 ! -name '*
*' ! -name 'leaf link' ! -type d -printf '%i\n' | sort -un | head -n 20)
	((n >= 5)) || rel_fail "only $n inodes to compare with parent -p"
}

check_paths()
{
	local deep leaf rc=0
	local -a dirs

	same_as_find parents "$XB_MNT"
	same_as_find walk "$XB_MNT" -w
	same_as_find "parents, subdirectory" "$XB_MNT/d03"
	same_as_find "parents, PATH/" "$XB_MNT/odd dir/"
	same_as_parent_p
	# The leaf past PATH_MAX: its two paths
	leaf=$(stat -c %i "$XB_MNT/odd dir/leaf link")
	deep=$("$XBULK" path -0 "$XB_MNT" "$leaf" | tr '\0' '\n' |
	       awk '{ print length($0) }' | sort -n | tail -n 1)
	if ((deep > 4096)); then
		rel_pass
	else
		rel_fail "xbulk path of the deep leaf: longest path $deep bytes, want > 4096"
	fi
	# Exit status 141: the reader goes away (the chain's directories have
	# megabytes of paths), without a message.
	mapfile -t dirs < <(find "$XB_MNT/deep" -type d -printf '%i\n')
	# (errexit and pipefail are off on the left of ||)
	{
		"$XBULK" path "$XB_MNT" "${dirs[@]}" 2>"$W/err" |
			head -c 10 >/dev/null
		rc=${PIPESTATUS[0]}
	} || true
	rel_check "xbulk path of ${#dirs[@]} deep directories | head -c 10: exit status|stderr" \
		"141|" "$rc|$(head -c 300 "$W/err")"
}

# bad STATUS REGEX ARGS...: xbulk path ARGS exits STATUS with one line on
# stderr matching REGEX (and the --help hint for status 2).
bad()
{
	local want=$1 re=$2 rc=0 lines first=

	shift 2
	"$XBULK" path "$@" >"$W/out" 2>"$W/err" || rc=$?
	lines=$(wc -l <"$W/err")
	((want == 2)) && lines=$((lines - 1))
	read -r first <"$W/err" || true
	if ((rc == want)) && ((lines == 1)) && [[ ! -s $W/out ]] &&
	   [[ $first =~ ^xbulk\ path:\ $re$ ]]; then
		rel_pass
	else
		rel_fail "xbulk path $*: exit status $rc (want $want), stdout $(wc -c <"$W/out") bytes, stderr '$(head -n 2 "$W/err" | tr '\n' '|')' (want /$re/)"
	fi
}

check_bad_input()
{
	local M=$XB_MNT free ino gen meta

	ino=$(stat -c %i "$M/odd dir/ctl"$'\001')
	gen=$(xfs_io -c "bulkstat_single $ino" "$M" | sed -n 's/^\tbs_gen = //p')
	touch "$M/free"
	free=$(stat -c %i "$M/free")
	rm "$M/free"
	meta=$(xb_new xfs_io -c 'bulkstat -m' "$M" |
	       sed -n 's/^bs_ino = //p' | sed -n 2p)
	rel_check "xbulk path -0 $M $ino:$gen: paths (hex generation)" 5 \
		"$("$XBULK" path -0 "$M" "$ino:$gen" | tr -cd '\0' | wc -c)"
	bad 1 "inode 0 is not allocated" "$M" 0
	bad 1 "inode 1099511627776 is not allocated" "$M" 1099511627776
	bad 1 "inode $free is not allocated" "$M" "$free"
	bad 2 "inode: 'abc' is not a decimal number" "$M" abc
	bad 2 "inode: '-5' is negative" "$M" -5
	bad 2 "generation: '0xZZ' is not a hex number" "$M" "$ino:0xZZ"
	bad 2 "generation: '0x100000000' is out of range \(largest is 0xffffffff\)" \
		"$M" "$ino:0x100000000"
	bad 1 "inode $ino:$((gen ^ 1)): generation 0x[0-9a-f]+ is not the inode's \(it is $gen now: freed and used again\)" \
		"$M" "$ino:$((gen ^ 1))"
	bad 1 "inode $meta is allocated but not reported by bulkstat \(filesystem metadata, which has no path, or an inode the kernel cannot read\)" \
		"$M" "$meta"
	bad 2 "$M/odd dir/two  spaces: PATH must be a directory" \
		"$M/odd dir/two  spaces" "$ino"
	bad 2 "missing INUM" "$M"
	# An open file already unlinked: no parent pointer, and no name
	exec 7>"$M/open"
	ino=$(stat -c %i "$M/open")
	rm "$M/open"
	bad 1 "inode $ino: no parent pointer leads to it from the root \(an open file already unlinked, or damage\)" \
		"$M" "$ino"
	bad 1 "inode $ino: no path under $M reaches it \(an open file already unlinked, a file elsewhere on the filesystem, or damage\)" \
		-w "$M" "$ino"
	exec 7>&-
}

# A corrupt inode (a mode of no file type: the kernel refuses that inode
# alone): parent pointers cannot name it (they are in the inode), the
# walk can, from its directory.
check_corrupt()
{
	local f ino rc=0 i

	# Away from AG 0, whose first inode cluster the mount reads (the
	# metadata directory's inodes are there).
	for ((i = 0; i < 8; i++)); do
		f=$XB_MNT/victim_dir_$i
		mkdir "$f"
		(($(stat -c %i "$f") >= 1 << 19)) && break
	done
	touch "$f/victim"
	ino=$(stat -c %i "$f/victim")
	xb_umount
	xb_xfs_db -x -c "inode $ino" -c 'write -d core.mode 0170000' "$XB_IMG" \
		>/dev/null 2>&1
	xb_remount
	bad 1 "inode $ino: Structure needs cleaning \(its parent pointers are in it; -w finds its names in the directories\)" \
		"$XB_MNT" "$ino"
	"$XBULK" path -w "$XB_MNT" "$ino" >"$W/out" 2>"$W/err" || rc=$?
	if ((rc == 1)) && [[ $(cat "$W/out") == "$f/victim" ]] &&
	   grep -q "^xbulk path: inode $ino: Structure needs cleaning (its names from the directories follow)$" "$W/err"; then
		rel_pass
	else
		rel_fail "xbulk path -w of corrupt inode $ino: exit status $rc, stdout '$(cat "$W/out")', stderr '$(head -n 2 "$W/err")'"
	fi
}

# ---------------------------------------------------------------------------
# Damage reports on a parent-pointer filesystem: inodes the kernel cannot
# read (the magic number zeroed: the kernel refuses the whole inode
# cluster).  Their parent pointers are in them: GETPARENTS_BY_HANDLE
# fails (ESTALE on Linux 6.18, xfs_io 6.13's parent says "Stale file
# handle"), for the damaged inode and for the others of its cluster.  So
# bulkstat and bulkstat_single name each with the command that looks for
# its paths, xbulk path -w MNT N, which must find them in their
# directories when those can be read.  Cluster A holds files of dmg_files
# only; cluster B holds the directory dmg_dir and some of its files, the
# others readable: xbulk path names the directory above them that it
# cannot read, with the command that finds that directory's path.

# The clusters (of $1 inodes) whose allocated inodes (file $3) are all in
# file $2 (one inode a line), in order.
whole_clusters()
{
	awk -v ci="$1" 'FILENAME == ARGV[1] { mine[$1] = 1; next }
		{ c = int($1 / ci); n[c]++; if ($1 in mine) m[c]++ }
		END { for (c in n) if (n[c] == m[c]) print c }' "$2" "$3" |
		sort -n
}

# Run the xbulk command line $1 as a shell would (xbulk: $XBULK), its
# stdout into $W/hint.out.
run_hint()
{
	: >"$W/hint.out"
	[[ $1 == "xbulk path -w "* ]] || return 0
	eval "\"\$XBULK\"${1#xbulk}" >"$W/hint.out" 2>/dev/null || true
}

# The command line in the parenthesis of a report of inode $1 in file $2.
hint_of()
{
	sed -n "s/^xbulk [a-z_]*: inode $1: .* (\(xbulk path -w .*\) looks for its paths in the directories)\$/\1/p" \
		"$2" | head -n 1
}

check_damage()
{
	local M=$XB_MNT ci ca cb cc a a2 d good child gen v j rc=0 hint bind line
	local -a named whole

	ci=$(xb_cluster_inodes)
	mkdir "$M/dmg_files" "$M/dmg_dir"
	for ((j = 0; j < 160; j++)); do
		: >"$M/dmg_files/f$j"
	done
	for ((j = 0; j < 96; j++)); do
		: >"$M/dmg_dir/f$j"
	done
	sync
	d=$(stat -c %i "$M/dmg_dir")
	find "$M" -printf '%i %p\n' | sort -n >"$W/paths"
	"$XBULK" bulkstat -j 1 "$M" >"$W/pre.txt"
	rel_inos "$W/pre.txt" >"$W/inos"
	find "$M/dmg_files" -mindepth 1 -printf '%i\n' >"$W/in-files"
	{ echo "$d"; find "$M/dmg_dir" -mindepth 1 -printf '%i\n'; } \
		>"$W/in-dir"
	mapfile -t whole < <(whole_clusters "$ci" "$W/in-files" "$W/inos")
	ca=${whole[0]:-}
	cc=${whole[1]:-}	# for check_cached
	cb=$((d / ci))
	[[ $(awk -v c="$cb" -v ci="$ci" 'int($1 / ci) == c' "$W/inos") == \
	   $(awk -v c="$cb" -v ci="$ci" 'int($1 / ci) == c' "$W/in-dir" |
	     sort -n) ]] || cb=
	child=$(awk -v c="$cb" -v ci="$ci" 'NR > 1 && int($1 / ci) != c' \
		"$W/in-dir" | head -n 1)
	good=$(awk -v a="$ca" -v c="$cc" -v ci="$ci" \
	       'int($1 / ci) != a && int($1 / ci) != c' "$W/in-files" |
	       head -n 1)
	if [[ -z $ca || -z $cc || -z $cb || -z $child || -z $good ||
	      $ca == "$cb" || $cc == "$cb" ]]; then
		rel_fail "layout: not two clusters of dmg_files' files alone ($ca, $cc), dmg_dir's cluster ($cb) holds others, or no file outside them ($child, $good); $ci inodes a cluster"
		return
	fi
	awk -v a="$ca" -v b="$cb" -v ci="$ci" \
		'int($1 / ci) == a || int($1 / ci) == b' "$W/inos" >"$W/named-want"
	a=$(awk -v c="$ca" -v ci="$ci" 'int($1 / ci) == c' "$W/inos" |
	    head -n 1)
	a2=$(awk -v c="$ca" -v ci="$ci" 'int($1 / ci) == c' "$W/inos" |
	     tail -n 1)
	echo "  damage: clusters of $ci inodes: $ca (dmg_files' files) and $cb (dmg_dir $d); $(wc -l <"$W/named-want") unreadable"
	xb_umount
	for v in "$a" "$d"; do
		xb_xfs_db -x -c "inode $v" -c 'write -d core.magic 0' \
			"$XB_IMG" >/dev/null
	done
	xb_remount

	# The kernel: no parent pointers of the unreadable inodes.
	for v in "$a" "$a2" "$d" "$good"; do
		gen=$(awk -v i="$v" '$1 == "bs_ino" { x = ($3 == i) }
			x && $1 == "bs_gen" { print $3; exit }' "$W/pre.txt")
		rc=0
		xb_new xfs_io -c "parent $v $((gen))" "$M" >"$W/out" \
			2>"$W/err" || rc=$?
		if [[ $v == "$good" ]]; then
			rel_check "xfs_io 6.13 parent of readable inode $v" \
				"p_ino     = $(stat -c %i "$M/dmg_files")" \
				"$(head -n 1 "$W/out")"
		elif [[ ! -s $W/out ]] && grep -q 'Stale file handle' "$W/err"
		then
			rel_pass
		else
			rel_fail "xfs_io 6.13 parent $v $((gen)) (unreadable): exit status $rc, stdout '$(head -n 1 "$W/out")', stderr '$(head -n 1 "$W/err")'; want ESTALE (if a kernel names it now, the damage reports should use it)"
		fi
	done

	# bulkstat: each unreadable inode named once, with the command
	for j in 1 2; do
		rc=0
		"$XBULK" bulkstat -j "$j" "$M" >"$W/out" 2>"$W/err" || rc=$?
		rel_unreadable bulkstat "$M" "Structure needs cleaning" \
			"$W/err" | sort -n >"$W/named"
		if ((rc == 1)) && cmp -s "$W/named" "$W/named-want" &&
		   [[ $(wc -l <"$W/err") == $(($(wc -l <"$W/named") + 1)) ]] &&
		   awk 'NR == FNR { bad[$1] = 1; next }
			/^bs_ino = / { skip = ($3 in bad) } !skip' \
			"$W/named-want" "$W/pre.txt" | cmp -s - "$W/out"; then
			rel_pass
		else
			rel_fail "xbulk bulkstat -j $j of the damaged filesystem: exit status $rc, $(wc -l <"$W/named") of $(wc -l <"$W/named-want") inodes named with the command, $(wc -l <"$W/err") lines on stderr ('$(head -n 1 "$W/err")'), stdout $(wc -c <"$W/out") bytes"
		fi
	done
	# The command of a victim, as printed: its path.
	hint=$(hint_of "$a" "$W/err")
	run_hint "$hint"
	rel_check "the command of inode $a ('$hint'): its path" \
		"$(awk -v i="$a" '$1 == i { print $2 }' "$W/paths")" \
		"$(cat "$W/hint.out")"
	# xbulk path -w of every inode named: the paths of those whose
	# directory can be read (dmg_files' files, dmg_dir), none for the
	# files in dmg_dir's unreadable cluster; exit status 1.
	mapfile -t named <"$W/named-want"
	awk -v ci="$ci" -v b="$cb" -v d="$d" '
		NR == FNR { p[$1] = $2; next }
		$1 == d || int($1 / ci) != b { printf "%s\n", p[$1] }' \
		"$W/paths" "$W/named-want" >"$W/exp"
	rc=0
	"$XBULK" path -w "$M" "${named[@]}" >"$W/out" 2>"$W/err" || rc=$?
	if ((rc == 1)) && cmp -s "$W/exp" "$W/out"; then
		rel_pass
	else
		rel_fail "xbulk path -w of the ${#named[@]} unreadable inodes: exit status $rc, $(cmp "$W/exp" "$W/out" 2>&1 | sed 's|.*differ: ||')"
	fi

	# bulkstat_single: the list goes on; the line as bulkstat's.
	"$XBULK" bulkstat_single "$M" "$good" root >"$W/exp"
	rc=0
	"$XBULK" bulkstat_single "$M" "$good" "$a" root >"$W/out" 2>"$W/err" ||
		rc=$?
	line="xbulk bulkstat_single: inode $a: Structure needs cleaning (xbulk path -w $M $a looks for its paths in the directories)"
	if ((rc == 1)) && cmp -s "$W/exp" "$W/out" &&
	   [[ $(cat "$W/err") == "$line" ]]; then
		rel_pass
	else
		rel_fail "xbulk bulkstat_single $M $good $a root: exit status $rc, stdout $(cmp "$W/exp" "$W/out" 2>&1 | sed 's|.*differ: ||'), stderr '$(head -n 2 "$W/err")'"
	fi
	# Through a mount point the shell must quote: the command works.
	bind="$XB_TMP/bind with space'quote"
	mkdir "$bind"
	mount --bind "$M" "$bind"
	xb_at_exit "umount '${bind//\'/\'\\\'\'}' 2>/dev/null"
	rc=0
	"$XBULK" bulkstat_single "$bind/dmg_files" "$a" >/dev/null \
		2>"$W/err" || rc=$?
	hint=$(hint_of "$a" "$W/err")
	run_hint "$hint"
	rel_check "bulkstat_single through '$bind': the command of inode $a ('$hint'), run: its path" \
		"$bind/$(awk -v i="$a" '$1 == i { print $2 }' "$W/paths" |
			 sed "s|^$M/||")" "$(cat "$W/hint.out")"
	umount "$bind"

	# Parent pointers: a readable file below the unreadable directory
	# names it, with the command that finds its path.
	rc=0
	"$XBULK" path "$M" "$child" >"$W/out" 2>"$W/err" || rc=$?
	rel_check "xbulk path $M $child (its directory $d unreadable)" \
		"1|xbulk path: inode $child: directory inode $d above it: Structure needs cleaning (xbulk path -w $M $d looks for its paths in the directories)" \
		"$rc|$(cat "$W/err" "$W/out")"
	run_hint "$(hint_of "$child: directory inode $d above it" "$W/err")"
	rel_check "the command for directory $d: its path" "$M/dmg_dir" \
		"$(cat "$W/hint.out")"
	bad 1 "inode $a: Structure needs cleaning \(its parent pointers are in it; -w finds its names in the directories\)" \
		"$M" "$a"
	check_cached "$ci" "$cc"
}

# A cluster made unreadable under the mounted filesystem (its first
# inode's magic number zeroed in the image, the buffer cache dropped)
# while one of its inodes is open, so in the inode cache: that inode is
# still read by bulkstat and answered by GETPARENTS_BY_HANDLE (xbulk path
# names it), and the scan names the others of the cluster, not it.
check_cached()
{
	local ci=$1 cc=$2 M=$XB_MNT v held off i rc=0

	v=$(awk -v c="$cc" -v ci="$ci" 'int($1 / ci) == c' "$W/inos" |
	    head -n 1)
	held=$(awk -v c="$cc" -v ci="$ci" 'int($1 / ci) == c' "$W/inos" |
	       tail -n 1)
	off=$(xb_xfs_db -r -c "convert ino $v byte" "$XB_IMG" |
	      sed -n 's/.*(\([0-9]*\))$/\1/p')
	exec 8<"$(awk -v i="$held" '$1 == i { print $2 }' "$W/paths")"
	# Nothing of it left to write back over the damage
	xb_at_exit "xfs_freeze -u '$M' 2>/dev/null"
	xfs_freeze -f "$M"
	xfs_freeze -u "$M"
	printf '\0\0' | dd of="$XB_IMG" bs=1 seek="$off" conv=notrunc,fsync \
		status=none
	for ((i = 0; i < 20; i++)); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		"$XBULK" bulkstat_single "$M" "$v" >/dev/null 2>&1 || break
		sleep 0.2
	done
	echo "  cached: inode $v unreadable after $((i + 1)) cache drops"
	if ((i == 20)); then
		rel_fail "inode $v still readable after its magic number was zeroed (byte $off of the image) and 20 cache drops"
		exec 8<&-
		return
	fi
	"$XBULK" bulkstat_single "$M" "$held" >"$W/out" 2>"$W/err" || rc=$?
	rel_check "bulkstat_single of inode $held, cached in an unreadable cluster" \
		"0|bs_ino = $held|" "$rc|$(head -n 1 "$W/out")|$(cat "$W/err")"
	rc=0
	"$XBULK" path "$M" "$held" >"$W/out" 2>"$W/err" || rc=$?
	rel_check "xbulk path of inode $held, cached in an unreadable cluster" \
		"0|$(awk -v i="$held" '$1 == i { print $2 }' "$W/paths")|" \
		"$rc|$(cat "$W/out")|$(cat "$W/err")"
	"$XBULK" bulkstat -j 2 "$M" >/dev/null 2>"$W/err" || true
	rel_unreadable bulkstat "$M" "Structure needs cleaning" "$W/err" |
		awk -v c="$cc" -v ci="$ci" 'int($1 / ci) == c' | sort -n \
		>"$W/named"
	awk -v c="$cc" -v ci="$ci" -v h="$held" \
		'int($1 / ci) == c && $1 != h' "$W/inos" >"$W/exp"
	rel_ok "bulkstat -j 2 names of cluster $cc: $(diff "$W/exp" "$W/named" | grep '^[<>]' | head -n 3 | tr '\n' ' ')(want all but the cached inode $held)" \
		cmp -s "$W/exp" "$W/named"
	exec 8<&-
}

# ---------------------------------------------------------------------------

xb_mkfs_mount 1G "xfsprogs=6.13 -d agcount=4 -n parent=1 -m metadir=1"
W=$XB_TMP/w
mkdir -p "$W"
xb_populate "$XB_MNT" 300
odd_tree "$XB_MNT"
REL_TAG="parent+metadir"
check_metadir_rejected
check_paths
check_bad_input
check_corrupt
xb_cleanup

# No parent pointers (mkfs 6.1): the walk, and the line that says so.
xb_mkfs_mount 1G "-d agcount=2"
W=$XB_TMP/w
mkdir -p "$W"
xb_populate "$XB_MNT" 200
REL_TAG="no parent pointers"
same_as_find walk "$XB_MNT"
rel_check "the line that says it walks" \
	"xbulk path: $XB_MNT: no parent pointers (mkfs.xfs -n parent=1): walking the whole tree" \
	"$WALK_ERR"
xb_cleanup

# Damage reports, on a new parent-pointer image.
xb_mkfs_mount 1G "xfsprogs=6.13 -d agcount=4 -n parent=1"
W=$XB_TMP/w
mkdir -p "$W"
REL_TAG="damage"
check_damage
REL_TAG=
xb_cleanup
rel_done
