#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What xbulk snapshot records and how xbulk diff prints it (issue 19):
#   - syncfs first: a file written just before a snapshot shows its size
#     (bulkstat reports the size on disk, which writeback moves); with
#     --no-sync it shows the size on disk then, and the next diff lists
#     it as a content change exactly when that was not the whole size;
#   - a PATH that is not a mount point is refused (snapshot and diff);
#   - CSV: the header and the columns of a rename and a modification;
#   - --summary: the counts and the bytes added, removed and changed;
#   - --only entries keeps only the E lines, --only modified,renamed those;
#   - -0 and --deleted0 under --type and --only: the filters pick what is
#     printed, never what counts as gone;
#   - an inode no name reaches: <inode N>, no path in JSON Lines or -0;
#   - paths with a newline, a tab, a backslash, C0 and C1 controls, DEL,
#     a bidi override, "->" and bytes that are not UTF-8: C escapes in
#     text (a rename's "->" the only one), JSON escapes in JSON Lines
#     (path_b64 for what is not UTF-8), U+FFFD and path_b64 in CSV, the
#     bytes as they are in -0;
#   - --linked0 and --copy0: -0 split in two, the names of an inode that
#     only gained names (and kept one) in the first.
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
export LC_ALL=C

S=$T/snaps
mkdir "$S" "$M/w"

# size_of SNAP PATH: the size SNAP records for PATH
size_of()
{
	rm -f "$T/db"
	"$XBULK" export --sqlite "$T/db" "$1"
	sqlite3 "$T/db" "select i.size from entries e join inodes i
		on i.ino = e.ino where e.path = '$2'"
}

# --- syncfs, and --no-sync
head -c 100000 /dev/urandom >"$M/w/late"
"$XBULK" snapshot "$M" "$S/synced"
[[ $(size_of "$S/synced" w/late) == 100000 ]] ||
	xb_die "a file written before the snapshot: size $(size_of "$S/synced" w/late), not 100000 (no syncfs?)"
ok
head -c 100000 /dev/urandom >"$M/w/late2"
xb_settle	# else the next diff lists it (changing) whatever its size
"$XBULK" snapshot --no-sync "$M" "$S/nosync"
before=$(size_of "$S/nosync" w/late2)
[[ $before == 0 || $before == 100000 ]] ||
	xb_die "--no-sync: size $before, neither on disk nor whole"
sync
"$XBULK" diff "$S/nosync" "$M" >"$T/out" || true
if ((before == 0)); then
	grep -qx 'Mfc.*w/late2' "$T/out" ||
		xb_die "--no-sync: written back since, no content change: $(cat "$T/out")"
	echo "--no-sync recorded w/late2 with size 0 (its data not on disk yet)"
else
	! grep -q 'w/late2' "$T/out" ||
		xb_die "--no-sync: whole size recorded, yet listed: $(cat "$T/out")"
	echo "--no-sync recorded w/late2 whole (written back before the scan)"
fi
ok

# --- a PATH that is not a mount point
for cmd in "snapshot $M/w $S/x" "diff $S/synced $M/w"; do
	rc=0
	# shellcheck disable=SC2086
	"$XBULK" $cmd >"$T/out" 2>"$T/err" || rc=$?
	((rc == 2)) && [[ ! -s $T/out && $(wc -l <"$T/err") == 1 ]] &&
		grep -q "$M/w: not a mount point" "$T/err" ||
		xb_die "$cmd: exit status $rc: $(cat "$T/err")"
done
[[ ! -e $S/x ]] || xb_die "snapshot of a subdirectory wrote $S/x"
ok

# --- CSV, --summary, --only
mkdir "$M/o"
head -c 300 /dev/zero >"$M/o/gone"
head -c 200 /dev/zero >"$M/o/grow"
head -c 50 /dev/zero >"$M/o/ren"
xb_settle
"$XBULK" snapshot "$M" "$S/o1"
rm "$M/o/gone"
head -c 1000 /dev/zero >"$M/o/new"
head -c 300 /dev/zero >>"$M/o/grow"
mv "$M/o/ren" "$M/o/ren2"
chmod 600 "$M/o/ren2"
xb_settle
"$XBULK" snapshot "$M" "$S/o2"
"$XBULK" diff -o csv "$S/o1" "$S/o2" >"$T/csv" || true
python3 - "$T/csv" "$(stat -c %i "$M/o/ren2")" <<'EOF' || xb_die "CSV: $(cat "$T/csv")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert rows[0] == ['change', 'type', 'ino', 'gen', 'facets', 'changing',
                   'path', 'old_path', 'size', 'old_size', 'path_b64',
                   'old_path_b64'], rows[0]
