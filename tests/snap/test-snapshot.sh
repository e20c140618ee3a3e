#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk snapshot and xbulk diff: what a user relies on, and every bad
# input (issue 19).  One populated image, a second small one (another
# UUID), a tmpfs (not XFS), a full tmpfs (ENOSPC) and a read-only one.
#   - a snapshot is 0600, its own file is never in it, diff of a snapshot
#     with itself and with the unchanged filesystem lists nothing (0);
#   - a truncated, bit-flipped, wrong-version, empty or foreign file, a
#     damaged record under right checksums (tests/snap/snap_reseal.c;
#     its inode and place named too), a snapshot of another filesystem,
#     a NEW that is not XFS, an unwritable FILE, ENOSPC: one line naming
#     the file, exit status 2, nothing on stdout, the old snapshot
#     intact; no thread can start: the cause named;
#   - kill -9 during snapshot and during diff --save leaves no partial
#     file and the old one readable: at random moments, once stopped
#     while it holds its unnamed file, once at its fsync; killed in the
#     moment a replacing file has a hidden name, that name is left and
#     the next writer in the directory removes it; SIGTERM writes
#     nothing;
#   - the cron line: the new state is promoted only when its consumer
#     succeeded.
#
# Environment: XBULK, SNAP_RESEAL (meson sets both).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"

xb_require_root_loop

pass=0
ok()
{
	pass=$((pass + 1))
}

# want_trouble NAME PATTERN CMD...: exit 2, one line on stderr matching
# PATTERN, nothing on stdout.
want_trouble()
{
	local name=$1 pat=$2

	shift 2
	xb_want_fail "$name" 2 "$pat" "$T/out" "$T/err" "$@"
	ok
}

# strace ARGS...: strace, LeakSanitizer off for what it runs (under
# ptrace it fails, exit status 1: the ASan build)
traced()
{
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

xb_mkfs_mount 1G "-d agcount=4"
M=$XB_MNT
T=$XB_TMP
xb_populate "$M" 1500
xb_settle
S=$T/snaps
mkdir "$S"

# --- the basics
"$XBULK" snapshot -j 2 "$M" "$S/a" || xb_die "snapshot failed"
[[ $(stat -c %a "$S/a") == 600 ]] || xb_die "snapshot not 0600"
ok
rc=0; "$XBULK" diff "$S/a" "$S/a" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] || xb_die "diff a a: $rc $(head -3 "$T/out")"
rc=0; "$XBULK" diff -j 1 "$S/a" "$M" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] ||
	xb_die "diff a MNT (unchanged): $rc $(head -3 "$T/out")"
ok
# -j 1 and -j 2 make the same records
"$XBULK" snapshot -j 1 --level 0 "$M" "$S/a1"
rc=0; "$XBULK" diff "$S/a" "$S/a1" >"$T/out" || rc=$?
((rc == 0)) || xb_die "-j 1 and -j 2 snapshots differ: $(head -3 "$T/out")"
ok

# --- on the scanned filesystem: the file is left out of its own scan
"$XBULK" snapshot "$M" "$M/state"
"$XBULK" diff "$M/state" "$M" --save "$M/state.new" >"$T/out" || true
"$XBULK" diff "$M/state" "$M/state.new" >"$T/out2" || true
cmp -s "$T/out" "$T/out2" || xb_die "diff --save wrote another scan"
if grep -q state "$T/out"; then
	xb_die "the snapshot's own file shows: $(cat "$T/out")"
fi
# what it shows is the top's entries (state.new appeared)
[[ ! -s $T/out ]] || grep -qx 'Ed.*\.' "$T/out" ||
	xb_die "unexpected changes: $(head -3 "$T/out")"
rm -f "$M/state" "$M/state.new"
ok

# --- a few changes, each kind once
mkdir -p "$M/w/sub"
echo x >"$M/w/f1"; echo y >"$M/w/f2"; echo z >"$M/w/sub/f3"
xb_settle
"$XBULK" snapshot "$M" "$S/b"
mv "$M/w/f1" "$M/w/f1r"
echo more >>"$M/w/f2"
ln "$M/w/f2" "$M/w/f2l"
mv "$M/w/sub" "$M/subm"
xb_settle
rc=0; "$XBULK" diff "$S/b" "$M" >"$T/out" || rc=$?
((rc == 1)) || xb_die "diff with changes: exit status $rc"
grep -qx 'Rf\.\.\.\.\.\.\.\.\.\.\. w/f1 -> w/f1r' "$T/out" &&
	grep -qx 'Lf\.\.\.\.\.\.\.\.\.\.\. w/f2l' "$T/out" &&
	grep -qx 'Mfc\.\.\.\.\.\.\.\.\.\. w/f2' "$T/out" &&
	grep -qx 'Rd\.\.\.\.\.\.\.\.\.\.\. w/sub -> subm' "$T/out" ||
	xb_die "change lines: $(cat "$T/out")"
