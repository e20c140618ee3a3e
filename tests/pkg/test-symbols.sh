#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libxbulk.so exports exactly the functions and variables that
# include/xbulk.h declares: `nm -D` of the library against the header as
# clang parses it (its AST, not a pattern over the text).  And a name
# says whether it is public (docs/design.md, "Names"): no global symbol
# of the internal library (libxbulk_internal.a) has the public prefix
# xbulk_ unless the library exports it.
#
# Environment (tests/pkg/meson.build): LIBXBULK (the built .so),
# LIBXBULK_INTERNAL (the static library of the same objects), XBULK_H
# (the header), XBULK_INC (include dirs, ':'-separated, for the
# generated xbulk_version.h), XB_SANITIZE.

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

# Extern (not static inline) functions and variables declared in the
# public headers (xbulk.h and include/xbulk/*.h), one name per line.  The
# AST filter keeps declarations whose name contains "xbulk_", each dumped
# as a JSON object with its file.
header_symbols()
{
	local -a incs=() dirs
	local dir

	IFS=: read -r -a dirs <<<"$XBULK_INC"
	for dir in "${dirs[@]}"; do
		incs+=("-I$dir")
	done
	clang -x c -std=gnu11 -fsyntax-only "${incs[@]}" \
		-Xclang -ast-dump=json -Xclang -ast-dump-filter=xbulk_ \
		"$XBULK_H" |
		jq -r --arg inc "$(dirname "$XBULK_H")" '
			select((.kind == "FunctionDecl" or .kind == "VarDecl")
			       and (.loc.file // "" |
				    startswith($inc + "/xbulk"))
			       and .storageClass != "static")
			| .name' | sort -u
}

exported_symbols()
{
	nm -D --defined-only "$LIBXBULK" | awk '{ print $3 }' | sort -u
}

# Global functions and variables the internal library's objects define
# with the public prefix.
prefixed_symbols()
{
	nm -g --defined-only "$LIBXBULK_INTERNAL" |
		awk 'NF == 3 && $3 ~ /^xbulk_/ { print $3 }' | sort -u
}

main()
{
	local hdr exp missing extra

	# The sanitizers' runtimes add symbols of their own (__odr_asan.*).
	if [[ -n ${XB_SANITIZE:-} && $XB_SANITIZE != none ]]; then
		skip "sanitizer build ($XB_SANITIZE)"
	fi
	command -v clang >/dev/null || skip "clang not installed (scripts/deps)"
	command -v jq >/dev/null || skip "jq not installed (scripts/deps)"

	hdr=$(header_symbols)
	exp=$(exported_symbols)
	[[ -n $hdr ]] || fail "no declaration found in $XBULK_H and" \
		"include/xbulk/"
	missing=$(comm -23 <(echo "$hdr") <(echo "$exp"))
	extra=$(comm -13 <(echo "$hdr") <(echo "$exp"))
	[[ -z $missing ]] || fail "declared in the public headers but" \
		"not exported by $(basename "$LIBXBULK") (not defined in lib/?):" \
		$missing
	[[ -z $extra ]] || fail "exported by $(basename "$LIBXBULK") but not" \
		"declared in the public headers (public names start with" \
		"xbulk_; internal ones belong in a lib/ header):" $extra
	extra=$(comm -13 <(echo "$exp") <(prefixed_symbols))
	[[ -z $extra ]] || fail "hidden, yet named with the public prefix" \
		"xbulk_ (use the layer's own: docs/design.md, \"Names\"):" \
		$extra
	echo "PASS: $(echo "$hdr" | wc -l) symbols, header and library agree"
}

main "$@"
