#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The mutation matrix of xbulk diff (tests/snap/mutate.py): seeded random
# plans of every kind of change on loop-mounted XFS, each diff against
# the rules of the man page and against GNU find's listings, at -j 1 and
# -j 2, after the fixed cases of tests/snap/cases.py (each rule and
# change code once, deterministically).  The default run is short (the
# cases at -j 1 on the first geometry and at -j 2 on the second; 2
# geometries of 2 seeds of 150 operations each per -j; under the
# sanitizers, XB_SANITIZE, the first geometry only); SNAP_MUTATE=all runs
# the cases and 20 seeds of 300 operations on every geometry of the suite
# (xb_geometries) and on those of xfsprogs 6.13 (xb_new_geometries:
# parent pointers, metadir, exchange), skipped, saying so, where
# scripts/deps could not install it.
#
# Environment: XBULK; SNAP_MUTATE (all: the long matrix); XB_SANITIZE.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"

xb_require_root_loop

if [[ ${SNAP_MUTATE:-} == all ]]; then
	mapfile -t geoms < <(xb_geometries)
	if xb_have_new; then
		mapfile -t -O "${#geoms[@]}" geoms < <(xb_new_geometries)
	else
		echo "SKIP: the xfsprogs 6.13 geometries (scripts/deps as root installs it)"
	fi
	seeds=1-20 ops=300
elif [[ ${XB_SANITIZE:-none} != none ]]; then
	# the sanitizers watch the same C paths on one geometry
	geoms=("-d agcount=4")
	seeds=1-2 ops=150
else
	geoms=("-d agcount=4" "-b size=1024 -m bigtime=0,finobt=0 -i sparse=0 -d agcount=4")
	seeds=1-2 ops=150
fi

runs=0
for geom in "${geoms[@]}"; do
	xb_mkfs_mount 1G "$geom"
	mkdir "$XB_TMP/snaps"
	for j in 1 2; do
		# by default -j 1 on the first geometry, -j 2 on the second
		if [[ ${SNAP_MUTATE:-} == all ||
		      $geom == "${geoms[j - 1]:-}" ]]; then
			python3 "$TOP/tests/snap/cases.py" --xbulk "$XBULK" \
				--mnt "$XB_MNT" --dir "$XB_TMP/snaps" -j "$j" \
				>"$XB_TMP/log" ||
				xb_die "[$geom] $(cat "$XB_TMP/log")"
			tail -1 "$XB_TMP/log" | sed "s|^|[$geom -j $j] |"
		fi
		python3 "$TOP/tests/snap/mutate.py" --xbulk "$XBULK" \
			--mnt "$XB_MNT" --dir "$XB_TMP/snaps" -j "$j" \
			--seeds "$seeds" --ops "$ops" >"$XB_TMP/log" ||
			xb_die "[$geom] $(cat "$XB_TMP/log")"
		grep '^PASS' "$XB_TMP/log" | sed "s|^|[$geom] |"
		runs=$((runs + 1))
	done
done
echo "$runs passed, 0 failed"