grep -q 'f3' "$T/out" && xb_die "below a moved directory listed"
"$XBULK" diff --expand "$S/b" "$M" >"$T/exp" || true
grep -qx '>f\.\.\.\.\.\.\.\.\.\.\. w/sub/f3 -> subm/f3' "$T/exp" ||
	xb_die "--expand: no moved line: $(cat "$T/exp")"
# (exit status 1: changes)
"$XBULK" diff -0 "$S/b" "$M" >"$T/nul" || true
tr '\0' '\n' <"$T/nul" | grep -qx 'subm/f3' ||
	xb_die "-0 lacks what lies below a moved directory"
"$XBULK" diff --deleted0 "$S/b" "$M" >"$T/nul" || true
tr '\0' '\n' <"$T/nul" >"$T/del"
grep -qx 'w/f1' "$T/del" && grep -qx 'w/sub' "$T/del" ||
	xb_die "--deleted0: $(cat "$T/del")"
rc=0; "$XBULK" diff --only deleted "$S/b" "$M" >"$T/out" || rc=$?
((rc == 0)) && [[ ! -s $T/out ]] || xb_die "--only deleted: $rc"
"$XBULK" diff -o jsonl "$S/b" "$M" >"$T/jsonl" || true
jq -s -e 'any(.[]; .change == "renamed"
	and .old_path == "w/f1")' "$T/jsonl" >/dev/null || xb_die "jsonl: $(cat "$T/jsonl")"
"$XBULK" diff --summary "$S/b" "$M" >"$T/sum" || true
grep -qx 'renamed   2' "$T/sum" ||
	xb_die "--summary"
ok

# an atime change alone (a read) and layout alone are no change, unless
# asked for; the ctime touch -a moves is (k: touch -d putting back the
# times of a write of the same size looks the same); --type keeps the
# file types given
"$XBULK" snapshot "$M" "$S/c"
a0=$(stat -c %x "$M/w/f1r")
cat "$M/w/f1r" >/dev/null
[[ $(stat -c %x "$M/w/f1r") != "$a0" ]] || xb_die "a read left atime (relatime)"
touch -a "$M/w/f2"
xb_settle
rc=0; "$XBULK" diff "$S/c" "$M" >"$T/out" || rc=$?
((rc == 1)) && [[ $(cat "$T/out") == 'Mf.......k... w/f2' ]] ||
	xb_die "touch -a: $rc $(cat "$T/out")"
"$XBULK" diff --atime "$S/c" "$M" >"$T/out" || true
grep -qx 'Mf\.\.\.\.\.\.\.ka\.\. w/f2' "$T/out" &&
	grep -qx 'Mf\.\.\.\.\.\.\.\.a\.\. w/f1r' "$T/out" ||
	xb_die "--atime: $(cat "$T/out")"
fallocate -n -l 1M "$M/w/f2"
xb_settle
"$XBULK" diff "$S/c" "$M" >"$T/out" || true
grep -qx 'Mfc\.\.\.\.\.\.\.\.\.\. w/f2' "$T/out" || xb_die "fallocate: $(cat "$T/out")"
"$XBULK" diff --layout "$S/c" "$M" >"$T/out" || true
grep -qx 'Mfc\.\.\.\.\.\.\.\.l\. w/f2' "$T/out" || xb_die "--layout: $(cat "$T/out")"
"$XBULK" diff --type d "$S/b" "$M" >"$T/out" || true
! grep -v '^.d' "$T/out" && grep -q '^Rd' "$T/out" || xb_die "--type d: $(cat "$T/out")"
ok

