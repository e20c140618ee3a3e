#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The snap tests' start, after tests/integration/lib.sh: skip unless root,
# loop devices, XFS tools and sqlite3 are there; mount a fresh 1 GiB XFS
# of 4 AGs; $M is its mount point and $T a scratch directory off it.
# Source it.

xb_require_root_loop
command -v sqlite3 >/dev/null || xb_skip "sqlite3 not installed (scripts/deps)"
xb_mkfs_mount 1G "-d agcount=4"
M=$XB_MNT
T=$XB_TMP

# pass: the checks passed so far; ok: one more
pass=0
ok()
{
	pass=$((pass + 1))
}
