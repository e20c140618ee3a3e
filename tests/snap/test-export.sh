#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk export: the SQLite and CSV tables of a snapshot agree with GNU
# find (the number of entries; per uid, the sum of st_size over entries)
# and with xbulk du --by uid (per uid, the disk bytes of each inode
# once); the CSV files load into SQLite (sqlite3 .import) and into DuckDB
# (npm's @duckdb/node-api, installed into NPM_DIR on first use) with the
# same sums; every CSV row carries the filesystem's UUID; Python's csv
# and sqlite3 read names that are not UTF-8, hold newlines, tabs, C1
# controls or bidi overrides byte for byte; the exports are
# 0600; the README's four SQLite queries, as it writes them, give what
# find sees.  DuckDB is skipped, saying so, only when npm cannot reach its
# registry (or is missing): with access, an install or a load that fails
# fails the test.
#
# Environment: XBULK; NPM_DIR (where @duckdb/node-api goes:
# lib-snap.sh's duck_setup).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"

xb_populate "$M" 1000
# hard links: counted per name by find, once by du
ln "$M/$(cd "$M" && find . -type f | head -1)" "$M/hardlink"
# old files, for the README's third query
mkdir "$M/old"
for i in 1 2 3; do
	head -c $((i * 1000)) /dev/zero >"$M/old/f$i"
	touch -d "$((i + 1)) years ago" "$M/old/f$i"
done
# names every reader must get back byte for byte (issue 27)
python3 - "$M" <<'EOF'
import os, sys
d = os.path.join(os.fsencode(sys.argv[1]), b'odd')
os.mkdir(d)
for n in (b'new\nline', b'tab\there', b'ff\xff', b'x80\x80', b'c1\x9b',
          b'rlo\xe2\x80\xaeabc', b'comma,"quote"', b'=lead', b'a -> b'):
    open(os.path.join(d, n), 'wb').close()
os.mkdir(os.path.join(d, b'dir\xff'))
open(os.path.join(d, b'dir\xff', b'in'), 'wb').close()
os.chmod(os.path.join(d, b'=lead'), 0o4751)
EOF
mkdir "$T/csv"
"$XBULK" snapshot "$M" "$T/snap"
"$XBULK" export --sqlite "$T/db" "$T/snap"
"$XBULK" export --csv "$T/csv" "$T/snap"
pass=0

# every export 0600, as the snapshot: they list every name
for f in "$T/db" "$T/csv/inodes.csv" "$T/csv/entries.csv"; do
	[[ $(stat -c %a "$f") == 600 ]] || xb_die "$f: mode $(stat -c %a "$f")"
done
pass=$((pass + 1))

# two exports to the same DB (and DIR) at once: each writes a file of its
# own, both succeed, what is left is one whole export and nothing else
# (tests/snap/test-writers.sh: planted files, ENOSPC, signals)
mkdir "$T/two" "$T/two/csv"
for i in 1 2; do
	"$XBULK" export --sqlite "$T/two/db" "$T/snap" &
	"$XBULK" export --csv "$T/two/csv" "$T/snap" &
done
for i in 1 2 3 4; do
	wait -n || xb_die "two exports at once: one failed"
done
[[ $(ls -A "$T/two" | tr '\n' ' ') == 'csv db ' &&
   $(ls -A "$T/two/csv" | tr '\n' ' ') == 'entries.csv inodes.csv ' ]] ||
	xb_die "two exports at once left: $(ls -AR "$T/two")"
[[ $(sqlite3 "$T/two/db" 'select count(*) from entries') == \
   $(sqlite3 "$T/db" 'select count(*) from entries') ]] &&
	cmp -s "$T/csv/inodes.csv" "$T/two/csv/inodes.csv" ||
	xb_die "two exports at once: not one whole export"
pass=$((pass + 1))

# entries: one per path find lists
want=$(find "$M" -printf . | wc -c)
got=$(sqlite3 "$T/db" 'select count(*) from entries')
[[ $got == "$want" ]] || xb_die "entries: $got rows, find lists $want"
pass=$((pass + 1))

# per uid: st_size over entries (find) and disk bytes over inodes (du)
find "$M" -printf '%U %s\n' |
	awk '{ s[$1] += $2 } END { for (u in s) printf "%.0f %.0f\n", u, s[u] }' |
	sort -n >"$T/find-size"
