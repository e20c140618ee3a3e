#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers shared by the reliability tests (test-corrupt.sh, test-churn.sh,
# test-fs-gone.sh, test-output.sh, test-signals.sh); the other
# integration tests use its counting too.  Source it after lib.sh:
#
#	. "$(dirname "$0")/lib.sh"
#	. "$(dirname "$0")/lib-reliability.sh"
#	rel_init corrupt
#
# Counting:   rel_pass, rel_fail MSG, rel_check WHAT EXPECTED ACTUAL,
#             rel_done (prints "N passed, N failed", exits 1 on failure);
#             FAIL lines start with [REL_TAG] when it is set.
# Images:     rel_each_image FN runs FN on a new image of every geometry.
# Figures:    rel_result "key=value ..." appends one line to XB_RESULTS
#             (default build/reliability-results.txt), for
#             docs/reliability.md to quote.
# Slow scans: rel_throttle_init; rel_spawn OUT ERR CMD... starts CMD in
#             the background with about 1% of one CPU (a cgroup CPU
#             quota), so that a scan of a few ten thousand inodes takes
#             many seconds and the test can act on it mid-scan;
#             rel_unthrottle gives it full speed again.  Without a usable
#             cgroup (or with XB_NO_THROTTLE=1) the command runs at full
#             speed and REL_THROTTLED=0; rel_wait_size then stops it
#             (SIGSTOP) when it sees it mid-scan, and rel_unthrottle
#             continues it (best effort: a fast scan may end first).
#             rel_mid_scan TAG OUT waits until the scan is seen mid-scan;
#             rel_gone PID TAG checks that it has ended.
# After an event (a reader gone, a signal, a shutdown): count what the
#             command did, never how long it took.  rel_mark notes the
#             inode lookups of M's filesystem so far (rel_lookups: the
#             first number of the "ig" line of /sys/fs/xfs/DEV/stats/stats,
#             one per inode bulkstat returns); right after the event,
#             rel_after gives the command full speed (or not), waits
#             for its end (a generous hang guard, REL_GUARD seconds) and
#             sets REL_AFTER to the lookups it made since rel_mark, which
#             the test holds to a bound that follows from the design.
#             rel_record_bytes FILE: the smallest record of bulkstat text.
# Records:    rel_whole_records FILE checks that FILE is bulkstat text that
#             ends on a whole record (25 lines each, first `bs_ino = N`,
#             last `\tbs_extents64 = N`); rel_setup N makes an image of N
#             entries and the text of a whole scan of it.
# Churn:      rel_churn_start [--dirs] SECS DIR... starts one churn.pl
#             worker in the background (killed at exit); rel_churn_wait
#             waits for them all, checks that each ran to its end, and
#             sets REL_CHURN to their summed counts ("creates=N ...").

XBULK=${XBULK:-$TOP/build/xbulk}
XB_RESULTS=${XB_RESULTS:-$TOP/build/reliability-results.txt}

REL_NAME=
REL_TAG=
REL_PASS=0
REL_FAIL=0
REL_START=0
REL_CG=
REL_CG_KIND=
REL_THROTTLED=0
REL_PID=
REL_STOPPED=
REL_WORKER=
REL_NOT_MID=0
REL_REF_BYTES=0
REL_CHURN_PIDS=()
REL_CHURN_LOGS=()
REL_CHURN=
REL_MARK=0
REL_AFTER=0
REL_TRACER=
# Seconds a command may take to end after an event before it is called
# hung: a guard, never what decides a pass (the counts do).
REL_GUARD=${REL_GUARD:-60}

rel_init()
{
	REL_NAME=$1
	REL_START=$(date +%s%N)
	xb_require_root_loop
	[[ -x $XBULK ]] || xb_die "$XBULK not built"
}

rel_pass()
{
	REL_PASS=$((REL_PASS + 1))
}

rel_fail()
{
	REL_FAIL=$((REL_FAIL + 1))
	echo "FAIL: ${REL_TAG:+[$REL_TAG] }$*"
}

# rel_check WHAT EXPECTED ACTUAL
rel_check()
{
	if [[ $2 == "$3" ]]; then
		rel_pass
	else
		rel_fail "$1: expected '$2', got '$3'"
	fi
}

# rel_ok WHAT CONDITION-COMMAND...: pass if the command succeeds.
rel_ok()
{
	local what=$1

	shift
	if "$@"; then
		rel_pass
	else
		rel_fail "$what"
	fi
}

