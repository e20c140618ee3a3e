#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --stats, --stats-file, --interval and --progress on a populated image:
#   - --stats=json parses (Python's json, jq), has every counter, and its
#     inodes are the records printed (bulkstat) or the sum of
#     xi_alloccount (inumbers);
#   - its device, inode cache and reclaim figures lie within what the
#     same /sys and /proc files show when read by hand around the run;
#   - the text report has a unit on every figure;
#   - --interval prints timestamped lines, kept in the JSON timeline,
#     whose inodes add up to the total;
#   - --progress writes nothing when stderr is not a terminal, and never
#     to stdout;
#   - bad values are usage errors.
#
# Environment: XBULK (path of the xbulk binary, default the build
# directory), ENTRIES (files on the image, default 3000).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
ENTRIES=${ENTRIES:-3000}
PY=/usr/bin/python3

# counting (rel_ok, rel_check, rel_fail, rel_done)
. "$(dirname "$0")/lib-reliability.sh"
rel_init stats
[[ -x $PY ]] || xb_skip "$PY not installed (Debian's python3)"
command -v jq >/dev/null || xb_skip "jq not installed"

# The counters by hand: device reads, the XFS ig line, /proc/vmstat.
by_hand()
{
	local dev=$1 xfs=$2

	echo "dev $(cat "/sys/dev/block/$dev/stat")"
	grep '^ig ' "/sys/fs/xfs/$xfs/stats/stats"
	grep -E '^(pgscan|pgsteal)_(kswapd|direct) ' /proc/vmstat
}

# Python: check the JSON report against the records and the counters read
# by hand before and after.
check_json()
{
	"$PY" - "$@" <<-'EOF'
	import json, sys

	report, records, before, after, kind = sys.argv[1:6]
	r = json.load(open(report))
	fails = []

	def need(cond, msg):
	    if not cond:
	        fails.append(msg)

	def hand(path):
	    out = {}
	    for line in open(path):
	        f = line.split()
	        out[f[0]] = [int(x) for x in f[1:]]
	    return out

	b, a = hand(before), hand(after)
	d = {k: [y - x for x, y in zip(b[k], a[k])] for k in a}

	for key in ("xbulk_version", "command", "path", "completed",
	            "threads", "batch", "records", "inodes", "ioctl_calls",
	            "bad_inodes", "wall_s", "inodes_per_s", "cpu",
	            "devices", "icache", "reclaim", "interval_s", "timeline"):
	    need(key in r, "no key " + key)
	recs = [json.loads(l) for l in open(records)]
	need(r["records"] == len(recs), "records %d, printed %d"
	     % (r["records"], len(recs)))
	if kind == "bulkstat":
	    need(r["inodes"] == len(recs), "inodes %d != records %d"
	         % (r["inodes"], len(recs)))
	else:
	    s = sum(x["xi_alloccount"] for x in recs)
	    need(r["inodes"] == s, "inodes %d != sum of xi_alloccount %d"
	         % (r["inodes"], s))
	need(r["completed"] is True, "not completed")
	need(r["ioctl_calls"] >= 2, "ioctl_calls %d" % r["ioctl_calls"])
	need(r["wall_s"] > 0, "wall_s")
	need(r["inodes_per_s"] > 0, "inodes_per_s")
	for k in ("user_s", "sys_s", "peak_rss_kib"):
	    need(r["cpu"][k] is not None, "cpu." + k + " is null")
	need(r["cpu"]["peak_rss_kib"] > 0, "peak RSS 0")

	data = [x for x in r["devices"] if x["role"] == "data"]
	need(len(data) == 1, "one data device")
	dev = data[0]
	for k in ("read_ios", "read_bytes", "read_iops",
	          "read_bytes_per_s", "read_mb_per_s", "busy_ms", "util_pct"):
	    need(dev[k] is not None, "devices[data]." + k + " is null")
	# the run lies within the reads seen by hand around it
	need(0 <= dev["read_ios"] <= d["dev"][0],
	     "read_ios %d, by hand %d" % (dev["read_ios"], d["dev"][0]))
	need(dev["read_bytes"] <= d["dev"][2] * 512,
	     "read_bytes %d, by hand %d" % (dev["read_bytes"], d["dev"][2] * 512))

	ic = r["icache"]
	for k in ("lookups", "hits", "misses", "busy_retries", "dup",
	          "reclaims"):
	    need(ic[k] is not None, "icache." + k + " is null")
	need(ic["source"].startswith("/sys/fs/xfs/"), "icache.source")
	# ig: attempts found frecycle missed dup reclaims attrchg
	need(ic["lookups"] <= d["ig"][0], "lookups %d, by hand %d"
	     % (ic["lookups"], d["ig"][0]))
	need(ic["hits"] <= d["ig"][1], "hits")
	need(ic["misses"] <= d["ig"][3], "misses")
	need(ic["hits"] + ic["misses"] <= ic["lookups"],
	     "hits + misses > lookups")
	if kind == "bulkstat":
	    # one lookup per inode bulkstat returns
	    need(ic["lookups"] >= r["inodes"], "lookups %d < inodes %d"
	         % (ic["lookups"], r["inodes"]))

	rc = r["reclaim"]
	for k in ("pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
	          "pgsteal_direct", "allocstall", "slabs_scanned"):
	    need(rc[k] is not None, "reclaim." + k + " is null")
	for k in ("pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
	          "pgsteal_direct"):
	    need(rc[k] <= d[k][0], "%s %d, by hand %d" % (k, rc[k], d[k][0]))

	for f in fails:
	    print("  " + f)
	sys.exit(1 if fails else 0)
	EOF
}

