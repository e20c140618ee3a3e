# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/states.sh: the cache states of a benchmark run, made and proved.
# Sourced by bench/run (and by anything else that measures a scan of an
# XFS in a named cache state); defines functions only.
#
#   hot       the inodes in the kernel's inode cache: a stat pass over the
#             tree (find -ls) before each round, untimed.  The image sits
#             in memory (tmpfs), so nothing is read from a disk.
#   uncached  the inodes not in the inode cache, their blocks in memory:
#             image on tmpfs, sync; echo 3 > drop_caches before every run.
#             (echo 2 is not enough: an inode with page-cache pages stays.)
#   cold      image on disk, sync; echo 3 before every run: real reads.
#   pressure  uncached, and each run inside a small memory cgroup
#             (PRESSURE_MIB, default 256 MiB) in which another process
#             holds PRESSURE_HOLD_MIB (default half; bench/memcg.sh): the
#             scan's inode allocations must reclaim.  Compare with
#             uncached.  A run the cgroup's OOM killer ends has failed.
#
# Every run is proved by the XFS inode cache counters of its filesystem
# (/sys/fs/xfs/DEV/stats/stats, line "ig": lookups, hits, misses; what
# xbulk --stats shows) read before and after it, against the inodes the
# run must look up (EXPECT):
#   hot       misses <= 1% of EXPECT (a bulkstat looks every inode up, so
#             its hits are >= 99%; a path walk finds hot inodes in the
#             dentry cache and may look up none)
#   uncached  misses >= 99% of EXPECT
#   cold      misses >= 99% of EXPECT, and reads from the disk under the
#             image (the backing device, not the loop device)
#   pressure  as uncached
# state_check prints why a run is not in its state; bench/run rejects it.
#
# Each sample also holds what shows a stall: memory reclaim (pages
# scanned and stolen, direct reclaim entries: /proc/vmstat, the whole
# machine), memory stall time (PSI, of the cgroup where the kernel keeps
# it per cgroup) and how often the pressure cgroup hit its limit.
#
# Needs, set by the caller: MNT (the mount point), XFS_SYSFS (the
# filesystem's stats file) and BACK_STAT (the block device stat file of
# the disk under the image, or empty when there is none to read).

. "$(dirname "${BASH_SOURCE[0]}")/memcg.sh"

STATES_KNOWN="hot uncached cold pressure"
PRESSURE_MIB=${PRESSURE_MIB:-256}
PRESSURE_HOLD_MIB=${PRESSURE_HOLD_MIB:-$((PRESSURE_MIB / 2))}

# state_known STATE: true when STATE is one of STATES_KNOWN.
state_known() {
	[[ " $STATES_KNOWN " == *" $1 "* ]]
}

# state_medium STATE: where the image must be for STATE: mem or disk.
state_medium() {
	case $1 in
	cold) echo disk ;;
	*) echo mem ;;
	esac
}

# drop_caches: write back, then drop the page cache, dentries and inodes.
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# state_setup STATE: once before STATE's rounds; 1 if it cannot be made.
state_setup() {
	case $1 in
	pressure) memcg_open "$PRESSURE_MIB" "$PRESSURE_HOLD_MIB" >&2 ;;
	esac
}

# state_teardown STATE: once after STATE's rounds (and on any exit).
state_teardown() {
	case $1 in
	pressure) memcg_close ;;
	esac
}

# state_wrap STATE CMD: CMD as it must run in STATE (a bash command line).
state_wrap() {
	case $1 in
	pressure) echo "$(memcg_enter) && $2" ;;
	*) echo "$2" ;;
	esac
}

# state_about STATE: one line on how STATE is made here.
state_about() {
	case $1 in
	pressure)
		echo "memory cgroup $MEMCG_VERSION, limit $PRESSURE_MIB MiB," \
			"$PRESSURE_HOLD_MIB MiB held by another process;" \
			"PSI: $MEMCG_PSI"
		;;
	esac
}

# state_prepare STATE: before each round of STATE's runs.
state_prepare() {
	case $1 in
	hot) find "$MNT" -ls >/dev/null ;;
	esac
}

# state_before_run STATE: just before each timed run in STATE.
state_before_run() {
	case $1 in
	uncached|cold|pressure) drop_caches ;;
	esac
}

# state_sample STATE: the cumulative counters now, "lookups hits misses
# back_reads pgscan pgsteal allocstall psi_some_us psi_full_us
# limit_hits".
state_sample() {
	local ig back=0 vm psi=/proc/pressure/memory

	ig=$(awk '$1 == "ig" { print $2, $3, $5 }' "$XFS_SYSFS")
	[ -n "$ig" ] || ig="0 0 0"
	if [ -n "$BACK_STAT" ]; then
		read -r back _ <"$BACK_STAT"
	fi
	vm=$(awk '$1 ~ /^pgscan_(kswapd|direct)$/ { s += $2 }
		  $1 ~ /^pgsteal_(kswapd|direct)$/ { t += $2 }
		  $1 ~ /^allocstall/ { a += $2 }
		  END { print s + 0, t + 0, a + 0 }' /proc/vmstat)
	[ "$1" = pressure ] && [ -n "$MEMCG_PSI" ] && psi=$MEMCG_PSI
	if [ -r "$psi" ]; then
		psi=$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^total=/) {
				sub("total=", "", $i); v[$1] = $i } }
			   END { print v["some"] + 0, v["full"] + 0 }' "$psi")
	else
		psi="0 0"
	fi
	echo "$ig $back $vm $psi $( [ "$1" = pressure ] && memcg_limit_hits || echo 0)"
}

# state_check STATE EXPECT LOOKUPS HITS MISSES BACK_READS: prints nothing
# when a run with these counter deltas was in STATE, else the reason.
# EXPECT 0: the run looks up no inode it must find in a state (no check).
state_check() {
	local state=$1 expect=$2 lookups=$3 hits=$4 misses=$5 back=$6

	[ "$expect" -gt 0 ] || return 0
	case $state in
	hot)
		if [ $((misses * 100)) -gt "$expect" ]; then
			echo "not hot: $misses icache misses for $expect inodes" \
				"($lookups lookups, $hits hits)"
		fi
		;;
	uncached|cold|pressure)
		if [ $((misses * 100)) -lt $((expect * 99)) ]; then
			echo "not $state: $misses icache misses for $expect" \
				"inodes ($lookups lookups, $hits hits)"
		elif [ "$state" = cold ] && [ -n "$BACK_STAT" ] &&
		     [ "$back" -eq 0 ]; then
			echo "not cold: no reads from the disk under the image"
		fi
		;;
	esac
}
