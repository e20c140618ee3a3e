#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The memory budget's options and --stats of the commands that join names
# to inodes (issue 25; man page, MEMORY BUDGET AND SPILL FILE):
#   - bad --memory, XBULK_MEMORY and --tmpdir values, for find, du,
#     snapshot, diff and path -w: one line, the --help hint, exit status
#     2, nothing on stdout;
#   - --stats=json of find, du, snapshot, diff (live and of two files)
#     and export parses with jq and has its keys; --stats-file; the text
#     report comes after the output; the output is the same with it;
#   - the default directory ($TMPDIR) on the scanned filesystem: the
#     library's refusal when it spills, one line, the runtime status;
#   - the budget: --memory's suffixes, XBULK_MEMORY when no --memory (the
#     option wins), TMPDIR and --tmpdir, a budget larger than RAM;
#   - the default budget inside a memory cgroup (v1 or v2, whichever the
#     machine has; skipped without one): an eighth of its limit, the
#     smallest limit of its ancestors, at least 64 MiB, at most a quarter.
# What a spill does (identical output, a full --tmpdir, signals) is
# test-spill.sh's.  No time is asserted.

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}

xb_require_root_loop
[[ -x $XBULK ]] || xb_die "$XBULK not built"
for tool in jq setpriv timeout; do
	command -v "$tool" >/dev/null 2>&1 || xb_skip "$tool not installed"
done

npass=0
nfail=0

fail()
{
	nfail=$((nfail + 1))
	echo "FAIL: $*"
}

pass()
{
	npass=$((npass + 1))
}

xb_mkfs_mount 512M "-d agcount=2"
MNT=$XB_MNT
T=$XB_TMP
chmod 755 "$T"
mkdir -p "$MNT/a/b" "$MNT/c"
touch "$MNT/a/f" "$MNT/a/b/g" "$MNT/c/h"
echo data >"$MNT/c/i"
sync
INO=$(stat -c %i "$MNT/a/b/g")

# Directories the --tmpdir cases point at
mkdir -m 755 "$T/tmpd" "$T/ro"
touch "$T/file"
xb_at_exit "umount '$T/ro' 2>/dev/null"
mount -t tmpfs -o ro,size=1m xbulk-test "$T/ro"

xb_settle	# diff base.snap MNT must list nothing (status 0)
"$XBULK" snapshot "$MNT" "$T/base.snap"

# ---------------------------------------------------------------------------
# Bad input: STATUS ENV REGEX ARGV... (ENV: - or VAR=VALUE for xbulk)

# Each command with the options in front of its arguments: CMD OPTIONS...
args_of()
{
	local cmd=$1

	shift
	case $cmd in
	find)		echo "find --strategy scan $* '$MNT'" ;;
	du)		echo "du $* '$MNT'" ;;
	snapshot)	echo "snapshot $* '$MNT' '$T/new.snap'" ;;
	diff)		echo "diff $* '$T/base.snap' '$MNT'" ;;
	path)		echo "path -w $* '$MNT' $INO" ;;
	esac
}

CASES=''
for cmd in find du snapshot diff path; do
	P="xbulk $cmd: "
	SIZE="is not a size \\(bytes, or with K, M, G or T: 512M, 4G\\)"
	RANGE="is out of range \\(largest is 18446744073709551615 bytes\\)"
	CASES+="
