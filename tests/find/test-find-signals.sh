#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SIGINT and SIGTERM end `xbulk find` in every phase, soon after the
# system call in progress returns.  What is judged is what it does after
# the signal, never how long it takes (printed only): the calls it
# starts, at most, per thread, one bulkstat ioctl (workers look at the
# flag before each call) and one getdents64 (readers look before each
# directory and each getdents call), and two writes to stdout (the walk
# looks every 1,024 entries: one buffer's flush, and the last), against
# hundreds of getdents calls and tens of writes had it gone on:
#   - in each phase at a known point: strace delivers the signal when a
#     given system call returns (-e inject=SYSCALL:signal=SIG:when=N):
#     the bulkstat scan (an ioctl), the directory reads (a getdents64),
#     the output (a write; each path padded to 999 bytes and a NUL, so that the
#     output is 30 MB, 30 writes), at -j 1 and -j 2; and a plain walk's
#     reads as it goes (a getdents64: auto's walk for names only);
#   - wherever it lands: a run slowed to 1% of a CPU (lib-reliability.sh)
#     is sent the signal at tenths of its length (1, 3, 5; and 7, 9 with
#     XB_TEST_DEPTH=full; some land between
#     the reads and the output, where no system call is made): stopped,
#     strace attached, signalled, continued at full speed;
# each time: exit status 130 (SIGINT) or 143 (SIGTERM), nothing on
# stderr, the output whole records (-print0: empty or ending in a NUL),
# the process and all its threads gone.
#
# Environment: XBULK, XB_RESULTS, POPULATE (bench/populate); ENTRIES
# (default 30000).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/integration/lib-reliability.sh"

ENTRIES=${ENTRIES:-30000}

rel_init find-signals
command -v strace >/dev/null || xb_skip "strace is not installed"
xb_mkfs_mount 1G "-d agcount=4"
rel_throttle_init
T=$XB_TMP
M=$XB_MNT
POPULATE=${POPULATE:-$TOP/build/bench/populate}
if [[ -x $POPULATE ]]; then
	"$POPULATE" -n "$ENTRIES" -t 2 "$M" >/dev/null
else
	xb_populate "$M" "$ENTRIES"
fi
sync
echo "$(find "$M" | wc -l) entries"

cases=0 maxms=0 maxcalls=0

