#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Corrupt inodes: a scan steps past every inode the kernel cannot read,
# names each one on stderr, reports every other inode exactly as before
# and exits 1.
#
# An image (4 AGs) is populated and scanned; then, unmounted, the magic
# number of several inodes in AGs 1-3 (different AGs, chunks and clusters;
# never the root inode's cluster, or the mount fails) is zeroed with
# `xfs_db -x -c 'inode N' -c 'write -d core.magic 0'`.  The inode buffer
# verifier then rejects the victim's whole inode cluster, so every
# allocated inode of those clusters becomes unreadable (EFSCORRUPTED,
# "Structure needs cleaning").  Two more inodes get a field changed and a
# bad CRC (`write -c core.gen N`): the cluster still reads, only those two
# inodes fail (the kernel reports a bad inode CRC as EFSCORRUPTED too).
# For -j 1 and 2, with the default batch and with -n 7, and for -j 4:
#   - exit status 1;
#   - stderr names each unreadable inode once (`inode N: Structure needs
#     cleaning (xbulk path -w MNT N looks for its paths in the
#     directories)`), exactly the allocated inodes of the victims'
#     clusters and the two bad-CRC inodes, and ends with `PATH: K inodes
#     could not be read`;
#   - stdout is the scan before corruption minus the records of exactly
#     the named inodes (so all outputs are identical);
# the same for part of the inode space (-a 2; -s and -e inside unreadable
# clusters; -e before every victim: exit 0, nothing named); and inumbers
# (the inode btree) is unchanged, and bulkstat_single of a victim fails
# with the reason.
#
# Environment: XBULK (the xbulk binary), XB_RESULTS (figures file).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init corrupt

xb_mkfs_mount 1G "-d agcount=4"
xb_populate "$XB_MNT" 3000

T=$XB_TMP
"$XBULK" bulkstat -j 1 "$XB_MNT" >"$T/pre.txt"
"$XBULK" inumbers -j 1 "$XB_MNT" >"$T/inumbers-pre.txt"

# Geometry: bits of an AG inode number, inodes per cluster.
agino_log=$(xfs_db -r -c 'sb 0' -c 'print agblklog inopblog' "$XB_IMG" |
	    awk '{ n += $3 } END { print n }')
cluster_inodes=$(xb_cluster_inodes)
echo "agino_log $agino_log, $cluster_inodes inodes per cluster"

# Chunks as "startino allocmask", by AG.
awk '/^xi_startino/ { s = $3 } /xi_allocmask/ { print s, $3 }' \
	"$T/inumbers-pre.txt" >"$T/chunks"
mapfile -t chunks <"$T/chunks"

# nth_alloc CHUNK-LINE FROM-BIT: the first allocated inode at or after
# bit FROM-BIT of the chunk (or before it if there is none after).
nth_alloc()
{
	local start mask b

	read -r start mask <<<"$1"
	for ((b = $2; b < 64; b++)); do
		(((mask >> b) & 1)) && { echo $((start + b)); return; }
	done
	for ((b = $2 - 1; b >= 0; b--)); do
		(((mask >> b) & 1)) && { echo $((start + b)); return; }
	done
}

# Chunks of AG A, in order.
ag_chunks()
{
	local c

	for c in "${chunks[@]}"; do
		(((${c%% *} >> agino_log) == $1)) && echo "$c"
	done
}