assert all(r[10:] == ['', ''] for r in rows[1:]), rows
by = {(r[0], r[6]): r for r in rows[1:]}
r = by['renamed', 'o/ren2']
assert r[1] == 'f' and r[2] == sys.argv[2] and r[4] == 'mode' and \
    r[5] == '0' and r[7] == 'o/ren' and r[8] == '50' and r[9] == '50', r
r = by['modified', 'o/grow']
assert r[4] == 'content' and r[7] == '' and r[8] == '500' and \
    r[9] == '200', r
r = by['deleted', 'o/gone']
assert r[8] == '' and r[9] == '300', r
r = by['created', 'o/new']
assert r[8] == '1000' and r[9] == '', r
r = by['entries', 'o']
assert r[1] == 'd' and 'content' in r[4].split('|'), r
assert all(len(r) == 12 for r in rows), rows
EOF
ok
"$XBULK" diff --summary "$S/o1" "$S/o2" >"$T/sum" || true
cat >"$T/want" <<EOF
created   1
deleted   1
renamed   1
modified  1
entries   1
linked    0
unlinked  0
moved     0
bytes added 1000, removed 300, changed 500
changing  0 (changed while a scan ran)
EOF
diff "$T/want" "$T/sum" >&2 || xb_die "--summary"
"$XBULK" diff --summary --type f --only created,deleted "$S/o1" "$S/o2" \
	>"$T/sum" || true
grep -qx 'bytes added 1000, removed 300, changed 0' "$T/sum" ||
	xb_die "--summary counts what the filters keep: $(cat "$T/sum")"
ok
rc=0; "$XBULK" diff --only entries "$S/o1" "$S/o2" >"$T/out" || rc=$?
((rc == 1)) && [[ $(cat "$T/out") == 'Edc.......... o' ]] ||
	xb_die "--only entries: $rc $(cat "$T/out")"
"$XBULK" diff --only modified,renamed "$S/o1" "$S/o2" >"$T/out" || true
[[ $(cut -c1 "$T/out" | sort | tr -d '\n') == MR ]] ||
	xb_die "--only modified,renamed: $(cat "$T/out")"
rc=0; "$XBULK" diff --only linked "$S/o1" "$S/o2" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] || xb_die "--only linked: $rc"
ok

# --- the path lists under filters: --type and --only pick what is
# printed, never what counts as gone (a file that became a directory, a
# file replaced by rename-over)
mkdir "$M/t"
echo x >"$M/t/x"
echo y >"$M/t/y"
xb_settle
"$XBULK" snapshot "$M" "$S/t1"
rm "$M/t/x"
mkdir "$M/t/x"
echo in >"$M/t/x/in"
echo new >"$M/t/.y"
mv "$M/t/.y" "$M/t/y"
xb_settle
"$XBULK" snapshot "$M" "$S/t2"
for f in "--type f" "--only deleted" ""; do
	# shellcheck disable=SC2086
	"$XBULK" diff --deleted0 $f "$S/t1" "$S/t2" >"$T/del"
	[[ ! -s $T/del ]] || xb_die "--deleted0 $f: $(tr '\0' ' ' <"$T/del")"
done
"$XBULK" diff -0 --type f "$S/t1" "$S/t2" | tr '\0' '\n' | sort >"$T/nul"
printf 't/x/in\nt/y\n' | cmp -s - "$T/nul" || xb_die "-0 --type f: $(cat "$T/nul")"
# a letter given again is taken once (past 15 letters it was refused
# as an unknown type)
"$XBULK" diff -0 --type f,f,f,f,f,f,f,f,f,f,f,f,f,f,f,f,f "$S/t1" "$S/t2" |
	tr '\0' '\n' | sort | cmp -s - "$T/nul" || xb_die "--type f,f,...f"
ok

# --- an inode no name reaches (open, never linked: O_TMPFILE) is
# <inode N>, with no path in JSON Lines and none in -0
"$XBULK" snapshot "$M" "$S/u1"
python3 - "$XBULK" "$S/u1" "$M" "$TOP/tests/integration/settle.py" <<'EOF' ||
	xb_die "an unnamed inode"
