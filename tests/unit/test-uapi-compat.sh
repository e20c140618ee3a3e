#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# lib/uapi_compat.h against xfslibs-dev 6.13: uapi_emit prints static
# assertions of every size, offset and value that header defines (as this
# build sees them); they must compile with the newer <xfs/xfs.h> from the
# private xfsprogs 6.13 (scripts/trixie-tools xfsprogs).  Skips without it.
#
# Environment: UAPI_EMIT (the built uapi_emit), CC (default cc).

set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
root=$("$TOP/scripts/trixie-tools" xfsprogs --root) || {
	echo "SKIP: xfsprogs 6.13 not installed (scripts/deps as root)"
	exit 77
}
hdr=$root/usr/include/xfs/xfs_fs.h
grep -q XFS_IOC_GETPARENTS_BY_HANDLE "$hdr" ||
	{ echo "FAIL: $hdr has no XFS_IOC_GETPARENTS_BY_HANDLE"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$UAPI_EMIT" >"$tmp/check.c"
n=$(grep -c _Static_assert "$tmp/check.c")
if ! "${CC:-cc}" -std=gnu11 -fsyntax-only -I "$root/usr/include" \
	"$tmp/check.c" 2>"$tmp/err"; then
	echo "FAIL: lib/uapi_compat.h differs from xfslibs-dev 6.13:"
	grep -E 'error' "$tmp/err" | head -n 20
	exit 1
fi
echo "PASS: $n static assertions hold against $hdr"
