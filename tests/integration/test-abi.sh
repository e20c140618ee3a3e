#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ABI limits (issue 8, finding 5): each count passed to the kernel fits
# its field.  v1's count (struct xfs_fsop_bulkreq.icount) is a signed
# 32-bit int: -n 2147483648 and up made xbulk 0.1 fail with EINVAL under
# -j 1 and -d (a negative count) and work under -j 2 (smaller unit
# requests).  v5's icount is a u32, as -n is.  For bulkstat and inumbers,
# -n 2147483647, 2147483648 and 4294967295, -v 1 and 5, -j 1 and 2: exit
# 0 and the output of a default scan; with -d, every line shows the count
# passed (2147483647 at most under -v 1).
#
# Environment: XBULK, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init abi

xb_mkfs_mount 1G "-d agcount=2"
xb_populate "$XB_MNT" 300
T=$XB_TMP
cases=0
for cmd in bulkstat inumbers; do
	for v in 1 5; do
		"$XBULK" "$cmd" -v "$v" -j 1 "$XB_MNT" >"$T/ref-$cmd-$v"
	done
done

for cmd in bulkstat inumbers; do
	for v in 1 5; do
		for n in 2147483647 2147483648 4294967295; do
			want=$n
			((v == 1 && n > 2147483647)) && want=2147483647
			for j in 1 2; do
				tag="$cmd -v $v -n $n -j $j"
				cases=$((cases + 1))
				rc=0
				"$XBULK" "$cmd" -v "$v" -n "$n" -j "$j" \
					"$XB_MNT" >"$T/out" 2>"$T/err" || rc=$?
				rel_check "[$tag] exit status" 0 "$rc"
				rel_check "[$tag] stderr" "" "$(cat "$T/err")"
				rel_ok "[$tag] output differs from -n 4096's" \
					cmp -s "$T/ref-$cmd-$v" "$T/out"
			done
			tag="$cmd -v $v -n $n -d"
			cases=$((cases + 1))
			rc=0
			"$XBULK" "$cmd" -v "$v" -n "$n" -d "$XB_MNT" \
				>"$T/out" 2>"$T/err" || rc=$?
			rel_check "[$tag] exit status" 0 "$rc"
			rel_check "[$tag] counts passed" "icount=$want" \
				"$(grep -oE '^[a-z]+: .* icount=[0-9]+' "$T/out" |
				   grep -oE 'icount=[0-9]+' | sort -u | tr '\n' ' ' |
				   sed 's/ $//')"
			rel_ok "[$tag] records differ from -n 4096's" \
				cmp -s "$T/ref-$cmd-$v" \
				<(grep -vE '^(bulkstat|inumbers): ' "$T/out")
		done
	done
done

rel_result "cases=$cases passed=$REL_PASS failed=$REL_FAIL"
rel_done