import json, os, subprocess, sys
xbulk, old, mnt = sys.argv[1:4]
fd = os.open(mnt, os.O_TMPFILE | os.O_WRONLY, 0o600)
os.write(fd, b'x' * 100)
ino = os.fstat(fd).st_ino
subprocess.run(['python3', sys.argv[4]], check=True)


def diff(*opts):
    return subprocess.run([xbulk, 'diff', *opts, old, mnt],
                          capture_output=True).stdout


assert diff().decode().splitlines() == \
    [f'+f........... <inode {ino}>'], diff()
j = [json.loads(x) for x in diff('-o', 'jsonl').splitlines()]
assert len(j) == 1 and j[0]['ino'] == ino and j[0]['path'] is None, j
assert diff('-0') == b'' and diff('--deleted0') == b''
EOF
ok

# --- odd names: one encoding (docs/formats.md, "Names and modes")
mkdir "$M/n"
touch "$M/n/a -> b"
xb_settle
"$XBULK" snapshot "$M" "$S/n1"
python3 - "$M/n" <<'EOF'
import os, sys
d = os.fsencode(sys.argv[1])
for n in (b'new\nline', b'tab\there', b'back\\slash', b'ctl\x01',
          b'latin1-\xe9', b'comma,"quote"', b'over\xc0\xaf',
          b'surr\xed\xa0\x80', b'big\xf4\x90\x80\x80',
          b'emoji\xf0\x9f\x98\x80', b'c1\x9b', b'u9b\xc2\x9b',
          b'rlo\xe2\x80\xaeabc', b'del\x7f', b'=lead', b'x80\x80'):
    open(os.path.join(d, n), 'wb').close()
os.rename(os.path.join(d, b'a -> b'), os.path.join(d, b'c -> d'))
EOF
xb_settle
"$XBULK" snapshot "$M" "$S/n2"
"$XBULK" diff --only created,renamed "$S/n1" "$S/n2" >"$T/text" || true
printf '%s\n' '+f........... n/back\\slash' '+f........... n/comma,"quote"' \
	'+f........... n/ctl\001' '+f........... n/latin1-\351' \
	'+f........... n/new\nline' '+f........... n/tab\there' \
	'+f........... n/over\300\257' '+f........... n/surr\355\240\200' \
	'+f........... n/big\364\220\200\200' \
	'+f........... n/emoji'$'\xf0\x9f\x98\x80' \
	'+f........... n/c1\233' '+f........... n/u9b\302\233' \
	'+f........... n/rlo\342\200\256abc' '+f........... n/del\177' \
	'+f........... n/=lead' '+f........... n/x80\200' \
	'Rf........... n/a -\076 b -> n/c -\076 d' | sort >"$T/want"
sort "$T/text" | cmp -s - "$T/want" ||
	xb_die "text escapes: $(diff "$T/want" <(sort "$T/text") | cat -A)"
"$XBULK" diff --only created,renamed -o jsonl "$S/n1" "$S/n2" >"$T/jsonl" ||
	true
"$XBULK" diff --only created,renamed -o csv "$S/n1" "$S/n2" >"$T/csv" ||
	true
"$XBULK" diff --only created -0 "$S/n1" "$S/n2" >"$T/nul"
python3 - "$T" <<'EOF' || xb_die "jsonl, csv or -0 paths"
import base64, csv, json, sys, unicodedata
t = sys.argv[1]
want = {b'n/new\nline', b'n/tab\there', b'n/back\\slash', b'n/ctl\x01',
        b'n/latin1-\xe9', b'n/comma,"quote"', b'n/over\xc0\xaf',
        b'n/surr\xed\xa0\x80', b'n/big\xf4\x90\x80\x80',
        b'n/emoji\xf0\x9f\x98\x80', b'n/c1\x9b', b'n/u9b\xc2\x9b',
        b'n/rlo\xe2\x80\xaeabc', b'n/del\x7f', b'n/=lead', b'n/x80\x80',
        b'n/c -> d'}


def utf8(p):
    """Is @p UTF-8 as Unicode allows it (Python's codec is strict: no
    overlong form, surrogate, code point past U+10FFFF)?"""
    try:
        p.decode('utf-8')
        return True
    except UnicodeDecodeError:
        return False