# Milliseconds since the epoch.
rel_now_ms()
{
	local ns

	ns=$(date +%s%N)
	echo $((ns / 1000000))
}

# Append a line of figures to the results file.
rel_result()
{
	local line

	line="$(date -u +%Y-%m-%dT%H:%M:%SZ) $REL_NAME: $*"
	echo "RESULT: $line"
	if mkdir -p "$(dirname "$XB_RESULTS")" 2>/dev/null; then
		echo "$line" >>"$XB_RESULTS" || true
	fi
}

# Print the totals and exit: 0 if nothing failed, 1 otherwise.
rel_done()
{
	local secs

	secs=$((($(date +%s%N) - REL_START) / 1000000000))
	echo "$REL_NAME: ${secs}s"
	echo "$REL_PASS passed, $REL_FAIL failed"
	((REL_FAIL == 0)) || exit 1
	exit 0
}

# rel_expect CMD STATUS PATTERN ARGS...: xbulk CMD ARGS exits STATUS,
# its stderr ($T/bad.err) says PATTERN, its stdout ($T/bad.out) is empty.
rel_expect()
{
	local cmd=$1 status=$2 pattern=$3 rc=0

	shift 3
	"$XBULK" "$cmd" "$@" >"$T/bad.out" 2>"$T/bad.err" || rc=$?
	rel_check "$cmd $* exit status" "$status" "$rc"
	rel_ok "$cmd $*: message '$pattern'" grep -q -- "$pattern" "$T/bad.err"
	rel_check "$cmd $*: no output" 0 "$(wc -c <"$T/bad.out")"
}

# Show the first lines of the difference of files $1 and $2, indented.
rel_show_diff()
{
	diff "$1" "$2" | head -n 8 | sed 's/^/      /' || true
}

# ---------------------------------------------------------------------------
# One image per geometry

# rel_each_image FN: FN N on a new image of N = ENTRIES entries for every
# geometry of GEOMETRIES (newline-separated mkfs options; default: all of
# xb_geometries, under the sanitizers three of them), then on one of N =
# LARGE_ENTRIES (none if 0) with the second geometry: many batches of
# 4096, many parallel work units.  REL_TAG names the image meanwhile.
rel_each_image()
{
	local fn=$1 geom
	local -a geoms

	if [[ -n ${GEOMETRIES:-} ]]; then
		mapfile -t geoms <<<"$GEOMETRIES"
	elif [[ ${XB_SANITIZE:-none} != none ]]; then
		# The sanitizers look at xbulk's memory, which the other
		# geometries' inode sizes and nrext64 do not change (the
		# normal build compares them all): two AG counts and the
		# 1 KiB-block, no-finobt, no-sparse layout.
		mapfile -t geoms < <(xb_geometries | sed -n '1,2p;/size=1024/p')
	else
		mapfile -t geoms < <(xb_geometries)
	fi
	for geom in "${geoms[@]}"; do
		rel__image "$fn" "$geom" "$ENTRIES"
	done
	if ((LARGE_ENTRIES > 0)); then
		rel__image "$fn" "${geoms[1]:-${geoms[0]}}" "$LARGE_ENTRIES"
	fi
	REL_TAG=
}

# rel__image FN MKFS_OPTS N: FN N on a new image of N entries.
rel__image()
{
	local t0=$SECONDS

	REL_TAG="$2, $3 entries"
	xb_mkfs_mount 1G "$2"
	xb_populate "$XB_MNT" "$3"
	"$1" "$3"
	xb_cleanup
	echo "  [$REL_TAG] done in $((SECONDS - t0)) s" \
		"($REL_PASS passed, $REL_FAIL failed so far)"
}

# ---------------------------------------------------------------------------
# Bulkstat text

# rel_whole_records FILE: 0 if FILE is empty or whole bulkstat records.
rel_whole_records()
{
	awk '
		(NR - 1) % 25 == 0 && !/^bs_ino = [0-9]+$/ { bad = 1 }
		(NR - 1) % 25 != 0 && !/^\t/ { bad = 1 }
		(NR - 1) % 25 == 24 && !/^\tbs_extents64 = [0-9]+$/ { bad = 1 }
		END { exit (bad || NR % 25 != 0) }
	' "$1"
}

# rel_inos FILE: the bs_ino values of bulkstat text, one a line.
rel_inos()
{
	sed -n 's/^bs_ino = //p' "$1"
}

