#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind memcheck on representative xbulk runs over a small populated
# image: serial and parallel bulkstat, inumbers, every output format,
# bulkstat_single, error paths (usage error, missing path, a free
# inode, no CAP_SYS_ADMIN), and find's plain walk (names, stat, -L).  Each run must end with xbulk's own exit
# status and without a memcheck error or leak (definite, indirect or
# possible; --error-exitcode=99, so that a memcheck error cannot pass for
# xbulk's status 1), and its output must be the same as without valgrind.
#
# Skipped in sanitizer builds (XB_SANITIZE != none): valgrind cannot run
# ASan binaries.
#
# Environment: XBULK (the binary), ENTRIES (files on the image, default
# 600).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
ENTRIES=${ENTRIES:-600}
VG_STATUS=99

[[ ${XB_SANITIZE:-none} == none ]] ||
	xb_skip "sanitizer build ($XB_SANITIZE): valgrind cannot run it"
xb_require_root_loop
command -v valgrind >/dev/null 2>&1 || xb_skip "valgrind not installed"
[[ -x $XBULK ]] || xb_die "$XBULK not built"

xb_mkfs_mount 1G "-d agcount=4"
xb_populate "$XB_MNT" "$ENTRIES"
MNT=$XB_MNT
ROOT_INO=$(stat -c %i "$MNT")
SOME_INO=$(stat -c %i "$MNT/d03/sub")

nruns=0
nfail=0

fail()
{
	nfail=$((nfail + 1))
	echo "FAIL: $*"
}

# vg STATUS [RUNNER...] -- ARGS...: run xbulk ARGS under memcheck.
vg()
{
	local want=$1 rc ref_rc what
	local -a pre=()

	shift
	while [[ $1 != -- ]]; do
		pre+=("$1")
		shift
	done
	shift
	what="xbulk $*"
	nruns=$((nruns + 1))

	set +e
	"${pre[@]}" "$XBULK" "$@" >"$XB_TMP/ref.out" 2>/dev/null
	ref_rc=$?
	"${pre[@]}" valgrind -q --tool=memcheck --error-exitcode=$VG_STATUS \
		--leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=definite,indirect,possible \
		--log-file="$XB_TMP/vg.log" \
		"$XBULK" "$@" >"$XB_TMP/vg.out" 2>"$XB_TMP/vg.err"
	rc=$?
	set -e

	if ((rc == VG_STATUS)) || [[ -s $XB_TMP/vg.log ]]; then
		fail "$what: memcheck errors:"
		head -n 40 "$XB_TMP/vg.log"
	elif ((rc != want || ref_rc != want)); then
		fail "$what: status $rc under valgrind, $ref_rc without, expected $want"
		head -n 5 "$XB_TMP/vg.err"
	elif ! cmp -s "$XB_TMP/ref.out" "$XB_TMP/vg.out"; then
		fail "$what: output differs under valgrind"
	fi
}

NOCAP=(setpriv --inh-caps=-all --bounding-set=-all)

vg 0 -- bulkstat -j 1 "$MNT"
vg 0 -- bulkstat -j 2 "$MNT"
vg 0 -- bulkstat -j 2 -n 7 "$MNT"
vg 0 -- bulkstat -j 1 -v 1 -n 13 "$MNT"
vg 0 -- bulkstat -d -a 1 "$MNT"
vg 0 -- bulkstat -q -j 2 "$MNT"
vg 0 -- inumbers -j 1 "$MNT"
vg 0 -- inumbers -j 2 -n 3 "$MNT"
if "$XBULK" bulkstat --help | grep -q -- '-o text|jsonl|csv'; then
	vg 0 -- bulkstat -j 2 -o jsonl "$MNT"
	vg 0 -- bulkstat -j 1 -o csv "$MNT"
	vg 0 -- inumbers -o jsonl "$MNT"
fi
vg 0 -- bulkstat_single "$MNT" root "$ROOT_INO" "$SOME_INO"
vg 0 -- bulkstat_single -v 1 "$MNT" "$ROOT_INO" "$SOME_INO"
vg 0 -- bulkstat_single -d "$MNT" "$SOME_INO"
# error paths
vg 1 -- bulkstat_single "$MNT" 99999999999 root
vg 1 -- bulkstat -j 2 /nonexistent/xbulk
vg 0 -- bulkstat -j 1 -n 10000000 "$MNT"
vg 1 "${NOCAP[@]}" -- bulkstat -j 2 "$MNT"
vg 2 -- bulkstat -n 0 "$MNT"
vg 2 -- bulkstat_single "$MNT" abc
vg 2 -- inumbers -a 99 "$MNT"
# find's plain walk (no bulkstat): names only, stat()ing, stopped by
# -quit inside, and -L with a loop (said: status 1)
vg 0 -- find "$MNT" -name '*1*'
vg 0 -- find --strategy names "$MNT" -printf '%p %s %m\n'
vg 0 -- find -L "$MNT" -mindepth 2 -quit
D=$(find "$MNT" -mindepth 1 -maxdepth 1 -type d | head -1)
ln -s .. "$D/up"
vg 1 -- find -L "$MNT"
rm "$D/up"

echo "valgrind: $nruns runs, $nfail with errors"
((nfail == 0))