# One run of xbulk KIND with --stats=json, bracketed by the counters.
json_run()
{
	local kind=$1

	shift
	by_hand "$DEV" "$XFSDEV" >"$T/before"
	"$XBULK" "$kind" -o jsonl --stats=json --stats-file "$T/$kind.json" \
		"$@" "$XB_MNT" >"$T/$kind.jsonl" 2>"$T/$kind.err" || return 1
	by_hand "$DEV" "$XFSDEV" >"$T/after"
	[[ ! -s $T/$kind.err ]] || { cat "$T/$kind.err"; return 1; }
	jq -e .inodes "$T/$kind.json" >/dev/null &&
		check_json "$T/$kind.json" "$T/$kind.jsonl" "$T/before" \
			"$T/after" "$kind"
}

# The text report: every figure with its unit.
check_text()
{
	local f=$1 re n

	for re in \
		'^bulkstat: .*: [0-9]+ inodes in [0-9.]+ (us|ms|s), [0-9]+ ioctl calls, [0-9]+ threads?, batch [0-9]+ records$' \
		'^  rate    : [0-9.]+[kMG]? inodes/s \([0-9.]+ us/inode\)$' \
		'^  cpu     : usr=[0-9.]+ (us|ms|s), sys=[0-9.]+ (us|ms|s) \([0-9.]+% of one CPU\), peak RSS=[0-9.]+ MiB$' \
		'^  latency : per call : min=[0-9.]+ (ns|us|ms|s), p50=[0-9.]+ (ns|us|ms|s), p90=[0-9.]+ (ns|us|ms|s), p99=[0-9.]+ (ns|us|ms|s), p99.9=[0-9.]+ (ns|us|ms|s), max=[0-9.]+ (ns|us|ms|s), avg=[0-9.]+ (ns|us|ms|s) \([0-9]+ calls\)$' \
		'^            per inode: min=[0-9.]+ (ns|us|ms|s), p50=[0-9.]+ (ns|us|ms|s), p90=[0-9.]+ (ns|us|ms|s), p99=[0-9.]+ (ns|us|ms|s), p99.9=[0-9.]+ (ns|us|ms|s), max=[0-9.]+ (ns|us|ms|s), avg=[0-9.]+ (ns|us|ms|s) \([0-9]+ calls with records\)$' \
		'^  threads : #1 [0-9.]+ (us|ms|s): kernel [0-9.]+ (us|ms|s) \([0-9.]+%\), waited [0-9.]+ (us|ms|s) \([0-9.]+%\), [0-9]+ records, [0-9]+ calls(, [0-9]+ units)?$' \
		'^  data    : loop[0-9]+ \([0-9]+:[0-9]+\) read: IOPS=[0-9.]+[kM]?, BW=[0-9.]+MiB/s \([0-9.]+MB/s\), [0-9]+ IOs, [0-9.]+ (B|KiB|MiB|GiB), util=[0-9.]+%$' \
		'^  log     : internal$' \
		'^  rt      : none$' \
		'^  icache  : lookups=[0-9]+, hits=[0-9]+ \([0-9.]+%\), misses=[0-9]+, busy retries=[0-9]+, reclaims=[0-9]+ ' \
		'^  reclaim : scanned=[0-9]+ pages \(kswapd=[0-9]+, direct=[0-9]+\), stolen=[0-9]+ pages \(kswapd=[0-9]+, direct=[0-9]+\),$' \
		'^            direct reclaim entries=[0-9]+, slab objects scanned=[0-9]+$' \
		'^  pressure: memory stalls \(PSI\) some=([0-9.]+ (us|ms|s)|n/a), full=([0-9.]+ (us|ms|s)|n/a)$'
	do
		grep -Eq "$re" "$f" || { echo "  no line like: $re"; return 1; }
	done
	# one line per thread (-q: no writer line)
	n=$(sed -n 's/.* ioctl calls, \([0-9]*\) threads\?, .*/\1/p' "$f")
	[[ $(wc -l <"$f") == $((12 + n)) ]] ||
		{ echo "  not $((12 + n)) lines"; return 1; }
	[[ $(grep -Ec '^            #[0-9]+ [0-9.]+ (us|ms|s): kernel ' "$f") == $((n - 1)) ]] ||
		{ echo "  not $n thread lines"; return 1; }
}

