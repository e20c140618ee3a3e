#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libxbulk keeps its ABI (docs/design.md, "Versions and the soname"): the
# library built now is compared by abidiff (Debian's abigail-tools) with
# the ABI of every release kept in tests/pkg/abi/ (abidw output, made by
# `tests/pkg/test-abi.sh --record` at release time).  The tools are Debian
# 13's abigail-tools 2.6 in their private prefix (scripts/trixie-tools
# abigail): Debian 12's 2.2 misses struct layout changes of libxbulk.  Against a release of
# the same soname nothing may change (additions only);
# against one of another soname every change is accounted for by the new
# soname.  Either way the report is printed.
#
# Across a soname change abidiff must say so ("SONAME changed from 'OLD'
# to 'NEW'"), and the report is printed; under the same soname it must
# report nothing.
#
# Environment (tests/pkg/meson.build): TOP (the source tree), LIBXBULK
# (the built .so, with its debug information), ABI_DIR, VERSION,
# XB_SANITIZE.
# With --record, writes ABI_DIR/libxbulk-VERSION.abi instead, at release
# time; it refuses to replace a release's ABI already kept (a release's
# ABI never changes: bump the version in meson.build first).

set -euo pipefail

skip()
{
	echo "SKIP: $*"
	exit 77
}

fail()
{
	echo "FAIL: $*" >&2
	exit 1
}

# abidw or abidiff of abigail-tools 2.6, through its own loader.
abi()
{
	local tool=$1

	shift
	"$ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
		--library-path "$ROOT/usr/lib/x86_64-linux-gnu" \
		"$ROOT/usr/bin/$tool" "$@"
}

# abidw of the built library, its public types only (those defined in
# include/: abi-private.supp), without the paths of this build tree.
describe()
{
	local out=$1

	abi abidw --no-corpus-path \
		--suppressions "$TOP/tests/pkg/abi-private.supp" \
		--out-file "$out" "$LIBXBULK"
	sed -i "s#comp-dir-path='[^']*'#comp-dir-path='build'#" "$out"
}

soname_of()
{
	sed -n "s/.*<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$1" | head -1
}

main()
{
	local cur rel name rsoname csoname rc checked=0

	if [[ -n ${XB_SANITIZE:-} && $XB_SANITIZE != none ]]; then
		skip "sanitizer build ($XB_SANITIZE)"
	fi
	ROOT=$("$TOP/scripts/trixie-tools" abigail --root) ||
		skip "abigail-tools 2.6 not installed (scripts/deps as root)"
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	cur=$TMP/current.abi
	describe "$cur"
	csoname=$(soname_of "$cur")
	[[ -n $csoname ]] || fail "no soname in the ABI of $LIBXBULK"
	if [[ ${1:-} == --record ]]; then
		rel=$ABI_DIR/libxbulk-$VERSION.abi
		[[ ! -e $rel ]] ||
			fail "$rel exists: release $VERSION's ABI is kept as" \
			     "it shipped (bump the version in meson.build" \
			     "before recording a new release)"
		cp "$cur" "$rel"
		echo "recorded $rel ($csoname)"
		return 0
	fi
	for rel in "$ABI_DIR"/libxbulk-*.abi; do
		[[ -e $rel ]] || fail "no release ABI in $ABI_DIR"
		name=$(basename "$rel" .abi)
		rsoname=$(soname_of "$rel")
		rc=0
		abi abidiff --no-added-syms \
			--suppressions "$TOP/tests/pkg/abi-grows.supp" \
			"$rel" "$cur" >"$TMP/report" 2>&1 ||
			rc=$?
		if ((rc & 3)); then
			cat "$TMP/report"
			fail "abidiff could not compare $name with this build" \
			     "(status $rc)"
		fi
		# Additions are not reported (--no-added-syms): any change
		# reported (4) or incompatible (8) is a change of what was
		# there; abidiff counts a struct's new layout as the former.
		if [[ $rsoname == "$csoname" ]]; then
			if ((rc & 12)); then
				cat "$TMP/report"
				fail "$name ($rsoname): the ABI changed under" \
				     "the same soname: change the soname" \
				     "(lib/meson.build) or keep the ABI"
			fi
			echo "PASS: $name ($rsoname): nothing changed but" \
			     "additions"
		else
			# the change must be seen, and be the soname's
			if ! grep -qF "SONAME changed from '$rsoname' to" \
				"$TMP/report" ||
			   ! grep -qF "to '$csoname'" "$TMP/report"; then
				cat "$TMP/report"
				fail "$name: abidiff does not report the soname" \
				     "change $rsoname -> $csoname"
			fi
			echo "PASS: $name: soname $rsoname -> $csoname;" \
			     "its changes are accounted for by the new soname:"
			sed 's/^/  /' "$TMP/report"
		fi
		checked=$((checked + 1))
	done
	echo "checked against $checked release(s)"
}

main "$@"
