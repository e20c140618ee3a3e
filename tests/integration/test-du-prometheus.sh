#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk du --prometheus against Prometheus' own tools (check_prom.py
# compares the figures), on a tree of files of eight owners, groups and
# projects, directories named with a newline, a quote, a backslash and
# a byte that is not UTF-8, and a hard link:
# - promtool check metrics accepts the file;
# - by uid, gid and projid: xbulk du --by's rows; with --max-series 3,
#   the three largest and "other" the rest, each total the same;
# - the directories down to -d 1: GNU du -x's figures, the names under
#   the man page's UTF-8 rule (U+FFFD, an ino label);
# - the scan's figures: the run's --stats=json and the clock around it;
# - the file is root's, mode 0644, and node_exporter (Debian's
#   prometheus-node-exporter, as its user prometheus, textfile collector
#   only, on 127.0.0.1 and a free port) serves every series of it with
#   its value, and no textfile error;
# - bad input: --max-series without --prometheus, with --by, two PATHs,
#   --max-series 0 (exit 2); the old file kept when du fails.
#
# Environment: XBULK (the binary).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
CHECK=$(dirname "$0")/check_prom.py

. "$(dirname "$0")/lib-reliability.sh"
rel_init du-prometheus
for tool in promtool prometheus-node-exporter curl python3 setpriv; do
	command -v "$tool" >/dev/null ||
		xb_skip "$tool not installed (scripts/deps)"
done
id prometheus >/dev/null 2>&1 ||
	xb_skip "no user prometheus (prometheus-node-exporter makes it)"

# Eight owners, groups and projects of growing sizes; odd names.
prom_tree()
{
	local i

	mkdir -p owners/sub $'odd\nline' 'q"uote' 'back\slash' $'bad\xffutf8'
	for i in 1 2 3 4 5 6 7 8; do
		head -c $((i * 20000)) /dev/zero >"owners/f$i"
		chown "$((1000 + i)):$((2000 + i))" "owners/f$i"
		xb_xfs_io -c "chproj $((300 + i))" "owners/f$i" >/dev/null
	done
	echo x >owners/sub/linked
	ln owners/sub/linked $'bad\xffutf8/link'
	echo y >$'odd\nline/in'
	sync
}

# Start node_exporter on DIR as user prometheus; sets NE_URL.
start_exporter()
{
	local port pid i

	port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	setpriv --reuid=prometheus --regid=prometheus --clear-groups \
		prometheus-node-exporter \
		--web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$1" >"$T/exporter.log" 2>&1 &
	pid=$!
	xb_at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
	NE_URL=http://127.0.0.1:$port/metrics
	for ((i = 0; i < 100; i++)); do
		curl -sf "$NE_URL" >/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	cat "$T/exporter.log" >&2
	xb_die "node_exporter did not start"
}

test_figures()
{
	local by before after rc=0

	before=$(date +%s)
	"$XBULK" du -d 1 --prometheus "$TF/xbulk.prom" --stats=json \
		--stats-file "$T/stats.json" "$XB_MNT" >/dev/null || rc=$?
	after=$(date +%s)
	rel_check "exit status" 0 "$rc"
	rel_ok "promtool check metrics" promtool check metrics \
		<"$TF/xbulk.prom"
	rel_check "mode and owner" "644 root" \
		"$(stat -c '%a %U' "$TF/xbulk.prom")"
	for by in uid gid projid; do
		"$XBULK" du --by "$by" -o jsonl "$XB_MNT" >"$T/$by.jsonl"
		rel_ok "--by $by" "$CHECK" by "$TF/xbulk.prom" "$by" \
			"$T/$by.jsonl"
	done
	du -x -B1 -d 1 -0 "$XB_MNT" >"$T/du.bytes"
	du -x --inodes -d 1 -0 "$XB_MNT" >"$T/du.inodes"
	rel_ok "directories as GNU du's, odd names" "$CHECK" dirs \
		"$TF/xbulk.prom" "$T/du.bytes" "$T/du.inodes"
	rel_ok "the scan's figures" "$CHECK" scan "$TF/xbulk.prom" \
		"$T/stats.json" "$before" "$after"
	grep -q 'ino="' "$TF/xbulk.prom" ||
		rel_fail "no ino label for the name that is not UTF-8"
}

test_cap()
{
	local by

	"$XBULK" du -s --prometheus "$T/cap.prom" --max-series 3 \
		"$XB_MNT" >/dev/null
	rel_ok "--max-series 3: promtool" promtool check metrics \
		<"$T/cap.prom"
	for by in uid gid projid; do
		rel_ok "--max-series 3 --by $by: other has the rest" \
			"$CHECK" by "$T/cap.prom" "$by" "$T/$by.jsonl" 3
	done
	rel_check "--max-series 3: a uid of other" 1 \
		"$(grep -c '^xbulk_user_inodes{.*uid="other"' "$T/cap.prom")"
}

test_served()
{
	start_exporter "$TF"
	curl -sf "$NE_URL" >"$T/served"
	rel_ok "node_exporter serves every series" "$CHECK" served \
		"$TF/xbulk.prom" "$T/served"
}

test_bad_input()
{
	rel_expect du 2 "--max-series needs --prometheus" --max-series 5 \
		"$XB_MNT"
	rel_expect du 2 "--prometheus and --by" --by uid \
		--prometheus "$T/x.prom" "$XB_MNT"
	rel_expect du 2 "--prometheus takes one PATH" \
		--prometheus "$T/x.prom" "$XB_MNT" "$XB_MNT/owners"
	rel_expect du 2 "--max-series: must be at least 1" --max-series 0 \
		--prometheus "$T/x.prom" "$XB_MNT"
	rel_expect du 2 "is on the filesystem being scanned" \
		--prometheus "$XB_MNT/x.prom" "$XB_MNT"
	rel_ok "nothing left by the refusals" test ! -e "$T/x.prom"
	# a run that fails leaves the old file
	echo old >"$T/old.prom"
	rel_expect du 1 "cannot access" --prometheus "$T/old.prom" \
		"$XB_MNT/none"
	rel_check "the old file stays" old "$(cat "$T/old.prom")"
}

xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
# node_exporter, as prometheus, reads TF: a directory as Debian's (root's,
# 0755) on a path it may walk
chmod 755 "$XB_TMP"
TF=$T/textfile
mkdir -m 755 "$TF"
(cd "$XB_MNT" && prom_tree)
test_figures
test_cap
test_served
test_bad_input
rel_done
