# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/subtree.sh: questions smaller than the filesystem (issue
# 26), xbulk against GNU find and du on the same question:
#   leaf1   find LEAF -maxdepth 1               (names only)
#   leaf1s  find LEAF -maxdepth 1 -printf '%p %s\n'   (attributes)
#   du_leaf du -s LEAF
#   top     find TOP -printf '%p %s\n'
#   du_top  du -s TOP
#   name    find MNT -name '*7*'                (names only, everywhere)
# LEAF is the first directory (by name) with no subdirectory (link
# count 2) and at least 100 entries, as populate makes them, TOP the
# first top directory of the tree (their sizes and TOP's share of the
# inodes are printed).  Each run's state is proved on the inodes that
# question looks up.  Targets (issue 26): within 2x of GNU's wall for
# the subtree questions, at least as fast for `name`, hot and uncached.
# Run: bench/run --suite subtree --states hot,uncached

subtree_contenders() {
	local j=$JOBS leaf top n_leaf1 n_leaf n_top n_dirs

	leaf=$(find "$MNT" -xdev -type d -links 2 -size +2k | sort | head -n 1)
	# a top directory: below those alone in theirs (populate's tree/),
	# the first (populate makes one per thread: with -t 2 half the
	# inodes)
	top=$MNT
	while [ "$(find "$top" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 1 ]
	do
		top=$(find "$top" -mindepth 1 -maxdepth 1 -type d)
	done
	top=$(find "$top" -mindepth 1 -maxdepth 1 -type d | sort | head -n 1)
	[ -n "$leaf" ] && [ -n "$top" ] ||
		die "subtree suite: no leaf directory of 100 entries in $MNT"
	# inodes, not names: a hard link is looked up once
	n_leaf1=$(find "$leaf" -maxdepth 1 -printf '%i\n' | sort -u | wc -l)
	n_leaf=$(find "$leaf" -xdev -printf '%i\n' | sort -u | wc -l)
	n_top=$(find "$top" -xdev -printf '%i\n' | sort -u | wc -l)
	n_dirs=$(find "$MNT" -xdev -type d | wc -l)
	log "subtree suite: LEAF $leaf ($n_leaf1 inodes at depth <= 1," \
	    "$n_leaf below), TOP $top ($n_top inodes, $((n_top * 100 /
	    NINODES))% of $NINODES)"
	leaf=$(printf %q "$leaf")
	top=$(printf %q "$top")
	# the leaf's own inode is all a names-only question looks up
	contender gnu_leaf1 "exec find $leaf -maxdepth 1 >/dev/null" \
		records="$n_leaf1" check=1
	contender xbulk_leaf1 "exec $XBULK find -j $j $leaf -maxdepth 1 \
		>/dev/null" records="$n_leaf1" check=1
	contender gnu_leaf1s "exec find $leaf -maxdepth 1 -printf '%p %s\n' \
		>/dev/null" records="$n_leaf1" check="$n_leaf1"
	contender xbulk_leaf1s "exec $XBULK find -j $j $leaf -maxdepth 1 \
		-printf '%p %s\n' >/dev/null" records="$n_leaf1" \
		check="$n_leaf1"
	contender gnu_du_leaf "exec du -x -s $leaf >/dev/null" \
		records="$n_leaf" check="$n_leaf"
	contender xbulk_du_leaf "exec $XBULK du -s -j $j $leaf >/dev/null" \
		records="$n_leaf" check="$n_leaf"
	contender gnu_top "exec find $top -xdev -printf '%p %s\n' >/dev/null" \
		records="$n_top" check="$n_top"
	contender xbulk_top "exec $XBULK find -j $j $top -printf '%p %s\n' \
		>/dev/null" records="$n_top" check="$n_top"
	contender gnu_du_top "exec du -x -s $top >/dev/null" \
		records="$n_top" check="$n_top"
	contender xbulk_du_top "exec $XBULK du -s -j $j $top >/dev/null" \
		records="$n_top" check="$n_top"
	contender gnu_name "exec find $M -xdev -name '*7*' >/dev/null" \
		records=names check="$n_dirs"
	contender xbulk_name "exec $XBULK find -j $j $M -name '*7*' \
		>/dev/null" records=names check="$n_dirs"
}

subtree_targets() {
	local state q want

	for state in $STATES; do
		for q in leaf1 leaf1s du_leaf top du_top name; do
			want=2
			[ $q = name ] && want=1
			target "$state" "xbulk_$q wall / gnu_$q wall" \
				"$(ratio "$(med "$state" "xbulk_$q" wall)" \
					"$(med "$state" "gnu_$q" wall)")" \
				"<=" "$want"
		done
	done
}