# --- bad snapshots: each one line, exit 2, nothing on stdout
cp "$S/b" "$S/good"
size=$(stat -c %s "$S/b")
: >"$S/empty"
want_trouble empty "$S/empty: empty file" "$XBULK" diff "$S/empty" "$S/b"
head -c $((size / 2)) "$S/b" >"$S/trunc"
want_trouble truncated "$S/trunc: truncated" "$XBULK" diff "$S/b" "$S/trunc"
head -c $((size - 1)) "$S/b" >"$S/trunc1"
want_trouble "truncated by 1" "$S/trunc1: truncated" \
	"$XBULK" diff "$S/trunc1" "$S/b"
for off in 20 1100 $((size / 2)) $((size - 60)); do
	cp "$S/b" "$S/flip"
	printf '%s' "$(dd if="$S/flip" bs=1 skip=$off count=1 2>/dev/null |
		od -An -tu1 | tr -d ' ')" >"$T/byte"
	printf "\\$(printf %o $(($(cat "$T/byte") ^ 16)))" |
		dd of="$S/flip" bs=1 seek=$off conv=notrunc 2>/dev/null
	want_trouble "bit flip at $off" "$S/flip: .*(damaged|checksum|truncated)" \
		"$XBULK" diff "$S/flip" "$S/b"
done
cp "$S/b" "$S/ver"
printf '\x02' | dd of="$S/ver" bs=1 seek=8 conv=notrunc 2>/dev/null
want_trouble "wrong version" "$S/ver: snapshot format version 2" \
	"$XBULK" diff "$S/ver" "$M"
# a damaged record under right checksums (a crafted file, or one changed
# since it was checked): the damaged file named, OLD or NEW, with the
# record's inode and place
touch "$M/damage-me-0123456789"
ino=$(stat -c %i "$M/damage-me-0123456789")
"$XBULK" snapshot --level 0 "$M" "$S/rec" || xb_die "snapshot --level 0"
cp "$S/rec" "$S/recbad"
off=$(grep -boa 'damage-me-0123456789' "$S/recbad" | cut -d: -f1)
[[ $off =~ ^[0-9]+$ ]] || xb_die "the name is not once in the file: $off"
printf / | dd of="$S/recbad" bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null
"$SNAP_RESEAL" "$S/recbad" || xb_die "snap_reseal $S/recbad"
rec="damaged record of inode $ino \(record [0-9]+ of the block at byte [0-9]+\)"
want_trouble "damaged record in NEW" "^xbulk diff: $S/recbad: $rec; " \
	"$XBULK" diff "$S/rec" "$S/recbad"
want_trouble "damaged record in OLD" "^xbulk diff: $S/recbad: $rec; " \
	"$XBULK" diff "$S/recbad" "$S/rec"
want_trouble "damaged record in OLD, NEW live" \
	"^xbulk diff: $S/recbad: $rec; " \
	"$XBULK" diff "$S/recbad" "$M"
for how in "--sqlite $T/recbad.db" "--csv $T"; do
	want_trouble "export $how of a damaged record" \
		"^xbulk export: $S/recbad: $rec; nothing written$" \
		"$XBULK" export $how "$S/recbad"
done
[[ ! -e $T/recbad.db && ! -e $T/inodes.csv ]] ||
	xb_die "export of a damaged record: a file written"
rm "$M/damage-me-0123456789"
# no thread can start (its stack larger than the address space): the
# cause named, not bulkstat's (the sanitizers' runtimes size their own
# stacks from ulimit -s)
if [[ ${XB_SANITIZE:-none} == none ]] &&
   (ulimit -s 214748364800) 2>/dev/null; then
	want_trouble "no thread" "^xbulk snapshot: $M: cannot start a thread \(pthread_create: Resource temporarily unavailable\): no (memory|room) for its [0-9]+ KiB stack " \
		bash -c 'ulimit -s 214748364800 && exec "$@"' - \
		"$XBULK" snapshot -j 2 "$M" "$S/thread"
	[[ ! -e $S/thread ]] || xb_die "no thread: a snapshot written"
fi
echo "not a snapshot" >"$S/junk"
want_trouble "not a snapshot" "$S/junk: not an xbulk snapshot" \
	"$XBULK" export --csv "$T" "$S/junk"
want_trouble missing "$S/nope: No such file" "$XBULK" diff "$S/nope" "$M"
mkfifo "$T/fifo0"
want_trouble "OLD a FIFO" "$T/fifo0: not a regular file" \
	timeout 60 "$XBULK" diff "$T/fifo0" "$S/b"
