#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A hard-link farm (rsnapshot, dedup trees): one inode with 70,000 names
# of 200 bytes in 7 directories, far more than one record of a snapshot
# holds (64 KiB, about 320 such names: the rest go into continuation
# records).  Every name must survive:
#   - xbulk diff of the snapshot with the filesystem, and with a second
#     snapshot of it, lists nothing (exit 0);
#   - xbulk export --sqlite and --csv list exactly the paths GNU find
#     -inum lists;
#   - after 1,000 names removed and 500 added: diff of two snapshots and
#     diff with the filesystem list exactly those (U and L lines), and
#     --deleted0 exactly the removed paths (so the README's backup deletes
#     them), --linked0 every name the inode has then and --copy0 none
#     (no data to copy: rsync -H links them).
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
N=70000

# farm/dK/<200 bytes>: the first name made by echo, the others linked
mkdir "$M/farm" "$M/other"
echo data >"$M/other/f"
python3 - "$M" "$N" <<'EOF'
import os
import sys

mnt, n = sys.argv[1], int(sys.argv[2])
for k in range(7):
    os.mkdir(os.path.join(mnt, 'farm', f'd{k}'))
f = os.path.join(mnt, 'other', 'f')
for i in range(n - 1):
    os.link(f, os.path.join(mnt, 'farm', f'd{i % 7}', f'n{i:0199d}'))
EOF
ino=$(stat -c %i "$M/other/f")
[[ $(stat -c %h "$M/other/f") == "$N" ]] || xb_die "made $(stat -c %h "$M/other/f") names"

# the names find lists, relative to the top, sorted
names()
{
	(cd "$M" && find . -inum "$ino") | sed 's|^\./||' | LC_ALL=C sort
}
names >"$T/names"
xb_settle

"$XBULK" snapshot -j 2 "$M" "$T/s1"
"$XBULK" snapshot -j 2 "$M" "$T/s1b"
rc=0; "$XBULK" diff "$T/s1" "$M" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] ||
	xb_die "diff with the filesystem: exit $rc, $(wc -l <"$T/out") lines: $(head -3 "$T/out")"
rc=0; "$XBULK" diff "$T/s1" "$T/s1b" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] ||
	xb_die "diff of two snapshots: exit $rc, $(wc -l <"$T/out") lines: $(head -3 "$T/out")"

# export: every name, as find sees them
"$XBULK" export --sqlite "$T/db" "$T/s1"
sqlite3 "$T/db" "select path from entries where ino = $ino" |
	LC_ALL=C sort >"$T/sqlite"
cmp -s "$T/names" "$T/sqlite" ||
	xb_die "export --sqlite: $(wc -l <"$T/sqlite") names of $N"
mkdir "$T/csv"
"$XBULK" export --csv "$T/csv" "$T/s1"
# fs_uuid,parent,name,ino,path (quoted; none of these names needs more)
awk -F, -v ino="$ino" '$4 == ino { sub(/\r$/, ""); gsub(/"/, "", $5); print $5 }' \
	"$T/csv/entries.csv" | LC_ALL=C sort >"$T/csv.names"
cmp -s "$T/names" "$T/csv.names" ||
	xb_die "export --csv: $(wc -l <"$T/csv.names") names of $N"

# 1,000 names removed (every 70th), 500 added in a new directory
python3 - "$M" "$T" <<'EOF'
import os
import sys

mnt, tmp = sys.argv[1], sys.argv[2]
with open(os.path.join(tmp, 'names')) as f:
    names = f.read().split('\n')[:-1]
farm = sorted(n for n in names if n.startswith('farm/'))
with open(os.path.join(tmp, 'removed'), 'w') as f:
    for n in farm[::70][:1000]:
        os.unlink(os.path.join(mnt, n))
        f.write(n + '\n')
os.mkdir(os.path.join(mnt, 'farm', 'new'))
with open(os.path.join(tmp, 'added'), 'w') as f:
    for i in range(500):
        n = f'farm/new/m{i:0199d}'
        os.link(os.path.join(mnt, 'other', 'f'), os.path.join(mnt, n))
        f.write(n + '\n')
EOF
[[ $(wc -l <"$T/removed") == 1000 ]] || xb_die "removed $(wc -l <"$T/removed")"
xb_settle
"$XBULK" snapshot -j 2 "$M" "$T/s2"

# CODE PATH lines of the inode: U removed, L added
lines()
{
	sed -n "s|^$1f[.a-z]* ||p" "$T/out" | LC_ALL=C sort >"$T/got"
	cmp -s "$T/got" "$2" ||
		xb_die "$3: $(wc -l <"$T/got") $1 lines, not $(wc -l <"$2"): $(diff "$T/got" "$2" | head -3)"
}
for new in "$T/s2" "$M"; do
	rc=0; "$XBULK" diff "$T/s1" "$new" >"$T/out" || rc=$?
	((rc == 1)) || xb_die "diff s1 $new: exit $rc"
	lines U "$T/removed" "diff s1 $new"
	LC_ALL=C sort "$T/added" >"$T/added.sorted"
	lines L "$T/added.sorted" "diff s1 $new"
	# nothing else of the inode (no M: nlink and ctime move with names)
	! grep -Ev '^(U|L|E|\+)' "$T/out" ||
		xb_die "diff s1 $new: other lines: $(grep -Ev '^(U|L|E|\+)' "$T/out" | head -3)"
done
"$XBULK" diff "$T/s1" "$T/s2" --deleted0 | tr '\0' '\n' | LC_ALL=C sort >"$T/got"
LC_ALL=C sort "$T/removed" | cmp -s - "$T/got" ||
	xb_die "--deleted0: $(wc -l <"$T/got") paths, not the 1000 removed"
# the inode only gained and lost names: --linked0 lists every name it
# has now (rsync -H links them to one the backup has, no data sent),
# --copy0 none of them
"$XBULK" diff "$T/s1" "$T/s2" --linked0 | tr '\0' '\n' | LC_ALL=C sort >"$T/got"
names | cmp -s - "$T/got" ||
	xb_die "--linked0: $(wc -l <"$T/got") paths, not the inode's $(names | wc -l) names"
"$XBULK" diff "$T/s1" "$T/s2" --copy0 | tr '\0' '\n' >"$T/got"
! grep -E '^(farm/[^/]*/[nm]0|other/f$)' "$T/got" | head -3 | grep . ||
	xb_die "--copy0 lists names of the linked inode"
[[ -s $T/got ]] || xb_die "--copy0: not even the directories' entries changes"
echo "PASS: $N names of one inode: snapshot, diff (live, two files), export (SQLite, CSV), 1000 removed and 500 added, --linked0"
