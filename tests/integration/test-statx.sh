#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# For every image geometry: cross-check xbulk's bulkstat records against
# statx() of every path of the tree (statx_check), and the fstests-style
# checks on xbulk's text output:
#   - `xbulk bulkstat_single MNT root` is the inode of `stat -c %i MNT`;
#   - the number of records is the number of distinct inodes of the tree;
#   - `find MNT | wc -l` (paths: a file with N hard links counts N times)
#     is the sum of bs_nlink over the non-directories plus the number of
#     directories;
#   - after a remount (inodes read from disk, not from the inode cache)
#     xbulk bulkstat prints the same bytes and statx_check passes again.
# Bulkstat reports no internal inodes: the kernel skips the realtime
# bitmap and summary inodes and the quota inodes (xfs_is_sb_inum), and the
# metadata directory tree of metadir filesystems unless asked with
# XFS_BULK_IREQ_METADIR.  So records == distinct inodes of the tree,
# exactly, with no allowance for internal inodes.
#
# Environment: XBULK (path of the xbulk binary), STATX_CHECK (path of
# statx_check); both default to the build directory.  ENTRIES: entries
# per image (default 2500); GEOMETRIES: newline-separated mkfs option
# strings (default: all of xb_geometries); LARGE_ENTRIES: entries of one
# more image with the second geometry (default 30000; 0: none).

# shellcheck disable=SC2317 # the checks run through rel_each_image
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
# counting (rel_pass, rel_fail, rel_check, rel_done), rel_each_image
. "$(dirname "$0")/lib-reliability.sh"

STATX_CHECK=${STATX_CHECK:-$TOP/build/tests/integration/statx_check}
ENTRIES=${ENTRIES:-2500}
LARGE_ENTRIES=${LARGE_ENTRIES:-30000}

rel_init statx
[[ -x $STATX_CHECK ]] || xb_die "$STATX_CHECK not built"

# run_statx_check [WHEN]: statx_check of the mount, its output in
# $XB_TMP/statx_check.out.
run_statx_check()
{
	local out=$XB_TMP/statx_check.out

	if "$STATX_CHECK" "$XB_MNT" >"$out" 2>&1; then
		rel_pass
	else
		rel_fail "$STATX_CHECK $XB_MNT${1:+ ($1)}:"
		head -n 50 "$out" | sed 's/^/    /'
	fi
}

# check_geometry N: the image at XB_MNT holds N entries.
check_geometry()
{
	local entries=$1 root_ino want paths distinct records sum rc

	run_statx_check
	tail -n 1 "$XB_TMP/statx_check.out" | sed "s|^|  [$REL_TAG] |"

	want=$(stat -c %i "$XB_MNT")
	root_ino=$("$XBULK" bulkstat_single "$XB_MNT" root |
		   sed -n 's/^bs_ino = //p') || true
	rel_check "xbulk bulkstat_single $XB_MNT root vs stat -c %i" \
		"$want" "$root_ino"

	rc=0
	"$XBULK" bulkstat "$XB_MNT" >"$XB_TMP/bulkstat.out" || rc=$?
	if ((rc != 0)); then
		rel_fail "xbulk bulkstat $XB_MNT: exit status $rc"
		return
	fi
	records=$(grep -c '^bs_ino' "$XB_TMP/bulkstat.out") || true
	distinct=$(find "$XB_MNT" -xdev -printf '%i\n' | sort -u | wc -l)
	rel_check "records of xbulk bulkstat vs distinct inodes of find" \
		"$distinct" "$records"

	paths=$(find "$XB_MNT" -xdev | wc -l)
	# Non-directories appear once per link, directories once.
	sum=$(awk -F' = ' '
		$1 == "\tbs_nlink" { nlink = $2 }
		$1 == "\tbs_mode" {
			# octal with a leading 0: the type is all but the
			# last four digits (permissions and set-id bits)
			if (substr($2, 1, length($2) - 4) == "04") n++
			else n += nlink
		}
		END { print n + 0 }' "$XB_TMP/bulkstat.out")
	rel_check "find | wc -l vs nlink sum of xbulk bulkstat" "$paths" "$sum"
	if ((paths >= entries * 9 / 10)); then
		rel_pass
	else
		rel_fail "find found only $paths entries, populated $entries"
	fi

	# The same records from inodes read from disk: remount (this
	# filesystem's caches only; no global drop_caches) and scan again
	# before anything looks at the tree.  The reference scan is taken
	# right before the unmount: reading a directory (find, above) can
	# change its atime (relatime always updates it while the mtime is
	# in the future, as populate makes some).
	"$XBULK" bulkstat "$XB_MNT" >"$XB_TMP/bulkstat.out" || true
	if ! xb_umount || ! xb_remount; then
		rel_fail "cannot remount $XB_IMG"
		return
	fi
	rc=0
	"$XBULK" bulkstat "$XB_MNT" >"$XB_TMP/bulkstat.cold" || rc=$?
	if ((rc == 0)) && cmp -s "$XB_TMP/bulkstat.out" "$XB_TMP/bulkstat.cold"
	then
		rel_pass
	else
		rel_fail "xbulk bulkstat $XB_MNT after a remount: exit status $rc, $(cmp "$XB_TMP/bulkstat.out" "$XB_TMP/bulkstat.cold" 2>&1 | sed 's|.*differ: ||') vs before"
		rel_show_diff "$XB_TMP/bulkstat.out" "$XB_TMP/bulkstat.cold"
	fi
	run_statx_check "after a remount"
}

rel_each_image check_geometry
rel_done