sqlite3 -separator ' ' "$T/db" 'select uid, sum(size) from entries e join
	inodes i on i.ino = e.ino group by uid order by uid' >"$T/db-size"
cmp -s "$T/find-size" "$T/db-size" ||
	xb_die "per-uid sizes: $(diff "$T/find-size" "$T/db-size" | head -5)"
pass=$((pass + 1))
# du names the owners it knows: back to numbers
"$XBULK" du -s -B1 --by uid "$M" |
	while read -r bytes _ _ owner _; do
		[[ $owner =~ ^[0-9]+$ ]] ||
			owner=$(getent passwd "$owner" | cut -d: -f3)
		echo "$owner $bytes"
	done | sort -n >"$T/du"
sqlite3 -separator ' ' "$T/db" 'select uid, sum(disk_bytes) from inodes
	group by uid order by uid' >"$T/db-du"
cmp -s "$T/du" "$T/db-du" ||
	xb_die "per-uid disk bytes: $(diff "$T/du" "$T/db-du" | head -5)"
pass=$((pass + 1))

# the CSV through sqlite3's importer: the same sums, one UUID
sqlite3 -separator ' ' "$T/csv.db" \
	'.import --csv '"$T"'/csv/inodes.csv inodes' \
	'.import --csv '"$T"'/csv/entries.csv entries' \
	'select uid, sum(disk_bytes) from inodes group by uid order by uid+0' \
	>"$T/csv-du"
cmp -s "$T/du" "$T/csv-du" ||
	xb_die "CSV per-uid disk bytes: $(diff "$T/du" "$T/csv-du" | head -5)"
[[ $(sqlite3 "$T/csv.db" 'select count(distinct fs_uuid) from inodes') == 1 &&
   $(sqlite3 "$T/csv.db" 'select count(*) from entries') == "$want" ]] ||
	xb_die "CSV: UUIDs or entries"
uuid=$(xfs_db -r -c uuid "$XB_IMG" | awk '{ print $3 }')
[[ $(sqlite3 "$T/csv.db" 'select distinct fs_uuid from entries') == "$uuid" ]] ||
	xb_die "CSV: the UUID is not the filesystem's ($uuid)"
pass=$((pass + 1))

# the README's four queries, as it writes them, against find's view
python3 - "$TOP/README.md" "$T/db" "$M" "$T/du" <<'EOF' || xb_die "the README's queries"
import collections, os, re, subprocess, sys
readme, db, mnt, du = sys.argv[1:]
qs = re.findall(r'^sqlite3 DB "(.*?)"\s+#', open(readme).read(), re.S | re.M)
assert len(qs) == 4, qs


def run(q):
    return subprocess.run(['sqlite3', db, q], check=True, text=True,
                          capture_output=True).stdout.splitlines()


def rows(q):
    return [tuple(line.rsplit('|', 1)) for line in run(q)]


# space by owner: du's per-uid disk bytes, the largest first
want = [tuple(x.split()) for x in open(du)]
got = rows(qs[0])
assert sorted(got) == sorted(want), (got, want)
assert [int(b) for _, b in got] == sorted((int(b) for _, b in got),
                                          reverse=True), got
# the largest directories: per directory, the sizes of the files in it
sizes = collections.Counter()
for d, _, files in os.walk(mnt):
    rel = os.path.relpath(d, mnt)
    for f in files:
        st = os.lstat(os.path.join(d, f))
        if os.path.isfile(os.path.join(d, f)) and \
                not os.path.islink(os.path.join(d, f)):
            sizes[rel] += st.st_size
got = rows(qs[1])
assert len(got) == min(10, len(sizes)), got
assert all(sizes[p] == int(b) for p, b in got), (got, sizes.most_common(10))
assert [int(b) for _, b in got] == [b for _, b in sizes.most_common(10)], got
# files older than a year (mtime in whole seconds, as the table has it)
cut = int(run("select unixepoch('now', '-1 year')")[0])
want = set()
for d, _, files in os.walk(mnt):
    for f in files:
        p = os.path.join(d, f)
        st = os.lstat(p)
        if os.path.isfile(p) and not os.path.islink(p) and \
                st.st_mtime // 1 < cut:
            want.add((os.path.relpath(p, mnt), str(st.st_size)))
