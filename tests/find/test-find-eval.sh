#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libxbulk's find evaluator against GNU find 4.9: every expression of
# lib-find.sh on the odd tree, run by find and by find_fts (the evaluator
# driven by fts and statx, on whatever filesystem the temporary directory
# is), compared as sorted records.  TZ=UTC LC_ALL=C.  Needs root for the
# owners and device nodes (skips without).
set -euo pipefail
export TZ=UTC LC_ALL=C

. "$(dirname "$0")/lib-find.sh"

((EUID == 0)) || { echo "SKIP: needs root"; exit 77; }
FIND_FTS=$(realpath "${FIND_FTS:?}")
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
XF_NOW=$(date +%s)
xf_make_tree "$tmp/t"
cd "$tmp/t"
find . >/dev/null	# directories' atimes settle (relatime)
REF_INUM=$(stat -c %i ref)
pass=0 fail=0 empty=0
while IFS= read -r expr; do
	[[ $expr == *fstype* ]] && continue	# not XFS here
	[[ $expr == *%F* ]] && continue
	eval "set -- $expr"
	find . "$@" >"$tmp/want" 2>"$tmp/want.err" && wrc=0 || wrc=$?
	"$FIND_FTS" . "$@" >"$tmp/got" 2>"$tmp/got.err" && grc=0 || grc=$?
	if cmp -s <(sort "$tmp/want") <(sort "$tmp/got") && ((wrc == grc)); then
		pass=$((pass + 1))
		[[ -s $tmp/want ]] || empty=$((empty + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: find . $expr (status $wrc, got $grc)"
		diff <(sort "$tmp/want") <(sort "$tmp/got") | head -5 || true
	fi
done < <(xf_expressions)
echo "($empty expressions matched nothing)"
echo "$pass passed, $fail failed"
((fail == 0))