2 - \"${P}--memory: '0': the budget must be at least 1 byte\" $(args_of $cmd --memory 0)
2 - \"${P}--memory: '0K': the budget must be at least 1 byte\" $(args_of $cmd --memory 0K)
2 - \"${P}--memory: '-1' is negative\" $(args_of $cmd --memory -1)
2 - \"${P}--memory: '-5G' is negative\" $(args_of $cmd --memory -5G)
2 - \"${P}--memory: '12Q' $SIZE\" $(args_of $cmd --memory 12Q)
2 - \"${P}--memory: 'G' $SIZE\" $(args_of $cmd --memory G)
2 - \"${P}--memory: '1GB' $SIZE\" $(args_of $cmd --memory 1GB)
2 - \"${P}--memory: ' 1G' $SIZE\" $(args_of $cmd --memory "' 1G'")
2 - \"${P}--memory: empty SIZE\" $(args_of $cmd --memory "''")
2 - \"${P}--memory: '1.5G': whole numbers only \\(1536M, not 1.5G\\)\" $(args_of $cmd --memory 1.5G)
2 - \"${P}--memory: '18446744073709551616' $RANGE\" $(args_of $cmd --memory 18446744073709551616)
2 - \"${P}--memory: '16777216T' $RANGE\" $(args_of $cmd --memory 16777216T)
2 XBULK_MEMORY=12Q \"${P}XBULK_MEMORY: '12Q' $SIZE\" $(args_of $cmd)
2 XBULK_MEMORY=0 \"${P}XBULK_MEMORY: '0': the budget must be at least 1 byte\" $(args_of $cmd)
2 XBULK_MEMORY=1.5G \"${P}XBULK_MEMORY: '1.5G': whole numbers only \\(1536M, not 1.5G\\)\" $(args_of $cmd)
2 - \"${P}--tmpdir: empty DIR\" $(args_of $cmd --tmpdir "''")
2 - \"${P}--tmpdir: $T/nonexistent: No such file or directory\" $(args_of $cmd --tmpdir "'$T/nonexistent'")
2 - \"${P}--tmpdir: $T/file: not a directory\" $(args_of $cmd --tmpdir "'$T/file'")
2 - \"${P}--tmpdir: $T/ro: not writable: Read-only file system\" $(args_of $cmd --tmpdir "'$T/ro'")
2 - \"${P}--tmpdir: $MNT is on the filesystem being scanned; give a directory elsewhere\" $(args_of $cmd --tmpdir "'$MNT'")
2 - \"${P}--tmpdir: $MNT/a is on the filesystem being scanned; give a directory elsewhere\" $(args_of $cmd --tmpdir "'$MNT/a'")"
done
# The default directory on the scanned filesystem: refused by the
# library when a spill is needed (a budget of 1 byte: at once), the
# command's runtime status
XDEV="is on the scanned filesystem: no spill file there \\(--tmpdir elsewhere, --memory\\)"
for cmd in find du snapshot diff path; do
	case $cmd in snapshot|diff) st=2 ;; *) st=1 ;; esac
	CASES+="
$st TMPDIR=$MNT/a \"xbulk $cmd: $MNT/a $XDEV\" $(args_of $cmd --memory 1)"
done
# Not writable by the effective user (nobody; before anything else is
# looked at, so that nobody's missing CAP_SYS_ADMIN is not what fails)
CASES+="
2 nobody \"xbulk du: --tmpdir: $T/ro: not writable: Read-only file system\" du --tmpdir '$T/ro' '$MNT'
2 nobody \"xbulk find: --tmpdir: $T: not writable: Permission denied\" find --tmpdir '$T' '$MNT'
2 nobody \"xbulk snapshot: --tmpdir: $T: not writable: Permission denied\" snapshot --tmpdir '$T' '$MNT' '$T/new.snap'
2 - \"xbulk find: option '--memory' needs a value\" find --memory
2 - \"xbulk find: option '--tmpdir' needs a value\" find --tmpdir
2 - \"xbulk find: option '--stats-file' needs a value\" find --stats-file
2 - \"xbulk find: --stats: unknown format 'xml' \\(text or json\\)\" find --stats=xml '$MNT'
2 - \"xbulk du: --stats: unknown format 'xml' \\(text or json\\)\" du --stats=xml '$MNT'
2 - \"xbulk snapshot: --stats-file: empty FILE\" snapshot --stats-file '' '$MNT' '$T/new.snap'
2 - \"xbulk export: --stats: unknown format '' \\(text or json\\)\" export --stats= --csv '$T' '$T/base.snap'
2 - \"xbulk export: unknown option '--memory'\" export --memory 1G --csv '$T' '$T/base.snap'
1 - \"xbulk du: --stats-file: $T/nonexistent/f: No such file or directory\" du --stats-file '$T/nonexistent/f' '$MNT'
2 - \"xbulk diff: --stats-file: $T/nonexistent/f: No such file or directory\" diff --stats-file '$T/nonexistent/f' '$T/base.snap' '$MNT'"