want_trouble "NEW a FIFO" "$T/fifo0: not a regular file" \
	timeout 60 "$XBULK" diff "$S/b" "$T/fifo0"

# standard output closed (xbulk writes to /dev/null then) or full: the
# changes are lost, so trouble, and --save puts nothing in place
for opt in "" -0; do
	rc=0; "$XBULK" diff $opt --save "$S/closed" "$S/b" "$M" >&- \
		2>"$T/err" || rc=$?
	((rc == 2)) && [[ $(cat "$T/err") == \
		'xbulk diff: write to stdout: Bad file descriptor' ]] &&
		[[ ! -e $S/closed ]] ||
		xb_die "diff $opt, stdout closed: $rc $(cat "$T/err")"
done
for cmd in snapshot diff export; do
	rc=0; "$XBULK" $cmd --help >/dev/full 2>"$T/err" || rc=$?
	((rc == 2)) && [[ $(cat "$T/err") == \
		"xbulk $cmd: write to stdout: No space left on device" ]] ||
		xb_die "$cmd --help >/dev/full: $rc $(cat "$T/err")"
done
ok

# another filesystem (UUID)
truncate -s 300M "$T/other.img"
mkfs.xfs -q -f "$T/other.img"
mkdir "$T/other"
mount -o loop "$T/other.img" "$T/other"
xb_at_exit "umount '$T/other' 2>/dev/null"
touch "$T/other/x"
"$XBULK" snapshot "$T/other" "$S/other"
want_trouble "other fs" "$S/b: a snapshot of another filesystem" \
	"$XBULK" diff "$S/b" "$S/other"
want_trouble "other fs, live" "$S/b: a snapshot of another filesystem" \
	"$XBULK" diff "$S/b" "$T/other"
rc=0; "$XBULK" diff --force "$S/b" "$S/other" >/dev/null || rc=$?
((rc == 1)) || xb_die "--force: exit status $rc"
# another directory of it (a bind mount of a subdirectory: the top
# differs; all outside it would be unlinked, and listed by --deleted0)
mkdir "$T/bind"
mount --bind "$M/w" "$T/bind"
xb_at_exit "umount '$T/bind' 2>/dev/null"
want_trouble "other top, live" "$S/b: a snapshot of another directory" \
	"$XBULK" diff --deleted0 --save "$S/bind" "$S/b" "$T/bind"
[[ ! -e $S/bind ]] || xb_die "other top: --save put in place"
# ... said before the scan (its syncfs() first), which may take long
if command -v strace >/dev/null; then
	for new in "$T/bind" "$T/other"; do
		want_trouble "apart, before the scan" "$S/b: a snapshot of another" \
			traced -f -o "$T/strace" -e trace=syncfs \
			"$XBULK" diff "$S/b" "$new"
		! grep -q syncfs "$T/strace" || xb_die "$new scanned first"
	done
fi
"$XBULK" snapshot "$T/bind" "$S/bind"
umount "$T/bind"
want_trouble "other top" "$S/bind: a snapshot of another directory" \
	"$XBULK" diff "$S/bind" "$S/b"
rc=0; "$XBULK" diff --force "$S/bind" "$S/b" >/dev/null || rc=$?
((rc == 1)) || xb_die "--force, other top: exit status $rc"
ok

