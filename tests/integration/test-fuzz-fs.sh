#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Damaged filesystems: the fuzz harness (lib-fuzz.sh).  For each field of
# the AGI, of the inobt and finobt (root block and, below a node, its
# first leaf: header, keys, pointers, the first, middle and last records)
# and a sample of inode core fields, and each of xfs_db's fuzz verbs, one
# case: the field changed with `fuzz -d` in a copy of a small pristine
# image, the copy mounted read-only (a failed mount is n/a), then
# bulkstat -j 1/2, inumbers -j 1/2 and bulkstat_single of a few inodes,
# each under a time limit (30 s).  Every run must end in time, exit 0 or
# 1, say nothing when it exits 0, name what it could not read when it
# exits 1, and print whole records in increasing inode order (so none
# twice).  Output need not be the same for -j 1 and -j 2 on a damaged
# filesystem.  A kernel oops or a task stuck in the kernel is counted
# apart (KERNEL lines), not as xbulk's failure.
#
# By default (scripts/check) a sample of cases known to be safe for the
# kernel, on the two-level inobt geometry, among them issue 8's finding 1
# (inobt node keys fuzzed: xbulk 0.1 looped forever).  XB_FUZZ=full runs
# the whole sweep (tests/fuzz-fs), XB_FUZZ_GEOMS chooses geometries and
# XB_FUZZ_BATCH=I/N only every N-th case from the I-th (0-based).
#
# Environment: XBULK, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"
. "$(dirname "$0")/lib-fuzz.sh"

rel_init fuzz-fs

MODE=${XB_FUZZ:-sample}
VERBS="zeroes ones firstbit middlebit lastbit add sub random"

# The sample: "GEOMETRY|PATH|FIELD|VERB" (PATH as in NAME.fields).
sample_cases()
{
	cat <<-'CASES'
	twolevel|agi 0;addr root|keys[3].startino|ones
	twolevel|agi 0;addr root|keys[3].startino|firstbit
	twolevel|agi 0;addr root|keys[3].startino|middlebit
	twolevel|agi 0;addr root|keys[3].startino|add
	twolevel|agi 0;addr root|keys[2].startino|sub
	twolevel|agi 0;addr root|ptrs[2]|sub
	twolevel|agi 0|newino|firstbit
	twolevel|agi 0;addr root;addr ptrs[1]|recs[1].holemask|ones
	twolevel|agi 0;addr root;addr ptrs[1]|recs[30].startino|add
	twolevel|agi 0;addr root;addr ptrs[1]|recs[30].free|ones
	twolevel|agi 0;addr root;addr ptrs[1]|recs[60].freecount|lastbit
	CASES
}

# Every case of the sweep, same shape.
all_cases()
{
	local g line verb

	for g in $1; do
		while read -r line; do
			for verb in $VERBS; do
				echo "$g|$line|$verb"
			done
		done <"$FZ_DIR/$g.fields"
	done
}

XB_TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbulk.XXXXXX")
xb__install_traps
fz_init

if [[ $MODE == full ]]; then
	GEOMS=${XB_FUZZ_GEOMS:-twolevel twofree mixed unaligned sparse}
else
	GEOMS=twolevel
fi
for g in $GEOMS; do
	t0=$SECONDS
	fz_build "$g"
	echo "$g: $(wc -l <"$FZ_DIR/$g.fields") fields, built in $((SECONDS - t0)) s"
done

if [[ $MODE == full ]]; then
	all_cases "$GEOMS" >"$FZ_DIR/cases"
else
	sample_cases >"$FZ_DIR/cases"
fi
batch=${XB_FUZZ_BATCH:-0/1}
first=${batch%/*}
step=${batch#*/}

i=0
t0=$SECONDS
while IFS='|' read -r g path field verb; do
	if (((i++ - first) % step != 0 || i - 1 < first)); then
		continue
	fi
	fz_case "$g" "$path" "$field" "$verb"
	echo "$FZ_OUTCOME|$g|$path|$field|$verb" >>"$FZ_DIR/outcomes"
	if ((FZ_CASES % 50 == 0)); then
		echo "  $FZ_CASES cases in $((SECONDS - t0)) s: $FZ_PASS passed, $FZ_FAILED failed, $FZ_NA n/a, $FZ_KERNEL kernel"
	fi
done <"$FZ_DIR/cases"

if [[ $MODE != full ]]; then
	echo "outcomes:"
	sed 's/^/  /' "$FZ_DIR/outcomes"
fi
echo "failed cases:"
grep '^fail|' "$FZ_DIR/outcomes" | sed 's/^/  /' || echo "  none"
rel_result "mode=$MODE geoms=$(echo $GEOMS | tr ' ' ,) batch=$batch cases=$FZ_CASES passed=$FZ_PASS failed=$FZ_FAILED na=$FZ_NA na_xfs_db=$FZ_NA_DB kernel=$FZ_KERNEL runs=$FZ_RUNS exit0=$FZ_RC0 exit1=$FZ_RC1 exit_other=$FZ_RCX secs=$((SECONDS - t0)) checks_passed=$REL_PASS checks_failed=$REL_FAIL"
rel_done
