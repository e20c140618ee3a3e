#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk du --trend on made-up summaries whose figures are known (issue
# 28, part 3; the history of a real filesystem: test-history.sh):
#   - --svg: well-formed XML (xmllint), rendered (rsvg-convert, not
#     blank), the largest 9 of 12 directories and "other" as lines of one
#     point per summary on consistent axes, the filesystem's used space,
#     size and projection, names escaped (a byte that is not UTF-8, a
#     control, markup, a bidi override, a name wider than the legend),
#     the legend and title, mode 0600, the same bytes twice; no "other"
#     under 10 series, no projection when the space does not shrink;
#     --max-series N: N lines, "other" one of them (2 to 10);
#   - a file that cannot be written fails before anything is printed;
#     a history that cannot be read leaves the old picture;
#   - the exact bytes of a path (its path_b64) in text, JSON Lines and
#     -o csv; --by uid with the user's name in each.
# No filesystem is mounted: the summaries are written by hand.
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
for tool in xmllint rsvg-convert python3; do
	command -v "$tool" >/dev/null || xb_skip "$tool not installed (scripts/deps)"
done
xb_tmpdir
T=$XB_TMP
CHECK="python3 $TOP/tests/snap/check_trend.py"
PNG="python3 $TOP/tests/integration/check_du.py png"
pass=0
ok()
{
	pass=$((pass + 1))
}

# history DIR NDIRS SHRINK: 10 daily summaries from 2026-12-04 of a
# filesystem of 1 GiB; directory k (1..NDIRS) holds k MiB times the
# day's number; the free space shrinks by 50 MiB a day if SHRINK is 1.
# Directories 12, 11, 10, 9 have hostile names (below).
history()
{
	python3 - "$@" <<'EOF'
import base64, json, os, sys

d, ndirs, shrink = sys.argv[1], int(sys.argv[2]), sys.argv[3] == '1'
os.makedirs(d, mode=0o700)
hostile = {12: b'bad\xff\x01name', 11: b'<a href="&amp;">\'x\'</a>',
           10: b'long-' + b'n' * 300, 9: 'rtl\u202egnp.exe'.encode()}
MiB, day0 = 1 << 20, 1796342400          # 2026-12-04T00:00:00Z
for i in range(1, 11):
    stamp = '202612%02dT000000Z' % (3 + i)
    free = (1 << 30) - i * 50 * MiB * shrink - 10 * MiB
    head = {'kind': 'summary', 'version': 1, 'stamp': stamp,
            'snapshot': stamp + '.xbs', 'start': day0, 'end': day0,
            'uuid': 'u', 'host': 'h<&>', 'mountpoint': '/srv',
            'fs_bytes': 1 << 30, 'fs_free_bytes': free,
            'fs_inodes': 1000, 'fs_free_inodes': 900, 'depth': 2,
            'inodes': 1, 'bytes': 1, 'apparent': 1}
    lines = [head, {'kind': 'dir', 'path': '.', 'depth': 0, 'inodes': 1,
                    'bytes': 1, 'apparent': 1}]
    for k in range(1, ndirs + 1):
        raw = hostile.get(k, b'd%02d' % k)
        line = {'kind': 'dir', 'path': raw.decode('utf-8', 'replace'),
                'depth': 1, 'inodes': k, 'bytes': k * i * MiB,
                'apparent': k * i * MiB}
        try:
            raw.decode('utf-8')
        except UnicodeDecodeError:
            line['path_b64'] = base64.b64encode(raw).decode()
        lines.append(line)
        lines.append(dict(line, depth=2, path=line['path'] + '/sub',
                          path_b64=None))
    for kind in ('uid', 'gid'):
        lines.append({'kind': kind, 'id': 0, 'inodes': 1,
                      'bytes': i * MiB, 'apparent': i * MiB})
    with open(os.path.join(d, stamp + '.summary.jsonl'), 'w') as f:
        for l in lines:
            f.write(json.dumps({k: v for k, v in l.items()
                                if v is not None}) + '\n')
EOF
}

H=$T/hist
history "$H" 12 1
# --- the chart: 9 lines, "other", the filesystem's lines
"$XBULK" du --trend --svg "$T/t.svg" "$H" >"$T/out" ||
	xb_die "du --trend --svg: $?"
[[ $(stat -c %a "$T/t.svg") == 600 ]] ||
	xb_die "--svg: mode $(stat -c %a "$T/t.svg"), not 600"
xmllint --noout "$T/t.svg" || xb_die "--svg: not well-formed"
ok
$CHECK svg "$T/t.svg" "$H" 9 yes yes || xb_die "--svg: the lines"
rsvg-convert -o "$T/t.png" "$T/t.svg" || xb_die "rsvg-convert failed"
$PNG "$T/t.png" >/dev/null || xb_die "--svg: the PNG is blank"
ok
for want in 'the 9 largest of 12 directories' 'other: the 3 more, summed' \
	'full about 2026-12-' 'date (UTC)' 'powers of 1024 bytes' \
	'xbulk du --trend: disk usage of /srv on h&lt;&amp;&gt;, per top directory' \
	'10 summaries, 2026-12-04 00:00 to 2026-12-13 00:00 UTC' \
	'>2026-12-10<' '>250M<' 'bad&#65533;&#65533;name' \
	'&lt;a href=&quot;&amp;amp;&quot;&gt;'"'x'"'&lt;/a&gt;' \
	$'rtl\u202egnp.exe' 'long-nnnn'; do
	# the names as XML text: U+FFFD for the bad byte and the control
	python3 -c 'import sys; s = open(sys.argv[1], encoding="utf-8").read()
