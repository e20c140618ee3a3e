# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/memcg.sh: a small memory cgroup with a process holding most of it,
# for the "pressure" cache state of bench/states.sh: a scan run inside it
# must reclaim to allocate its inodes, as on a machine short of memory.
# Sourced; defines functions only.
#
# The cgroup is made under the one this shell is in (so whatever manages
# that one still sees it): cgroup v1 (the memory controller's own
# hierarchy: memory.limit_in_bytes, memory.failcnt, PSI only system-wide
# in /proc/pressure/memory) or v2 (memory.max, memory.events' "max",
# memory.pressure of the cgroup).  memcg_open says which.
#
# Sets: MEMCG (its directory), MEMCG_VERSION (v1 or v2), MEMCG_PSI (the
# PSI file that covers it), MEMCG_HOG (the holder's pid).

MEMCG=
MEMCG_VERSION=
MEMCG_PSI=
MEMCG_HOG=

# memcg_parent: "v1 DIR" or "v2 DIR" of this shell's memory cgroup.
memcg_parent() {
	local line dir

	line=$(grep -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:' /proc/self/cgroup)
	if [ -n "$line" ] && [ -d /sys/fs/cgroup/memory ]; then
		echo "v1 /sys/fs/cgroup/memory${line##*:}"
		return 0
	fi
	line=$(grep '^0::' /proc/self/cgroup)
	[ -n "$line" ] || return 1
	for dir in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		if [ -r "$dir${line#0::}/cgroup.controllers" ] &&
		   grep -qw memory "$dir${line#0::}/cgroup.controllers"; then
			echo "v2 $dir${line#0::}"
			return 0
		fi
	done
	return 1
}

# memcg_open LIMIT_MIB HOLD_MIB: make the cgroup, limit it, and start a
# process in it that holds HOLD_MIB of anonymous memory.  Prints what it
# made; returns 1 (saying why) when this machine cannot do it.
memcg_open() {
	local limit=$(( $1 << 20 )) hold=$2 parent version i usage

	read -r version parent < <(memcg_parent) || {
		echo "bench: no memory cgroup controller (v1 or v2)" >&2
		return 1
	}
	MEMCG=$parent/xbulk-bench.$$
	mkdir "$MEMCG" || { MEMCG=; return 1; }
	MEMCG_VERSION=$version
	if [ "$version" = v1 ]; then
		echo "$limit" >"$MEMCG/memory.limit_in_bytes" || return 1
		MEMCG_PSI=/proc/pressure/memory
	else
		echo "$limit" >"$MEMCG/memory.max" || return 1
		MEMCG_PSI=$MEMCG/memory.pressure
	fi
	(
		echo "$BASHPID" >"$MEMCG/cgroup.procs" || exit 1
		exec perl -e '$x = "h" x ($ARGV[0] << 20); sleep 1 while 1' \
			"$hold"
	) &
	MEMCG_HOG=$!
	# Wait until it holds what it should (at most 10 s).
	for i in $(seq 100); do
		usage=$(memcg_usage)
		[ "${usage:-0}" -ge $(( (hold - 8) << 20 )) ] && break
		sleep 0.1
	done
	echo "memory cgroup $MEMCG_VERSION $MEMCG: limit $1 MiB, a process" \
		"holds $hold MiB (now $(( ${usage:-0} >> 20 )) MiB in use);" \
		"PSI from $MEMCG_PSI" \
		"$([ "$version" = v1 ] && echo '(system-wide: v1 has none per cgroup)')"
}

# memcg_usage: bytes the cgroup uses now.
memcg_usage() {
	if [ "$MEMCG_VERSION" = v1 ]; then
		cat "$MEMCG/memory.usage_in_bytes"
	else
		cat "$MEMCG/memory.current"
	fi
}

# memcg_limit_hits: times the cgroup hit its limit (cumulative).
memcg_limit_hits() {
	if [ -z "$MEMCG" ]; then
		echo 0
	elif [ "$MEMCG_VERSION" = v1 ]; then
		cat "$MEMCG/memory.failcnt"
	else
		awk '$1 == "max" { print $2 }' "$MEMCG/memory.events"
	fi
}

# memcg_enter: the shell command that moves a shell into the cgroup, as
# the OOM killer's first choice (lowering the holder's score needs a
# capability a container may lack): a scan that cannot reclaim enough is
# killed and shows as a failed run; the holder stays.
memcg_enter() {
	printf 'echo $$ >%q/cgroup.procs && echo 1000 >/proc/$$/oom_score_adj' \
		"$MEMCG"
}

# memcg_close: stop the holder, remove the cgroup.
memcg_close() {
	[ -n "$MEMCG" ] || return 0
	if [ -n "$MEMCG_HOG" ]; then
		kill "$MEMCG_HOG" 2>/dev/null
		wait "$MEMCG_HOG" 2>/dev/null
	fi
	# Empty once its processes are gone.
	for _ in 1 2 3 4 5; do
		rmdir "$MEMCG" 2>/dev/null && break
		sleep 0.2
	done
	MEMCG= MEMCG_HOG=
}
