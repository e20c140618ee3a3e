#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk du --since OLD NEW: what grew (issue 28, part 1).
#   - a snapshot, then a seeded plan of writes, deletes, moves (a
#     project directory moved from one owner's home to another's, a
#     directory with a name that is not UTF-8), hard links within one
#     directory and across two, chowns; then the growth report, offline
#     (NEW a snapshot file) and live (NEW the mount point) at -j 1 and
#     -j 2, its rows compared exactly by check_since.py with GNU du -x
#     -B1 and --inodes per directory before and after, joined by the
#     directory's inode (find -printf %i), and with find's %U / %G and
#     %b sums per owner, and every (directory, uid / gid) row of --by
#     -d 64 with the rule; a hard link across directories against the
#     documented rule (charged to its lowest (parent, name) name);
#   - -d 1 (the default), -d 0 (--by's default), --rows, -h, -o csv;
#   - --svg: the treemap coloured by growth, offline and live: xmllint,
#     areas and labels (check_du.py), each directory's colour class and
#     figures against its row, the legend's scale and deleted space
#     (check_growthmap.py), known directories grew, shrunk, new and
#     unchanged, a moved one's old path and a name not UTF-8 in its
#     tooltip, mode 0600, the same picture twice, rsvg-convert to PNG;
#   - refused, one line, exit status 1: OLD of another filesystem, NEW
#     older than OLD, a damaged OLD, a missing one, a directory that is
#     no mount point; exit status 2 for
#     --rows without --since and --by type.
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
command -v du >/dev/null || xb_skip "GNU du not installed"

W=$T/work
mkdir "$W"
ODD=$'odd\xff'

# --- the tree at OLD
mkdir -p "$M"/home/alice/proj/{src,doc} "$M"/home/bob "$M"/data \
	"$M"/shared "$M"/old/sub "$M/$ODD" "$M"/keep "$M"/shrink
chown 1001:100 "$M"/home/alice "$M"/home/alice/proj{,/src,/doc}
chown 1002:100 "$M"/home/bob
for f in a b c; do
	head -c 40000 /dev/urandom >"$M/home/alice/proj/src/$f.c"
	head -c 9000 /dev/urandom >"$M/home/bob/$f.txt"
	head -c 70000 /dev/urandom >"$M/data/$f.bin"
	head -c 5000 /dev/urandom >"$M/old/sub/$f"
