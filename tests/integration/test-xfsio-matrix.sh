#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# xbulk against xfs_io, byte for byte: xfs_io 6.1 on every image geometry
# of xb_geometries (made by mkfs 6.1), xfs_io 6.13 on those of
# xb_new_geometries (made by mkfs 6.13: rmapbt, nrext64, parent pointers,
# the metadata directory, exchange; skipped, saying so, without
# scripts/trixie-tools xfsprogs's install): bulkstat, inumbers and
# bulkstat_single over an option matrix (batch sizes, -d, -v 1/5, every
# AG, -s inside and past the end, -q), bulkstat -m (against xfs_io 6.13,
# on the old geometries too), then the deliberate differences checked
# for what they promise:
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
#  - bulkstat_single -m (xfs_io 6.13's bulkstat_single has no -m): the
#    records are those of xfs_io 6.13's bulkstat -m -n 1 -s INO; without
#    -m a metadata directory inode is an error that names -m.
#
# The whole matrix runs on one old geometry (FULL_OLD) at the standard
# depth; with XB_TEST_DEPTH=full on every old one and on the new one
# with every feature (FULL_NEW).  The other geometries and the large
# image get the core of it (every command, fewer options, -j 1 and
# -j 2), the new ones after a check that the filesystem has the features
# its mkfs options name.  Under the sanitizers: three old geometries and
# the core on the one with every feature.  xfs_io's
# answer to a command is run once per image and reused (the -j cases).
#
# -m on the old geometries (no metadata directory: the records of a scan
# without it) is compared on the first of them only.
#
# With MATRIX=new (the xfsio-matrix-613 test) one image made by mkfs 6.1
# first checks that xfs_io 6.1 and 6.13 print the same bytes for the
# three commands (-d, -v 1, -a, -s, -e, -q; bulkstat_single of root and
# of a free inode), as the man page says.
#
# Environment: XBULK (the binary, default build/xbulk), ENTRIES (entries
# per image, default 2500), MATRIX (old: xb_geometries, new:
# xb_new_geometries, all: both, the default; meson runs old and new as
# two tests), GEOMETRIES (newline-separated mkfs option strings instead),
# LARGE_ENTRIES (entries of one more image with the second old geometry,
# default 30000; 0: none; never with MATRIX=new), XFSIO_ORACLE=6.13
# (compare with xfs_io 6.13 on the old geometries too).

# shellcheck disable=SC2317 # the checks run through rel_each_image
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
# counting (rel_pass, rel_fail, rel_done), rel_show_diff, rel_each_image
. "$(dirname "$0")/lib-reliability.sh"

ENTRIES=${ENTRIES:-2500}
LARGE_ENTRIES=${LARGE_ENTRIES:-30000}
MATRIX=${MATRIX:-all}
[[ $MATRIX == new ]] && LARGE_ENTRIES=0
OLD_M_DONE=0	# -m compared on an old geometry

rel_init xfsio-matrix

# The new geometry that gets the whole matrix.
FULL_NEW='parent=1 -m metadir=1'
# The old geometry that gets it at the standard depth (every one with
# XB_TEST_DEPTH=full): 1 KiB blocks without sparse inodes or finobt
# (chunks not aligned on 64 inodes).
FULL_OLD='sparse=0'

last_ino=0	# last allocated inode of the current image
agino_log=0	# bits of the AG inode number in an inode number
agcount=0
W=		# scratch directory for outputs, inside XB_TMP
declare -A IO_SEEN=()	# xfs_io command + filter -> its saved answer
ORACLE=6.1	# the xfs_io of the current image

# xfs_io ARGS... of the current image's oracle: 6.13 on a new geometry
# (or on all with XFSIO_ORACLE=6.13), else 6.1.
oracle_io()
{
	xb_xfsprogs "$ORACLE" xfs_io "$@"
}