# the text: the escapes undone give the bytes back; nothing raw that a
# terminal hides or acts on
got = set()
for line in open(t + '/text', 'rb').read().split(b'\n')[:-1]:
    assert not any(unicodedata.category(c) in ('Cc', 'Cf')
                   for c in line.decode('utf-8')), line
    paths = line[14:].split(b' -> ')
    assert len(paths) == (2 if line[:1] == b'R' else 1), line
    got.add(paths[-1].decode('unicode_escape').encode('latin-1'))
assert got == want, got ^ want
got = set()
for line in open(t + '/jsonl', 'rb'):
    j = json.loads(line.decode('utf-8'))	# strict: all of it UTF-8
    # as find's and du's: the text (U+FFFD), the exact bytes beside it
    # when it is not exact, else null
    if j['path_b64'] is not None:
        p = base64.b64decode(j['path_b64'])
        got.add(p)
        assert not utf8(p), j		# only what is not UTF-8
        assert j['path'] == p.decode('utf-8', 'replace'), j
    else:
        got.add(j['path'].encode())
    if j['change'] == 'renamed':
        assert j['old_path'] == 'n/a -> b', j
assert got == want, got ^ want
# CSV: strict UTF-8, path_b64 the exact bytes of what is not
rows = list(csv.DictReader(open(t + '/csv', newline='', encoding='utf-8')))
got = set()
for r in rows:
    p = base64.b64decode(r['path_b64']) if r['path_b64'] else \
        r['path'].encode()
    assert bool(r['path_b64']) == (not utf8(p)), r
    assert r['path'] == p.decode('utf-8', 'replace'), r
    got.add(p)
assert got == want, got ^ want
assert list(rows[0])[-2:] == ['path_b64', 'old_path_b64'], rows[0]
want.discard(b'n/c -> d')
assert set(open(t + '/nul', 'rb').read().split(b'\0')[:-1]) == want
EOF
ok

# --- --linked0 and --copy0 split -0 in two: an inode that only gained
# names (and kept one) has all its names in --linked0, any other change
# puts them in --copy0
mkdir "$M/ln"
for f in pure chmod write swap gone; do echo "$f" >"$M/ln/$f"; done
ln "$M/ln/swap" "$M/ln/swap.old"
ln "$M/ln/gone" "$M/ln/gone.a"
xb_settle
"$XBULK" snapshot "$M" "$S/ln1"
ln "$M/ln/pure" "$M/ln/pure.2"
ln "$M/ln/chmod" "$M/ln/chmod.2"
chmod 600 "$M/ln/chmod"
ln "$M/ln/write" "$M/ln/write.2"
echo more >>"$M/ln/write"
ln "$M/ln/swap" "$M/ln/swap.new"	# one name kept, one lost, one gained
rm "$M/ln/swap.old"
ln "$M/ln/gone" "$M/ln/gone.b"		# no name kept: nothing to link to
ln "$M/ln/gone" "$M/ln/gone.c"
rm "$M/ln/gone" "$M/ln/gone.a"
xb_settle
"$XBULK" snapshot "$M" "$S/ln2"
for o in -0 --linked0 --copy0; do
	rc=0
	"$XBULK" diff "$o" "$S/ln1" "$S/ln2" | tr '\0' '\n' | sort >"$T/ln$o" ||
		rc=$?
	((rc == 0)) || xb_die "diff $o: exit status $rc"
done
[[ $(cat "$T/ln--linked0" | tr '\n' ' ') == 'ln/pure ln/pure.2 ln/swap ln/swap.new ' ]] ||
	xb_die "--linked0: $(cat "$T/ln--linked0")"
[[ $(grep -c . "$T/ln--copy0") -ge 7 ]] &&
	grep -qx ln/chmod.2 "$T/ln--copy0" && grep -qx ln/write "$T/ln--copy0" &&
	grep -qx ln/gone.c "$T/ln--copy0" && grep -qx ln "$T/ln--copy0" ||
	xb_die "--copy0: $(cat "$T/ln--copy0")"
sort "$T/ln--linked0" "$T/ln--copy0" | cmp -s - "$T/ln-0" &&
	[[ -z $(comm -12 "$T/ln--linked0" "$T/ln--copy0") ]] ||
	xb_die "--linked0 and --copy0 are not -0 split in two"
rc=0
"$XBULK" diff -0 --linked0 "$S/ln1" "$S/ln2" >/dev/null 2>"$T/err" || rc=$?
((rc == 2)) || xb_die "-0 --linked0: exit status $rc"
ok

echo "$pass passed, 0 failed"
