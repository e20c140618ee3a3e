#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Diffs a person can read (issue 26, part 4), on a small tree: a header
# tree removed with rm -rf after one file was moved out of it, a new tree
# made with mkdir -p and files, a directory renamed, a file grown.  At
# -j 1 and -j 2, against a snapshot and against the live mount:
#   - the default output is the inode-order stream it always was (the
#     same lines as sorted by path, nothing folded, inode order);
#   - --sort path (text): sorted, each created or deleted subtree one
#     line with its inodes and bytes, the moved-out file on its own;
#     with --expand, every line, sorted;
#   - --fold in inode order; -o jsonl and csv sorted, folded only with
#     --fold (then inodes and bytes fields);
#   - --summary --depth 1 and 2: the table by directory, then the
#     totals as before;
#   - --type f: nothing to fold into, every file listed;
#   - a budget of 1 MiB: the changes held spill, the output the same;
#     with the spill directory full, one line and exit status 2;
#   - bad input: one line and the usage hint, exit status 2, nothing on
#     stdout.
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
export LC_ALL=C

S=$T/snaps
mkdir "$S"

# expect WHAT FILE: FILE's lines are exactly these (stdin)
expect()
{
	diff -u - "$2" >&2 || xb_die "$1"
}

# out OPTS...: the diff OLD NEW with -j $J and OPTS into $T/out (exit
# status 1)
out()
{
	local rc=0

	"$XBULK" diff -j "$J" "$@" "$OLD" "$NEW" >"$T/out" 2>"$T/err" || rc=$?
	((rc == 1)) || xb_die "diff $*: exit status $rc: $(cat "$T/err")"
}

# keys FILE: change, path, old_path, inodes, bytes of JSON Lines
keys()
{
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(j["change"], j["path"], j["old_path"], j.get("inodes"),
          j.get("bytes"))' "$1"
}