# calls_after TRACE: the ioctl, getdents64 and write(1, ...) calls strace
# saw start after it delivered the first SIGINT or SIGTERM (all of them
# if it delivered none: attached after the signal was sent); a call
# under way then ends later as "resumed".
calls_after()
{
	awk '/--- SIG(INT|TERM) / { if (!on) n = 0; on = 1; next }
	     (/ioctl\(|getdents64\(|write\(1,/) && !/resumed>/ { n++ }
	     END { print n + 0 }' "$1"
}

# after TAG SIG RC ERR OUT MS TRACE J: the checks common to every case
after()
{
	local tag=$1 want=$((128 + $(kill -l "$2"))) calls bound

	cases=$((cases + 1))
	((${6} > maxms)) && maxms=$6
	calls=$(calls_after "$7")
	((calls > maxcalls)) && maxcalls=$calls
	# one bulkstat and one getdents64 per thread, two writes
	bound=$((2 * $8 + 2))
	echo "  [$tag] exit $3, ${6} ms after the signal (printed only)," \
		"$(tr -cd '\0' <"$5" | wc -c) paths written, $calls calls" \
		"after the signal"
	rel_check "[$tag] exit status" "$want" "$3"
	rel_ok "[$tag] $calls calls after the signal > $bound" \
		test "$calls" -le "$bound"
	rel_check "[$tag] stderr" "" "$(head -c 500 "$4")"
	# (-printf's output is written as the 1 MiB buffer fills, cut
	# anywhere, as GNU find's: then only a prefix of the whole output)
	if ((PADDED)); then
		rel_ok "[$tag] output is not a prefix of the whole output" \
			cmp -s -n "$(stat -c %s "$5")" "$5" "$T/padded"
	else
		rel_ok "[$tag] output does not end on a whole path" \
			test ! -s "$5" -o \
			"$(tail -c 1 "$5" | od -An -c | tr -d ' ')" = '\0'
	fi
}
PADDED=0

# --- at a known point of each phase, through strace
"$XBULK" find -j 1 "$M" -printf '%-999p\0' >"$T/padded"
PADDED=1
for spec in "scan ioctl 6" "read getdents64 40" "output write 1" \
	    "plain getdents64 40"; do
	read -r phase call nth <<<"$spec"
	# the build's phases are a scan's (auto walks plainly for this
	# expression of names: the output phase, the plain walk's reads as
	# it goes, and the runs below)
	strat=()
	[[ $phase == output || $phase == plain ]] || strat=(--strategy scan)
	for js in "1 INT" "2 TERM" "2 INT"; do
		read -r j sig <<<"$js"
		tag="$phase: SIG$sig at $call #$nth, -j $j"
		rc=0
		# (LeakSanitizer cannot stop the world under ptrace: the runs
		# below, without strace, check for leaks)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -ttt -o "$T/trace" \
			-e trace=ioctl,getdents64,write \
			-e inject="$call:signal=SIG$sig:when=$nth" \
			"$XBULK" find -j "$j" "${strat[@]}" "$M" \
			-printf '%-999p\0' >"$T/out" 2>"$T/err" || rc=$?
		# the phase: what the process did before the signal came
		before=$(sed -n "/--- SIG$sig/q;p" "$T/trace")
		case $phase in
		scan)	landed=$(grep -c 'getdents64\|write(1' <<<"$before" ||
				 true) ;;
		read)	landed=$(grep -c 'write(1' <<<"$before" || true)
			grep -q getdents64 <<<"$before" || landed=1 ;;
		output | plain) landed=0 ;;
		esac
		rel_check "[$tag] the signal came in the $phase phase" 0 \
			"$landed"
		# from the signal to the exit, by strace's clock
		ms=$(awk -v sig="--- SIG$sig" '
			index($0, sig) && !t0 { t0 = $2 }
			/\+\+\+ (exited|killed)/ { t1 = $2 }
			END { printf "%d", (t1 - t0) * 1000 }' "$T/trace")
		after "$tag" "$sig" "$rc" "$T/err" "$T/out" "$ms" "$T/trace" "$j"
	done
done

PADDED=0

# --- after the walk: a small output is written once, at the end; a
# signal that comes then still gives its exit status (it gave 0)
tag="end: SIGINT at the only write, -j 2"
rc=0
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -ttt -o "$T/trace" -e trace=write \
	-e inject=write:signal=SIGINT:when=1 \
	"$XBULK" find -j 2 "$M" -maxdepth 1 -print0 >"$T/out" 2>"$T/err" ||
	rc=$?
ms=$(awk '/--- SIGINT/ && !t0 { t0 = $2 }
	/\+\+\+ (exited|killed)/ { t1 = $2 }
	END { printf "%d", (t1 - t0) * 1000 }' "$T/trace")
after "$tag" INT "$rc" "$T/err" "$T/out" "$ms" "$T/trace" 2
rel_check "[$tag] the output is whole" "$(find "$M" -maxdepth 1 | wc -l)" \
	"$(tr -cd '\0' <"$T/out" | wc -c)"

# --- wherever it lands: a slowed run, signalled at a fraction of its
# length
rel_spawn "$T/out" "$T/err" "$XBULK" find -j 2 "$M" -print0
t0=$(rel_now_ms)
rel_wait_exit "$REL_PID" 300
full=$(($(rel_now_ms) - t0))
rel_unthrottle
echo "a slowed run takes $full ms"
# at 10%, 30% and 50% (and 70%, 90% with XB_TEST_DEPTH=full: the same
# points of the walk, later)
fracs=(1 3 5)
xb_full && fracs=(1 3 5 7 9)
for k in "${fracs[@]}"; do
	sig=INT
	((k % 4 == 3)) && sig=TERM
	tag="SIG$sig at $((k * 10))% of a slowed run, -j 2"
	# (LeakSanitizer cannot stop the world under strace)
	rel_spawn "$T/out" "$T/err" env "$(rel_no_lsan)" \
		"$XBULK" find -j 2 "$M" -print0
	pid=$REL_PID
	sleep "$(awk -v ms="$full" -v k="$k" 'BEGIN { print ms * k / 10000 }')"
	if ! rel_alive "$pid"; then
		echo "NOTE: [$tag] the run ended before the signal"
		rel_wait_exit "$pid" 10
		continue
	fi
	# stopped, traced, signalled, continued at full speed: the trace
	# holds what it did after the signal
	rel_stop
	rel_trace "$T/trace" ioctl,getdents64,write
	kill -"$sig" "$pid"
	kill -CONT "$pid"
	REL_STOPPED=
	rel_unthrottle
	rel_wait_exit "$pid" "$REL_GUARD"
	wait "$REL_TRACER" 2>/dev/null || true
	after "$tag" "$sig" "$REL_RC" "$T/err" "$T/out" "$REL_MS" "$T/trace" 2
	rel_gone "$pid" "$tag"
done

# --- a reader that stopped reading: find is blocked writing to a full
# pipe; one signal still ends it (the handler points stdout at
# /dev/null, so the restarted write returns); what the reader then finds
# is a prefix of the whole output
"$XBULK" find -j 1 "$M" -print0 >"$T/all"
for j in 1 2; do
	tag="stalled reader, SIGTERM, -j $j"
	rel_stalled_reader "$tag" TERM "$T/out" \
		"$XBULK" find -j "$j" "$M" -print0
	pid=$REL_PID
	cases=$((cases + 1))
	((REL_MS > maxms)) && maxms=$REL_MS
	echo "  [$tag] exit $REL_RC, $REL_MS ms after the signal" \
		"(printed only), $(stat -c %s "$T/out") bytes were in the pipe"
	# (ended at all: blocked in write, it would be killed by the guard)
	rel_check "[$tag] exit status" 143 "$REL_RC"
	rel_check "[$tag] stderr" "" "$(head -c 500 "$T/err")"
	rel_ok "[$tag] what the reader got is not a prefix of the output" \
		cmp -s -n "$(stat -c %s "$T/out")" "$T/out" "$T/all"
	rel_ok "[$tag] the reader got the whole output" \
		test "$(stat -c %s "$T/out")" -lt "$(stat -c %s "$T/all")"
	rel_gone "$pid" "$tag"
done

rel_result "cases=$cases max_ms_after_signal=$maxms" \
	"max_calls_after_signal=$maxcalls" \
	"throttled=$REL_THROTTLED passed=$REL_PASS failed=$REL_FAIL"
rel_done
