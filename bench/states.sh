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
# state_check prints why a run is not in its state; bench/run rejects it.
#
# Needs, set by the caller: MNT (the mount point), XFS_SYSFS (the
# filesystem's stats file) and BACK_STAT (the block device stat file of
# the disk under the image, or empty when there is none to read).

STATES_KNOWN="hot uncached cold"

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

# state_prepare STATE: before each round of STATE's runs.
state_prepare() {
	case $1 in
	hot) find "$MNT" -ls >/dev/null ;;
	esac
}

# state_before_run STATE: just before each timed run in STATE.
state_before_run() {
	case $1 in
	uncached|cold) drop_caches ;;
	esac
}

# state_sample: "lookups hits misses back_reads" now (cumulative counters).
state_sample() {
	local ig back=0

	ig=$(awk '$1 == "ig" { print $2, $3, $5 }' "$XFS_SYSFS")
	[ -n "$ig" ] || ig="0 0 0"
	if [ -n "$BACK_STAT" ]; then
		read -r back _ <"$BACK_STAT"
	fi
	echo "$ig $back"
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
	uncached|cold)
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
