#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The parallel scan on a skewed tree: bench/populate --skew puts ~90% of
# the inodes in one AG.  One worker per AG must still cover it whole:
# bulkstat and inumbers with -j 2, -j 3 and -j 8 (and a small -n) print
# the same bytes as -j 1, also from a small output pool into a pipe that
# holds them back, and -q counts every inode.
#
# Environment: XBULK, POPULATE (build/bench/populate), SCAN_POOL.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init skew
[[ -x ${POPULATE:-} ]] || xb_skip "POPULATE ($POPULATE) is not built"

xb_mkfs_mount 1G "-d agcount=4"
mkdir "$XB_MNT/tree"
"$POPULATE" -n 12000 -s 7 --skew "$XB_MNT/tree" >/dev/null
sync

# The skew is real: the share of inodes in the fullest AG, in percent.
agino_log=$(xfs_db -r -c 'sb 0' -c 'p agblklog' -c 'p inopblog' "$XB_IMG" |
	awk '{ s += $3 } END { print s }')
top=$("$XBULK" inumbers "$XB_MNT" | awk -v l="$agino_log" '
	$1 == "xi_startino" { ag = int($3 / 2 ^ l) }
	$1 == "xi_alloccount" { n[ag] += $3; t += $3 }
	END { for (a in n) if (n[a] > m) m = n[a]; print int(100 * m / t) }')
rel_ok "populate --skew: fullest AG holds $top% (>= 80%)" test "$top" -ge 80

for cmd in bulkstat inumbers; do
	"$XBULK" $cmd -j 1 "$XB_MNT" >"$XB_TMP/ref"
	for args in "-j 2" "-j 3" "-j 8" "-j 2 -n 7"; do
		# shellcheck disable=SC2086
		"$XBULK" $cmd $args "$XB_MNT" >"$XB_TMP/got"
		rel_ok "$cmd $args = -j 1" cmp -s "$XB_TMP/ref" "$XB_TMP/got"
	done
done
want=$(grep -c '^bs_ino = ' <("$XBULK" bulkstat -j 1 "$XB_MNT"))
for j in 1 2 3; do
	rel_check "bulkstat -q -j $j --stats=json: records" "$want" \
		"$("$XBULK" bulkstat -q -j $j --stats=json "$XB_MNT" \
		   2>&1 >/dev/null | jq .records)"
done
# Into a pipe that holds the records back, with the smallest output pool
# (2 MiB, scan_pool), on 100k inodes over every AG: the workers ahead of
# the writer keep their records raw and fill the pool at once.  However
# full, the unit being written is always taken (the pool grows by what
# running units hold while it is not), so every run ends, with the bytes
# of -j 1.  Without that rule workers ahead of an untaken head waited for
# each other: 9 runs in 32 hung here.  `timeout` only ends a hang.
mkdir "$XB_MNT/more"
"$POPULATE" -n 90000 -s 9 --empty-files "$XB_MNT/more" >/dev/null
sync
"$XBULK" bulkstat -j 1 "$XB_MNT" >"$XB_TMP/ref"
for args in "-j 2 -n 64" "-j 3 -n 64" "-j 4 -n 64" "-j 3 -n 256"; do
	for run in 1 2 3 4; do
		# shellcheck disable=SC2086
		timeout 60 "$SCAN_POOL" $args -p 2048 "$XB_MNT" |
			{ sleep 0.2; cat >"$XB_TMP/got"; }
		rel_ok "pool of 2 MiB: $args, a slow reader (run $run) = -j 1" \
			cmp -s "$XB_TMP/ref" "$XB_TMP/got"
	done
done
rel_done