got = set(rows(qs[2]))
assert got == want and {('old/f1', '1000'), ('old/f2', '2000'),
                        ('old/f3', '3000')} <= got, (got ^ want)
# mode 0777, as lstat() says (symlinks have it)
want = set()
for d, dirs, files in os.walk(mnt):
    for f in dirs + files:
        p = os.path.join(d, f)
        if os.lstat(p).st_mode & 0o7777 == 0o777:
            want.add(os.path.relpath(p, mnt))
got = set(run(qs[3]))
assert got == want and got, (got ^ want)
EOF
pass=$((pass + 1))

# Python's csv and sqlite3 read every row and column, strictly as UTF-8;
# the names (the text, or the exact bytes beside it) are find's, byte
# for byte; mode_octal is the file's; the catalog says its schema
# version
python3 - "$M" "$T/db" "$T/csv" <<'EOF' || xb_die "names through csv or sqlite3"
import base64, csv, os, sqlite3, stat, sys
mnt, db, dir = os.fsencode(sys.argv[1]), sys.argv[2], sys.argv[3]
want = {b'.'}
modes = {}
for d, dirs, files in os.walk(mnt):
    for n in dirs + files:
        p = os.path.relpath(os.path.join(d, n), mnt)
        want.add(p)
        m = stat.S_IMODE(os.lstat(os.path.join(d, n)).st_mode)
        modes[p] = '0%o' % m if m else '0'	# C's %#o


def text(b):
    return b.decode('utf-8', 'replace')


c = sqlite3.connect(db)
assert c.execute('pragma user_version').fetchone() == (1,)
# every column of every table, its TEXT strictly UTF-8 (sqlite3 raises
# on any other): no row dropped
for (t,) in c.execute("select name from sqlite_master where type = 'table'"):
    n, = c.execute(f'select count(*) from {t}').fetchone()
    assert len(c.execute(f'select * from {t}').fetchall()) == n > 0, t
got = set()
for p, pb, n, nb, mo in c.execute(
        'select path, path_bytes, e.name, name_bytes, mode_octal '
        'from entries e join inodes i on i.ino = e.ino'):
    exact = p.encode() if pb is None else pb
    assert p == text(exact) and (pb is None) == (p.encode() == exact), \
        (p, pb)
    name = n.encode() if nb is None else nb
    assert exact == b'.' or exact.endswith(b'/' + name) or exact == name
    assert exact == b'.' or modes[exact] == mo, (exact, mo)
    got.add(exact)
assert got == want, got ^ want
# the README's query for the exact bytes
q = [r for r in c.execute("select coalesce(path_bytes, cast(path as blob)) "
                          "from entries where path like 'odd/ff%'")]
assert q == [(b'odd/ff\xff',)], q
with open(dir + '/entries.csv', newline='', encoding='utf-8') as f:
    rows = list(csv.DictReader(f))
got = set()
for r in rows:
    exact = base64.b64decode(r['path_b64']) if r['path_b64'] else \
        r['path'].encode()
    name = base64.b64decode(r['name_b64']) if r['name_b64'] else \
        r['name'].encode()
    assert r['path'] == text(exact) and r['name'] == text(name), r
    assert bool(r['path_b64']) == (text(exact).encode() != exact), r
    got.add(exact)
assert got == want and len(rows) == len(want), got ^ want
with open(dir + '/inodes.csv', newline='', encoding='utf-8') as f:
    rows = list(csv.DictReader(f))
assert '04751' in {r['mode_octal'] for r in rows}, rows[:3]
EOF
pass=$((pass + 1))

# DuckDB: skipped only without access to the npm registry; with it, an
# install or a load that fails is a failure
duck_setup
if [[ -n $DUCK ]]; then
	$DUCK "select uid, sum(disk_bytes) from
		read_csv('$T/csv/inodes.csv') group by uid order by uid" \
		>"$T/duck-du" || xb_die "DuckDB cannot read inodes.csv"
	cmp -s "$T/du" "$T/duck-du" ||
		xb_die "DuckDB per-uid disk bytes: $(diff "$T/du" "$T/duck-du" | head -5)"
	[[ $($DUCK "select count(*) from
		read_csv('$T/csv/entries.csv')") == "$want" ]] ||
		xb_die "DuckDB: entries"
	pass=$((pass + 1))
else
	duck_skip "the CSV was checked with sqlite3"
fi
echo "$pass passed, 0 failed"