main()
{
	local out lines stamp

	xb_mkfs_mount 1G "-d agcount=4"
	xb_populate "$XB_MNT" "$ENTRIES"
	T=$XB_TMP
	DEV=$(mountpoint -d "$XB_MNT")
	XFSDEV=$(basename "$(readlink "/sys/dev/block/$DEV")")

	rel_ok "bulkstat --stats=json" json_run bulkstat
	rel_ok "bulkstat -j 2 -n 100 --stats=json" json_run bulkstat -j 2 -n 100
	rel_ok "inumbers --stats=json" json_run inumbers
	rel_ok "jq reads the report" jq -e '.devices[0].name' \
		"$T/bulkstat.json" >/dev/null

	# -q -j N (one worker per AG at a time): still every inode once
	local j want
	want=$("$XBULK" bulkstat -j 1 "$XB_MNT" | grep -c '^bs_ino = ')
	for j in 1 2 3; do
		rel_check "bulkstat -q -j $j --stats=json: records" "$want" \
			"$("$XBULK" bulkstat -q -j $j --stats=json "$XB_MNT" \
			   2>&1 >/dev/null | jq .records)"
	done

	# each thread's figures: one entry per thread, adding up; with
	# records written (-j 2, ordered output) the writer's wait too
	out=$("$XBULK" bulkstat -j 2 --stats=json "$XB_MNT" 2>&1 >/dev/null)
	rel_check "--stats=json: a workers entry per thread" \
		"$(jq .threads <<<"$out")" "$(jq '.workers | length' <<<"$out")"
	rel_check "--stats=json: the workers' records add up" \
		"$(jq .records <<<"$out")" "$(jq '[.workers[].records] | add' <<<"$out")"
	rel_ok "--stats=json: the writer's wait" jq -e '.writer_wait_ns >= 0' \
		<<<"$out"
	rel_check "--stats -j 2: the writer's line" 1 \
		"$("$XBULK" bulkstat -j 2 --stats "$XB_MNT" 2>&1 >/dev/null |
		   grep -Ec '^            writer waited [0-9.]+ (us|ms|s) for records$')"

	# text on stderr, stdout untouched by it
	"$XBULK" bulkstat -q --stats "$XB_MNT" >"$T/q.out" 2>"$T/text.err"
	rel_check "bulkstat -q --stats: stdout" 0 "$(wc -c <"$T/q.out")"
	rel_ok "bulkstat --stats text: units on every figure" \
		check_text "$T/text.err"
	"$XBULK" bulkstat -q --stats-file "$T/text.file" "$XB_MNT" \
		2>"$T/file.err"
	rel_ok "--stats-file alone: the text report in the file" \
		check_text "$T/text.file"
	rel_check "--stats-file: nothing on stderr" 0 "$(wc -c <"$T/file.err")"

	# --interval: timestamped lines, the JSON timeline adds up.  A
	# reader that starts late stalls the scan for ~0.5 s: some lines.
	"$XBULK" bulkstat -j 1 -o jsonl --interval 0.1 --stats=json \
		--stats-file "$T/iv.json" "$XB_MNT" 2>"$T/iv.err" |
		{ sleep 0.5; cat >"$T/iv.jsonl"; }
	stamp='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z +[0-9.]+ s +[0-9.]+[kM]? inodes/s +[0-9.]+[kM]? IOPS +[0-9.]+ MB/s  max call +[0-9.]+ (ns|us|ms|s)  reclaim: scanned=[0-9]+ stolen=[0-9]+ direct=[0-9]+ pages$'
	lines=$(grep -Ec "$stamp" "$T/iv.err")
	rel_check "--interval: every stderr line is an interval line" \
		"$(wc -l <"$T/iv.err")" "$lines"
	rel_ok "--interval: several lines" test "$lines" -ge 3
	rel_check "--interval: timeline entries = lines" "$lines" \
		"$(jq '.timeline | length' "$T/iv.json")"
	rel_check "--interval: timeline inodes add up" \
		"$(jq .inodes "$T/iv.json")" \
		"$(jq '[.timeline[].inodes] | add' "$T/iv.json")"
	rel_check "--interval: interval_s" 0.1 "$(jq .interval_s "$T/iv.json")"
	rel_check "--interval: records still whole" \
		"$(jq .records "$T/iv.json")" "$(jq -c . "$T/iv.jsonl" | wc -l)"
	rel_ok "--interval: a stall shows (an interval without records)" \
		jq -e '[.timeline[] | select(.records == 0)] | length > 0' \
		"$T/iv.json" >/dev/null
	rel_ok "--interval: t_s increases" jq -e \
		'[.timeline[].t_s] | . == sort' "$T/iv.json" >/dev/null
	echo "  --interval 0.1: $lines lines"

	# --progress: nothing when stderr is no terminal, nothing on stdout
	"$XBULK" bulkstat --progress -o jsonl "$XB_MNT" >"$T/p.out" \
		2>"$T/p.err"
	rel_check "--progress without a terminal: stderr" 0 "$(wc -c <"$T/p.err")"
	rel_ok "--progress: stdout only records" jq -e . "$T/p.out" >/dev/null
	if command -v script >/dev/null; then
		script -qec "$XBULK bulkstat --progress -o jsonl -j 1 -n 1 \
			$XB_MNT >$T/tty.out" /dev/null >/dev/null
		rel_ok "--progress on a terminal: stdout only records" \
			cmp -s "$T/p.out" "$T/tty.out"
	fi

	# usage errors
	for out in "--interval 0" "--interval x" "--stats=yaml" \
		   "--interval 0.01"; do
		# shellcheck disable=SC2086 # option and value
		rel_check "$out: usage error" 2 \
			"$("$XBULK" bulkstat -q $out "$XB_MNT" 2>/dev/null;
			   echo $?)"
	done
	rel_check "--stats-file in a missing directory: exit 1" 1 \
		"$("$XBULK" bulkstat -q --stats-file /nonexistent/x "$XB_MNT" \
			2>/dev/null; echo $?)"

	rel_done
}

main "$@"