# A racy record: written during the scan (after its start), read after
# the write: marked changing.  Another write after that read in the same
# clock tick leaves the times (and the record) as they were, so the next
# diff lists an inode OLD marked even when its record did not change (M,
# no facet, !).  Here the scan's first bulkstat call after syncfs() is
# held (strace), the file written once it is held there (the same size:
# the size a scan sees moves at writeback).
if command -v strace >/dev/null; then
	O=$T/other
	echo racy1 >"$O/x"
	sync
	traced -f -o "$T/strace" -e trace=ioctl,syncfs \
		"$XBULK" snapshot -j 1 "$O" "$S/racy"
	n=$(awk '/syncfs\(/ { print n + 1; exit } /ioctl\(/ { n++ }' \
		"$T/strace")
	# exec: $! is strace's, its child xbulk
	(export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	 exec strace -f -o /dev/null \
		-e inject=ioctl:delay_enter=5000000:when="$n" \
		"$XBULK" snapshot -j 1 "$O" "$S/racy") &
	pid=$!
	# held in XFS_IOC_BULKSTAT (0x8040587f), so past the scan's start
	sc=()
	for ((i = 0; i < 600; i++)); do
		xp=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null) &&
			[[ -n $xp ]] &&
			read -r -a sc <"/proc/${xp%% *}/syscall" 2>/dev/null &&
			[[ ${sc[2]:-} == 0x8040587f ]] && break
		sleep 0.1
	done
	[[ ${sc[2]:-} == 0x8040587f ]] || xb_die "racy: never held in bulkstat"
	echo racy2 >"$O/x"
	wait "$pid" || xb_die "racy: snapshot failed"
	sleep 0.05			# past the tick of the write
	rc=0; "$XBULK" diff "$S/racy" "$O" >"$T/out" || rc=$?
	((rc == 1)) && [[ $(cat "$T/out") == 'Mf..........! x' ]] ||
		xb_die "racy record: $rc $(cat "$T/out")"
	[[ $("$XBULK" diff -0 "$S/racy" "$O" | tr '\0' ' ') == 'x ' ]] ||
		xb_die "racy record: -0 lacks it"
	# not against itself (NEW not scanned later)
	"$XBULK" diff "$S/racy" "$S/racy" || xb_die "racy record: itself"
	"$XBULK" snapshot "$O" "$S/racy2"
	rc=0; "$XBULK" diff "$S/racy2" "$O" >"$T/out" || rc=$?
	((rc == 0)) || xb_die "racy record, then a quiet one: $rc $(cat "$T/out")"
	ok
fi

# NEW not XFS; FILE unwritable; ENOSPC
mkdir "$T/tmpfs" "$T/ro" "$T/full"
mount -t tmpfs -o size=1m none "$T/tmpfs"
xb_at_exit "umount '$T/tmpfs' 2>/dev/null"
want_trouble "NEW not XFS" "$T/tmpfs: not on an XFS filesystem" \
	"$XBULK" diff "$S/b" "$T/tmpfs"
mount -t tmpfs -o ro,size=1m none "$T/ro"
xb_at_exit "umount '$T/ro' 2>/dev/null"
want_trouble "read-only FILE" "$T/ro/s: cannot create: Read-only" \
	"$XBULK" snapshot "$M" "$T/ro/s"
want_trouble "read-only --save" "$T/ro/s: cannot create: Read-only" \
	"$XBULK" diff --save "$T/ro/s" "$S/b" "$M"
want_trouble "read-only DB" "$T/ro/db: " \
	"$XBULK" export --sqlite "$T/ro/db" "$S/b"
want_trouble "FILE a directory" "$S: cannot create: Is a directory" \
	"$XBULK" snapshot "$M" "$S"
want_trouble "no directory" "$T/no/s: cannot create: No such file" \
	"$XBULK" snapshot "$M" "$T/no/s"
want_trouble "FILE ending in /" "$T/newdir/: cannot create: Is a directory" \
	"$XBULK" snapshot "$M" "$T/newdir/"
[[ ! -e $T/newdir ]] || xb_die "FILE ending in /: $T/newdir made"
# only a regular file is replaced: not a device (as /dev/null), a FIFO,
# nor a symlink to one
mknod "$T/null" c 1 3
mkfifo "$T/fifo"
ln -s null "$T/tonull"
for f in null fifo tonull; do
	want_trouble "FILE $f" "$T/$f: not a regular file: left as it is" \
		"$XBULK" snapshot "$M" "$T/$f"
	want_trouble "--save $f" "$T/$f: not a regular file: left as it is" \
		"$XBULK" diff --save "$T/$f" "$S/b" "$M"
	want_trouble "--sqlite $f" "$T/$f: not a regular file: left as it is" \
		"$XBULK" export --sqlite "$T/$f" "$S/b"
done
[[ -c $T/null && -p $T/fifo && -L $T/tonull ]] ||
	xb_die "replaced: $(ls -l "$T")"
mount -t tmpfs -o size=20k none "$T/full"
xb_at_exit "umount '$T/full' 2>/dev/null"
cp "$S/other" "$T/full/state"
want_trouble ENOSPC "$T/full/state: cannot write the snapshot: No space" \
	"$XBULK" snapshot "$M" "$T/full/state"
cmp -s "$S/other" "$T/full/state" || xb_die "ENOSPC: old snapshot changed"
want_trouble "ENOSPC, --save" "$T/full/state: cannot write the snapshot: No space" \
	"$XBULK" diff "$S/b" "$M" --save "$T/full/state"