victims=()
mapfile -t ag1 < <(ag_chunks 1)
mapfile -t ag2 < <(ag_chunks 2)
mapfile -t ag3 < <(ag_chunks 3)
((${#ag1[@]} >= 3 && ${#ag2[@]} >= 1 && ${#ag3[@]} >= 1)) ||
	xb_die "too few inode chunks in AGs 1-3"
# AG 1: the first chunk's first inode, the last chunk's second cluster
victims+=("$(nth_alloc "${ag1[0]}" 0)")
victims+=("$(nth_alloc "${ag1[-1]}" $((cluster_inodes + 3)))")
# AG 2: both clusters of a middle chunk (a whole unreadable chunk)
mid=$((${#ag2[@]} / 2))
victims+=("$(nth_alloc "${ag2[mid]}" 5)")
victims+=("$(nth_alloc "${ag2[mid]}" $((cluster_inodes + 7)))")
# AG 3: the last inode of the first chunk
victims+=("$(nth_alloc "${ag3[0]}" 63)")
echo "victims: ${victims[*]}"
# Bad CRC: two inodes of one cluster of AG 1's second chunk
crc_victims=("$(nth_alloc "${ag1[1]}" 9)")
crc_victims+=("$(nth_alloc "${ag1[1]}" $((crc_victims[0] - ${ag1[1]%% *} + 2)))")
echo "bad CRC: ${crc_victims[*]}"

# The unreadable inodes: every allocated inode of a victim's cluster.
printf '%s\n' "${victims[@]}" >"$T/victims"
rel_inos "$T/pre.txt" >"$T/pre-inos"
awk -v ci="$cluster_inodes" '
	NR == FNR { bad[int($1 / ci)] = 1; next }
	int($1 / ci) in bad
' "$T/victims" "$T/pre-inos" >"$T/expect-named"
printf '%s\n' "${crc_victims[@]}" >>"$T/expect-named"
sort -n -o "$T/expect-named" "$T/expect-named"
nexpect=$(wc -l <"$T/expect-named")
echo "$nexpect unreadable inodes: the victims' clusters and the bad CRCs"

# The pre-corruption text without those inodes' records.
awk 'NR == FNR { bad[$1] = 1; next }
     /^bs_ino = / { skip = ($3 in bad) }
     !skip' "$T/expect-named" "$T/pre.txt" >"$T/expect.txt"

xb_umount || xb_die "cannot unmount $XB_MNT"
for v in "${victims[@]}"; do
	xfs_db -x -c "inode $v" -c 'write -d core.magic 0' "$XB_IMG" \
		>/dev/null || xb_die "xfs_db cannot corrupt inode $v"
done
for v in "${crc_victims[@]}"; do
	xfs_db -x -c "inode $v" -c "write -c core.gen $((v * 7 + 1))" \
		"$XB_IMG" >/dev/null 2>&1 ||
		xb_die "xfs_db cannot corrupt the CRC of inode $v"
done
xb_remount

cases=0
first_out=
for j in 1 2 4; do
	for n in "" 7; do
		[[ $j == 4 && -n $n ]] && continue
		tag="-j $j${n:+ -n $n}"
		out=$T/out-j$j-n$n.txt
		err=$T/err-j$j-n$n.txt
		cases=$((cases + 1))
		rc=0
		timeout 120 "$XBULK" bulkstat -j "$j" ${n:+-n "$n"} \
			"$XB_MNT" >"$out" 2>"$err" || rc=$?
		rel_check "[$tag] exit status" 1 "$rc"

		# stderr: one line per unreadable inode (with the command
		# that looks for its paths), then the count
		rel_unreadable bulkstat "$XB_MNT" "Structure needs cleaning" \
			"$err" | sort -n >"$T/named"
		rel_check "[$tag] inodes named" "$nexpect" \
			"$(wc -l <"$T/named")"
		rel_check "[$tag] inodes named twice" "" \
			"$(uniq -d "$T/named" | tr '\n' ' ')"
		if cmp -s "$T/named" "$T/expect-named"; then
			rel_pass
		else
			rel_fail "[$tag] named inodes differ from the expected unreadable ones:"
			diff "$T/expect-named" "$T/named" | head -20
		fi
		rel_check "[$tag] last line of stderr" \
			"xbulk bulkstat: $XB_MNT: $nexpect inodes could not be read" \
			"$(tail -n 1 "$err")"
		rel_check "[$tag] other stderr lines" 0 \
			"$(grep -vc -e 'Structure needs cleaning (xbulk path -w .* looks for its paths in the directories)$' \
				-e 'could not be read$' "$err")"

		# stdout: everything else, byte for byte
		if cmp -s "$out" "$T/expect.txt"; then
			rel_pass
		else
			rel_fail "[$tag] stdout is not the pre-corruption scan minus the named inodes"
			diff "$T/expect.txt" "$out" | head -20
		fi
		if [[ -z $first_out ]]; then
			first_out=$out
		else
			rel_ok "[$tag] stdout differs from -j 1's" \
				cmp -s "$first_out" "$out"
		fi
	done
done

# Part of the inode space: -a AG, -s/-e (starting and ending inside the
# unreadable clusters).  Named: exactly the unreadable inodes in range.
range_case()
{
	local tag=$1 lo=$2 hi=$3 rc=0

	shift 3
	cases=$((cases + 1))
	timeout 120 "$XBULK" bulkstat "$@" "$XB_MNT" >"$T/out" 2>"$T/err" ||
		rc=$?
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi' \
		"$T/expect-named" >"$T/want-named"
	awk -v lo="$lo" -v hi="$hi" '/^bs_ino = / { keep = ($3 >= lo && $3 <= hi) }
	     keep' "$T/expect.txt" >"$T/want.txt"
	rel_unreadable bulkstat "$XB_MNT" "Structure needs cleaning" "$T/err" |
		sort -n >"$T/named"
	if [[ -s $T/want-named ]]; then
		rel_check "[$tag] exit status" 1 "$rc"
	else
		rel_check "[$tag] exit status" 0 "$rc"
	fi
	rel_ok "[$tag] named inodes differ: $(diff "$T/want-named" "$T/named" |
		grep '^[<>]' | head -5 | tr '\n' ' ')" \
		cmp -s "$T/want-named" "$T/named"
	rel_ok "[$tag] stdout differs from the expected records" \
		cmp -s "$T/want.txt" "$T/out"
}
ag_first=$((2 << agino_log))
ag_last=$(((3 << agino_log) - 1))
# -s inside the whole unreadable chunk of AG 2, -e inside AG 3's cluster
s_in=$((victims[2] + 1))
e_in=$((victims[4] - 1))
for j in 1 2; do
	range_case "-a 2 -j $j" "$ag_first" "$ag_last" -a 2 -j "$j"
	range_case "-s $s_in -e $e_in -j $j -n 7" "$s_in" "$e_in" \
		-s "$s_in" -e "$e_in" -j "$j" -n 7
	range_case "-e $((victims[0] - 1)) -j $j (before every victim)" \
		0 $((victims[0] - 1)) -e $((victims[0] - 1)) -j "$j"
done

# The inode btree is intact: inumbers is unchanged.
rc=0
"$XBULK" inumbers -j 2 "$XB_MNT" >"$T/inumbers-post.txt" 2>&1 || rc=$?
rel_check "inumbers exit status" 0 "$rc"
rel_ok "inumbers output changed by inode corruption" \
	cmp -s "$T/inumbers-pre.txt" "$T/inumbers-post.txt"

# bulkstat_single of a victim: the reason, exit 1.
rc=0
"$XBULK" bulkstat_single "$XB_MNT" "${victims[0]}" >"$T/single.out" \
	2>"$T/single.err" || rc=$?
rel_check "bulkstat_single of a corrupt inode: exit status" 1 "$rc"
rel_ok "bulkstat_single of a corrupt inode: no reason given" \
	grep -q 'Structure needs cleaning' "$T/single.err"
rel_check "bulkstat_single of a corrupt inode: stdout" 0 \
	"$(stat -c %s "$T/single.out")"

# bulkstat_single of a list (issue 8, findings 3 and 6): an unreadable
# inode is named with its reason and the list goes on; a free inode is
# "not allocated", an allocated one bulkstat does not report (the
# realtime bitmap inode) is "allocated but not reported"; exit 1.
good1=$(awk -v l="$agino_log" '($1 / 2^l) < 1' "$T/pre-inos" | tail -n 1)
good2=$(grep -vxF -f "$T/expect-named" "$T/pre-inos" | tail -n 1)
free_ino=
while read -r start mask; do
	for ((b = 0; b < 64; b++)); do
		if ((((mask >> b) & 1) == 0)); then
			free_ino=$((start + b))
			break 2
		fi
	done
done < <(tac "$T/chunks")
[[ -n $free_ino ]] || xb_die "no free inode in any chunk"
rbm=$(xfs_db -r -c 'sb 0' -c 'print rbmino' "$XB_IMG" | sed 's/.* = //')
past=$((1 << 40))
echo "list: $good1 ${victims[0]} root $free_ino $rbm $good2 $past"
"$XBULK" bulkstat_single "$XB_MNT" "$good1" root "$good2" >"$T/single-ref.out"
for v in 5 1; do
	rc=0
	"$XBULK" bulkstat_single -v "$v" "$XB_MNT" "$good1" "${victims[0]}" \
		root "$free_ino" "$rbm" "$good2" "$past" \
		>"$T/single.out" 2>"$T/single.err" || rc=$?
	if [[ $v == 1 ]]; then
		# v1 records: no btime, bs_version 1
		"$XBULK" bulkstat_single -v 1 "$XB_MNT" "$good1" "$good2" \
			>"$T/single-ref1.out"
		ref=$T/single-ref1.out
	else
		ref=$T/single-ref.out
	fi
	rel_check "[bulkstat_single -v $v list] exit status" 1 "$rc"
	rel_ok "[bulkstat_single -v $v list] the readable inodes' records differ" \
		cmp -s "$ref" "$T/single.out"
	{
		echo "xbulk bulkstat_single: inode ${victims[0]}: Structure needs cleaning (xbulk path -w $XB_MNT ${victims[0]} looks for its paths in the directories)"
		[[ $v == 1 ]] && echo "xbulk bulkstat_single: root: the v1 ioctl cannot look up special inodes; use -v 5"
		echo "xbulk bulkstat_single: inode $free_ino is not allocated"
		echo "xbulk bulkstat_single: inode $rbm is allocated but not reported by bulkstat (filesystem metadata such as quota or realtime inodes, or an inode the kernel cannot read)"
		echo "xbulk bulkstat_single: inode $past is not allocated"
	} >"$T/single-want.err"
	if cmp -s "$T/single-want.err" "$T/single.err"; then
		rel_pass
	else
		rel_fail "[bulkstat_single -v $v list] stderr:"
		diff "$T/single-want.err" "$T/single.err" | head -10 || true
	fi
done

# For the record: xfs_io stops at the first bad inode.
xfsio_recs=$(xfs_io -c bulkstat "$XB_MNT" 2>/dev/null | grep -c '^bs_ino' ||
	     true)
records=$(grep -c '^bs_ino' "$T/expect.txt")
echo "xfs_io bulkstat: $xfsio_recs records; xbulk: $records of" \
	"$(wc -l <"$T/pre-inos") (the other $nexpect unreadable)"

rel_result "scans=$cases victims=${#victims[@]} bad_crc=${#crc_victims[@]}" \
	"unreadable_named=$nexpect records=$records" \
	"xfs_io_records=$xfsio_recs passed=$REL_PASS failed=$REL_FAIL"
rel_done