# rel_unreadable CMD MNT REASON FILE: the inodes that stderr FILE names
# as xbulk CMD reports an inode the kernel cannot read ("inode N: REASON
# (xbulk path -w MNT N looks for its paths in the directories)"), one a
# line, in FILE's order; lines of another shape are left out.
rel_unreadable()
{
	local cmd=$1 mnt=$2 why=$3 line ino pre="xbulk $1: inode "

	while IFS= read -r line; do
		[[ $line == "$pre"* ]] || continue
		ino=${line#"$pre"}
		ino=${ino%%:*}
		if [[ $line == "$pre$ino: $why (xbulk path -w $mnt $ino looks for its paths in the directories)" ]]; then
			echo "$ino"
		fi
	done <"$4"
}

# rel_is_prefix SHORT LONG: SHORT's bytes are the start of LONG's.
rel_is_prefix()
{
	local n

	n=$(stat -c %s "$1")
	cmp -s -n "$n" "$1" "$2"
}

# rel_setup N: a new 4-AG image of N entries, slow scans ready
# (rel_throttle_init).  Sets T (its temporary directory) and M (its mount
# point); T/ref.txt is the text of a whole scan, REL_REF_BYTES bytes.
rel_setup()
{
	xb_mkfs_mount 1G "-d agcount=4"
	rel_throttle_init
	T=$XB_TMP
	M=$XB_MNT
	xb_populate "$M" "$1"
	"$XBULK" bulkstat -j 1 "$M" >"$T/ref.txt"
	REL_REF_BYTES=$(stat -c %s "$T/ref.txt")
	echo "$(grep -c '^bs_ino' "$T/ref.txt") inodes, $REL_REF_BYTES bytes of text"
}

# rel_record_bytes FILE: the size of the smallest record of bulkstat text.
rel_record_bytes()
{
	awk '/^bs_ino = / && NR > 1 { if (!min || n < min) min = n; n = 0 }
	     { n += length($0) + 1 }
	     END { if (!min || n < min) min = n; print min + 0 }' "$1"
}

# ---------------------------------------------------------------------------
# What a command did after an event

# Inode cache lookups so far on M's filesystem: the first number of the
# "ig" line of its XFS statistics (xs_ig_attempts, counted by every
# xfs_iget(); bulkstat makes one per inode it returns).
rel_lookups()
{
	local dev

	dev=$(basename "$(findmnt -n -o SOURCE "$M")")
	awk '/^ig / { print $2 }' "/sys/fs/xfs/$dev/stats/stats"
}

# Skip the test if the filesystem's statistics cannot be read.
rel_need_lookups()
{
	[[ $(rel_lookups 2>/dev/null) =~ ^[0-9]+$ ]] ||
		xb_skip "no per-filesystem XFS statistics (/sys/fs/xfs/DEV/stats)"
}

rel_mark()
{
	REL_MARK=$(rel_lookups)
}

# rel_signal SIG: send SIG to the command rel_spawn started so that what
# it does after is its own doing, not the scheduler's: it is stopped
# first (SIGSTOP: each thread stops once its system call returns), the
# lookups are noted (rel_mark), SIG is sent, then SIGCONT: the first
# thread to run again dequeues SIG and runs the handler before it
# returns to the program.  A thread that runs on another CPU meanwhile
# may start one call before the flag is set, no more.  (Sent while the
# command runs, SIG would wait for the thread the kernel gave it to get
# a CPU, while the others scan on: thousands of lookups on a busy
# machine.)
rel_signal()
{
	local sig=$1

	rel_stop
	rel_mark
	kill -"$sig" "$REL_PID" 2>/dev/null || true
	kill -CONT "$REL_PID" 2>/dev/null || true
	REL_STOPPED=
}

# rel_stop: stop the command rel_spawn started (SIGSTOP) and wait until
# each of its threads has stopped (its system call returned).
rel_stop()
{
	local i

	kill -STOP "$REL_PID" 2>/dev/null || return 0
	for ((i = 0; i < REL_GUARD * 100; i++)); do
		rel_alive "$REL_PID" || return 0
		! grep -qv '^T' <(awk '{ print $3 }' \
			/proc/"$REL_PID"/task/*/stat 2>/dev/null) && return 0
		sleep 0.01
	done
}

# rel_trace LOG [CALLS]: attach strace (CALLS, default ioctl) to the
# command rel_spawn started, stopped by rel_stop, all its threads;
# REL_TRACER is its pid.
# The command must run without LeakSanitizer (it cannot stop the world
# under ptrace): rel_spawn OUT ERR env "$(rel_no_lsan)" CMD...
rel_trace()
{
	local i

	strace -f -qq -e trace="${2:-ioctl}" -o "$1" -p "$REL_PID" \
		2>/dev/null &
	REL_TRACER=$!
	for ((i = 0; i < REL_GUARD * 100; i++)); do
		rel_alive "$REL_PID" || return 0
		! grep -q '^TracerPid:[[:space:]]*0$' \
			/proc/"$REL_PID"/task/*/status 2>/dev/null && return 0
		sleep 0.01
	done
}

# rel_calls LOG [REGEX]: the calls (default ioctl) strace saw start,
# once it has ended (a call under way when it attached ends "resumed").
rel_calls()
{
	wait "$REL_TRACER" 2>/dev/null || true
	grep -E "${2:-ioctl}\(" "$1" | grep -vc 'resumed>' || true
}

# rel_no_lsan: ASAN_OPTIONS=... with LeakSanitizer off, for env(1).
rel_no_lsan()
{
	echo "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# rel_after [--throttled]: the event has happened to the command
# rel_spawn started: full speed (or, with --throttled, still 1% of a CPU),
# wait for its end (REL_RC, REL_MS: rel_wait_exit, with REL_GUARD as the
# hang guard), REL_AFTER = its lookups since rel_mark.
rel_after()
{
	[[ ${1:-} == --throttled ]] || rel_unthrottle
	rel_wait_exit "$REL_PID" "$REL_GUARD"
	REL_AFTER=$(($(rel_lookups) - REL_MARK))
}

# rel_check_after TAG BOUND WHY: REL_AFTER is at most BOUND.
rel_check_after()
{
	echo "  [$1] $REL_AFTER inode lookups after the event (bound $2: $3)"
	rel_ok "[$1] $REL_AFTER inode lookups after the event > $2 ($3)" \
		test "$REL_AFTER" -le "$2"
}

# ---------------------------------------------------------------------------
# Slow scans through a cgroup CPU quota

rel_throttle_init()
{
	local name=xbulk-test-$$

	if [[ ${XB_NO_THROTTLE:-0} == 1 ]]; then
		echo "NOTE: XB_NO_THROTTLE=1: scans run at full speed"
		return 0
	fi
	if [[ -d /sys/fs/cgroup/cpu && -w /sys/fs/cgroup/cpu/cgroup.procs ]] &&
	   mkdir "/sys/fs/cgroup/cpu/$name" 2>/dev/null; then
		REL_CG=/sys/fs/cgroup/cpu/$name
		REL_CG_KIND=v1
	elif [[ -f /sys/fs/cgroup/cgroup.subtree_control ]] &&
	     grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control &&
	     mkdir "/sys/fs/cgroup/$name" 2>/dev/null; then
		REL_CG=/sys/fs/cgroup/$name
		REL_CG_KIND=v2
	else
		echo "NOTE: no cgroup CPU controller: scans run at full speed"
		return 0
	fi
	xb_at_exit rel_throttle_cleanup
	if rel_rethrottle; then
		REL_THROTTLED=1
	else
		echo "NOTE: cannot set a CPU quota: scans run at full speed"
		rel_throttle_cleanup
	fi
}

# Limit the cgroup to 1% of a CPU.
rel_rethrottle()
{
	case $REL_CG_KIND in
	v1)	echo 100000 >"$REL_CG/cpu.cfs_period_us" &&
		echo 1000 >"$REL_CG/cpu.cfs_quota_us" ;;
	v2)	echo "1000 100000" >"$REL_CG/cpu.max" ;;
	*)	return 1 ;;
	esac 2>/dev/null
}

