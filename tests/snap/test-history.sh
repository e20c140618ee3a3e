#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk snapshot --keep: a history directory (issue 28, part 2).
#   - --keep N leaves the N newest snapshots, --keep-summaries M the M
#     newest summaries; names are the UTC stamps of XBULK_HISTORY_NOW
#     (test-only: no clock is read, no second waited for);
#   - the directory is made 0700 whatever the umask, its files 0600;
#   - a summary's totals per directory (to --summary-depth) and per uid,
#     gid and project match what find, GNU du and xbulk du --by count
#     on the same tree;
#   - refused, one line, exit status 2, nothing written: a directory of
#     another user, one others may write, a symbolic link as DIR, a
#     symbolic link or another user's file at this run's name (both left
#     as they were); a planted symlink named like an old snapshot is
#     never followed nor counted by the pruning;
#   - a run while another holds the lock (flock(1) on the directory, then
#     another xbulk run held at its first link): exit status 75, one
#     line, nothing written by it;
#   - kill -9 before the snapshot is linked and before the summary is:
#     no partial file, no hidden name left, the lock gone with the
#     process (the next run succeeds);
#   - du --trend on the history (--svg too), and on made-up summaries
#     whose growth and day of full are known; a newer format version
#     refused (the chart and the encodings: test-trend.sh).
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
command -v strace >/dev/null || xb_skip "strace not installed (scripts/deps)"
command -v flock >/dev/null || xb_skip "flock not installed (util-linux)"
command -v xmllint >/dev/null || xb_skip "xmllint not installed (scripts/deps)"

# A small tree whose sums are known: a/ (10 files of 8 KiB, a/x/ with 5
# empty ones), b/ (3 files of uid 1000, gid 1001, project 7)
mkdir -p "$M/a/x" "$M/b"
for i in $(seq 10); do
	head -c 8192 /dev/urandom >"$M/a/f$i"
done
touch "$M"/a/x/e{1..5}
touch "$M"/b/o{1..3}
chown 1000:1001 "$M"/b/o*
xfs_io -c 'chproj 7' "$M"/b/o* >/dev/null
sync

H=$T/hist
DAY=86400
BASE=1796256000		# 2026-12-03T00:00:00Z

# stamp I: the name's stamp of run I (BASE + I days)
stamp()
{
	date -u -d "@$((BASE + $1 * DAY))" +%Y%m%dT%H%M%SZ
}

# run I ARGS...: xbulk snapshot ARGS at run I's time; its exit status
run()
{
	local i=$1

	shift
	XBULK_HISTORY_NOW=$((BASE + i * DAY)) "$XBULK" snapshot "$@" \
		>"$T/out" 2>"$T/err"
}

# refused NAME STATUS PATTERN I ARGS...: run I exits STATUS with one line
# matching PATTERN, nothing on stdout
refused()
{
	local name=$1 want=$2 pat=$3

	shift 3
	xb_want_fail "$name" "$want" "$pat" "$T/out" "$T/err" run "$@"
	ok
}

# listing DIR: its names, sorted, one line
listing()
{
	(cd "$1" && LC_ALL=C ls -A | tr '\n' ' ')
}

# --- --keep 3 --keep-summaries 4 over 6 runs, under umask 0
for i in 1 2 3 4 5 6; do
	(umask 0; run "$i" --keep 3 --keep-summaries 4 "$M" "$H") ||
		xb_die "run $i: $(cat "$T/err")"
done
want="$(stamp 3).summary.jsonl $(stamp 4).summary.jsonl $(stamp 4).xbs \
$(stamp 5).summary.jsonl $(stamp 5).xbs $(stamp 6).summary.jsonl $(stamp 6).xbs "
[[ $(listing "$H") == "$want" ]] ||
	xb_die "keep: '$(listing "$H")', not '$want'"
