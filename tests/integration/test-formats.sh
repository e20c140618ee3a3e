#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -o jsonl and -o csv on a populated image, read by real parsers: every
# record of bulkstat, inumbers and bulkstat_single in the three formats,
# each value compared with the text output (check_formats.py: Python's
# json and csv modules, Debian's /usr/bin/python3), jq reading every
# line, and a sample of paths compared with coreutils stat (statx).
# Also: the same bytes with -j 1 and -j 2, one CSV header, -q writes
# nothing, -d needs text.
#
# Environment: XBULK (path of the xbulk binary, default the build
# directory), ENTRIES (files on the image, default 3000).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
ENTRIES=${ENTRIES:-3000}
PY=/usr/bin/python3
CHECK=$(dirname "$0")/check_formats.py

# counting (rel_ok, rel_check, rel_fail, rel_done)
. "$(dirname "$0")/lib-reliability.sh"
rel_init formats
[[ -x $PY ]] || xb_skip "$PY not installed (Debian's python3)"
command -v jq >/dev/null || xb_skip "jq not installed"

# Every line of FILE is one JSON object that jq reads; jq's count of them
# is the number of lines.
jq_reads()
{
	local file=$1 lines objs

	lines=$(wc -l <"$file")
	objs=$(jq -c 'select(type == "object")' "$file" | wc -l) || return 1
	[[ $lines == "$objs" ]]
}

# Three formats of one command; $1 names the output files.
scan3()
{
	local name=$1

	shift
	"$XBULK" "$@" >"$T/$name.txt" &&
		"$XBULK" "$@" -o jsonl >"$T/$name.jsonl" &&
		"$XBULK" "$@" --format csv >"$T/$name.csv"
}

check_image()
{
	local kind n inos ino rec

	T=$XB_TMP
	# find reads the directories (relatime may update their atime):
	# list the paths first, scan after.
	find "$XB_MNT" -xdev >"$T/paths"

	for kind in bulkstat inumbers; do
		rel_ok "$kind: three formats" scan3 "$kind" "$kind" "$XB_MNT"
		rel_ok "$kind: check_formats.py" \
			"$PY" "$CHECK" "$kind" "$T/$kind.txt" "$T/$kind.jsonl" \
			"$T/$kind.csv"
		rel_ok "$kind: jq reads every line" jq_reads "$T/$kind.jsonl"
		# parallel scans: the same bytes, one CSV header
		rel_ok "$kind -j 2 -o jsonl: same bytes as -j 1" cmp -s \
			<("$XBULK" "$kind" -j 1 -o jsonl "$XB_MNT") \
			<("$XBULK" "$kind" -j 2 -o jsonl "$XB_MNT")
		rel_ok "$kind -j 2 -o csv: same bytes as -j 1" cmp -s \
			<("$XBULK" "$kind" -j 1 -o csv "$XB_MNT") \
			<("$XBULK" "$kind" -j 2 -n 7 -o csv "$XB_MNT")
		n=$(grep -c '^[a-z]' "$T/$kind.csv")
		rel_check "$kind -o csv: header rows" 1 "$n"
		rel_check "$kind: -d with -o jsonl is a usage error" 2 \
			"$("$XBULK" "$kind" -d -o jsonl "$XB_MNT" \
				>/dev/null 2>&1; echo $?)"
	done
	rel_check "bulkstat -q -o csv writes nothing" "" \
		"$("$XBULK" bulkstat -q -o csv "$XB_MNT")"

	# jq sees the same values as the text (numbers below 2^53: jq 1.6
	# reads numbers as doubles)
	rel_check "jq: bs_ino, bs_size, bs_nlink, bs_mode of every record" \
		"$(awk -F' = ' '/^bs_ino/ { i = $2 }
			$1 == "\tbs_size" { s = $2 }
			$1 == "\tbs_nlink" { n = $2 }
			$1 == "\tbs_mode" { print i, s, n, $2 }' \
			"$T/bulkstat.txt")" \
		"$(jq -r '"\(.bs_ino) \(.bs_size) \(.bs_nlink) \(.bs_mode)"' \
			"$T/bulkstat.jsonl")"
	# (internal inodes are allocated too: more than bulkstat's records)
	rel_check "jq: sum of xi_alloccount is df -i's IUsed" \
		"$(df --output=iused "$XB_MNT" | tail -n 1 | tr -d ' ')" \
		"$(jq -s 'map(.xi_alloccount) | add' "$T/inumbers.jsonl")"

	# bulkstat_single: root and a sample of inodes, in each format
	inos=$(awk -F' = ' '/^bs_ino/ && NR % 7 == 1 { print $2 }' \
		"$T/bulkstat.txt" | head -n 60 | tr '\n' ' ')
	# shellcheck disable=SC2086 # a list of inode numbers
	rel_ok "bulkstat_single: three formats" \
		scan3 single bulkstat_single "$XB_MNT" root $inos
	rel_ok "bulkstat_single: check_formats.py" \
		"$PY" "$CHECK" bulkstat "$T/single.txt" "$T/single.jsonl" \
		"$T/single.csv"
	rel_ok "bulkstat_single: jq reads every line" jq_reads "$T/single.jsonl"
	# its records are those of bulkstat
	rel_check "bulkstat_single root is stat -c %i" "$(stat -c %i "$XB_MNT")" \
		"$(jq -r .bs_ino <(head -n 1 "$T/single.jsonl"))"
	for ino in $inos; do
		rec=$(grep "^{\"bs_ino\":$ino," "$T/bulkstat.jsonl") || true
		if [[ -n $rec ]] && grep -Fxq "$rec" "$T/single.jsonl"; then
			rel_pass
		else
			rel_fail "bulkstat_single $ino: not the bulkstat record"
		fi
	done
	rel_check "bulkstat_single -d -o csv is a usage error" 2 \
		"$("$XBULK" bulkstat_single -d -o csv "$XB_MNT" root \
			>/dev/null 2>&1; echo $?)"

	# statx through coreutils stat, on every 10th path
	awk 'NR % 10 == 1' "$T/paths" | tr '\n' '\0' |
		TZ=UTC xargs -0 stat --printf '%i|%s|%h|%u|%g|%f|%x|%y|%z|%w\n' \
		>"$T/stat.out"
	rel_ok "stat(1) of a sample of paths vs -o jsonl" \
		"$PY" "$CHECK" stat "$T/bulkstat.jsonl" "$T/stat.out"
}

main()
{
	local g

	while read -r g; do
		geom="$g"
		echo "== mkfs.xfs $geom"
		xb_mkfs_mount 1G "$g"
		xb_populate "$XB_MNT" "$ENTRIES"
		check_image
		xb_cleanup
	done <<-'EOF'
	-d agcount=4
	-b size=1024 -m bigtime=0,finobt=0 -i sparse=0 -d agcount=2
	EOF
	rel_done
}

main "$@"
