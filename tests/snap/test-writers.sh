#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every file xbulk writes as root is safe in a directory others may write
# (issue 23): snapshot, diff --save, export --sqlite, export --csv and
# du --svg, each into a sticky world-writable directory (as /tmp), each
# against the same attacks:
#   - a symbolic link planted at every temporary name xbulk 0.3 used,
#     each leading to a file of root's (the victim), then hard links to
#     the victim there: the victim keeps its content and mode, the result
#     is a regular file of root's, mode 0600, whole;
#   - a symbolic link at the final name (as /dev/stdout is one): refused,
#     one line, the link and the victim as they were;
#   - a world-writable directory without the sticky bit: the SQLite
#     export, which opens its file by name, refuses it;
#   - an existing FILE of another user, which that user also holds under
#     a second name: replaced by root's file, theirs never written to;
#   - hidden names that look like a dead writer's but are another user's
#     (or a symlink): left alone by the sweep of leftovers;
#   - a FIFO at the final name: refused at once, one line, the FIFO left;
#   - ENOSPC (a full tmpfs), SIGINT and SIGKILL while the file is being
#     written (strace delivers them at its first write): the old FILE
#     intact, one line (none for a signal), the exit status documented,
#     nothing left behind but, after SIGKILL of the SQLite export, its
#     private directory, which the next writer there removes.
#
# Environment: XBULK.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/snap/lib-snap.sh"
command -v strace >/dev/null || xb_skip "strace not installed (scripts/deps)"

# strace ARGS...: LeakSanitizer off for what it runs (it fails under
# ptrace: the ASan build)
traced()
{
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

xb_populate "$M" 600
mkdir -m 0700 "$M/private"
touch "$M/private/secret-name"
xb_settle	# diff $T/snap $M (the diff writer) must list nothing
"$XBULK" snapshot "$M" "$T/snap"

KINDS=(snapshot diff sqlite csv svg)
VICTIM=$T/victim
echo "root's own file" >"$VICTIM"
chmod 0644 "$VICTIM"
NOBODY=65534

# cmd KIND DEST: CMD=(the command line of writer KIND writing DEST)
# (--csv: a directory)
cmd()
{
	case $1 in
	snapshot) CMD=("$XBULK" snapshot "$M" "$2") ;;
	diff) CMD=("$XBULK" diff "$T/snap" "$M" --save "$2") ;;
	sqlite) CMD=("$XBULK" export --sqlite "$2" "$T/snap") ;;
	csv) CMD=("$XBULK" export --csv "$2" "$T/snap") ;;
	svg) CMD=("$XBULK" du -s --svg "$2" "$M") ;;
	esac
}

# write KIND DIR [WRAPPER...]: writer KIND into DIR, stdout dropped
write()
{
	local kind=$1 dir=$2

	shift 2
	cmd "$kind" "$(dest "$kind" "$dir")"
	"$@" "${CMD[@]}" >/dev/null
}

# trouble KIND: the exit status of KIND for a file it cannot write
trouble()
{
	[[ $1 == svg ]] && echo 1 || echo 2
}

# dest KIND DIR: what KIND is given to write into DIR
dest()
{
	[[ $1 == csv ]] && echo "$2" || echo "$2/out"
}

# finals KIND DIR: the files KIND makes in DIR
finals()
{
	[[ $1 == csv ]] && echo "$2/inodes.csv $2/entries.csv" ||
		echo "$2/out"
}

# temps KIND DIR: the temporary names xbulk 0.3 wrote through
temps()
{
	case $1 in
	sqlite) echo "$2/out.tmp" ;;
	csv) echo "$2/.inodes.csv.tmp $2/.entries.csv.tmp" ;;
	*) echo "$2/.xbulk-snap.$DEAD.0" ;;
	esac
}

# whole KIND FILE: FILE is what KIND writes, complete
whole()
{
	case $1 in
	snapshot | diff) "$XBULK" diff "$2" "$T/snap" >/dev/null ;;
	sqlite) [[ $(sqlite3 "$2" "select count(*) from entries where
		path = 'private/secret-name'") == 1 ]] ;;
	csv) [[ $(tail -c 2 "$2" | od -An -c | tr -d ' ') == '\r\n' ]] &&
		{ [[ $2 == *inodes.csv ]] ||
		  grep -q 'private/secret-name' "$2"; } ;;
	svg) tail -1 "$2" | grep -q '</svg>' ;;
	esac
}