rel_unthrottle()
{
	if [[ -n $REL_STOPPED ]]; then
		kill -CONT "$REL_STOPPED" 2>/dev/null || true
		REL_STOPPED=
	fi
	case $REL_CG_KIND in
	v1)	echo -1 >"$REL_CG/cpu.cfs_quota_us" ;;
	v2)	echo max >"$REL_CG/cpu.max" ;;
	esac 2>/dev/null || true
}

# Kill what is left in the cgroup (only our own processes go there) and
# remove it.
rel_throttle_cleanup()
{
	local pid i

	[[ -n $REL_CG && -d $REL_CG ]] || return 0
	rel_unthrottle
	# (cgroup files always have size 0: read them, do not test -s)
	for ((i = 0; i < 50; i++)); do
		[[ -n $(cat "$REL_CG/cgroup.procs" 2>/dev/null) ]] || break
		while read -r pid; do
			kill -KILL "$pid" 2>/dev/null
		done <"$REL_CG/cgroup.procs"
		sleep 0.1
	done
	for ((i = 0; i < 50; i++)); do
		rmdir "$REL_CG" 2>/dev/null && break
		sleep 0.1
	done
	REL_CG=
	REL_CG_KIND=
	REL_THROTTLED=0
}

# rel_spawn OUT ERR CMD...: start CMD in the background, throttled if we
# can, stdout to OUT and stderr to ERR.  Sets REL_PID (the pid of CMD
# itself: the subshell execs it).
rel_spawn()
{
	local out=$1 err=$2 cg=$REL_CG

	shift 2
	# empty OUT now: the background subshell truncates it only later
	[[ -p $out ]] || : >"$out"
	rel_rethrottle || true
	if ((REL_THROTTLED)); then
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@") \
			>"$out" 2>"$err" &
	else
		(exec "$@") >"$out" 2>"$err" &
	fi
	REL_PID=$!
}