# check_case LINE: run one line of CASES.
check_case()
{
	local line=$1 status env regex rc what
	local -a run=("$XBULK") argv err=()

	eval "set -- $line"
	status=$1 env=$2 regex=$3
	shift 3
	argv=("$@")
	case $env in
	-)	;;
	nobody)	run=(setpriv --reuid=65534 --regid=65534 --clear-groups "$XBULK") ;;
	*)	run=(env "$env" "$XBULK") ;;
	esac
	what="[$env] xbulk$(printf ' %q' "${argv[@]}")"
	set +e
	timeout -k 2 20 "${run[@]}" "${argv[@]}" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	set -e
	mapfile -t err <"$T/err"
	if ((rc != status)); then
		fail "$what: status $rc, expected $status; stderr: ${err[*]}"
	elif [[ -s $T/out ]]; then
		fail "$what: wrote $(wc -c <"$T/out") bytes to stdout"
	elif ((${#err[@]} < 1)) || ! grep -Eqx -- "$regex" <<<"${err[0]}"; then
		fail "$what: stderr line '${err[0]:-}' !~ /$regex/"
	elif ((status == 2 && ${#err[@]} == 2)) &&
	     ! grep -Eqx -- "Try 'xbulk ${argv[0]} --help'\\." <<<"${err[1]}"; then
		fail "$what: second stderr line '${err[1]}' is not the hint"
	elif ((${#err[@]} > 2 || (status != 2 && ${#err[@]} != 1))); then
		fail "$what: ${#err[@]} lines on stderr: ${err[*]}"
	elif [[ -e $T/new.snap ]]; then
		fail "$what: wrote $T/new.snap"
	else
		pass
	fi
}

while IFS= read -r line; do
	[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
	check_case "$line"
done <<<"$CASES"

# find's own options after a PATH: find's message, then where they go
for opt in --memory=1G --tmpdir --stats --stats=json --stats-file \
	   --progress; do
	set +e
	"$XBULK" find "$MNT" "$opt" >/dev/null 2>"$T/err"
	rc=$?
	set -e
	if ((rc == 1)) && [[ $(sed -n 2p "$T/err") == \
	     "xbulk find: -j, --format, --no-sync, --progress, --memory, --tmpdir, --stats, --strategy and --snapshot, xbulk find's own options, come before the PATHs" ]]; then
		pass
	else
		fail "find PATH $opt: status $rc, $(cat "$T/err")"
	fi
done

# ---------------------------------------------------------------------------
# --stats

# The JSON keys every report has, and those of a names build, a budget
# and an export (null when the command did not do it).
COMMON='has("xbulk_version") and has("command") and has("path") and
	(.completed | type == "boolean") and (.wall_s | type == "number") and
	(.user_s | type == "number") and (.sys_s | type == "number") and
	(.peak_rss_bytes > 0) and (keys | length) == 29'
NAMES='(.strategy == "scan" or .strategy == "walk") and
	(.scan_records > 0) and (.ioctl_calls > 0) and (.threads > 0) and
	(.inodes > 0) and (.dirs > 0) and (.names > 0) and
	(.names_folded | type == "number") and
	(.scan_s | type == "number") and (.read_s | type == "number") and
	(.link_s | type == "number") and (.store_bytes | type == "number") and
	(.names_bytes | type == "number")'
NO_NAMES='([.strategy, .scan_records, .ioctl_calls, .threads, .inodes, .dirs, .names,
	.names_folded,
	.scan_s, .read_s, .link_s, .store_bytes, .names_bytes] |
	all(. == null))'
MEMORY='(.memory_budget_bytes > 0) and
	(.memory_held_bytes | type == "number") and
	(.spill_bytes | type == "number") and
	(.spill_trims | type == "number") and (.tmpdir | type == "string")'
NO_MEMORY='([.memory_budget_bytes, .memory_held_bytes, .spill_bytes,
	.spill_trims, .tmpdir] | all(. == null))'
NO_EXPORT='([.export_inodes, .export_entries, .written_bytes] |
	all(. == null))'

# json_check WHAT FILE JQ: FILE is one JSON object for which JQ is true.
json_check()
{
	local what=$1 file=$2 expr=$3

	if ! jq -e . "$file" >/dev/null 2>&1; then
		fail "$what: not JSON: $(head -c 300 "$file")"
	elif [[ $(jq -s length "$file") != 1 ]]; then
		fail "$what: not one JSON object"
	elif ! jq -e "$expr" "$file" >/dev/null; then
		fail "$what: $expr is false: $(jq -c . "$file")"
	else
		pass
	fi
}

# stats_run NAME STATUS CMD ARGS...: run xbulk with --stats=json; its
# stdout in $T/NAME.out, stderr (the report) in $T/NAME.json
stats_run()
{
	local name=$1 status=$2 rc

	shift 2
	set +e
	"$XBULK" "$@" >"$T/$name.out" 2>"$T/$name.json"
	rc=$?
	set -e
	((rc == status)) || fail "xbulk $*: status $rc, expected $status"
}

rm -f "$T/new.snap"
stats_run find 0 find --strategy scan --stats=json "$MNT" -name g
json_check "find --stats=json" "$T/find.json" \
	"$COMMON and $NAMES and $MEMORY and $NO_EXPORT and
	 .command == \"find\" and .path == \"$MNT\" and .completed"
# names only: a walk with no bulkstat, the scan's figures zero
stats_run find 0 find --stats=json "$MNT" -name g
json_check "find --stats=json, names only" "$T/find.json" \
	"$COMMON and $NO_EXPORT and .strategy == \"names\" and
	 .ioctl_calls == 0 and .scan_records == 0 and .completed"
stats_run du 0 du -s --stats=json "$MNT"
json_check "du --stats=json" "$T/du.json" \
	"$COMMON and $NAMES and $MEMORY and $NO_EXPORT and .command == \"du\" and
	 .completed"
stats_run snapshot 0 snapshot --stats=json "$MNT" "$T/new.snap"
json_check "snapshot --stats=json" "$T/snapshot.json" \
	"$COMMON and $NAMES and $MEMORY and $NO_EXPORT and
	 .command == \"snapshot\""
stats_run diff 0 diff --stats=json "$T/base.snap" "$MNT"
json_check "diff --stats=json (live)" "$T/diff.json" \
	"$COMMON and $NAMES and $MEMORY and $NO_EXPORT and
	 .command == \"diff\" and .completed"
touch "$MNT/c/new"
stats_run diff1 1 diff --stats=json "$T/base.snap" "$MNT"
json_check "diff --stats=json (changes)" "$T/diff1.json" \
	"$COMMON and $NAMES and .completed"
rm "$MNT/c/new"
stats_run diff2 0 diff --stats=json "$T/base.snap" "$T/new.snap"
json_check "diff --stats=json (two files)" "$T/diff2.json" \
	"$COMMON and $NO_NAMES and $NO_MEMORY and $NO_EXPORT"
mkdir "$T/csv"
stats_run export 0 export --stats=json --csv "$T/csv" "$T/new.snap"
json_check "export --stats=json" "$T/export.json" \
	"$COMMON and $NO_NAMES and $NO_MEMORY and
	 .export_inodes > 0 and .export_entries > 0 and
	 .written_bytes == $(cat "$T/csv/inodes.csv" "$T/csv/entries.csv" | wc -c)"

# --stats-file: the report there, nothing on stderr
for c in "find --stats-file $T/sf.txt $MNT" "du --stats-file=$T/sf.txt $MNT" \
	 "snapshot --stats=json --stats-file $T/sf.txt $MNT $T/new.snap"; do
	read -r -a av <<<"$c"
	rm -f "$T/sf.txt"
	if "$XBULK" "${av[@]}" >/dev/null 2>"$T/err" && [[ ! -s $T/err ]] &&
	   grep -q "^${av[0]}: $MNT: done in \\|\"command\": \"${av[0]}\"" \
		"$T/sf.txt"; then
		pass
	else
		fail "xbulk $c: stderr '$(cat "$T/err")', file '$(cat "$T/sf.txt" 2>/dev/null)'"
	fi
done

# The output is the same with --stats (it goes to stderr), and the text
# report comes after it
for c in "find:$MNT" "du:-a $MNT" "diff:$T/base.snap $MNT"; do
	read -r -a av <<<"${c#*:}"
	set +e
	"$XBULK" "${c%%:*}" "${av[@]}" >"$T/plain" 2>/dev/null
	"$XBULK" "${c%%:*}" --stats "${av[@]}" >"$T/with" 2>"$T/err"
	"$XBULK" "${c%%:*}" --stats "${av[@]}" >"$T/both" 2>&1
	set -e
	if ! cmp -s "$T/plain" "$T/with"; then
		fail "${c%%:*} --stats changes the output"
	elif [[ $(head -1 "$T/err") != "${c%%:*}: "*": done in "* ]]; then
		fail "${c%%:*} --stats: first line '$(head -1 "$T/err")'"
	elif [[ $(sed -n "$(($(wc -l <"$T/plain") + 1))p" "$T/both") != \
		"${c%%:*}: "*": done in "* ]]; then
		fail "${c%%:*} --stats: the report is not after the output"
	else
		pass
	fi
done

# ---------------------------------------------------------------------------
# The budget and the directory given to the library

# budget_is WHAT BYTES [TMPDIR] ENV... -- ARGS...: du -s with ENV and ARGS
# reports a budget of BYTES (and TMPDIR)
budget_is()
{
	local what=$1 want=$2 dir=$3 got
	local -a envs=()

	shift 3
	while [[ $1 != -- ]]; do
		envs+=("$1")
		shift
	done
	shift
	got=$(env "${envs[@]}" "$XBULK" du -s --stats=json "$@" "$MNT" \
		2>&1 >/dev/null | jq -r '"\(.memory_budget_bytes) \(.tmpdir)"')
	if [[ $got == "$want ${dir:-${got#* }}" ]]; then
		pass
	else
		fail "$what: budget and tmpdir '$got', expected '$want ${dir:-*}'"
	fi
}

budget_is "--memory 1" 1 "" -- --memory 1
budget_is "--memory 1K" 1024 "" -- --memory 1K
budget_is "--memory 1k" 1024 "" -- --memory 1k
budget_is "--memory 1KiB" 1024 "" -- --memory 1KiB
budget_is "--memory 300M" $((300 << 20)) "" -- --memory 300M
budget_is "--memory 3MiB" $((3 << 20)) "" -- --memory=3MiB
budget_is "--memory 4g" $((4 << 30)) "" -- --memory 4g
budget_is "--memory 2T (more than RAM: taken)" $((2 << 40)) "" -- --memory 2T
budget_is "--memory 1024T" $((1024 << 40)) "" -- --memory 1024T
budget_is "XBULK_MEMORY=100M" $((100 << 20)) "" XBULK_MEMORY=100M --
budget_is "--memory wins over XBULK_MEMORY" $((2 << 30)) "" \
	XBULK_MEMORY=100M -- --memory 2G
budget_is "XBULK_MEMORY= (unset)" \
	"$(env -u XBULK_MEMORY "$XBULK" du -s --stats=json "$MNT" 2>&1 \
		>/dev/null | jq .memory_budget_bytes)" "" XBULK_MEMORY= --
# (budgets the tree fits in: no spill file is made)
budget_is "TMPDIR" $((1 << 30)) "$T/tmpd" TMPDIR="$T/tmpd" -- --memory 1G
budget_is "TMPDIR empty" $((1 << 30)) /var/tmp TMPDIR= -- --memory 1G
budget_is "no TMPDIR" $((1 << 30)) /var/tmp -u TMPDIR -- --memory 1G
budget_is "--tmpdir wins over TMPDIR" $((1 << 30)) "$T/tmpd" \
	TMPDIR=/nonexistent -- --memory 1G --tmpdir "$T/tmpd"
# the default directory is looked at only when a spill is needed
budget_is "TMPDIR on the scanned fs" $((1 << 30)) "$MNT" TMPDIR="$MNT" \
	-- --memory 1G

# Each command passes its budget (find's own syntax, path's walk)
for c in "find --memory 5M $MNT -name g" \
	 "snapshot --memory 5M $MNT $T/new.snap" \
	 "diff --memory 5M $T/base.snap $MNT"; do
	read -r -a av <<<"$c"
	if [[ $("$XBULK" "${av[@]:0:1}" --stats=json "${av[@]:1}" 2>&1 \
		>/dev/null | jq .memory_budget_bytes) == $((5 << 20)) ]]; then
		pass
	else
		fail "xbulk $c: budget not passed"
	fi
done
if [[ $(XBULK_MEMORY=5M "$XBULK" path -w --tmpdir "$T/tmpd" "$MNT" "$INO") == \
      "$MNT/a/b/g" ]]; then
	pass
else
	fail "path -w with a budget"
fi

# ---------------------------------------------------------------------------
# The default budget inside a memory cgroup: an eighth of its limit (or of
# an ancestor's smaller one), at least 64 MiB but at most a quarter of it

# in_cgroup DIR CMD...: run CMD in the cgroup at DIR
in_cgroup()
{
	local dir=$1

	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$dir" "$@"
}

# default_in DIR WANT WHAT: du's default budget in the cgroup DIR is WANT
default_in()
{
	local dir=$1 want=$2 what=$3 got

	got=$(in_cgroup "$dir" env -u XBULK_MEMORY "$XBULK" du -s --stats=json \
		"$MNT" 2>&1 >/dev/null | jq .memory_budget_bytes)
	if [[ $got == "$want" ]]; then
		pass
	else
		fail "default budget $what: $got, expected $want"
	fi
}

ram=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024))
cg=''
if [[ -f /sys/fs/cgroup/cgroup.controllers ]] &&
   grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	cg=/sys/fs/cgroup/xbulk-test-$$
	limit=memory.max
elif [[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]]; then
	cg=/sys/fs/cgroup/memory/xbulk-test-$$
	limit=memory.limit_in_bytes
fi
if [[ -n $cg ]] && mkdir "$cg" 2>/dev/null; then
	xb_at_exit "rmdir '$cg/child' '$cg' 2>/dev/null"
	echo $((256 << 20)) >"$cg/$limit"
	default_in "$cg" $((64 << 20)) "in a 256 MiB cgroup (the floor)"
	echo $((128 << 20)) >"$cg/$limit"
	default_in "$cg" $((32 << 20)) "in a 128 MiB cgroup (a quarter)"
	if ((ram > 2 << 30)); then
		echo $((2 << 30)) >"$cg/$limit"
		default_in "$cg" $((256 << 20)) "in a 2 GiB cgroup"
		# a child without a limit of its own: its parent's
		if [[ $limit == memory.max ]]; then
			echo +memory >"$cg/cgroup.subtree_control" || true
		fi
		mkdir "$cg/child"
		default_in "$cg/child" $((256 << 20)) "below a 2 GiB cgroup"
		rmdir "$cg/child"
	fi
	rmdir "$cg"
else
	echo "SKIP: no memory cgroup to make: the default budget is not checked"
fi

echo "memory: $npass checks passed, $nfail failed"
((nfail == 0))