cmp -s "$S/other" "$T/full/state" || xb_die "ENOSPC: old snapshot changed"
want_trouble "ENOSPC, sqlite" "$T/full/db: " \
	"$XBULK" export --sqlite "$T/full/db" "$S/b"
want_trouble "ENOSPC, csv" "$T/full: No space left on device" \
	"$XBULK" export --csv "$T/full" "$S/b"
[[ $(ls -A "$T/full") == state ]] || xb_die "ENOSPC left: $(ls -A "$T/full")"
cmp -s "$S/good" "$S/b" || xb_die "the old snapshot changed"

# --- kill -9 at several moments, and SIGTERM
for delay in 0.005 0.02 0.05 0.1 0.2; do
	for cmd in snapshot diff; do
		cp "$S/good" "$S/k"
		if [[ $cmd == snapshot ]]; then
			"$XBULK" snapshot "$M" "$S/k" 2>/dev/null &
		else
			"$XBULK" diff "$S/good" "$M" --save "$S/k" \
				>/dev/null 2>&1 &
		fi
		pid=$!
		sleep "$delay"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		# killed between link and rename, the writer leaves its
		# whole file under its hidden name, and nothing else (the
		# next writer's removal of it is tested below)
		for f in $(ls -A "$S" | grep '^\.'); do
			[[ $f == .xbulk-tmp.$pid.* ]] &&
				"$XBULK" diff "$S/$f" "$S/$f" >/dev/null ||
				xb_die "kill -9 ($cmd, $delay s) left $(ls -A "$S")"
			rm "$S/$f"
		done
		"$XBULK" diff "$S/k" "$S/k" >/dev/null ||
			xb_die "kill -9 ($cmd, $delay s): $S/k unreadable"
	done
done
ok

# start CMD FILE: run `snapshot M FILE` or `diff good M --save FILE` in
# the background (with a runner before it, e.g. strace): sets pid
start()
{
	local cmd=$1 file=$2

	shift 2
	if [[ $cmd == snapshot ]]; then
		"$@" "$XBULK" snapshot "$M" "$file" >/dev/null 2>&1 &
	else
		"$@" "$XBULK" diff "$S/good" "$M" --save "$file" >/dev/null 2>&1 &
	fi
	pid=$!
}

# no_leftover WHAT: nothing hidden in $S, $S/k the good snapshot
no_leftover()
{
	[[ $(ls -A "$S" | grep -c '^\.') == 0 ]] ||
		xb_die "$1 left $(ls -A "$S")"
	cmp -s "$S/good" "$S/k" || xb_die "$1: $S/k is not the old snapshot"
}

# kill -9 that provably lands while the file is written: stopped as
# soon as it holds its file, not named yet (O_TMPFILE: /proc/PID/fd
# shows "DIR/#INO (deleted)"), FILE still the old one, then killed
for cmd in snapshot diff; do
	cp "$S/good" "$S/k"
	if [[ $cmd == snapshot ]]; then
		set -- "$XBULK" snapshot "$M" "$S/k"
	else
		set -- "$XBULK" diff "$S/good" "$M" --save "$S/k"
	fi
	python3 - "$S" "$S/good" "$S/k" "$@" <<'EOF' || xb_die "$cmd: not stopped in its write"
import filecmp, os, signal, subprocess, sys
d, good, k, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
fd_dir = f'/proc/{p.pid}/fd'
while p.poll() is None:
    try:
        fds = [os.path.join(fd_dir, f) for f in os.listdir(fd_dir)]
        hit = [f for f in fds if os.readlink(f).startswith(d + '/#')]
    except OSError:
        continue
    if hit:
        os.kill(p.pid, signal.SIGSTOP)
        break
else:
    sys.exit(f'it ended first (exit status {p.returncode})')
t = os.readlink(hit[0])
ok = t.endswith(' (deleted)') and filecmp.cmp(good, k, shallow=False)
os.kill(p.pid, signal.SIGKILL)
p.wait()
if not ok or p.returncode != -9:
    sys.exit(f'stopped at {t}, FILE replaced or not killed: {p.returncode}')
EOF
	no_leftover "kill -9 of a stopped $cmd"
done
ok