# Is PID alive (not a zombie)?
rel_alive()
{
	[[ -d /proc/$1 && $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) != Z ]]
}

# rel_wait_size FILE BYTES SECS PID: wait until FILE holds at least BYTES
# while PID still runs.  Returns 0 if so (the process is mid-scan), 1 if
# the process ended first or SECS passed.  Unthrottled, PID is stopped
# (SIGSTOP) as soon as it is seen mid-scan; rel_unthrottle continues it.
rel_wait_size()
{
	local file=$1 bytes=$2 secs=$3 pid=$4 i

	for ((i = 0; i < secs * 500; i++)); do
		rel_alive "$pid" || return 1
		if (($(stat -c %s "$file" 2>/dev/null || echo 0) >= bytes)); then
			((REL_THROTTLED)) && return 0
			kill -STOP "$pid" 2>/dev/null || return 1
			REL_STOPPED=$pid
			rel_alive "$pid"
			return
		fi
		sleep 0.002
	done
	return 1
}

# rel_mid_scan TAG OUT: wait until the scan rel_spawn started has written
# something to OUT and still runs.  Returns 1 (after saying why) when it
# could not be caught mid-scan: a failure when throttled, a note (counted
# in REL_NOT_MID) otherwise; the scan has ended then.
rel_mid_scan()
{
	if rel_wait_size "$2" 1 30 "$REL_PID"; then
		return 0
	fi
	if ((REL_THROTTLED)); then
		rel_fail "[$1] the scan was not caught mid-scan"
	else
		echo "NOTE: [$1] scan ended before the test could act (no CPU quota)"
		REL_NOT_MID=$((REL_NOT_MID + 1))
	fi
	rel_unthrottle
	rel_wait_exit "$REL_PID" 30
	return 1
}

# rel_wait_exit PID SECS: wait for background PID; sets REL_RC (its exit
# status, or 255 after a timeout: it is then killed) and REL_MS (how long
# we waited).
rel_wait_exit()
{
	local pid=$1 secs=$2 t0 i

	t0=$(rel_now_ms)
	for ((i = 0; i < secs * 100; i++)); do
		[[ -d /proc/$pid ]] || break
		# a zombie has no threads left to run
		[[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) == Z ]] &&
			break
		sleep 0.01
	done
	REL_MS=$(($(rel_now_ms) - t0))
	if [[ -d /proc/$pid ]] &&
	   [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]; then
		echo "  pid $pid still running after ${secs}s: killing it"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null || true
		REL_RC=255
		return 0
	fi
	REL_RC=0
	wait "$pid" || REL_RC=$?
}