check_forms()
{
	out
	# the stream: inode order, and the lines sorting by path gives
	out -o jsonl
	python3 - "$T/out" <<'PY' || xb_die "default: not in inode order"
import json, sys
inos = [json.loads(l)['ino'] for l in open(sys.argv[1])]
assert inos == sorted(inos), inos
PY
	sort "$T/out" >"$T/plain"
	out --sort path -o jsonl
	sort "$T/out" | cmp -s - "$T/plain" ||
		xb_die "--sort path -o jsonl: other lines than the default's"
	keys "$T/out" | expect "--sort path -o jsonl" <(cat <<'X'
entries . None None None
created gen None None None
created gen/c.o None None None
created gen/sub None None None
created gen/sub/a.o None None None
created gen/sub/deep None None None
created gen/sub/deep/b.o None None None
deleted inc None None None
deleted inc/a None None None
deleted inc/a/x.h None None None
deleted inc/a/y.h None None None
deleted inc/b None None None
deleted inc/b/z.h None None None
renamed renamed old None None
entries src None None None
renamed src/keep.h inc/keep.h None None
modified src/main.c None None None
X
)
	out --sort path --expand
	grep -v '^>' "$T/out" | sort >"$T/plain"
	out
	sort "$T/out" | cmp -s - "$T/plain" ||
		xb_die "default text: other lines than --sort path --expand's"
	ok

	out --sort path
	cp "$T/out" "$T/folded"
	expect "--sort path" "$T/out" <<'X'
Edc.......... .
+d........... gen (6 inodes, 5.9 KiB)
-d........... inc (6 inodes, 600 B)
Rd........... old -> renamed
Edc.......... src
Rf........... inc/keep.h -> src/keep.h
Mfc.......... src/main.c
X
	out --sort path --expand
	expect "--sort path --expand" "$T/out" <<'X'
Edc.......... .
+d........... gen
+f........... gen/c.o
+d........... gen/sub
+f........... gen/sub/a.o
+d........... gen/sub/deep
+f........... gen/sub/deep/b.o
-d........... inc
-d........... inc/a
-f........... inc/a/x.h
-f........... inc/a/y.h
-d........... inc/b
-f........... inc/b/z.h
Rd........... old -> renamed
>f........... old/f -> renamed/f
Edc.......... src
Rf........... inc/keep.h -> src/keep.h
Mfc.......... src/main.c
X
	out --sort path --type f
	expect "--sort path --type f" "$T/out" <<'X'
+f........... gen/c.o
+f........... gen/sub/a.o
+f........... gen/sub/deep/b.o
-f........... inc/a/x.h
-f........... inc/a/y.h
-f........... inc/b/z.h
Rf........... inc/keep.h -> src/keep.h
Mfc.......... src/main.c
X
	ok

	# --fold in inode order: the lines of --sort path, where the stream
	# has them
	out --fold
	sort "$T/out" | expect "--fold" <(sort "$T/folded")
	out --fold -o jsonl
	python3 - "$T/out" <<'PY' || xb_die "--fold -o jsonl: not in inode order"
import json, sys
inos = [json.loads(l)['ino'] for l in open(sys.argv[1])]
assert inos == sorted(inos), inos
PY
	out --sort path --fold -o jsonl
	keys "$T/out" | expect "--sort path --fold -o jsonl" <(cat <<'X'
entries . None None None
created gen None 6 6000
deleted inc None 6 600
renamed renamed old None None
entries src None None None
renamed src/keep.h inc/keep.h None None
modified src/main.c None None None
X
)
	out --sort path --fold -o csv
	cut -d, -f1,2,7,8,11,12 "$T/out" | expect "--sort path --fold -o csv" \
		<(printf '%s\n' change,type,path,old_path,inodes,bytes \
		  'entries,d,".",,,' 'created,d,"gen",,6,6000' \
		  'deleted,d,"inc",,6,600' 'renamed,d,"renamed","old",,' \
		  'entries,d,"src",,,' 'renamed,f,"src/keep.h","inc/keep.h",,' \
		  'modified,f,"src/main.c",,,')
	out --sort path -o csv
	head -1 "$T/out" | cmp -s - <(printf '%s\r\n' \
		change,type,ino,gen,facets,changing,path,old_path,size,old_size,path_b64,old_path_b64) ||
		xb_die "--sort path -o csv: the header changed: $(head -1 "$T/out")"
	(($(wc -l <"$T/out") == 18)) || xb_die "--sort path -o csv folded"
	ok

	out --summary --depth 1
	expect "--summary --depth 1" "$T/out" <<'X'
created deleted changed   moved      added    removed    content  directory
      0       0       1       0        0 B        0 B        0 B  .
      6       0       0       0    5.9 KiB        0 B        0 B  gen
      0       6       0       0        0 B      600 B        0 B  inc
      0       0       0       1        0 B        0 B        0 B  renamed
      0       0       2       1        0 B        0 B       20 B  src

created   6
deleted   6
renamed   2
modified  1
entries   2
linked    0
unlinked  0
moved     0
bytes added 6000, removed 600, changed 20
changing  0 (changed while a scan ran)
X
	out --summary --depth 2
	head -9 "$T/out" | expect "--summary --depth 2" <(cat <<'X'
created deleted changed   moved      added    removed    content  directory
      0       0       1       0        0 B        0 B        0 B  .
      2       0       0       0    2.9 KiB        0 B        0 B  gen
      4       0       0       0    2.9 KiB        0 B        0 B  gen/sub
      0       1       0       0        0 B        0 B        0 B  inc
      0       3       0       0        0 B      300 B        0 B  inc/a
      0       2       0       0        0 B      300 B        0 B  inc/b
      0       0       0       1        0 B        0 B        0 B  renamed
      0       0       2       1        0 B        0 B       20 B  src
X
)
	out --summary
	head -1 "$T/out" | grep -qx 'created   6' ||
		xb_die "--summary without --depth: $(head -1 "$T/out")"
	ok
}

