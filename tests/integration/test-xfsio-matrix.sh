#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk against xfs_io 6.1, byte for byte, on every image geometry of
# xb_geometries: bulkstat, inumbers and bulkstat_single over an option
# matrix (batch sizes, -d, -v 1/5, every AG, -s inside and past the end,
# -q), then the deliberate differences checked for what they promise:
#
#  - inumbers -d: xbulk's debug lines say "inumbers:" where xfs_io's say
#    "bulkstat:"; xfs_io's output is rewritten before the comparison.
#  - -e E: the records are the same as xfs_io's, but xbulk issues no
#    ioctl that starts past E.  With -d, xbulk's output is a prefix of
#    xfs_io's (same calls, same records, up to where xbulk stops); what
#    xfs_io prints after that is only debug lines of calls that print
#    nothing; every xbulk call but the last starts at or before E (the
#    start of call k is the cursor printed by call k-1) and the last one
#    either returned nothing or left the cursor past E.
#  - bulkstat_single of a free inode: xbulk exits 1 saying "inode N is not
#    allocated" where xfs_io silently prints the next allocated inode.
#
# Every comparison also wants exit status 0 and nothing on stderr from
# both programs (xfs_io reports many errors on stderr with status 0).
#
# xbulk's -j (threads; the default is one per CPU) has no xfs_io
# counterpart: xbulk with -j N must print what xfs_io prints without it.
#
# Environment: XBULK (the binary, default build/xbulk), ENTRIES (entries
# per image, default 2500), GEOMETRIES (newline-separated mkfs option
# strings; default: all of xb_geometries), LARGE_ENTRIES (entries of one
# more image with the second geometry, default 30000; 0: none).

# shellcheck disable=SC2317 # the checks run through rel_each_image
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
# counting (rel_pass, rel_fail, rel_done), rel_show_diff, rel_each_image
. "$(dirname "$0")/lib-reliability.sh"

ENTRIES=${ENTRIES:-2500}
LARGE_ENTRIES=${LARGE_ENTRIES:-30000}

rel_init xfsio-matrix

last_ino=0	# last allocated inode of the current image
agino_log=0	# bits of the AG inode number in an inode number
agcount=0
W=		# scratch directory for outputs, inside XB_TMP

# run_xfsio CMD [SED]: xfs_io -c CMD on the mount into $W/exp; complain
# (and return 1) if it says anything on stderr.
run_xfsio()
{
	xfs_io -c "$1" "$XB_MNT" >"$W/exp" 2>"$W/exp.err" || true
	if [[ -n ${2:-} ]]; then
		sed -i -e "$2" "$W/exp"
	fi
	if [[ -s $W/exp.err ]]; then
		rel_fail "xfs_io -c '$1' $XB_MNT: stderr: $(head -n 1 "$W/exp.err")"
		return 1
	fi
}

# run_xbulk ARGS...: xbulk ARGS into $W/got; complain (and return 1)
# unless it exits 0 with nothing on stderr.
run_xbulk()
{
	local rc=0

	"$XBULK" "$@" >"$W/got" 2>"$W/got.err" || rc=$?
	if ((rc != 0)) || [[ -s $W/got.err ]]; then
		rel_fail "xbulk $*: exit status $rc: $(head -n 1 "$W/got.err")"
		return 1
	fi
}

# same IO_CMD SED XBULK_ARGS...: stdout of xfs_io -c IO_CMD (rewritten
# with the sed expression SED if not empty) and of xbulk XBULK_ARGS must
# be the same bytes.
same()
{
	local io_cmd=$1 filter=$2

	shift 2
	run_xfsio "$io_cmd" "$filter" || return 0
	run_xbulk "$@" || return 0
	if cmp -s "$W/exp" "$W/got"; then
		rel_pass
	else
		# shellcheck disable=SC2016 # the sed expression is quoted text
		rel_fail "xfs_io -c '$io_cmd' $XB_MNT${filter:+ | sed '$filter'} vs xbulk $*: $(cmp "$W/exp" "$W/got" 2>&1 | sed 's|.*differ: ||')"
		rel_show_diff "$W/exp" "$W/got"
	fi
}

# scan CMD ARGS [XBULK_ONLY]: bulkstat or inumbers with ARGS, xfs_io vs
# xbulk; XBULK_ONLY are more options for xbulk alone (-j N).
scan()
{
	local cmd=$1 args=$2 extra=${3:-} filter=''

	# Deliberate difference: inumbers' own debug prefix.
	if [[ $cmd == inumbers ]]; then
		filter='s/^bulkstat: /inumbers: /'
	fi
	# shellcheck disable=SC2086 # ARGS is a list of words
	same "$cmd${args:+ $args}" "$filter" "$cmd" $extra $args "$XB_MNT"
}

