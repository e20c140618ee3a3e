#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every consumer reads every export the same way (issue 27), on a tree
# of names that are not UTF-8 or hold a newline, a CR, a tab, quotes, a
# comma, a leading = and " -> ":
#   - DuckDB (npm's @duckdb/node-api: lib-snap.sh's duck_setup) loads
#     each CSV xbulk writes (export --csv's entries.csv, diff -o csv,
#     find --format csv, du -o csv) with no row dropped (as many rows as
#     Python's csv reads), and the names it gets back from path_b64 (and
#     name_b64, a rename's old_path_b64), or from the text where that is
#     empty, are the filesystem's, byte for byte;
#   - one jq filter gives the same on find's, du's and diff's JSON Lines
#     for the same file: the keys path and path_b64 (null when the text
#     is exact), the exact bytes from them, and bs_mode (find's and
#     diff's, "0100644"), find's and du's paths less the operand's
#     prefix being diff's.
#
# Environment: XBULK; NPM_DIR (lib-snap.sh).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
command -v jq >/dev/null || xb_skip "jq not installed (scripts/deps)"

mkdir "$M/odd"
"$XBULK" snapshot "$M" "$T/s0"
python3 - "$M/odd" <<'EOF'
import os, sys
d = os.fsencode(sys.argv[1])
for n in (b'ff\xff', b'x80\x80', b'new\nline', b'cr\rhere', b'tab\there',
          b'comma,"quote"', b'=lead', b'=SUM(1+1)', b'a -> b', b'plain',
          b'sp ace', b'\xe9t\xe9'):
    with open(os.path.join(d, n), 'wb') as f:
        f.write(b'x' * len(n))
os.mkdir(os.path.join(d, b'dir\xff'))
open(os.path.join(d, b'dir\xff', b'in,"\n'), 'wb').close()
os.chmod(os.path.join(d, b'=lead'), 0o4751)
EOF
xb_settle
"$XBULK" snapshot "$M" "$T/s1"
mkdir "$T/csv"
"$XBULK" export --csv "$T/csv" "$T/s1"
cp "$T/csv/entries.csv" "$T/export.csv"
rc=0
"$XBULK" diff -o csv "$T/s0" "$T/s1" >"$T/diff.csv" || rc=$?
((rc == 1)) || xb_die "diff -o csv: exit status $rc"
"$XBULK" diff -o jsonl "$T/s0" "$T/s1" >"$T/diff.jsonl" || true
"$XBULK" find --format csv "$M/odd" >"$T/find.csv"
"$XBULK" find --format jsonl "$M/odd" >"$T/find.jsonl"
"$XBULK" du -a -o csv "$M/odd" >"$T/du.csv"
"$XBULK" du -a -o jsonl "$M/odd" >"$T/du.jsonl"
# a rename from one odd name to another: diff's old_path too
mv "$M/odd/ff"$'\xff' "$M/odd/gg"$'\xfe\n,"'
xb_settle
"$XBULK" snapshot "$M" "$T/s2"
"$XBULK" diff -o csv "$T/s1" "$T/s2" >"$T/rename.csv" || true

# What each CSV must hold, as hex of the exact bytes (the set of paths)
# and the rows Python's csv reads: M/odd's paths as find names them,
# diff's created paths below odd, every path of the export
python3 - "$M" "$T" <<'EOF' || xb_die "the CSV files through Python's csv"
import base64, csv, os, sys
mnt, t = os.fsencode(sys.argv[1]), sys.argv[2]
odd = os.path.join(mnt, b'odd')
# the tree as s1, find and du saw it: before the rename
RENAMED = (b'/gg\xfe\n,"', b'/ff\xff')
below = [os.path.join(d, n).replace(*RENAMED)
         for d, ds, fs in os.walk(odd) for n in ds + fs]
want = {
    'find': {odd} | set(below),
    'du': {odd} | set(below),
    'diff': {os.path.relpath(p, mnt) for p in below},
    'export': {b'.'} | {os.path.relpath(os.path.join(d, n),
                                        mnt).replace(*RENAMED)
                        for d, ds, fs in os.walk(mnt) for n in ds + fs},
}
# export: the name too (the top's is empty); the rename: old and new
want = {k: {(p,) for p in v} for k, v in want.items()}
want['export'] = {(p, b'' if p == b'.' else os.path.basename(p))
                  for p, in want['export']}