# run_xfsio CMD [SED]: xfs_io -c CMD on the mount into $W/exp; complain
# (and return 1) if it says anything on stderr.  Each CMD and SED runs
# once per image (the filesystem does not change during the matrix).
run_xfsio()
{
	local key="$1|${2:-}" saved

	saved=${IO_SEEN[$key]:-}
	if [[ -z $saved ]]; then
		saved=$W/io.${#IO_SEEN[@]}
		IO_SEEN[$key]=$saved
		oracle_io -c "$1" "$XB_MNT" >"$saved" 2>"$saved.err" || true
		if [[ -n ${2:-} ]]; then
			sed -i -e "$2" "$saved"
		fi
	fi
	cp "$saved" "$W/exp"
	cp "$saved.err" "$W/exp.err"
	if [[ -s $W/exp.err ]]; then
		rel_fail "xfs_io $ORACLE -c '$1' $XB_MNT: stderr: $(head -n 1 "$W/exp.err")"
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

# check_geometry N LEVEL: the image at XB_MNT holds N entries; LEVEL is
# full (the whole matrix) or core (each command with fewer options).
check_geometry()
{
	local entries=$1 level=$2
	local ag args cmd e mid free free2 huge j
	local -a inos singles ag_mid frees scan_args ag_args j_args j_list
	local nino i

	W=$XB_TMP/cmp
	mkdir -p "$W"
	IO_SEEN=()

	oracle_io -c bulkstat "$XB_MNT" >"$W/bulkstat"
	oracle_io -c inumbers "$XB_MNT" >"$W/inumbers"
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

	if [[ $level == full ]]; then
		scan_args=("" "-n 1" "-n 2" "-n 71" "-n 4096" "-n 100000"
			   "-d" "-d -n 71" "-d -n 1" "-v 1" "-v 5"
			   "-v 1 -d -n 13" "-v 5 -d -n 13"
			   "-s $mid" "-s $mid -d" "-s $mid -d -n 71"
			   "-s $free -d -n 7" "-s $free -v 1 -d -n 7"
			   "-s $((last_ino + 1)) -d" "-s $huge -d"
			   "-s $huge -d -v 1")
		ag_args=("" "-d" "-v 1" "-d -v 1" "-d -n 71")
		j_args=("" "-n 1" "-n 71" "-s $mid" "-e $mid"
			"-s ${inos[nino / 4]} -e $mid -n 13"
			"-a $((agcount - 1))" "-a 0 -n 5" "-v 1"
			"-v 1 -n 3 -e $mid")
		j_list=(1 2 3 8)
	else
		scan_args=("" "-d -n 71" "-v 1 -d -n 13" "-s $free -d -n 7")
		ag_args=("-d")
		j_args=("" "-s ${inos[nino / 4]} -e $mid -n 13")
		j_list=(1 2)
	fi

	# --- bulkstat and inumbers over the option matrix
	for cmd in bulkstat inumbers; do
		for args in "${scan_args[@]}"; do
			scan "$cmd" "$args"
		done
		for ((ag = 0; ag < agcount; ag++)); do
			for args in "${ag_args[@]}"; do
				scan "$cmd" "-a $ag${args:+ $args}"
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
		for args in "${j_args[@]}"; do
			for j in "${j_list[@]}"; do
				scan "$cmd" "$args" "-j $j"
			done
		done
		scan "$cmd" "-d" "-j 4"
		scan "$cmd" "-d -n 71 -s $mid" "-j 3"
	done
	if [[ $level == full ]]; then
		scan bulkstat "-q" "-j 3"
		scan bulkstat "-q"
		scan bulkstat "-q -d"
		scan bulkstat "-q -d -n 71 -v 1"
	fi

	# --- bulkstat_single: 20 inodes spread over the filesystem, root
	singles=()
	for ((i = 0; i < 20; i++)); do
		singles+=("${inos[i * (nino - 1) / 19]}")
	done
	single "-d" "${singles[*]} root"
	single "-v 1" "${singles[*]}"
	if [[ $level == full ]]; then
		for args in "" "-v 5" "-d -v 5"; do
			single "$args" "root"
			single "$args" "${singles[*]} root"
		done
		single "-d" "root"
		# root with -v 1 is an error in both: inode numbers only
		single "-d -v 1" "${singles[*]}"
	fi

	# --- deliberate differences
	check_free_single "$free" "${inos[1]}" "$last_ino"
	if [[ $level == core ]]; then
		check_endino bulkstat "-e $mid -n 71" "$mid"
		check_metadir core "$mid" "${singles[@]:0:3}"
		return
	fi
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

	check_metadir full "$mid" "${singles[@]:0:5}"
}

# ---------------------------------------------------------------------------
# -m: the metadata directory tree's inodes, against xfs_io 6.13

# check_metadir LEVEL MID INO...: bulkstat -m over a few options (more
# for LEVEL full) and -j; bulkstat_single -m of the metadata inodes (if
# any), INO... and root.
check_metadir()
{
	local level=$1 mid=$2 saved=$ORACLE ag args j ino rc
	local -a meta m_args=("-d" "-d -n 1" "-a 0 -d")

	shift 2
	if ! xb_have_new; then
		echo "  SKIP: -m (xfsprogs 6.13 not installed: scripts/deps as root)"
		return 0
	fi
	if [[ $XB_XFSPROGS != 6.13 ]]; then
		((OLD_M_DONE)) && return 0
		OLD_M_DONE=1
	fi
	ORACLE=6.13
	if [[ $level == full ]]; then
		m_args+=("" "-n 2 -d" "-s $mid -d -n 71" "-v 5 -d -n 13"
			 "-q -d" "-e $mid")
		for ((ag = 1; ag < agcount; ag++)); do
			m_args+=("-a $ag -d")
		done
		scan bulkstat "-m -n 1" "-j 2"
		scan bulkstat "-m -a 0 -n 5" "-j 2"
		scan bulkstat "-m" "-j 3"
	fi
	for args in "${m_args[@]}"; do
		scan bulkstat "-m${args:+ $args}"
	done
	scan bulkstat "-m" "-j 1"
	scan bulkstat "-m" "-j 2"

	# The inodes only -m shows; their records one by one, the others'
	oracle_io -c 'bulkstat -m' "$XB_MNT" >"$W/bulkstat-m"
	mapfile -t meta < <(comm -13 \
		<(sed -n 's/^bs_ino = //p' "$W/bulkstat" | sort) \
		<(sed -n 's/^bs_ino = //p' "$W/bulkstat-m" | sort) | sort -n)
	if [[ ${REL_TAG:-} == *metadir=1* ]] &&
	   ((${#meta[@]} == 0)); then
		rel_fail "bulkstat -m shows no metadata directory inode"
	fi
	: >"$W/exp-single"
	for ino in "${meta[@]}" "$@"; do
		oracle_io -c "bulkstat -m -n 1 -s $ino -e $ino" "$XB_MNT" \
			>>"$W/exp-single"
	done
	oracle_io -c 'bulkstat_single root' "$XB_MNT" >>"$W/exp-single"
	run_xbulk bulkstat_single -m "$XB_MNT" "${meta[@]}" "$@" root ||
		return 0
	if cmp -s "$W/exp-single" "$W/got"; then
		rel_pass
	else
		rel_fail "xbulk bulkstat_single -m $XB_MNT ${meta[*]} $* root vs xfs_io 6.13 bulkstat -m -n 1 -s INO -e INO of each: $(cmp "$W/exp-single" "$W/got" 2>&1 | sed 's|.*differ: ||')"
		rel_show_diff "$W/exp-single" "$W/got"
	fi
	# Without -m a metadata inode is an error that names -m.
	for ino in "${meta[@]:0:2}"; do
		rc=0
		"$XBULK" bulkstat_single "$XB_MNT" "$ino" >"$W/got" \
			2>"$W/got.err" || rc=$?
		if ((rc == 1)) && [[ ! -s $W/got ]] &&
		   grep -q -- "inode $ino is allocated but not reported by bulkstat (a metadata directory inode, which -m shows" "$W/got.err"; then
			rel_pass
		else
			rel_fail "xbulk bulkstat_single $XB_MNT $ino (metadata inode, no -m): exit status $rc, stderr '$(head -n 1 "$W/got.err")'"
		fi
	done
	ORACLE=$saved
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

# On a geometry of mkfs 6.13: every feature=0|1 its line names (parent,
# metadir, exchange, rmapbt, nrext64) is what the mounted filesystem has,
# as xfs_spaceman 6.13's info (xfs_info) prints it: the combinations are
# the ones asked for.
check_features()
{
	local want

	xb_new xfs_spaceman -c info "$XB_MNT" >"$XB_TMP/info-613" 2>&1
	while read -r want; do
		if grep -qE "(^|[ ,])$want([ ,]|\$)" "$XB_TMP/info-613"; then
			rel_pass
		else
			rel_fail "mkfs.xfs 6.13 $REL_TAG: xfs_info says $(grep -oE "${want%=*}=[0-9]+" "$XB_TMP/info-613" | head -n 1), want $want"
		fi
	done < <(grep -oE '(parent|metadir|exchange|rmapbt|nrext64)=[01]' \
		 <<<"$REL_TAG")
}

# check_image N: the matrix on the image at XB_MNT, of N entries: all of
# it on the old geometries and FULL_NEW (the core under the sanitizers),
# the core on the other new ones.
check_image()
{
	local level=full

	ORACLE=$XB_XFSPROGS
	[[ ${XFSIO_ORACLE:-} == 6.13 ]] && ORACLE=6.13
	if [[ $XB_XFSPROGS == 6.13 ]] &&
	   { [[ $REL_TAG != *"$FULL_NEW"* ]] || ! xb_full ||
	     [[ ${XB_SANITIZE:-none} != none ]]; }; then
		level=core
	fi
	# The standard depth: the whole matrix on the old geometry of
	# FULL_OLD, the core on the others and on the large image.
	if [[ $XB_XFSPROGS == 6.1 ]] && ! xb_full &&
	   { [[ $REL_TAG != *"$FULL_OLD"* ]] ||
	     [[ $REL_TAG != *" $ENTRIES entries" ]]; }; then
		level=core
	fi
	[[ $XB_XFSPROGS == 6.13 ]] && check_features
	read_geometry
	check_geometry "$1" "$level"
}

# ---------------------------------------------------------------------------
# xfs_io 6.1 and 6.13 print the same bytes (what the man page says, and
# why xbulk follows both)

# On the image at XB_MNT (made by mkfs 6.1): the three commands over a few
# options, -d among them; xfs_io 6.1 and 6.13 must print the same bytes
# on stdout, something, and nothing on stderr.
check_oracles()
{
	local c mid last free
	local -a inos cmds frees

	W=$XB_TMP/cmp
	mkdir -p "$W"
	xfs_io -c bulkstat "$XB_MNT" >"$W/bulkstat"
	xfs_io -c inumbers "$XB_MNT" >"$W/inumbers"
	mapfile -t inos < <(sed -n 's/^bs_ino = //p' "$W/bulkstat")
	mid=${inos[${#inos[@]} / 2]}
	last=${inos[-1]}
	mapfile -t frees < <(free_inos)
	free=${frees[0]:?no free inode in the inode chunks}
	cmds=("bulkstat" "bulkstat -d -n 71" "bulkstat -v 1 -d -n 13"
	      "bulkstat -a 1 -d" "bulkstat -s $mid -d -n 7"
	      "bulkstat -e $mid -d -n 64" "bulkstat -q -d"
	      "bulkstat -s $((last + 1)) -d"
	      "inumbers" "inumbers -d -n 2" "inumbers -v 1 -d"
	      "inumbers -a 1 -d" "inumbers -s $mid -d"
	      "bulkstat_single -d root ${inos[0]} $mid $last"
	      "bulkstat_single -v 1 ${inos[1]} $mid" "bulkstat_single $free")
	for c in "${cmds[@]}"; do
		xb_xfsprogs 6.1 xfs_io -c "$c" "$XB_MNT" >"$W/io61" \
			2>"$W/io61.err" || true
		xb_xfsprogs 6.13 xfs_io -c "$c" "$XB_MNT" >"$W/io613" \
			2>"$W/io613.err" || true
		if [[ -s $W/io61 && ! -s $W/io61.err && ! -s $W/io613.err ]] &&
		   cmp -s "$W/io61" "$W/io613"; then
			rel_pass
		else
			rel_fail "xfs_io 6.1 vs 6.13 -c '$c' $XB_MNT: $(wc -c <"$W/io61") and $(wc -c <"$W/io613") bytes, $(cmp "$W/io61" "$W/io613" 2>&1 | sed 's|.*differ: ||'), stderr '$(head -n 1 "$W/io61.err")' '$(head -n 1 "$W/io613.err")'"
			rel_show_diff "$W/io61" "$W/io613"
		fi
	done
}

# With the 6.13 matrix (not under the sanitizers: no xbulk in it), on one
# geometry of mkfs 6.1, unless GEOMETRIES names the images.
if [[ $MATRIX != old && -z ${GEOMETRIES:-} &&
      ${XB_SANITIZE:-none} == none ]] && xb_have_new; then
	REL_TAG="xfs_io 6.1 = 6.13, -d agcount=4 -i size=512"
	t0=$SECONDS
	xb_mkfs_mount 1G "-d agcount=4 -i size=512"
	xb_populate "$XB_MNT" 1500
	check_oracles
	xb_cleanup
	echo "  [$REL_TAG] done in $((SECONDS - t0)) s ($REL_PASS passed, $REL_FAIL failed so far)"
	REL_TAG=
fi

# The geometries: xb_geometries (three of them under the sanitizers, as
# rel_each_image picks) and xb_new_geometries (FULL_NEW alone under the
# sanitizers), unless GEOMETRIES names them.
if [[ -z ${GEOMETRIES:-} ]]; then
	GEOMETRIES=
	if [[ $MATRIX != new && ${XB_SANITIZE:-none} != none ]]; then
		GEOMETRIES=$(xb_geometries | sed -n '1,2p;/size=1024/p')
	elif [[ $MATRIX != new ]]; then
		GEOMETRIES=$(xb_geometries)
	fi
	if [[ $MATRIX == old ]]; then
		:
	elif ! xb_have_new; then
		echo "SKIP (part): the geometries of mkfs 6.13 (xfsprogs 6.13 not installed: scripts/deps as root)"
		[[ -n $GEOMETRIES ]] || exit "$XB_SKIP"
	elif [[ ${XB_SANITIZE:-none} != none ]]; then
		GEOMETRIES+=${GEOMETRIES:+$'\n'}$(xb_new_geometries | grep -F -- "$FULL_NEW")
	else
		GEOMETRIES+=${GEOMETRIES:+$'\n'}$(xb_new_geometries)
	fi
fi
rel_each_image check_image
rel_done