# single ARGS INUMS: bulkstat_single, xfs_io vs xbulk.
single()
{
	local args=$1 inums=$2

	# shellcheck disable=SC2086
	same "bulkstat_single${args:+ $args} $inums" "" \
		bulkstat_single $args "$XB_MNT" $inums
}

# ---------------------------------------------------------------------------
# -e: xbulk stops issuing calls at E

# check_endino CMD ARGS E [S]: ARGS contains "-e E" (and "-s S" if S is
# given) but not -d.
check_endino()
{
	local cmd=$1 args=$2 e=$3 s=${4:-0} filter='' n bad io_lines xb_lines

	# The records: exactly xfs_io's (it only stops printing).
	scan "$cmd" "$args"

	# The calls, with -d.
	if [[ $cmd == inumbers ]]; then
		filter='s/^bulkstat: /inumbers: /'
	fi
	run_xfsio "$cmd -d $args" "$filter" || return 0
	# shellcheck disable=SC2086
	run_xbulk "$cmd" -d $args "$XB_MNT" || return 0
	local what="xbulk $cmd -d $args $XB_MNT (vs xfs_io -c '$cmd -d $args')"

	n=$(wc -c <"$W/got")
	if ! cmp -s -n "$n" "$W/exp" "$W/got"; then
		rel_fail "$what: not a prefix of xfs_io's output: $(cmp -n "$n" "$W/exp" "$W/got" 2>&1 | sed 's|.*differ: ||')"
		rel_show_diff "$W/exp" "$W/got"
		return 0
	fi
	rel_pass
	bad=$(tail -c "+$((n + 1))" "$W/exp" |
	      grep -Ev '^(bulkstat|inumbers): ' | head -n 1) || true
	if [[ -n $bad ]]; then
		rel_fail "$what: xfs_io prints more records after xbulk stops: '$bad'"
	else
		rel_pass
	fi
	# Every call starts at or before E (the first at S, each other one at
	# the cursor the call before it printed; an inumbers scan also asks
	# for the chunk holding S, which may begin up to 63 inodes before it),
	# and the last one ends the scan.  awk's doubles hold inode numbers
	# (< 2^53) exactly.
	local slack=0
	[[ $cmd == inumbers ]] && slack=63
	bad=$(awk -v e="$e" -v s="$s" -v slack="$slack" '
		BEGIN { start = s + 0 }
		/^(bulkstat|inumbers): / {
			split($2, a, "="); split($7, o, "=")
			if (start > e + (n ? 0 : slack)) {
				print "a call started at " start " > " e
				done = 1
				exit
			}
			n++
			start = a[2] + 0; oc = o[2] + 0
		}
		END {
			if (done)
				exit
			if (!n) {
				if (s <= e + slack) print "no call at all"
			} else if (oc != 0 && start <= e)
				print "the last call (ocount " oc ", cursor " start ") did not end the scan"
		}' "$W/got")
	if [[ -n $bad ]]; then
		rel_fail "$what: $bad"
	else
		rel_pass
	fi
	# When E is before the last record, xfs_io goes on (at least to its
	# empty last call) and xbulk does not.
	if ((e < last_ino)); then
		io_lines=$(grep -cE '^(bulkstat|inumbers): ' "$W/exp") || true
		xb_lines=$(grep -cE '^(bulkstat|inumbers): ' "$W/got") || true
		if ((xb_lines < io_lines)); then
			rel_pass
		else
			rel_fail "$what: $xb_lines calls, xfs_io $io_lines: xbulk did not stop early"
		fi
	fi
}

# ---------------------------------------------------------------------------
# bulkstat_single of a free inode

check_free_single()
{
	local free=$1 a=$2 b=$3 v rc next

	for v in "" "-v 1" "-v 5"; do
		rc=0
		# shellcheck disable=SC2086
		"$XBULK" bulkstat_single $v "$XB_MNT" "$free" \
			>"$W/got" 2>"$W/got.err" || rc=$?
		if ((rc == 1)) && [[ ! -s $W/got ]] &&
		   grep -q "inode $free is not allocated" "$W/got.err"; then
			rel_pass
		else
			rel_fail "xbulk bulkstat_single $v $XB_MNT $free (free inode): exit status $rc, stdout $(wc -c <"$W/got") bytes, stderr '$(head -n 1 "$W/got.err")'; want 1, nothing, 'inode $free is not allocated'"
		fi
	done

	# xfs_io's quirk, which the difference is about: the next inode.
	run_xfsio "bulkstat_single $free" || return 0
	next=$(sed -n '1s/^bs_ino = //p' "$W/exp")
	if [[ -n $next ]] && ((next > free)); then
		rel_pass
	else
		rel_fail "xfs_io -c 'bulkstat_single $free' $XB_MNT: expected the next allocated inode, got '$(head -n 1 "$W/exp")'"
	fi

	# Allocated inodes around a free one: their records as xfs_io's,
	# and exit status 1.
	run_xfsio "bulkstat_single -d $a $b" || return 0
	rc=0
	"$XBULK" bulkstat_single -d "$XB_MNT" "$a" "$free" "$b" \
		>"$W/got" 2>"$W/got.err" || rc=$?
	if ((rc == 1)) && cmp -s "$W/exp" "$W/got" &&
	   grep -q "inode $free is not allocated" "$W/got.err"; then
		rel_pass
	else
		rel_fail "xbulk bulkstat_single -d $XB_MNT $a $free $b: exit status $rc (want 1), stdout vs xfs_io -c 'bulkstat_single -d $a $b': $(cmp "$W/exp" "$W/got" 2>&1 | sed 's|.*differ: ||')"
	fi
}

# ---------------------------------------------------------------------------

# Print the first free inode number of every inode chunk with a hole (a
# deleted file), from the inumbers output in $W/inumbers.
free_inos()
{
	local start mask bit

	while read -r start mask; do
		for ((bit = 0; bit < 64; bit++)); do
			if ((((mask >> bit) & 1) == 0)); then
				echo $((start + bit))
				break
			fi
		done
	done < <(awk '$1 == "xi_startino" { s = $3 }
		      $1 == "xi_allocmask" { print s, $3 }' "$W/inumbers")
}

# check_geometry N: the image at XB_MNT holds N entries.
check_geometry()
{
	local entries=$1
	local ag args cmd e mid free free2 huge j
	local -a inos singles ag_mid frees
	local nino i

	W=$XB_TMP/cmp
	mkdir -p "$W"

	xfs_io -c bulkstat "$XB_MNT" >"$W/bulkstat"
	xfs_io -c inumbers "$XB_MNT" >"$W/inumbers"
	mapfile -t inos < <(sed -n 's/^bs_ino = //p' "$W/bulkstat")
	nino=${#inos[@]}
	if ((nino < entries * 9 / 10)); then
		rel_fail "xfs_io -c bulkstat $XB_MNT: only $nino records"
		return
	fi
	mid=${inos[nino / 2]}
	last_ino=${inos[nino - 1]}
	mapfile -t frees < <(free_inos)
	if ((${#frees[@]} < 2)); then
		rel_fail "fewer than 2 free inodes in the inode chunks"
		return
	fi
	free=${frees[${#frees[@]} / 2]}
	free2=${frees[${#frees[@]} / 3]}
	huge=$((1 << 40))
	ag_mid=()
	for ((ag = 0; ag < agcount; ag++)); do
		ag_mid+=("$(printf '%s\n' "${inos[@]}" | ag_middle "$ag")")
	done

	# --- bulkstat and inumbers over the option matrix
	for cmd in bulkstat inumbers; do
		for args in "" "-n 1" "-n 2" "-n 71" "-n 4096" "-n 100000" \
			    "-d" "-d -n 71" "-d -n 1" "-v 1" "-v 5" \
			    "-v 1 -d -n 13" "-v 5 -d -n 13" \
			    "-s $mid" "-s $mid -d" "-s $mid -d -n 71" \
			    "-s $free -d -n 7" "-s $free -v 1 -d -n 7" \
			    "-s $((last_ino + 1)) -d" "-s $huge -d" \
			    "-s $huge -d -v 1"; do
			scan "$cmd" "$args"
		done
		for ((ag = 0; ag < agcount; ag++)); do
			for args in "-a $ag" "-a $ag -d" "-a $ag -v 1" \
				    "-a $ag -d -v 1" "-a $ag -d -n 71"; do
				scan "$cmd" "$args"
			done
		done
		# -s inside an AG scan, in the middle of that AG's inodes
		for ((ag = 0; ag < agcount; ag++)); do
			if [[ -n ${ag_mid[ag]} ]]; then
				scan "$cmd" "-a $ag -s ${ag_mid[ag]} -d -n 31"
			fi
		done
	done
	# --- -j: the parallel scan (xbulk's default is one thread per CPU)
	# prints the same bytes as xfs_io; -d implies -j 1
	for cmd in bulkstat inumbers; do
		for args in "" "-n 1" "-n 71" "-s $mid" "-e $mid" \
			    "-s ${inos[nino / 4]} -e $mid -n 13" \
			    "-a $((agcount - 1))" "-a 0 -n 5" "-v 1" \
			    "-v 1 -n 3 -e $mid"; do
			for j in 1 2 3 8; do
				scan "$cmd" "$args" "-j $j"
			done
		done
		scan "$cmd" "-d" "-j 4"
		scan "$cmd" "-d -n 71 -s $mid" "-j 3"
	done
	scan bulkstat "-q" "-j 3"
	scan bulkstat "-q"
	scan bulkstat "-q -d"
	scan bulkstat "-q -d -n 71 -v 1"

	# --- bulkstat_single: 20 inodes spread over the filesystem, root
	singles=()
	for ((i = 0; i < 20; i++)); do
		singles+=("${inos[i * (nino - 1) / 19]}")
	done
	for args in "" "-d" "-v 5" "-d -v 5"; do
		single "$args" "root"
		single "$args" "${singles[*]} root"
	done
	# root with -v 1 is an error in both; only the inode numbers here
	for args in "-v 1" "-d -v 1"; do
		single "$args" "${singles[*]}"
	done

	# --- deliberate differences
	check_free_single "$free" "${inos[1]}" "$last_ino"
	for e in "$mid" "$free2" "${inos[0]}" 0 "$last_ino" \
		 "$((last_ino + 1))"; do
		for cmd in bulkstat inumbers; do
			check_endino "$cmd" "-e $e" "$e"
			check_endino "$cmd" "-e $e -n 71" "$e"
		done
	done
	for cmd in bulkstat inumbers; do
		check_endino "$cmd" "-e $mid -n 1" "$mid"
		check_endino "$cmd" "-e $mid -n 13 -v 1" "$mid"
		check_endino "$cmd" "-e $mid -s ${inos[nino / 4]} -n 5" "$mid" \
			"${inos[nino / 4]}"
		# -s past -e: no call at all
		check_endino "$cmd" "-e ${inos[nino / 4]} -s $mid -n 5" \
			"${inos[nino / 4]}" "$mid"
		check_endino "$cmd" "-e $free2 -a $(ino_to_ag "$free2") -n 3" \
			"$free2"
	done
}

# AG of an inode number.
ino_to_ag()
{
	echo $(($1 >> agino_log))
}

# Read inode numbers on stdin, print the middle one of AG $1.
ag_middle()
{
	awk -v ag="$1" -v sh="$agino_log" '
		{ if (int($1 / 2 ^ sh) == ag) a[n++] = $1 }
		END { if (n) print a[int(n / 2)] }'
}

# agcount and agino_log (agblklog + inopblog) of the mounted filesystem.
read_geometry()
{
	local agblocks bsize isize agblklog=0 inopblog=0 v

	xfs_info "$XB_MNT" >"$XB_TMP/xfs_info"
	agblocks=$(grep -o 'agsize=[0-9]*' "$XB_TMP/xfs_info" | cut -d= -f2)
	isize=$(grep -o 'isize=[0-9]*' "$XB_TMP/xfs_info" | head -n 1 |
		cut -d= -f2)
	bsize=$(sed -n 's/^data *= *bsize=\([0-9]*\).*/\1/p' "$XB_TMP/xfs_info")
	agcount=$(grep -o 'agcount=[0-9]*' "$XB_TMP/xfs_info" | cut -d= -f2)
	if [[ -z $agblocks || -z $isize || -z $bsize || -z $agcount ]]; then
		xb_die "cannot read the geometry from xfs_info $XB_MNT"
	fi
	# agblklog = log2 rounded up of agblocks
	for ((v = 1; v < agblocks; v <<= 1)); do
		agblklog=$((agblklog + 1))
	done
	for ((v = bsize / isize; v > 1; v >>= 1)); do
		inopblog=$((inopblog + 1))
	done
	agino_log=$((agblklog + inopblog))
}

# check_image N: the whole matrix on the image at XB_MNT, of N entries.
check_image()
{
	read_geometry
	check_geometry "$1"
}

rel_each_image check_image
rel_done