# rel_stalled_reader [--throttled] [--worker] TAG SIG OUT COMMAND...:
# COMMAND writes to a FIFO whose reader stops reading; once the writer
# blocks in pipe_write it is sent SIG, then what the pipe held is read
# into OUT.  COMMAND runs at full speed, or with --throttled at 1% of a
# CPU until its writer blocks (so that a scan is still early then).  SIG
# is sent as rel_signal sends it: every thread stopped first, then SIG,
# the quota lifted and SIGCONT, so that its threads meet it at once (a
# throttled process may otherwise wait several periods of its quota for
# the thread that takes the signal to run, while the others call the
# kernel: 5,559 lookups against a bound of 3,858 under ASan beside a
# CPU-bound job).  SIG goes to the process (the kernel gives it to the main thread, the
# blocked writer), or with --worker to one of its other threads (kill of
# a thread's id: the kernel gives it to that thread), whose handler must
# then interrupt the writer's write (cli/common.c); REL_WORKER is the
# thread id, empty if there was no other thread.  Checks that the writer
# did block; sets REL_PID, REL_RC and REL_MS (rel_wait_exit), and
# REL_AFTER (rel_after: the inode lookups from the signal on).
rel_stalled_reader()
{
	local throttled=0 worker=0 tag sig out blocked=0 i task

	while [[ $1 == --* ]]; do
		case $1 in
		--throttled) throttled=1 ;;
		--worker) worker=1 ;;
		--process) ;;
		esac
		shift
	done
	tag=$1 sig=$2 out=$3
	shift 3
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	rel_spawn "$T/fifo" "$T/err" "$@"
	((throttled)) || rel_unthrottle
	exec 9<"$T/fifo"
	for ((i = 0; i < REL_GUARD * 20; i++)); do
		if grep -q pipe_write /proc/"$REL_PID"/task/*/wchan 2>/dev/null
		then
			blocked=1
			break
		fi
		sleep 0.05
	done
	rel_check "[$tag] writer blocked in pipe_write" 1 "$blocked"
	REL_WORKER=
	if ((worker)); then
		for task in /proc/"$REL_PID"/task/*; do
			[[ ${task##*/} != "$REL_PID" ]] && REL_WORKER=${task##*/}
		done
	fi
	rel_stop
	rel_mark
	kill -"$sig" "${REL_WORKER:-$REL_PID}" 2>/dev/null || true
	rel_unthrottle
	kill -CONT "$REL_PID" 2>/dev/null || true
	rel_after
	cat <&9 >"$out"
	exec 9<&-
}

# rel_gone PID TAG: the process and all its threads have ended.
rel_gone()
{
	if [[ -d /proc/$1 ]]; then
		rel_fail "[$2] pid $1 still exists ($(rel_threads "$1") threads)"
	else
		rel_pass
	fi
}

# Number of threads of PID (0 if it is gone).
rel_threads()
{
	local n

	n=$(awk '/^Threads:/ {print $2}' "/proc/$1/status" 2>/dev/null)
	echo "${n:-0}"
}

# ---------------------------------------------------------------------------
# Churn workers (churn.pl)

rel_churn_start()
{
	local log

	log=$(mktemp "${XB_TMP:-/tmp}/churn.XXXXXX")
	((${#REL_CHURN_PIDS[@]})) ||
		xb_at_exit 'for p in "${REL_CHURN_PIDS[@]}"; do
			kill -KILL "$p" 2>/dev/null; done'
	perl "$TOP/tests/integration/churn.pl" "$@" >"$log" 2>&1 &
	REL_CHURN_PIDS+=($!)
	REL_CHURN_LOGS+=("$log")
}

rel_churn_wait()
{
	local p rc

	for p in "${REL_CHURN_PIDS[@]}"; do
		rc=0
		wait "$p" || rc=$?
		rel_check "churn worker $p exit status" 0 "$rc"
	done
	REL_CHURN_PIDS=()
	REL_CHURN=$(cat "${REL_CHURN_LOGS[@]}" | awk -F'[ =]' '
		{ for (i = 1; i < NF; i += 2) {
			if (!($i in s)) key[n++] = $i
			s[$i] += $(i + 1) } }
		END { for (j = 0; j < n; j++)
			printf "%s%s=%d", j ? " " : "", key[j], s[key[j]] }')
	echo "churn: $REL_CHURN"
}

# rel_scans_done: once the churn is over (rel_churn_wait), print how many
# scans ran per configuration (the caller's configs array, nscans by
# configuration and scans in all) and fail unless each ran at least once
# in all.
rel_scans_done()
{
	local cfg per=

	rel_churn_wait
	for cfg in "${configs[@]}"; do
		per+=" [$cfg]=${nscans[$cfg]:-0}"
	done
	echo "scans:$per"
	((scans >= ${#configs[@]})) || rel_fail "only $scans scans ran"
}
