#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk find under churn: while background workers (churn.pl --dirs)
# create, hard-link, rename and remove files, and make, fill, rename,
# move and remove directories, inside the very directories the scans read,
# repeated `xbulk find` runs (-j 2 mostly; -j 1, -j 3, -depth, and a
# pre-filtered expression) must each
#   - end (under `timeout`) with exit status 0 and nothing on stderr, or
#     exit status 1 and exactly find's one-line summary of the directories
#     that were removed or renamed during the scan;
#   - print no path twice;
#   - print every stable file and directory (made before the churn, never
#     touched) with its right path.
#
# Environment: XBULK, XB_RESULTS; CHURN_SECS (default 12).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/integration/lib-reliability.sh"

CHURN_SECS=${CHURN_SECS:-12}
CHURNERS=3

rel_init find-churn
xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
M=$XB_MNT

# --- the stable set: 16 directories (in every AG), 200 files each and a
# nested branch
for ((d = 0; d < 16; d++)); do
	mkdir -p "$M/s$d/a/b"
	(cd "$M/s$d" && for ((i = 0; i < 200; i++)); do : >"f$i"; done)
	: >"$M/s$d/a/b/leaf"
done
sync
find "$M" -printf '%i %p\n' | sort >"$T/stable"
nstable=$(wc -l <"$T/stable")
find "$M" -type f -printf '%i %p\n' | sort >"$T/stable-files"
echo "$nstable stable entries"

# --- the churn, in the stable directories themselves: worker w cycles
# through s(w), s(w+3), s(w+6), s(w+9), moving directories between them
for ((w = 0; w < CHURNERS; w++)); do
	rel_churn_start --dirs "$CHURN_SECS" "$M/s$w" "$M/s$((w + 3))" \
		"$M/s$((w + 6))" "$M/s$((w + 9))"
done

summary='^xbulk find: ([0-9]+ directories were|1 directory was) removed or renamed during the scan and (were|was) skipped$'
configs=("-j 2" "-j 1" "-j 2 -depth" "-j 3" "-j 2 -type f -size -1")
declare -A nscans
scans=0 records=0 dups=0 missed=0 errors=0 skipped=0 maxms=0
end=$(($(date +%s) + CHURN_SECS))
k=0
while (($(date +%s) < end)); do
	cfg=${configs[k % ${#configs[@]}]}
	k=$((k + 1))
	read -r -a args <<<"$cfg"
	opts=("${args[@]:0:2}")
	expr=("${args[@]:2}")
	t0=$(rel_now_ms)
	rc=0
	timeout 60 "$XBULK" find "${opts[@]}" "$M" "${expr[@]}" \
		-printf '%i %p\n' >"$T/out" 2>"$T/err" || rc=$?
	ms=$(($(rel_now_ms) - t0))
	((ms > maxms)) && maxms=$ms
	scans=$((scans + 1))
	nscans[$cfg]=$((${nscans[$cfg]:-0} + 1))
	if ! { ((rc == 0)) && [[ ! -s $T/err ]]; } &&
	   ! { ((rc == 1)) && [[ $(wc -l <"$T/err") == 1 ]] &&
	       grep -Eq "$summary" "$T/err"; }; then
		errors=$((errors + 1))
		rel_fail "[$cfg] exit status $rc (124: timed out):" \
			"$(head -n 3 "$T/err")"
		continue
	fi
	((rc == 1)) && skipped=$((skipped + 1))
	records=$((records + $(wc -l <"$T/out")))
	n=$(cut -d' ' -f2- "$T/out" | sort | uniq -d | wc -l)
	if ((n)); then
		dups=$((dups + n))
		rel_fail "[$cfg] $n paths printed twice:" \
			"$(cut -d' ' -f2- "$T/out" | sort | uniq -d | head -3)"
	fi
	ref=$T/stable
	[[ $cfg == *-type* ]] && ref=$T/stable-files
	n=$(sort "$T/out" | comm -23 "$ref" - | wc -l)
	if ((n)); then
		missed=$((missed + n))
		rel_fail "[$cfg] $n stable entries missing or misnamed:" \
			"$(sort "$T/out" | comm -23 "$ref" - | head -3)"
	fi
	((n)) || rel_pass
done

rel_scans_done

# after the churn: exactly find's answer, in find's order
find "$M" -printf '%i %p\n' >"$T/want"
rc=0
"$XBULK" find -j 2 "$M" -printf '%i %p\n' >"$T/out" 2>"$T/err" || rc=$?
rel_check "after the churn: exit status" 0 "$rc"
rel_ok "after the churn: find's output" cmp -s "$T/want" "$T/out"

rel_result "secs=$CHURN_SECS scans=$scans records=$records" \
	"duplicates=$dups missed_stable=$missed errors=$errors" \
	"runs_with_skipped_dirs=$skipped stable=$nstable max_scan_ms=$maxms" \
	"$REL_CHURN"
rel_done