want['rename'] = {(b'odd/ff\xff', b'odd/gg\xfe\n,"')}


def exact(r, key):
    return base64.b64decode(r[key + '_b64']) if r[key + '_b64'] else \
        r[key].encode()


for k, paths in want.items():
    with open(f'{t}/{k}.csv', newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    if k == 'diff':
        rows = [r for r in rows if r['change'] == 'created']
    if k == 'rename':
        rows = [r for r in rows if r['change'] == 'renamed']
        got = {(exact(r, 'old_path'), exact(r, 'path')) for r in rows}
    elif k == 'export':
        got = {(exact(r, 'path'), exact(r, 'name')) for r in rows}
    else:
        got = {(exact(r, 'path'),) for r in rows}
    assert got == paths and len(rows) == len(paths), (k, got ^ paths)
    with open(f'{t}/{k}.want', 'w') as f:
        f.write(f'{len(rows)}\n' + ''.join(
            ' '.join(x.hex().upper() for x in p) + '\n' for p in paths))
EOF
ok

# DuckDB: every row, the names byte for byte
# exact COLUMN: SQL for the exact bytes of COLUMN, in hex (DuckDB reads
# an empty field as NULL, quoted or not: the top's name)
exact()
{
	echo "hex(coalesce(from_base64(nullif($1_b64, '')), encode(coalesce($1, ''))))"
}
duck_setup
if [[ -n $DUCK ]]; then
	for k in find du diff export rename; do
		where= more=
		[[ $k == diff ]] && where="where change = 'created'"
		[[ $k == rename ]] && where="where change = 'renamed'"
		[[ $k == export ]] && more=", $(exact name)"
		src="read_csv('$T/$k.csv', header = true, all_varchar = true,
			quote = '\"', escape = '\"')"
		sel="$(exact path)$more"
		[[ $k == rename ]] && sel="$(exact old_path), $(exact path)"
		{
			$DUCK "select count(*) from $src $where"
			$DUCK "select $sel from $src $where"
		} >"$T/$k.duck" 2>&1 || xb_die "DuckDB cannot read $k.csv: $(tail -3 "$T/$k.duck")"
		sort -o "$T/$k.duck.s" "$T/$k.duck"
		sort -o "$T/$k.want.s" "$T/$k.want"
		cmp -s "$T/$k.duck.s" "$T/$k.want.s" ||
			xb_die "DuckDB, $k.csv: $(diff "$T/$k.want.s" "$T/$k.duck.s" | head -5)"
	done
	ok
else
	duck_skip "the CSV files were checked with Python's csv"
fi

# jq: one filter, the same answers from find, du and diff
# shellcheck disable=SC2016
filter='select(.change == null or .change == "created") |
	[(.path | ltrimstr($pre)), has("path"), has("path_b64"),
	 (if .path_b64 then .path_b64 | @base64d | ltrimstr($pre)
	  else .path | ltrimstr($pre) end), .bs_mode]'
for k in find du diff; do
	pre=$M/
	[[ $k == diff ]] && pre=
	jq -c --arg pre "$pre" "$filter" "$T/$k.jsonl" | sort >"$T/$k.jq" ||
		xb_die "jq cannot read $k's JSON Lines"
done
# du has no mode: find's without it
jq -c '.[:4] + [null]' "$T/find.jq" | sort >"$T/find-nomode.jq"
cmp -s "$T/find-nomode.jq" "$T/du.jq" ||
	xb_die "jq: find and du differ: $(diff "$T/find-nomode.jq" "$T/du.jq" | head -5)"
grep -v '^\["odd",' "$T/find.jq" >"$T/find-below.jq"
cmp -s "$T/find-below.jq" "$T/diff.jq" ||
	xb_die "jq: find and diff differ: $(diff "$T/find-below.jq" "$T/diff.jq" | head -5)"
[[ $(grep -c '' "$T/diff.jq") == 14 ]] &&
	grep -qF '"0104751"]' "$T/diff.jq" ||
	xb_die "jq: diff's lines: $(cat "$T/diff.jq")"
ok

echo "$pass passed, 0 failed"