w = sys.argv[2].replace("&#65533;", "\ufffd")
sys.exit(w not in s)' "$T/t.svg" "$want" || xb_die "--svg lacks '$want'"
done
# the long name is cut to the legend's width, whole in its line's title
grep -q 'long-n*\.\.\.</text><text [^>]*>100M<' "$T/t.svg" || xb_die "--svg: the long name uncut"
grep -q "<title>long-n\{300\}</title>" "$T/t.svg" ||
	xb_die "--svg: the long name's title"
ok
"$XBULK" du --trend --svg "$T/t2.svg" "$H" >/dev/null &&
	cmp -s "$T/t.svg" "$T/t2.svg" || xb_die "--svg: not the same bytes twice"
ok
# --max-series 4: 3 lines and "other"; out of 2..10 refused
"$XBULK" du --trend --max-series 4 --svg "$T/m.svg" "$H" >/dev/null ||
	xb_die "du --trend --max-series 4 --svg: $?"
$CHECK svg "$T/m.svg" "$H" 3 yes yes || xb_die "--svg --max-series 4"
# usage NAME PATTERN ARGS...: du ARGS is a usage error saying PATTERN
usage()
{
	local name=$1 pat=$2 rc=0

	shift 2
	"$XBULK" du "$@" >"$T/out" 2>"$T/err" || rc=$?
	((rc == 2)) && grep -q -- "$pat" "$T/err" && [[ ! -s $T/out ]] ||
		xb_die "$name: exit status $rc: $(cat "$T/err")"
}
usage "--max-series 11" "--max-series: 2 to 10 lines" \
	--trend --max-series 11 --svg "$T/m.svg" "$H"
usage "--max-series, no --svg" "needs --prometheus FILE or --trend --svg" \
	--trend --max-series 4 "$H"
ok
# 5 series, a free space that does not shrink: no "other", no projection
history "$T/small" 5 0
"$XBULK" du --trend -h --svg "$T/s.svg" "$T/small" >/dev/null ||
	xb_die "du --trend --svg (small): $?"
$CHECK svg "$T/s.svg" "$T/small" 5 no no || xb_die "--svg (small)"
grep -q '>5 directories, newest:<' "$T/s.svg" || xb_die "--svg: the legend's head"
ok
# --by uid: the user's name
"$XBULK" du --trend --by uid --svg "$T/u.svg" "$H" >/dev/null ||
	xb_die "du --trend --by uid --svg: $?"
grep -q '<title>root (uid 0)</title>' "$T/u.svg" ||
	xb_die "--by uid --svg: no 'root (uid 0)'"
grep -q 'per user' "$T/u.svg" || xb_die "--by uid --svg: the title"
ok

# --- files: what cannot be written fails first; the old picture stays
xb_want_fail "--svg a directory" 1 "^xbulk du: --svg: $T: Is a directory\$" \
	"$T/out" "$T/err" "$XBULK" du --trend --svg "$T" "$H"
echo old >"$T/old.svg"
xb_want_fail "a history not there" 1 "^xbulk du: $T/none: No such file" \
	"$T/out" "$T/err" "$XBULK" du --trend --svg "$T/old.svg" "$T/none"
[[ $(cat "$T/old.svg") == old ]] || xb_die "the old picture was replaced"
ok

# --- exact bytes of a path, and owners' names, in every output
"$XBULK" du --trend -B1 "$H" >"$T/out" || xb_die "du --trend: $?"
grep -qx 'bad\\377\\001name' "$T/out" || xb_die "text: the exact bytes"
grep -qx '  +12582912/day over 7 days' "$T/out" || xb_die "text: growth"
"$XBULK" du --trend -o jsonl "$H" >"$T/out" || xb_die "-o jsonl: $?"
b64=$(printf 'bad\377\001name' | base64)
grep -q "\"path_b64\":\"$b64\",\"stamp\":\"20261213T000000Z\",\"bytes\":125829120," \
	"$T/out" || xb_die "jsonl: path_b64"
"$XBULK" du --trend -o csv "$H" >"$T/out" || xb_die "-o csv: $?"
[[ $(head -1 "$T/out") == $'stamp,path,bytes,apparent,inodes,path_b64\r' ]] ||
	xb_die "csv: header $(head -1 "$T/out")"
# the control is UTF-8: kept (docs/formats.md); the bad byte U+FFFD
grep -q $'^20261213T000000Z,bad\ufffd\001name,125829120,125829120,12,'"$b64"$'\r$' \
	"$T/out" || xb_die "csv: the row of the bad name"
grep -q $'^20261213T000000Z,"<a href=""&amp;"">\'x\'</a>",' "$T/out" ||
	xb_die "csv: a quoted name"
[[ $(grep -c . "$T/out") == $((1 + 10 * 13)) ]] || xb_die "csv: rows"
ok
"$XBULK" du --trend --by uid "$H" >"$T/out" || xb_die "--by uid: $?"
grep -qx 'uid 0 (root)' "$T/out" || xb_die "--by uid: no name"
"$XBULK" du --trend --by gid -o jsonl "$H" >"$T/out" || xb_die "--by gid: $?"
grep -q '{"kind":"growth","gid":0,"name":"root","name_b64":null,"bytes_per_day":1048576.0,' \
	"$T/out" || xb_die "--by gid -o jsonl: $(grep growth "$T/out")"
"$XBULK" du --trend --by uid -o csv "$H" >"$T/out" || xb_die "--by uid csv: $?"
[[ $(head -2 "$T/out") == $'stamp,uid,name,bytes,apparent,inodes\r\n20261204T000000Z,0,root,1048576,1048576,1\r' ]] ||
	xb_die "--by uid -o csv: $(head -2 "$T/out")"
ok

echo "trend: $pass checks passed"
