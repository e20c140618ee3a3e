#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Concurrent churn: while background processes create, hard-link, rename
# and unlink thousands of files and directories (so that inode chunks are
# allocated and freed under the scan), repeated scans with -j 1, -j 2 and
# -j 3, with the default batch and with tiny ones (-n 7, -n 1: the cursor
# moves many times per chunk), must each
#   - end (under `timeout`) with exit status 0 and nothing on stderr;
#   - print whole records, in strictly increasing inode order, so no
#     inode twice;
#   - include every inode that existed for the whole scan: a set of
#     "stable" files and directories made before the churn and never
#     touched, spread over all AGs.
# inumbers -j 2 scans are checked the same way (chunks in increasing
# order; the chunk of every stable inode present).
#
# Environment: XBULK, XB_RESULTS; CHURN_SECS (default 12, 25 with
# XB_TEST_DEPTH=full): how long the churn and the scans run.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

if [[ -z ${CHURN_SECS:-} ]]; then
	CHURN_SECS=12
	xb_full && CHURN_SECS=25
fi
CHURNERS=3

rel_init churn

xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
M=$XB_MNT

# --- the stable set: 16 directories (the rotor puts them in every AG),
# 200 files each, and the root
mkdir "$M/stable"
for ((d = 0; d < 16; d++)); do
	mkdir "$M/stable/s$d"
	(cd "$M/stable/s$d" && for ((i = 0; i < 200; i++)); do
		: >"f$i"
	done)
done
mkdir "$M/churn"
for ((w = 0; w < CHURNERS; w++)); do
	for ((d = 0; d < 4; d++)); do
		mkdir -p "$M/churn/w$w/d$d"
	done
done
sync
find "$M" -path "$M/churn" -prune -o -printf '%i\n' | sort -n >"$T/stable"
nstable=$(wc -l <"$T/stable")
awk '{ printf "%d\n", $1 - $1 % 64 }' "$T/stable" | sort -nu \
	>"$T/stable-chunks"
echo "$nstable stable inodes in $(wc -l <"$T/stable-chunks") chunks"

# --- the churn: each worker cycles through its 4 directories (in
# different AGs): creates 300 files, hard-links 100, renames 100, removes
# the previous generation there, makes and removes a directory (churn.pl).
for ((w = 0; w < CHURNERS; w++)); do
	rel_churn_start "$CHURN_SECS" "$M/churn/w$w"/d{0,1,2,3}
done

# --- the scans
configs=("-j 1" "-j 2" "-j 1 -n 7" "-j 2 -n 7" "-j 3 -n 64" "-j 2 -n 1"
	 "inumbers -j 2")
declare -A nscans
scans=0 records=0 dups=0 missed=0 disorder=0 errors=0 maxms=0
end=$(($(date +%s) + CHURN_SECS))
k=0
while (($(date +%s) < end)); do
	cfg=${configs[k % ${#configs[@]}]}
	k=$((k + 1))
	cmd=bulkstat
	read -r -a args <<<"$cfg"
	if [[ ${args[0]} == inumbers ]]; then
		cmd=inumbers
		args=("${args[@]:1}")
	fi
	t0=$(rel_now_ms)
	rc=0
	timeout 60 "$XBULK" "$cmd" "${args[@]}" "$M" >"$T/out" 2>"$T/err" ||
		rc=$?
	ms=$(($(rel_now_ms) - t0))
	((ms > maxms)) && maxms=$ms
	scans=$((scans + 1))
	nscans[$cfg]=$((${nscans[$cfg]:-0} + 1))
	if ((rc != 0)) || [[ -s $T/err ]]; then
		errors=$((errors + 1))
		rel_fail "[$cmd $cfg] exit status $rc${rc:+ (124: timed out)}:" \
			"$(head -n 3 "$T/err")"
		continue
	fi
	if [[ $cmd == bulkstat ]]; then
		if ! rel_whole_records "$T/out"; then
			rel_fail "[$cmd $cfg] output is not whole records"
		fi
		key='^bs_ino = ' ref=$T/stable
	else
		key='^xi_startino = ' ref=$T/stable-chunks
	fi
	# "count disorder missed" in one pass
	read -r n bad miss < <(awk -v key="$key" '
		NR == FNR { want[$1] = 1; nwant++; next }
		$0 ~ key {
			v = $3 + 0
			if (n && v <= last) bad++
			last = v; n++
			if (v in want) { delete want[v]; nwant-- }
		}
		END { print n + 0, bad + 0, nwant + 0 }' "$ref" "$T/out")
	records=$((records + n))
	if ((bad)); then
		disorder=$((disorder + bad))
		rel_fail "[$cmd $cfg] $bad records out of order or repeated"
		awk -v key="$key" '$0 ~ key { print $3 }' "$T/out" | sort -n |
			uniq -d | head -5 | sed 's/^/    twice: /'
		dups=$((dups + $(awk -v key="$key" '$0 ~ key { print $3 }' \
			"$T/out" | sort -n | uniq -d | wc -l)))
	fi
	if ((miss)); then
		missed=$((missed + miss))
		rel_fail "[$cmd $cfg] $miss stable inodes (or chunks) missing"
	fi
	((bad || miss)) || rel_pass
done

# the churn must have run all along
rel_scans_done

# a last scan after the churn: every inode the tree holds, no more
rc=0
"$XBULK" bulkstat -j 2 "$M" >"$T/out" 2>"$T/err" || rc=$?
rel_check "final scan exit status" 0 "$rc"
rel_check "final scan: records vs inodes of the tree" \
	"$(find "$M" -printf '%i\n' | sort -u | wc -l)" \
	"$(grep -c '^bs_ino = ' "$T/out")"

rel_result "secs=$CHURN_SECS scans=$scans records=$records" \
	"duplicates=$dups out_of_order=$disorder missed_stable=$missed" \
	"errors=$errors stable=$nstable max_scan_ms=$maxms $REL_CHURN"
rel_done
