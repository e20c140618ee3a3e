#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Ranges follow the kernel's own chunk and cursor semantics on every
# geometry, with no 64-inode alignment assumed (issue 8, finding 2: on
# 1 KiB blocks without sparse inodes chunks begin at inodes that are not
# multiples of 64, and xbulk 0.1's `inumbers -j 2 -s X` listed the chunk
# before X's).  A property test against the real xfs_io: on each geometry
# (1 KiB blocks with sparse=0 and sparse=1, 4 KiB blocks with 512- and
# 2048-byte inodes, 3 AGs of a size that is no power of two), for start
# inodes X taken from every chunk's first and last inode, X-1, X+1, the
# gaps between chunks and a sample of allocated inodes, bulkstat and
# inumbers with `-s X`, `-s X -e Y` and `-a A -s X` (A: X's AG) at -j 1,
# 2 and 3 print exactly xfs_io's stdout.
#
# scripts/check runs a sample of the start inodes (a few chunks of three
# geometries, all five with XB_TEST_DEPTH=full; in a sanitizer build, of
# the first two geometries only: what is tested there is memory safety,
# not the kernel's semantics), each at one of -j 1, 2 and 3 in turn
# (all three with XB_TEST_DEPTH=full);
# XB_RANGES=full (tests/ranges-sweep) runs all of them.
#
# Environment: XBULK, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init ranges
MODE=${XB_RANGES:-sample}
# The sample of scripts/check (not XB_RANGES=full nor XB_TEST_DEPTH=full)
sampled=0
[[ $MODE != full ]] && ! xb_full && sampled=1
runs=0
starts=0

geometries()
{
	cat <<-'EOF2'
	1G|-b size=1024 -i sparse=0 -d agcount=4
	1G|-b size=1024 -i sparse=1 -d agcount=4
	1G|-i size=512 -d agcount=4
	1G|-i size=2048 -d agcount=4
	1000M|-d agcount=3
	EOF2
}

# starts_of CHUNKS INOS: the start inodes to try, one a line.
starts_of()
{
	local chunks=$1 inos=$2 n i c prev=-1
	local -a cs

	mapfile -t cs <"$chunks"
	n=${#cs[@]}
	for ((i = 0; i < n; i++)); do
		c=${cs[i]}
		if [[ $MODE != full ]] && ((i != 0 && i != 1 && i != n / 2 &&
					    i != n - 1)); then
			prev=$c
			continue
		fi
		echo $((c)) $((c + 63)) $((c + 1))
		((c > 0)) && echo $((c - 1))
		# the gap before this chunk, if there is one
		if ((prev >= 0 && c > prev + 64)); then
			echo $((prev + 64)) $(((prev + 64 + c) / 2))
		fi
		prev=$c
	done | tr ' ' '\n'
	# a sample of allocated inodes
	RANDOM=42
	mapfile -t all <"$inos"
	n=3
	[[ $MODE == full ]] && n=20
	for ((i = 0; i < n; i++)); do
		echo "${all[RANDOM * ${#all[@]} / 32768]}"
	done
}

# The thread counts of the current start inode.
jobs=(1 2 3)

# compare TAG CMD ARGS: xbulk -j N (each N of jobs) against xfs_io.
compare()
{
	local tag=$1 cmd=$2 args=$3 j rc

	# shellcheck disable=SC2086
	xfs_io -c "$cmd $args" "$XB_MNT" >"$T/exp" 2>/dev/null || true
	for j in "${jobs[@]}"; do
		runs=$((runs + 1))
		rc=0
		# shellcheck disable=SC2086
		"$XBULK" "$cmd" -j "$j" $args "$XB_MNT" >"$T/got" 2>"$T/err" ||
			rc=$?
		if ((rc == 0)) && cmp -s "$T/exp" "$T/got"; then
			rel_pass
		else
			rel_fail "[$tag] $cmd -j $j $args: exit $rc, $(head -c 200 "$T/err"), stdout differs from xfs_io's:"
			rel_show_diff "$T/exp" "$T/got"
		fi
	done
}

one_geometry()
{
	local size=$1 mkfs=$2 x y a agino_log

	xb_mkfs_mount "$size" "$mkfs"
	T=$XB_TMP
	xb_populate "$XB_MNT" 1500
	agino_log=$(xfs_db -r -c 'sb 0' -c 'print agblklog inopblog' "$XB_IMG" |
		    awk '{ s += $3 } END { print s }')
	"$XBULK" inumbers -j 1 "$XB_MNT" | sed -n 's/^xi_startino = //p' \
		>"$T/chunks"
	"$XBULK" bulkstat -j 1 "$XB_MNT" | sed -n 's/^bs_ino = //p' >"$T/inos"
	starts_of "$T/chunks" "$T/inos" | sort -nu >"$T/starts"
	echo "[$mkfs] $(wc -l <"$T/chunks") chunks, $(wc -l <"$T/starts") start inodes"
	while read -r x; do
		starts=$((starts + 1))
		((sampled)) && jobs=($((1 + starts % 3)))
		y=$((x + 150))
		a=$((x >> agino_log))
		for cmd in bulkstat inumbers; do
			compare "$mkfs" "$cmd" "-s $x"
			compare "$mkfs" "$cmd" "-s $x -e $y"
			compare "$mkfs" "$cmd" "-a $a -s $x"
		done
	done <"$T/starts"
	xb_cleanup
}

# every geometry; at the standard depth 1 KiB blocks without sparse
# inodes, 2 KiB inodes and 3 AGs (the layouts furthest apart); the first
# two under the sanitizers
pick='1,$p'
((sampled)) && pick='1p;4,5p'
[[ $MODE != full && ${XB_SANITIZE:-none} != none ]] && pick='1,2p'
mapfile -t geoms < <(geometries | sed -n "$pick")
t0=$SECONDS
for geom in "${geoms[@]}"; do
	one_geometry "${geom%%|*}" "${geom#*|}"
done

rel_result "mode=$MODE geometries=${#geoms[@]} starts=$starts runs=$runs secs=$((SECONDS - t0)) passed=$REL_PASS failed=$REL_FAIL"
rel_done
