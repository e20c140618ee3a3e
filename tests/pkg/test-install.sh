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

# A meson directory option as an absolute path.
dir()
{
	[[ $1 == /* ]] && echo "$1" || echo "$PREFIX/$1"
}

main()
{
	local dest lib bin pc cflags libs got n_find n_bulkstat

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

	# The installed tool runs from the installed library (the build
	# tree's RUNPATH is gone) and says the project's version.
	readelf -d "$bin" | grep -q 'R.*PATH' &&
		xb_die "installed xbulk still has an RPATH/RUNPATH"
	got=$(LD_LIBRARY_PATH=$lib ldd "$bin" | awk '/libxbulk/ { print $3 }')
	[[ $got == "$lib/libxbulk.so.$SOVERSION" ]] ||
		xb_die "installed xbulk loads '$got'"
	got=$(LD_LIBRARY_PATH=$lib "$bin" --version)
	[[ $got == "xbulk $VERSION" ]] || xb_die "xbulk --version: '$got'"
	echo "ok   installed xbulk $VERSION from $lib"

	# bash-completion's loader finds the completion where it was put.
	got=$(XDG_DATA_DIRS=$dest$(dir "$DATADIR") bash -c '
		. /usr/share/bash-completion/bash_completion 2>/dev/null ||
			exit 77
		__load_completion xbulk && complete -p xbulk')
	[[ $got == "complete -F _xbulk xbulk" ]] ||
		xb_die "bash-completion did not load the completion: '$got'"
	echo "ok   bash-completion loads it"

	# A consumer, built the way its makers would.
	pc=(env PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
	    pkg-config)
	got=$("${pc[@]}" --modversion xbulk)
	[[ $got == "$VERSION" ]] || xb_die "xbulk.pc has version '$got'"
	cflags=$("${pc[@]}" --cflags xbulk)
	libs=$("${pc[@]}" --libs xbulk)
	echo "pkg-config: $cflags $libs"
	# shellcheck disable=SC2086 # word splitting of pkg-config's flags
	$CC -std=gnu11 -Wall -Wextra -Werror -o "$TMP/consumer" "$CONSUMER" \
		$cflags $libs
	echo "ok   consumer built with pkg-config --cflags --libs xbulk"

	xb_require_root_loop
	xb_mkfs_mount 512M "-d agcount=4"
	mkdir -p "$XB_MNT"/{a,b,c}/d
	for d in a b c a/d b/d c/d; do
		for ((i = 0; i < 40; i++)); do
			: >"$XB_MNT/$d/f$i"
		done
	done
	sync
	n_find=$(find "$XB_MNT" | wc -l)
	got=$(LD_LIBRARY_PATH=$lib "$TMP/consumer" "$XB_MNT")
	[[ $got == "libxbulk $VERSION: $n_find inodes" ]] ||
		xb_die "consumer says '$got', find counts $n_find"
	n_bulkstat=$(LD_LIBRARY_PATH=$lib "$bin" bulkstat "$XB_MNT" |
		grep -c '^bs_ino = ')
	((n_bulkstat == n_find)) ||
		xb_die "installed xbulk bulkstat: $n_bulkstat records, find: $n_find"
	echo "ok   consumer and installed xbulk count $n_find inodes"
	echo "PASS"
}

main "$@"