for J in 1 2; do
	rm -rf "${M:?}"/* "$S"/*
	mkdir -p "$M/inc/a" "$M/inc/b" "$M/src" "$M/old"
	head -c 100 /dev/zero >"$M/inc/a/x.h"
	head -c 200 /dev/zero >"$M/inc/a/y.h"
	head -c 300 /dev/zero >"$M/inc/b/z.h"
	head -c 50 /dev/zero >"$M/inc/keep.h"
	head -c 10 /dev/zero >"$M/src/main.c"
	head -c 5 /dev/zero >"$M/old/f"
	head -c 7 /dev/zero >"$M/top.txt"
	xb_settle
	"$XBULK" snapshot -j "$J" "$M" "$S/old"
	mv "$M/inc/keep.h" "$M/src/keep.h"
	rm -rf "$M/inc"
	mkdir -p "$M/gen/sub/deep"
	head -c 1000 /dev/zero >"$M/gen/sub/a.o"
	head -c 2000 /dev/zero >"$M/gen/sub/deep/b.o"
	head -c 3000 /dev/zero >"$M/gen/c.o"
	mv "$M/old" "$M/renamed"
	head -c 10 /dev/zero >>"$M/src/main.c"
	xb_settle
	"$XBULK" snapshot -j "$J" "$M" "$S/new"
	OLD=$S/old
	NEW=$S/new
	check_forms
	echo "-j $J, NEW a snapshot: as expected"
	# the live mount: the same, scanned now with -j $J
	NEW=$M
	check_forms
	echo "-j $J, NEW the live mount: as expected"
done

# --- the budget: 1 MiB holds less than one block of changes, so they
# go to the spill file; the output is the same.  A spill directory with
# no room shows that they did: one line, exit status 2, nothing printed.
NEW=$S/new
out --sort path
mv "$T/out" "$T/roomy"
for new in "$S/new" "$M"; do
	NEW=$new
	out --sort path --memory 1M
	cmp -s "$T/out" "$T/roomy" || xb_die "--memory 1M ($new): another output"
done
mkdir "$T/full"
mount -t tmpfs -o size=1m none "$T/full"
xb_at_exit "umount '$T/full' 2>/dev/null"
NEW=$S/new
rc=0
"$XBULK" diff --sort path --memory 1M --tmpdir "$T/full" "$OLD" "$NEW" \
	>"$T/out" 2>"$T/err" || rc=$?
((rc == 2)) && [[ ! -s $T/out && $(wc -l <"$T/err") == 1 ]] &&
	grep -q "$T/full: cannot hold the changes in a spill file there: No space left on device" "$T/err" ||
	xb_die "--memory 1M, spill directory full: exit status $rc: $(cat "$T/err")"
out --sort path --tmpdir "$T/full"	# the default budget: no spill
ok

# --- bad input: one line (and the usage hint), exit status 2, nothing
# on stdout
while IFS='|' read -r opts msg; do
	rc=0
	# shellcheck disable=SC2086
	"$XBULK" diff $opts "$OLD" "$NEW" >"$T/out" 2>"$T/err" || rc=$?
	((rc == 2)) && [[ ! -s $T/out ]] &&
		head -1 "$T/err" | grep -qF "xbulk diff: $msg" &&
		sed 1d "$T/err" | cmp -s - <(echo "Try 'xbulk diff --help'.") ||
		xb_die "diff $opts: exit status $rc: $(cat "$T/out" "$T/err")"
done <<'X'
--sort foo|--sort: unknown order 'foo' (inode or path)
--sort|
--fold --expand|--fold and --expand exclude each other
--sort path -0|--sort path and --fold are for -o text, jsonl and csv
--fold --deleted0|--sort path and --fold are for -o text, jsonl and csv
--sort path --summary|--sort path and --fold are for -o text, jsonl and csv
--depth 1|--depth needs --summary
--summary --depth 0|--depth
--summary --depth x|--depth
X
ok

echo "$pass passed, 0 failed"