# ... and once the whole file is written, at its fsync (strace kills it
# as it makes the call), and in the moment a replacing file has a hidden
# name (linked beside FILE, at the rename over it): that name is left,
# and the next writer in the directory removes it
for cmd in snapshot diff; do
	cp "$S/good" "$S/k"
	start "$cmd" "$S/k" strace -f -o "$T/strace" -e trace=fsync \
		-e inject=fsync:signal=KILL
	rc=0; wait "$pid" || rc=$?
	((rc == 137)) && grep -q 'killed by SIGKILL' "$T/strace" &&
		grep -q '^[0-9]* *fsync(' "$T/strace" ||
		xb_die "$cmd: not killed at fsync: $rc $(tail -3 "$T/strace")"
	no_leftover "kill -9 at fsync ($cmd)"
	start "$cmd" "$S/k" strace -f -o "$T/strace" \
		-e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:signal=KILL
	rc=0; wait "$pid" || rc=$?
	left=$(ls -A "$S" | grep '^\.xbulk-tmp\.') ||
		xb_die "$cmd: killed at rename ($rc), no hidden name: $(ls -A "$S")"
	"$XBULK" diff "$S/$left" "$S/$left" >/dev/null ||
		xb_die "$cmd: the hidden $left is no whole snapshot"
	cmp -s "$S/good" "$S/k" || xb_die "$cmd: killed at rename, FILE changed"
	: >"$S/.xbulk-tmp.$$.0"	# a writer that runs (this shell)
	"$XBULK" snapshot "$M" "$S/k2"
	[[ $(ls -A "$S" | grep '^\.') == ".xbulk-tmp.$$.0" ]] ||
		xb_die "$cmd: the next writer left $(ls -A "$S" | grep '^\.')"
	rm "$S/.xbulk-tmp.$$.0" "$S/k2"
done
ok

cp "$S/good" "$S/t"
"$XBULK" diff "$S/good" "$M" --save "$S/t" >/dev/null 2>&1 &
pid=$!
kill -TERM "$pid"
rc=0; wait "$pid" 2>/dev/null || rc=$?
((rc == 143 || rc == 0 || rc == 1)) || xb_die "SIGTERM: exit status $rc"
((rc != 143)) || cmp -s "$S/good" "$S/t" || xb_die "SIGTERM wrote the file"
ok

# --- the cron line: a failed consumer leaves STATE where it was
cp "$S/good" "$S/STATE"
rc=0
(set -o pipefail
 "$XBULK" diff "$S/STATE" "$M" --save "$S/STATE.new" -0 | false &&
	mv "$S/STATE.new" "$S/STATE") || rc=$?
((rc != 0)) && cmp -s "$S/good" "$S/STATE" || xb_die "cron: STATE moved"
rc=0
"$XBULK" diff "$S/STATE" "$M" --save "$S/STATE.new" -0 >"$T/list" || rc=$?
((rc == 0)) && [[ -s $T/list ]] ||
	xb_die "cron: diff -0 exit status $rc (0 for pipefail), or no paths"
mv "$S/STATE.new" "$S/STATE"
rc=0; "$XBULK" diff "$S/STATE" "$M" >"$T/out" || rc=$?
((rc == 0)) || xb_die "cron: the promoted state is not the fs: $(head -3 "$T/out")"
ok

# --- an inode bulkstat cannot read (a bad CRC): no snapshot, no diff
mkdir "$M/bad"
echo x >"$M/bad/victim"
victim=$(stat -c %i "$M/bad/victim")
xb_umount || xb_die "cannot unmount $M"
xfs_db -x -c "inode $victim" -c "write -c core.gen 12345" "$XB_IMG" \
	>/dev/null 2>&1 || xb_die "xfs_db cannot corrupt inode $victim"
xb_remount
rc=0; "$XBULK" snapshot "$M" "$S/badsnap" 2>"$T/err" || rc=$?
((rc == 2)) && [[ ! -e $S/badsnap ]] &&
	grep -q "cannot read inode" "$T/err" &&
	grep -q "no snapshot of it" "$T/err" ||
	xb_die "a bad inode: exit status $rc, $(cat "$T/err")"
rc=0; "$XBULK" diff "$S/good" "$M" >"$T/out" 2>"$T/err" || rc=$?
((rc == 2)) && [[ ! -s $T/out ]] || xb_die "diff with a bad inode: $rc"
ok

echo "$pass passed, 0 failed"
