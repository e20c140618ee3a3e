#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -j N looks each inode up once, as -j 1 and xfs_io do (issue 8, finding
# 7).  A work unit's planned count includes the allocated inodes bulkstat
# does not report (the realtime bitmap and summary inodes beside the
# root), so its last call returned the next unit's first records; xbulk
# 0.1 dropped them and the next unit read them again: two more inode
# lookups per scan, both cache hits, and fstests xfs/177 counts inodes a
# scan leaves in the inode cache.
#
# On a freshly mounted filesystem (nothing in the inode cache) every
# scan below must make the same inode cache lookups, hits and misses
# (the "ig" line of /sys/fs/xfs/DEV/stats/stats) as -j 1: xfs_io
# bulkstat -q, xbulk -j 1, -j 2, -j 3, -j 2 -n 100, -q and text.  The
# in-core inodes right after the scan (the "vnodes" line) are printed,
# not compared: background reclaim may already be freeing them.
#
# Environment: XBULK, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init icache

xb_mkfs_mount 1G "-d agcount=4"
xb_populate "$XB_MNT" 3000
T=$XB_TMP

# The counters of the mounted filesystem: lookups hits misses vnodes.
counters()
{
	local dev stats

	dev=$(basename "$(findmnt -n -o SOURCE "$XB_MNT")")
	stats=/sys/fs/xfs/$dev/stats/stats
	[[ -r $stats ]] || xb_skip "no $stats"
	awk '/^ig / { ig = $2 " " $3 " " $5 } /^vnodes / { vn = $2 }
	     END { print ig, vn }' "$stats"
}

# scan TAG CMD...: on a fresh mount, the counters' change over CMD.
scan()
{
	local tag=$1 before after

	shift
	xb_umount || xb_die "cannot unmount $XB_MNT"
	xb_remount
	before=$(counters)
	"$@" >/dev/null || rel_fail "[$tag] exit status $?"
	after=$(counters)
	read -r -a b <<<"$before"
	read -r -a a <<<"$after"
	echo "lookups=$((a[0] - b[0])) hits=$((a[1] - b[1]))" \
		"misses=$((a[2] - b[2]))"
	echo "  [$tag] vnodes after: ${a[3]}" >&2
}

ref=$(scan "-j 1" "$XBULK" bulkstat -q -j 1 "$XB_MNT")
echo "xbulk -j 1: $ref"
for args in "xfs_io -c bulkstat -q" "bulkstat -q -j 2" "bulkstat -q -j 3" \
	    "bulkstat -q -j 2 -n 100" "bulkstat -j 2"; do
	if [[ $args == xfs_io* ]]; then
		got=$(scan "$args" xfs_io -c "bulkstat -q" "$XB_MNT")
	else
		# shellcheck disable=SC2086
		got=$(scan "$args" "$XBULK" $args "$XB_MNT")
	fi
	echo "$args: $got"
	rel_check "[$args] inode cache counters" "$ref" "$got"
done

rel_result "ref=\"$ref\" passed=$REL_PASS failed=$REL_FAIL"
rel_done
