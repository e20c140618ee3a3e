#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk export: the SQLite and CSV tables of a snapshot agree with GNU
# find (the number of entries; per uid, the sum of st_size over entries)
# and with xbulk du --by uid (per uid, the disk bytes of each inode
# once); the CSV files load into SQLite (sqlite3 .import) and into DuckDB
# (npm's @duckdb/node-api, installed into NPM_DIR on first use; when npm
# cannot install it the DuckDB case is skipped, saying so, and the CSV is
# still checked through sqlite3) with the same sums; every CSV row
# carries the filesystem's UUID.
#
# Environment: XBULK; NPM_DIR (where @duckdb/node-api goes; default
# $XDG_CACHE_HOME/xbulk-tests/npm, shared by every build tree).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"

xb_require_root_loop
command -v sqlite3 >/dev/null || xb_skip "sqlite3 not installed (scripts/deps)"

xb_mkfs_mount 1G "-d agcount=4"
M=$XB_MNT
T=$XB_TMP
xb_populate "$M" 1000
# hard links: counted per name by find, once by du
ln "$M/$(cd "$M" && find . -type f | head -1)" "$M/hardlink"
mkdir "$T/csv"
"$XBULK" snapshot "$M" "$T/snap"
"$XBULK" export --sqlite "$T/db" "$T/snap"
"$XBULK" export --csv "$T/csv" "$T/snap"
pass=0

# entries: one per path find lists
want=$(find "$M" | wc -l)
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

# DuckDB
NPM_DIR=${NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/xbulk-tests/npm}
if [[ ! -d $NPM_DIR/node_modules/@duckdb/node-api ]] &&
   command -v npm >/dev/null; then
	mkdir -p "$NPM_DIR"
	(cd "$NPM_DIR" && timeout 300 npm install --no-audit --no-fund \
		--silent @duckdb/node-api >/dev/null 2>&1) || true
fi
if [[ -d $NPM_DIR/node_modules/@duckdb/node-api ]]; then
	cat >"$NPM_DIR/query.mjs" <<'EOF'
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(process.argv[2]);
for (const row of r.getRows()) console.log(row.map(String).join(' '));
EOF
	node "$NPM_DIR/query.mjs" "select uid, sum(disk_bytes) from
		read_csv('$T/csv/inodes.csv') group by uid order by uid" \
		>"$T/duck-du"
	cmp -s "$T/du" "$T/duck-du" ||
		xb_die "DuckDB per-uid disk bytes: $(diff "$T/du" "$T/duck-du" | head -5)"
	[[ $(node "$NPM_DIR/query.mjs" "select count(*) from
		read_csv('$T/csv/entries.csv')") == "$want" ]] ||
		xb_die "DuckDB: entries"
	pass=$((pass + 1))
else
	echo "SKIP: DuckDB: npm could not install @duckdb/node-api (the CSV was checked with sqlite3)"
fi
echo "$pass passed, 0 failed"