done
chown 1001:100 "$M"/home/alice/proj/src/*
chown 1002:100 "$M"/home/bob/*
head -c 12000 /dev/urandom >"$M/home/alice/proj/doc/README"
head -c 30000 /dev/urandom >"$M/shared/x"
ln "$M/shared/x" "$M/home/bob/x.link"		# across directories
ln "$M/data/a.bin" "$M/data/a.again"		# within one
head -c 3000 /dev/urandom >"$M/$ODD/f"
head -c 60000 /dev/urandom >"$M/keep/k"		# --svg: unchanged
head -c 60000 /dev/urandom >"$M/shrink/s1"	# --svg: shrunk
head -c 20000 /dev/urandom >"$M/shrink/s2"
sync

# list SIDE: find's and GNU du's view of the tree
list()
{
	(cd "$M" &&
		find . -xdev -printf '%i\t%y\t%b\t%s\t%U\t%G\t%P\0' \
			>"$W/$1.find" &&
		du -x -0 -B1 . >"$W/$1.du" &&
		du -x -0 --inodes . >"$W/$1.dui")
}

list old
"$XBULK" snapshot "$M" "$T/old.xbs" || xb_die "snapshot OLD: $?"
ok

# --- the plan: new directories first (a freed directory inode is not
# reused for one of them, so inodes name the same directory throughout)
mkdir -p "$M"/new/deep "$M"/home/carol
chown 1003:100 "$M"/home/carol
head -c 200000 /dev/urandom >"$M/new/deep/big"
head -c 8000 /dev/urandom >"$M/new/n1"
ln "$M/new/n1" "$M/new/n1.link"
ln "$M/shared/x" "$M/new/x.link"
RANDOM=28
files=("$M"/home/bob/*.txt "$M"/data/*.bin "$M"/home/alice/proj/src/*.c)
for i in $(seq 16); do
	f=${files[RANDOM % ${#files[@]}]}
	head -c $(((RANDOM % 64 + 1) * 1024)) /dev/urandom >>"$f"
done
head -c 50000 /dev/urandom >"$M/home/carol/c.dat"
chown 1003:100 "$M/home/carol/c.dat"
rm -rf "$M/old"
rm "$M/data/c.bin" "$M/home/bob/x.link"
mv "$M/home/alice/proj" "$M/home/bob/proj"		# across owners
mv "$M/$ODD" "$M/data/$ODD"
chown -R 1002:100 "$M/home/bob/proj"
chown 1003 "$M/data/b.bin"
truncate -s 0 "$M/home/bob/b.txt"
rm "$M/shrink/s1"
sync
list new
"$XBULK" snapshot "$M" "$T/new.xbs" || xb_die "snapshot NEW: $?"
ok

# since NAME ARGS...: xbulk du --since OLD ARGS into $W/NAME
since()
{
	local name=$1

	shift
	"$XBULK" du --since "$T/old.xbs" "$@" >"$W/$name" 2>"$W/err" ||
		xb_die "du --since $*: $?: $(cat "$W/err")"
}

check()
{
	python3 "$TOP/tests/snap/check_since.py" "$W" "$@" ||
		xb_die "check_since $*"
	ok
}

# --- offline, then live at -j 1 and -j 2: every directory, and owners
for how in file j1 j2; do
	case $how in
	file) new=$T/new.xbs; j=() ;;
	j1) new=$M; j=(-j 1) ;;
	j2) new=$M; j=(-j 2) ;;
	esac
	since "$how.rows" "${j[@]}" -d 64 -o jsonl "$new"
	since "$how.uid" "${j[@]}" -d 64 --by uid -o jsonl "$new"
	since "$how.gid" "${j[@]}" -d 64 --by gid -o jsonl "$new"
	check 64 "$W/$how.rows" "$W/$how.uid" "$W/$how.gid"
done
since d1.rows -o jsonl "$T/new.xbs"		# -d 1 by default
since d1.uid -d 1 --by uid -o jsonl "$T/new.xbs"
since d1.gid -d 1 --by gid -o jsonl "$T/new.xbs"
check 1 "$W/d1.rows" "$W/d1.uid" "$W/d1.gid"
since d0.rows -d 0 -o jsonl "$T/new.xbs"
since d0.uid --by uid -o jsonl "$T/new.xbs"	# -d 0 by default
since d0.gid --by gid -o jsonl "$T/new.xbs"
check 0 "$W/d0.rows" "$W/d0.uid" "$W/d0.gid"

# the moved project: one row, its new path with its old one
grep -q '"path":"home/bob/proj","path_b64":null,"old_path":"home/alice/proj".*"state":"moved"' \
	"$W/file.rows" || xb_die "moved project: $(grep proj "$W/file.rows")"
ok

# --rows 2: the two that grew most, the two that shrank most
since rows2 -d 64 --rows 2 -o jsonl "$T/new.xbs"
[[ $(head -2 "$W/file.rows"; tail -2 "$W/file.rows") == "$(cat "$W/rows2")" ]] ||
	xb_die "--rows 2: $(cat "$W/rows2")"
ok
# -h and CSV: one line per row, the same order
since text -d 64 -h "$T/new.xbs"
since csv -d 64 -o csv "$T/new.xbs"
[[ $(wc -l <"$W/text") == $(wc -l <"$W/file.rows") ]] ||
	xb_die "-h: $(cat "$W/text")"
[[ $(head -1 "$W/text") == +*$'\t'*$'\t'*$'\t'*$'\t'* ]] ||
	xb_die "-h: first line $(head -1 "$W/text")"
grep -q $'\tdata/odd\\\\377 (moved from odd\\\\377)$' "$W/text" ||
	xb_die "-h: the odd name: $(grep odd "$W/text")"
[[ $(head -1 "$W/csv") == path,old_path,ino,state,bytes_then,* ]] ||
	xb_die "csv header: $(head -1 "$W/csv")"
[[ $(($(wc -l <"$W/csv") - 1)) == $(wc -l <"$W/file.rows") ]] ||
	xb_die "csv rows: $(cat "$W/csv")"
ok
# the exact bytes of a name that is not UTF-8, new path and old
grep -q ',ZGF0YS9vZGT/,b2Rk/w==.$' "$W/csv" ||
	xb_die "csv: no path_b64 of the odd name: $(grep odd "$W/csv")"
# --inodes and --apparent-size: sorted by their own change
for fig in inodes apparent; do
	opt=--$fig
	[[ $fig == apparent ]] && opt=--apparent-size
	since "$fig.rows" -d 64 "$opt" -o jsonl "$T/new.xbs"
	python3 -c '
import json, sys
v = [json.loads(l)[sys.argv[2] + "_change"] for l in open(sys.argv[1])]
sys.exit(v != sorted(v, reverse=True) or len(v) < 10)' "$W/$fig.rows" "$fig" ||
		xb_die "$opt: not sorted by its change"
done
ok

# --- --svg: the treemap coloured by growth, offline then live
for tool in xmllint rsvg-convert; do
	command -v $tool >/dev/null || xb_die "$tool not installed (scripts/deps)"
done
CHECK_DU=$TOP/tests/integration/check_du.py
# labels are measured with DejaVu Sans's widths (as test-du.sh does)
AREAS=1
/usr/bin/python3 -c 'import fontTools' 2>/dev/null || {
	AREAS=
	echo "du-since: no python3-fonttools: --svg's areas and labels not checked (scripts/deps)" >&2
}
since svg.out -d 64 -h --svg "$T/g.svg" "$T/new.xbs"
cmp -s "$W/svg.out" "$W/text" || xb_die "--svg changed the rows"
since svg.out -d 64 -h --svg "$T/g2.svg" "$T/new.xbs"
cmp "$T/g.svg" "$T/g2.svg" || xb_die "--svg: not the same picture twice"
[[ $(stat -c %a "$T/g.svg") == 600 ]] || xb_die "--svg: mode not 0600"
since svg.live --svg "$T/live.svg" --svg-depth 2 -j 2 "$M"
for svg in "$T/g.svg" "$T/live.svg"; do
	xmllint --noout "$svg" || xb_die "xmllint $svg"
	[[ -z $AREAS ]] || /usr/bin/python3 "$CHECK_DU" svg "$svg" >/dev/null ||
		xb_die "areas: $svg"
	python3 "$TOP/tests/snap/check_growthmap.py" "$svg" "$W/file.rows" \
		home/bob=grew shrink=shrunk keep=same new=new \
		home/carol=new || xb_die "growth: $svg"
	ok
done
grep -q 'moved from home/alice/proj<' "$T/g.svg" ||
	xb_die "--svg: the moved project's old path"
grep -q $'data/odd\xef\xbf\xbd\nnow: ' "$T/g.svg" &&
	grep -q $'moved from odd\xef\xbf\xbd<' "$T/g.svg" ||
	xb_die "--svg: the name that is not UTF-8: $(grep -a odd "$T/g.svg")"
rsvg-convert -o "$T/g.png" "$T/g.svg" || xb_die "rsvg-convert"
python3 "$CHECK_DU" png "$T/g.png" >/dev/null || xb_die "--svg: blank PNG"
ok

# --- refused
mkdir "$T/m2"
truncate -s 300M "$T/other.img"
mkfs.xfs -q "$T/other.img"
xb_at_exit "mountpoint -q '$T/m2' && umount '$T/m2'"
mount -o loop "$T/other.img" "$T/m2"
"$XBULK" snapshot "$T/m2" "$T/other.xbs" || xb_die "snapshot of m2: $?"
umount "$T/m2"
cp "$T/old.xbs" "$T/damaged.xbs"
python3 - "$T/damaged.xbs" <<'EOF'
import sys
f = open(sys.argv[1], "r+b")
n = f.seek(0, 2)
f.seek(n // 2)
b = f.read(1)
f.seek(n // 2)
f.write(bytes([b[0] ^ 0x55]))
EOF
fails()
{
	xb_want_fail "$1" "$2" "$3" "$W/out" "$W/err" "$XBULK" du "${@:4}"
	ok
}
fails "another filesystem" 1 'another filesystem' \
	--since "$T/other.xbs" "$T/new.xbs"
fails "another filesystem, live" 1 'another filesystem' \
	--since "$T/other.xbs" "$M"
fails "NEW older" 1 'NEW is older than OLD' --since "$T/new.xbs" "$T/old.xbs"
fails "damaged" 1 'damaged\.xbs: .*(damaged|checksum)' \
	--since "$T/damaged.xbs" "$T/new.xbs"
fails "missing" 1 'nope\.xbs: .*No such file' --since "$T/nope.xbs" "$M"
fails "not a mount point" 1 'data: not a mount point' \
	--since "$T/old.xbs" "$M/data"
fails "missing NEW" 1 'nope\.xbs: .*No such file' \
	--since "$T/old.xbs" "$T/nope.xbs"
# usage errors: exit status 2, the message first (then the --help hint)
usage()
{
	local rc=0

	"$XBULK" du "${@:2}" >"$W/out" 2>"$W/err" || rc=$?
	if ((rc != 2)) || ! head -1 "$W/err" | grep -Eq -- "$1" ||
		[[ -s $W/out ]]; then
		xb_die "du ${*:2}: $rc: $(cat "$W/err")"
	fi
	ok
}
usage 'rows needs --since' --rows 3 "$M"
usage 'since and --by' --since "$T/old.xbs" --by type "$M"
usage 'since OLD takes one PATH' --since "$T/old.xbs" "$M" "$M"
usage 'svg and --by' --since "$T/old.xbs" --svg "$T/x.svg" --by uid "$M"
usage 'since and --trend, --top' --since "$T/old.xbs" --top 3 "$M"
[[ ! -e $T/x.svg ]] || xb_die "--svg written on a usage error"

echo "du-since: $pass checks passed"
