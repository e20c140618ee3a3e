# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/ab.sh: this build against an older one (OLD_BUILD, a build
# directory of another commit) on the commands whose memory issue 25
# reworked, in memory (no budget reached), each pair run in turn by
# bench/run so that noise hits both alike:
#   find_p      xbulk find -j 2 MNT -printf '%p\n' (names only: since
#               issue 26 the new build may walk where the old scanned)
#   find_ps     xbulk find -j 2 MNT -printf '%p %s\n' (a scan in both)
#   du_s        xbulk du -s -j 2 MNT
#   snapshot    xbulk snapshot -j 2 MNT FILE (FILE on tmpfs)
#   diff_live   xbulk diff -j 2 OLD MNT (OLD made once by this build)
# each as new_NAME and old_NAME.  Target (issue 25): no command more than
# 5% slower than the old build, hot and uncached.
# Run: OLD_BUILD=/path/to/old/build bench/run --suite ab --states hot,uncached

ab_contenders() {
	local d=${SHM:-/dev/shm}/xbulk-bench-ab old=${OLD_BUILD:-}/xbulk x

	[ -x "$old" ] || die "ab suite: OLD_BUILD must name a build directory"
	mkdir -p "$d"
	"$XBULK" snapshot -j 2 "$MNT" "$d/base" ||
		die "ab suite: xbulk snapshot failed"
	for x in new old; do
		local bin=$XBULK

		[ $x = new ] || bin=$old
		# (the new build walks it with no bulkstat: the directories
		# are all it looks up)
		contender "${x}_find_p" \
			"exec $bin find -j 2 $M -printf '%p\n' >/dev/null" \
			records=names check=$([ $x = new ] && echo dirs || echo inodes)
		contender "${x}_find_ps" \
			"exec $bin find -j 2 $M -printf '%p %s\n' >/dev/null" \
			records=names
		contender "${x}_du_s" "exec $bin du -s -j 2 $M >/dev/null"
		contender "${x}_snapshot" "exec $bin snapshot -j 2 $M $d/s.$x"
		contender "${x}_diff_live" \
			"$bin diff -j 2 $d/base $M >/dev/null; [ \$? -le 1 ]"
	done
}

ab_targets() {
	local state n

	for state in $STATES; do
		for n in find_p find_ps du_s snapshot diff_live; do
			target "$state" "new_$n wall / old_$n wall" \
				"$(ratio "$(med "$state" "new_$n" wall)" \
					"$(med "$state" "old_$n" wall)")" "<=" 1.05
		done
	done
}
