# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks of an installed xbulk, shared by tests/pkg/test-install.sh (a
# DESTDIR tree) and scripts/package (the Debian packages).  Source it
# after tests/integration/lib.sh; point PKG_CONFIG_PATH (and
# PKG_CONFIG_SYSROOT_DIR, LD_LIBRARY_PATH) at the installed tree first.

# xb_installed_version XBULK VERSION: xbulk --version says VERSION.
xb_installed_version()
{
	local got

	got=$("$1" --version)
	[[ $got == "xbulk $2" ]] || xb_die "$1 --version says '$got', not $2"
	echo "ok   $1 --version: $got"
}

# xb_installed_completion XDG_DATA_DIRS: bash-completion's loader finds
# the completion in one of those data directories.
xb_installed_completion()
{
	local got

	got=$(XDG_DATA_DIRS=$1 bash -c '
		. /usr/share/bash-completion/bash_completion 2>/dev/null ||
			exit 77
		__load_completion xbulk && complete -p xbulk')
	[[ $got == "complete -F _xbulk xbulk" ]] ||
		xb_die "bash-completion did not load the completion: '$got'"
	echo "ok   bash-completion loads the completion from $1"
}

# xb_installed_consumer CC SOURCE OUT VERSION: build tests/pkg/consumer.c
# the way a program outside the tree would, with pkg-config.
xb_installed_consumer()
{
	local cc=$1 src=$2 out=$3 version=$4 got flags

	got=$(pkg-config --modversion xbulk)
	[[ $got == "$version" ]] || xb_die "xbulk.pc has version '$got'"
	flags=$(pkg-config --cflags --libs xbulk)
	echo "pkg-config --cflags --libs xbulk: $flags"
	# shellcheck disable=SC2086 # pkg-config's flags are words
	"$cc" -std=gnu11 -Wall -Wextra -Werror -o "$out" "$src" $flags
	echo "ok   consumer built with pkg-config"
}

# xb_installed_count XBULK CONSUMER VERSION: on a fresh loop-mounted XFS
# the consumer (through libxbulk) and `xbulk bulkstat` count the inodes
# find sees.  Needs root and loop devices.
xb_installed_count()
{
	local xbulk=$1 consumer=$2 version=$3 d i n_find n_bulkstat got

	xb_mkfs_mount 512M "-d agcount=4"
	mkdir -p "$XB_MNT"/{a,b,c}/d
	for d in a b c a/d b/d c/d; do
		for ((i = 0; i < 40; i++)); do
			: >"$XB_MNT/$d/f$i"
		done
	done
	sync
	n_find=$(find "$XB_MNT" | wc -l)
	got=$("$consumer" "$XB_MNT")
	[[ $got == "libxbulk $version: $n_find inodes" ]] ||
		xb_die "consumer says '$got', find counts $n_find"
	n_bulkstat=$("$xbulk" bulkstat "$XB_MNT" | grep -c '^bs_ino = ')
	((n_bulkstat == n_find)) ||
		xb_die "$xbulk bulkstat: $n_bulkstat records, find: $n_find"
	echo "ok   consumer and $xbulk bulkstat count $n_find inodes"
	xb_cleanup
}
