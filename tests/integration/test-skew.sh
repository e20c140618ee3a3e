#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The parallel scan on a skewed tree: bench/populate --skew puts ~90% of
# the inodes in one AG.  One worker per AG must still cover it whole:
# bulkstat and inumbers with -j 2, -j 3 and -j 8 (and a small -n) print
# the same bytes as -j 1, and -q counts every inode.
#
# Environment: XBULK, POPULATE (build/bench/populate).

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
rel_done