# victim_ok WHAT: the victim kept its content and mode
victim_ok()
{
	[[ $(cat "$VICTIM") == "root's own file" &&
	   $(stat -c %a "$VICTIM") == 644 ]] ||
		xb_die "$1: the victim changed: $(stat -c '%a %s' "$VICTIM")"
}

# results_ok KIND DIR WHAT: every final file regular, root's, 0600, whole
results_ok()
{
	local f

	for f in $(finals "$1" "$2"); do
		[[ -f $f && ! -L $f && $(stat -c '%u %a' "$f") == '0 600' ]] ||
			xb_die "$3: $f: $(stat -c '%F %u %a' "$f")"
		whole "$1" "$f" || xb_die "$3: $f is not whole"
	done
}

# only DIR NAMES...: DIR holds exactly NAMES (and nothing left behind)
only()
{
	local dir=$1 got want

	shift
	got=$(ls -A "$dir" | sort | tr '\n' ' ')
	want=
	if (($#)); then
		want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	fi
	[[ $got == "$want" ]] || xb_die "$dir holds '$got', not '$want'"
}

# plant_old KIND DIR: "old" in each final file of KIND in DIR; NAMES=(their
# names)
plant_old()
{
	local f

	NAMES=()
	for f in $(finals "$1" "$2"); do
		echo old >"$f"
		NAMES+=("${f##*/}")
	done
}

# old_kept KIND DIR WHAT: each final file still holds "old"
old_kept()
{
	local f

	for f in $(finals "$1" "$2"); do
		[[ $(cat "$f") == old ]] || xb_die "$3: $f changed"
	done
}

# fresh KIND: a new sticky world-writable directory for KIND, its name
fresh()
{
	local d

	d=$(mktemp -d "$T/ww-$1.XXXXXX")
	chmod 1777 "$d"
	echo "$d"
}

# A PID that no longer runs, for hidden names that look like a dead
# writer's
sh -c 'echo $$ >"$1"' sh "$T/pid"
DEAD=$(cat "$T/pid")

# --- planted symbolic links at the temporary names, then hard links
for kind in "${KINDS[@]}"; do
	d=$(fresh "$kind")
	for f in $(temps "$kind" "$d"); do
		ln -s "$VICTIM" "$f"
	done
	# look like leftovers of a dead writer; the sweep leaves them
	ln -s "$VICTIM" "$d/.xbulk-tmp.$DEAD.link"
	echo theirs >"$d/.xbulk-tmp.$DEAD.theirs"
	chown "$NOBODY" "$d/.xbulk-tmp.$DEAD.theirs"
	write "$kind" "$d" ||
		xb_die "$kind: symlinks planted: exit status $?"
	victim_ok "$kind, symlinks planted"
	results_ok "$kind" "$d" "$kind, symlinks planted"
	[[ -L $d/.xbulk-tmp.$DEAD.link &&
	   $(cat "$d/.xbulk-tmp.$DEAD.theirs") == theirs ]] ||
		xb_die "$kind: the sweep took what is not a dead writer's"
	ok
	for f in $(temps "$kind" "$d"); do
		rm "$f"
		ln "$VICTIM" "$f"
	done
	write "$kind" "$d" ||
		xb_die "$kind: hard links planted: exit status $?"
	victim_ok "$kind, hard links planted"
	results_ok "$kind" "$d" "$kind, hard links planted"
	ok
done

# --- a symbolic link at the final name (to a file of root's, as
# /dev/stdout leads to one): refused at once, one line, left as it is
for kind in "${KINDS[@]}"; do
	d=$(fresh "$kind")
	f=$(finals "$kind" "$d")
	f=${f%% *}
	ln -s "$VICTIM" "$f"
	rc=0
	write "$kind" "$d" 2>"$T/err" || rc=$?
	((rc == $(trouble "$kind"))) ||
		xb_die "$kind: a symlink at FILE: exit status $rc: $(cat "$T/err")"
	[[ $(wc -l <"$T/err") == 1 ]] &&
		grep -q "$f: not a regular file: left as it is" "$T/err" ||
		xb_die "$kind: a symlink at FILE: $(cat "$T/err")"
	[[ $(readlink "$f") == "$VICTIM" ]] ||
		xb_die "$kind: the symlink at FILE was replaced"
	victim_ok "$kind, a symlink at FILE"
	only "$d" "${f##*/}"
	ok
done

# --- a directory anyone may write, without the sticky bit: where a
# name can be swapped, the SQLite export (which opens its file by name)
# refuses; the unnamed files of the others are safe there too
for kind in "${KINDS[@]}"; do
	d=$(fresh "$kind")
	chmod 0777 "$d"
	rc=0
	write "$kind" "$d" 2>"$T/err" || rc=$?
	if [[ $kind == sqlite ]]; then
		((rc == 2)) && grep -q "writable by anyone and not sticky" \
			"$T/err" || xb_die "sqlite in 0777: $rc $(cat "$T/err")"
		only "$d"
	else
		((rc == 0)) || xb_die "$kind in 0777: $rc $(cat "$T/err")"
		results_ok "$kind" "$d" "$kind in 0777"
	fi
	ok
done

# --- FILE of another user, which that user holds under a second name
for kind in "${KINDS[@]}"; do
	d=$(fresh "$kind")
	n=0
	for f in $(finals "$kind" "$d"); do
		echo theirs >"$f"
		chown "$NOBODY" "$f"
		chmod 0666 "$f"
		ln "$f" "$d/kept.$((++n))"
	done
	write "$kind" "$d" ||
		xb_die "$kind: FILE of another user: exit status $?"
	results_ok "$kind" "$d" "$kind, FILE of another user"
	for ((i = 1; i <= n; i++)); do
		[[ $(cat "$d/kept.$i") == theirs &&
		   $(stat -c '%u %a' "$d/kept.$i") == "$NOBODY 666" ]] ||
			xb_die "$kind: their file was written to"
	done
	ok
done

# --- a FIFO at the final name: refused at once, before any scan
for kind in "${KINDS[@]}"; do
	d=$(fresh "$kind")
	f=$(finals "$kind" "$d")
	f=${f%% *}
	mkfifo "$f"
	rc=0
	write "$kind" "$d" timeout 60 2>"$T/err" || rc=$?
	((rc == $(trouble "$kind"))) ||
		xb_die "$kind: a FIFO: exit status $rc: $(cat "$T/err")"
	[[ $(wc -l <"$T/err") == 1 ]] &&
		grep -q "$f: not a regular file: left as it is" "$T/err" ||
		xb_die "$kind: a FIFO: $(cat "$T/err")"
	[[ -p $f ]] || xb_die "$kind: the FIFO was replaced"
	only "$d" "${f##*/}"
	ok
done

# --- ENOSPC: a full tmpfs; the old FILE stays, nothing is left
for kind in "${KINDS[@]}"; do
	d=$T/full-$kind
	mkdir "$d"
	mount -t tmpfs -o size=8k tmpfs "$d"
	xb_at_exit "umount '$d' 2>/dev/null"
	plant_old "$kind" "$d"
	rc=0
	write "$kind" "$d" 2>"$T/err" || rc=$?
	((rc == $(trouble "$kind"))) ||
		xb_die "$kind: ENOSPC: exit status $rc: $(cat "$T/err")"
	[[ $(wc -l <"$T/err") == 1 ]] &&
		grep -Eq "No space left on device|database or disk is full" \
		"$T/err" ||
		xb_die "$kind: ENOSPC: $(cat "$T/err")"
	old_kept "$kind" "$d" "$kind: ENOSPC"
	only "$d" "${NAMES[@]}"
	umount "$d"
	ok
done

# --- SIGINT and SIGKILL at the first write (strace -f: the snapshot
# writes from a worker thread)
for kind in "${KINDS[@]}"; do
	for sig in INT KILL; do
		d=$(fresh "$kind")
		plant_old "$kind" "$d"
		rc=0
		write "$kind" "$d" traced -f -o "$T/strace" \
			-e trace=write,pwrite64 \
			-e inject=write,pwrite64:signal=$sig:when=1 \
			2>"$T/err" || rc=$?
		want=$((128 + $(kill -l "$sig")))
		((rc == want)) ||
			xb_die "$kind: SIG$sig: exit status $rc: $(cat "$T/err")"
		old_kept "$kind" "$d" "$kind: SIG$sig"
		left=$(ls -A "$d" | grep '^\.xbulk-tmp\.' || true)
		if [[ $sig == KILL && $kind == sqlite ]]; then
			# its private directory: root's, 0700; the next
			# writer removes it
			[[ -n $left &&
			   $(stat -c '%u %a' "$d/$left") == '0 700' ]] ||
				xb_die "sqlite: SIGKILL left '$left'"
			write "$kind" "$d" ||
				xb_die "sqlite: after SIGKILL: $?"
			results_ok "$kind" "$d" "sqlite after SIGKILL"
		else
			only "$d" "${NAMES[@]}"
		fi
		ok
	done
done

echo "PASS: $pass checks"