ok
[[ $(stamp 6) == 20261209T000000Z ]] || xb_die "stamp: $(stamp 6)"
ok
[[ $(stat -c %a "$H") == 700 ]] || xb_die "mode of DIR: $(stat -c %a "$H")"
for f in "$H"/*; do
	[[ $(stat -c '%a %u' "$f") == '600 0' ]] ||
		xb_die "$f: mode/owner $(stat -c '%a %u' "$f")"
done
ok
# every snapshot kept is whole: diff of the last two lists nothing
"$XBULK" diff "$H/$(stamp 5).xbs" "$H/$(stamp 6).xbs" >"$T/out" ||
	xb_die "diff of two kept snapshots: $?"
[[ ! -s $T/out ]] || xb_die "the tree did not change: $(cat "$T/out")"
ok

# --- the summary's figures against find and du
S=$H/$(stamp 6).summary.jsonl
python3 - "$S" "$M" "$XBULK" <<'EOF' || xb_die "summary check failed"
import json, os, subprocess, sys

path, mnt, xbulk = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]
head = lines[0]
assert head["kind"] == "summary" and head["version"] == 1, head
assert head["stamp"] == "20261209T000000Z", head
assert head["snapshot"] == "20261209T000000Z.xbs", head
assert head["mountpoint"] == mnt and head["depth"] == 2, head
assert 0 < head["fs_free_bytes"] <= head["fs_bytes"], head
dirs = {l["path"]: l for l in lines if l["kind"] == "dir"}
assert sorted(dirs) == [".", "a", "a/x", "b"], sorted(dirs)

def count(p):
    return int(subprocess.check_output(
        ["sh", "-c", 'find "$1" -xdev | wc -l', "-", p]))

def du(p):
    return int(subprocess.check_output(
        ["du", "-s", "-B1", "-x", p]).split()[0])

for rel, d in dirs.items():
    p = os.path.join(mnt, rel)
    assert d["inodes"] == count(p), (rel, d, count(p))
    assert d["bytes"] == du(p), (rel, d, du(p))
    assert d["depth"] == (0 if rel == "." else rel.count("/") + 1), d
assert head["inodes"] == dirs["."]["inodes"], head
assert dirs["a"]["apparent"] >= 10 * 8192, dirs["a"]
ids = {(l["kind"], l["id"]): l for l in lines[1:] if l["kind"] != "dir"}
for kind in ("uid", "gid", "projid"):
    assert sum(l["inodes"] for (k, _), l in ids.items() if k == kind) \
        == head["inodes"], kind
assert ids[("uid", 1000)]["inodes"] == 3, ids
assert ids[("gid", 1001)]["inodes"] == 3, ids
assert ids[("projid", 7)]["inodes"] == 3, ids
# each id's totals are du --by's of the same moment
for kind in ("uid", "gid", "projid"):
    out = subprocess.check_output(
        [xbulk, "du", "--by", kind, "-s", "-o", "jsonl", mnt])
    want = {r["key"]: (r["inodes"], r["disk_bytes"], r["apparent_bytes"])
            for r in map(json.loads, out.splitlines())}
    got = {i: (l["inodes"], l["bytes"], l["apparent"])
           for (k, i), l in ids.items() if k == kind}
    assert got == want, (kind, got, want)
EOF
ok
# --summary-depth 1: no a/x
rm -rf "$T/d1"
run 1 --keep 1 --summary-depth 1 "$M" "$T/d1/" || xb_die "depth 1: $(cat "$T/err")"
grep -q '"path":"a/x"' "$T/d1/$(stamp 1).summary.jsonl" &&
	xb_die "depth 1 lists a/x"
grep -q '"path":"a"' "$T/d1/$(stamp 1).summary.jsonl" ||
	xb_die "depth 1 lacks a"
ok
rc=0
run 1 --summary-depth 1 "$M" "$T/x.xbs" || rc=$?
((rc == 2)) && grep -q 'summary-depth needs --keep' "$T/err" ||
	xb_die "--summary-depth without --keep: $rc: $(cat "$T/err")"
[[ ! -e $T/x.xbs ]] || xb_die "--summary-depth without --keep wrote"
ok

# --- refused directories
mkdir -m 0700 "$T/theirs" && chown 65534 "$T/theirs"
refused "another user's DIR" 2 'owned by uid 65534.*refused' 1 --keep 2 "$M" "$T/theirs"
mkdir -m 0777 "$T/open"
refused "DIR others may write" 2 'others may write it.*refused' 1 --keep 2 "$M" "$T/open"
mkdir -m 0770 "$T/group"
refused "DIR its group may write" 2 'others may write it' 1 --keep 2 "$M" "$T/group"
ln -s "$H" "$T/link"
refused "DIR a symlink" 2 'symbolic link is refused' 7 --keep 2 "$M" "$T/link"
[[ -z $(find "$T/theirs" "$T/open" "$T/group" -mindepth 1) ]] || xb_die "refused DIRs written"
[[ ! -e $H/$(stamp 7).xbs ]] || xb_die "written through a symlinked DIR"
ok

# --- planted names: a symlink and another user's file at run 7's names,
# a symlink named like an old snapshot (the pruning's victim if followed)
VICTIM=$T/victim
echo "root's own file" >"$VICTIM"
before=$(listing "$H")
ln -s "$VICTIM" "$H/$(stamp 7).xbs"
refused "symlink at the name" 2 \
	"^xbulk snapshot: $H/$(stamp 7).xbs: not a regular file.*left as it is\$" \
	7 --keep 3 "$M" "$H/"
[[ -L $H/$(stamp 7).xbs && $(cat "$VICTIM") == "root's own file" ]] ||
	xb_die "the planted symlink or its target changed"
rm "$H/$(stamp 7).xbs"
echo theirs >"$H/$(stamp 7).summary.jsonl"
chown 65534 "$H/$(stamp 7).summary.jsonl"
refused "another user's file at the name" 2 'not a regular file of the running user' 7 --keep 3 "$M" "$H"
[[ $(cat "$H/$(stamp 7).summary.jsonl") == theirs ]] || xb_die "their file written"
rm "$H/$(stamp 7).summary.jsonl"
[[ $(listing "$H") == "$before" ]] || xb_die "refusals left '$(listing "$H")'"
ok
ln -s "$VICTIM" "$H/20000101T000000Z.xbs"
run 7 --keep 3 --keep-summaries 4 "$M" "$H" || xb_die "run 7: $(cat "$T/err")"
[[ -L $H/20000101T000000Z.xbs && -f $VICTIM ]] ||
	xb_die "the pruning removed or followed a planted symlink"
want="20000101T000000Z.xbs $(stamp 4).summary.jsonl $(stamp 5).summary.jsonl \
$(stamp 5).xbs $(stamp 6).summary.jsonl $(stamp 6).xbs \
$(stamp 7).summary.jsonl $(stamp 7).xbs "
[[ $(listing "$H") == "$want" ]] || xb_die "after run 7: '$(listing "$H")'"
rm "$H/20000101T000000Z.xbs"
ok

# --- the lock: a run while flock(1) holds the directory
before=$(listing "$H")
rc=0
flock "$H" env XBULK_HISTORY_NOW=$((BASE + 8 * DAY)) \
	"$XBULK" snapshot --keep 3 "$M" "$H" >"$T/out" 2>"$T/err" || rc=$?
((rc == 75)) || xb_die "locked: exit status $rc: $(cat "$T/err")"
grep -q 'another xbulk snapshot is writing this history (locked)' \
	"$T/err" && [[ $(wc -l <"$T/err") == 1 ]] ||
	xb_die "locked: $(cat "$T/err")"
[[ $(listing "$H") == "$before" ]] || xb_die "locked run wrote '$(listing "$H")'"
ok

# two xbulk runs: the first held at its first link (strace delays the
# call) while the second starts; the second exits 75, the first writes
# (--keep 4: nothing of before pruned)
rc=0
XBULK_HISTORY_NOW=$((BASE + 8 * DAY)) \
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o /dev/null -e trace=linkat \
	-e inject=linkat:delay_enter=2000000:when=1 \
	"$XBULK" snapshot --keep 4 "$M" "$H" >/dev/null 2>"$T/err1" &
first=$!
xb_at_exit "kill $first 2>/dev/null"
# until it holds the lock, seen in /proc/locks (a probe that took the
# lock itself, flock -n, could make the first run find it held); a
# bound of polls, not a time judged
ino=$(stat -c %i "$H")
for ((i = 0; i < 3000; i++)); do
	grep -q " FLOCK .*:$ino 0 EOF\$" /proc/locks && break
	kill -0 "$first" 2>/dev/null || break
	sleep 0.02
done
grep -q " FLOCK .*:$ino 0 EOF\$" /proc/locks ||
	xb_die "the first run never took the lock: $(cat "$T/err1")"
XBULK_HISTORY_NOW=$((BASE + 9 * DAY)) "$XBULK" snapshot --keep 3 "$M" "$H" \
	>"$T/out" 2>"$T/err" || rc=$?
((rc == 75)) || xb_die "second run: exit status $rc: $(cat "$T/err")"
grep -q 'another xbulk snapshot is writing this history (locked)' "$T/err" ||
	xb_die "second run: $(cat "$T/err")"
wait "$first" || xb_die "first run: $?: $(cat "$T/err1")"
[[ -f $H/$(stamp 8).xbs && -f $H/$(stamp 8).summary.jsonl &&
   ! -e $H/$(stamp 9).xbs ]] || xb_die "two runs left '$(listing "$H")'"
rm "$H/$(stamp 8).xbs" "$H/$(stamp 8).summary.jsonl"
[[ $(listing "$H") == "$before" ]] || xb_die "two runs: '$(listing "$H")'"
ok

# --- kill -9 before the snapshot's link, then before the summary's
for when in 1 2; do
	rc=0
	XBULK_HISTORY_NOW=$((BASE + 8 * DAY)) \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -o /dev/null -e trace=linkat \
		-e inject=linkat:signal=KILL:when=$when \
		"$XBULK" snapshot --keep 3 "$M" "$H" >/dev/null 2>&1 || rc=$?
	((rc == 137)) || xb_die "kill -9 at linkat $when: exit status $rc"
	case $when in
	1) want=$before ;;
	2) want=$(listing "$H") ;;
	esac
	[[ $(listing "$H") == *"$(stamp 8).summary.jsonl"* ]] &&
		xb_die "kill -9 at linkat $when: a summary was linked"
	if ((when == 1)); then
		[[ $(listing "$H") == "$before" ]] ||
			xb_die "kill -9 before the link left '$(listing "$H")'"
	else
		# the snapshot is whole and in place; its summary never is
		"$XBULK" diff "$H/$(stamp 7).xbs" "$H/$(stamp 8).xbs" \
			>/dev/null || xb_die "the snapshot linked before the kill: $?"
		rm "$H/$(stamp 8).xbs"
	fi
	[[ -z $(ls -A "$H" | grep -v '^2') ]] ||
		xb_die "kill -9 left $(ls -A "$H" | grep -v '^2')"
done
ok
# the lock died with the process
run 8 --keep 3 --keep-summaries 4 "$M" "$H" || xb_die "after kill -9: $(cat "$T/err")"
[[ -f $H/$(stamp 8).xbs && -f $H/$(stamp 8).summary.jsonl ]] ||
	xb_die "run 8 wrote '$(listing "$H")'"
ok

# --- du --trend: on the real history, then on made-up summaries whose
# figures are known (a stamp per day: 10 days, free space -50 MB a day)
"$XBULK" du --trend -B1 "$H" >"$T/out" || xb_die "du --trend: $?"
for want in . a b 'free space'; do
	grep -qx -- "$want" "$T/out" || xb_die "du --trend lacks '$want'"
done
grep -qx 'a/x' "$T/out" && xb_die "du --trend: a/x below the default -d 1"
# the chart of a real history: its top directories a and b
"$XBULK" du --trend --svg "$T/trend.svg" "$H" >/dev/null ||
	xb_die "du --trend --svg: $?"
xmllint --noout "$T/trend.svg" || xb_die "du --trend --svg: not XML"
[[ $(grep -c '<g data-kind="series">' "$T/trend.svg") == 2 ]] &&
	grep -q '<title>a</title>' "$T/trend.svg" &&
	grep -q "of $M on " "$T/trend.svg" ||
	xb_die "du --trend --svg: not the lines a and b of $M"
ok
TR=$T/trend
mkdir -m 0700 "$TR"
for i in $(seq 10); do
	st=$(stamp "$i")
	free=$((1000000000 - i * 50000000))
	b=$((100000 * i))
	cat >"$TR/$st.summary.jsonl" <<-EOF
	{"kind":"summary","version":1,"stamp":"$st","snapshot":"$st.xbs","start":0,"end":0,"uuid":"u","host":"h","mountpoint":"/srv","fs_bytes":1000000000,"fs_free_bytes":$free,"fs_inodes":1000,"fs_free_inodes":900,"depth":2,"inodes":10,"bytes":$b,"apparent":$b}
	{"kind":"dir","path":".","depth":0,"inodes":10,"bytes":$b,"apparent":$b}
	{"kind":"dir","path":"q\"\u00e9","depth":1,"inodes":$i,"bytes":$b,"apparent":$b}
	{"kind":"uid","id":1000,"inodes":$i,"bytes":$((2 * b)),"apparent":$b}
	EOF
done
"$XBULK" du --trend -B1 "$TR" >"$T/out" || xb_die "du --trend made-up: $?"
grep -qx '  +100000/day over 7 days' "$T/out" ||
	xb_die "du --trend: no growth of 100000/day: $(cat "$T/out")"
grep -qx 'q"é' "$T/out" || xb_die "du --trend: the escaped path"
# 500 MB free on day 10 (20261213), 50 MB less a day: full 10 days later
grep -qx '  -50000000/day over 7 days: full about 2026-12-23' "$T/out" ||
	xb_die "du --trend: the day of full: $(tail -2 "$T/out")"
"$XBULK" du --trend --by uid -o jsonl "$TR" >"$T/out" ||
	xb_die "du --trend --by uid: $?"
grep -Eqx '\{"kind":"growth","uid":1000,"name":(null|"[^"]+"),"name_b64":null,"bytes_per_day":200000.0,"days":7.000\}' \
	"$T/out" || xb_die "du --trend --by uid: $(grep growth "$T/out")"
[[ $(grep -c '"kind":"point"' "$T/out") == 10 ]] ||
	xb_die "du --trend --by uid: not 10 points"
ok
sed -i '1s/"version":1/"version":2/' "$TR/$(stamp 10).summary.jsonl"
rc=0
"$XBULK" du --trend "$TR" >/dev/null 2>"$T/err" || rc=$?
((rc == 1)) && grep -q 'format newer than 1' "$T/err" ||
	xb_die "du --trend of version 2: $rc: $(cat "$T/err")"
rc=0
"$XBULK" du --trend --by type "$TR" >/dev/null 2>"$T/err" || rc=$?
((rc == 2)) || xb_die "du --trend --by type: $rc"
ok

echo "history: $pass checks passed"
