#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One version number: meson's project version (VERSION) is what
# `xbulk --version` prints, what the built man page's footer says, and the
# version of debian/changelog's top entry.
#
# Environment (tests/pkg/meson.build): XBULK, VERSION, MAN (the built
# page), CHANGELOG.

set -euo pipefail

fail()
{
	echo "FAIL: $*" >&2
	exit 1
}

main()
{
	local got

	got=$("$XBULK" --version)
	[[ $got == "xbulk $VERSION" ]] ||
		fail "xbulk --version says '$got', meson.build has $VERSION"

	got=$(sed -n 's/^\.TH XBULK 8 [^ ]* "xbulk \([^"]*\)".*/\1/p' "$MAN")
	[[ $got == "$VERSION" ]] ||
		fail "$MAN: .TH says '$got', meson.build has $VERSION"

	# A native package: the changelog version is the upstream version.
	got=$(dpkg-parsechangelog -l "$CHANGELOG" -S Version)
	[[ $got == "$VERSION" ]] ||
		fail "debian/changelog is at '$got', meson.build at $VERSION" \
		     "(add an entry: dch -v $VERSION)"
	echo "PASS: version $VERSION everywhere"
}

main "$@"
