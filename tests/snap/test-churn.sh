#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk snapshot under churn (as tests/find/test-find-churn.sh): while
# churn.pl workers create, hard-link, rename and remove files and make,
# fill, move and remove directories inside the stable directories,
# repeated snapshots (-j 2 and -j 1) must each
#   - end (under timeout) with exit status 0, saying at most that
#     directories went away during the scan;
#   - hold every stable file and directory (made before the churn, never
#     touched) exactly once, with its inode and its path;
#   - mark an inode changing exactly when its recorded ctime is at or
#     after the scan's start (the snapshot's own header);
# and a diff between two of them must succeed, flagging (changing) the
# changes of exactly the inodes either snapshot marked.
#
# Environment: XBULK, XB_RESULTS; CHURN_SECS (default 6).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/integration/lib-reliability.sh"

CHURN_SECS=${CHURN_SECS:-6}

rel_init snap-churn
command -v sqlite3 >/dev/null || xb_skip "sqlite3 not installed (scripts/deps)"
xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
M=$XB_MNT

for ((d = 0; d < 8; d++)); do
	mkdir -p "$M/s$d/a/b"
	(cd "$M/s$d" && for ((i = 0; i < 150; i++)); do : >"f$i"; done)
	: >"$M/s$d/a/b/leaf"
done
sync
(cd "$M" && find . -mindepth 1 -printf '%i %P\n') | sort >"$T/stable"
echo "$(wc -l <"$T/stable") stable entries"

for ((w = 0; w < 2; w++)); do
	rel_churn_start --dirs "$CHURN_SECS" "$M/s$w" "$M/s$((w + 2))" \
		"$M/s$((w + 4))"
done

gone='^xbulk snapshot: ([0-9]+ directories were|1 directory was) removed or renamed during the scan and (were|was) skipped$'
configs=("-j 2" "-j 1")
declare -A nscans
scans=0 marked=0 errors=0 prev=
end=$(($(date +%s) + CHURN_SECS))
k=0
while (($(date +%s) < end)); do
	cfg=${configs[k % 2]}
	k=$((k + 1))
	read -r -a opts <<<"$cfg"
	snap=$T/snap$k
	rc=0
	timeout 60 "$XBULK" snapshot "${opts[@]}" "$M" "$snap" 2>"$T/err" ||
		rc=$?
	scans=$((scans + 1))
	nscans[$cfg]=$((${nscans[$cfg]:-0} + 1))
	if ((rc != 0)) || { [[ -s $T/err ]] && ! grep -Eq "$gone" "$T/err"; }; then
		errors=$((errors + 1))
		rel_fail "[$cfg] exit status $rc: $(head -n 3 "$T/err")"
		continue
	fi
	rm -f "$T/db"
	"$XBULK" export --sqlite "$T/db" "$snap"
	sqlite3 -separator ' ' "$T/db" "select ino, path from entries
		where path like 's%'" | sort >"$T/got"
	n=$(comm -23 "$T/stable" "$T/got" | wc -l)
	((n == 0)) || rel_fail "[$cfg] $n stable entries missing:" \
		"$(comm -23 "$T/stable" "$T/got" | head -3)"
	n=$(sort "$T/got" | uniq -d | wc -l)
	((n == 0)) || rel_fail "[$cfg] $n entries twice"
	bad=$(sqlite3 "$T/db" "select count(*) from inodes, fs where changing !=
		(ctime > scan_start or (ctime = scan_start and
		 ctime_nsec >= scan_start_nsec))")
	rel_check "[$cfg] marks against ctime and the scan's start" 0 "$bad"
	marked=$((marked + $(sqlite3 "$T/db" 'select count(*) from inodes
		where changing')))
	if [[ -n $prev ]]; then
		rc=0
		"$XBULK" diff -o csv "$prev" "$snap" >"$T/d.csv" 2>"$T/err" ||
			rc=$?
		rel_check "[$cfg] diff of two snapshots under churn" 1 "$rc"
		# '!' on exactly the changes of inodes either marked
		bad=$(sqlite3 "$T/db" ".import --csv $T/d.csv changes" \
			"attach '$T/db.prev' as o" \
			"select count(*) from changes c where c.changing + 0 !=
			 (case c.change when 'deleted' then
			   (select changing from o.inodes where ino = c.ino + 0)
			 when 'created' then
			   (select changing from main.inodes where ino = c.ino + 0)
			 else (select changing from o.inodes where ino = c.ino + 0) |
			   (select changing from main.inodes where ino = c.ino + 0)
			 end)")
		rel_check "[$cfg] changes flagged by the marks" 0 "$bad"
		rm -f "$prev"
	fi
	mv "$T/db" "$T/db.prev"
	prev=$snap
done
rel_churn_wait
rel_scans_done
rel_result "secs=$CHURN_SECS scans=$scans marked=$marked errors=$errors" \
	"$REL_CHURN"
rel_done
