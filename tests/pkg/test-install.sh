#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `meson install` into a DESTDIR gives a usable tree: the tool, the man
# page, the completion where bash-completion finds it, and a libxbulk that
# a program outside the tree builds against with
# `pkg-config --cflags --libs xbulk` (tests/pkg/consumer.c) and that
# counts the inodes of a loop-mounted XFS (needs root; skipped without).
#
# Environment (tests/pkg/meson.build): BUILDDIR, PREFIX, SBINDIR, LIBDIR,
# INCLUDEDIR, MANDIR, DATADIR (meson's, prefix-relative or absolute),
# VERSION, SOVERSION, CONSUMER (consumer.c), CC, XB_SANITIZE.

. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/installed.sh"

# A meson directory option as an absolute path.
dir()
{
	[[ $1 == /* ]] && echo "$1" || echo "$PREFIX/$1"
}

main()
{
	local dest lib bin got f

	if [[ -n ${XB_SANITIZE:-} && $XB_SANITIZE != none ]]; then
		# a program without the sanitizer runtime cannot load the
		# instrumented library
		xb_skip "sanitizer build ($XB_SANITIZE)"
	fi
	command -v pkg-config >/dev/null || xb_skip "no pkg-config (scripts/deps)"

	TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbulk-install.XXXXXX")
	trap 'rm -rf --one-file-system "$TMP"' EXIT
	xb_at_exit 'rm -rf --one-file-system "$TMP"'
	dest=$TMP/dest
	meson install -C "$BUILDDIR" --destdir "$dest" --no-rebuild --quiet

	lib=$dest$(dir "$LIBDIR")
	bin=$dest$(dir "$SBINDIR")/xbulk
	for f in "$bin" "$lib/libxbulk.so" "$lib/libxbulk.so.$SOVERSION" \
		"$lib/pkgconfig/xbulk.pc" \
		"$dest$(dir "$INCLUDEDIR")/xbulk.h" \
		"$dest$(dir "$INCLUDEDIR")/xbulk_version.h" \
		"$dest$(dir "$MANDIR")/man8/xbulk.8" \
		"$dest$(dir "$DATADIR")/bash-completion/completions/xbulk"; do
		[[ -e $f ]] || xb_die "not installed: ${f#"$dest"}"
	done
	echo "ok   installed files"

	# The installed tool runs from the installed library: the build
	# tree's RUNPATH is gone.
	readelf -d "$bin" | grep -q 'R.*PATH' &&
		xb_die "installed xbulk still has an RPATH/RUNPATH"
	export LD_LIBRARY_PATH=$lib
	got=$(ldd "$bin" | awk '/libxbulk/ { print $3 }')
	[[ $got == "$lib/libxbulk.so.$SOVERSION" ]] ||
		xb_die "installed xbulk loads '$got'"
	xb_installed_version "$bin" "$VERSION"
	xb_installed_completion "$dest$(dir "$DATADIR")"

	export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
	xb_installed_consumer "$CC" "$CONSUMER" "$TMP/consumer" "$VERSION"

	xb_require_root_loop
	xb_installed_count "$bin" "$TMP/consumer" "$VERSION"
	echo "PASS"
}

main "$@"
