# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/growth.sh: what grew (issue 28's speed): the growth per
# directory, down to -d 3 (the leaf directories of populate's tree),
# between a snapshot OLD and now:
#   since_files    xbulk du --since OLD -B1 -d 3 NEW: two snapshot files,
#                  offline; reads no inode (check=none)
#   since_live_J   xbulk du --since OLD -B1 -d 3 -j J MNT: against the mount
#   diff_live_J    xbulk diff -j J OLD MNT: the same scan, for the ratio
#   du_join        what people do today: GNU du -x -B1 -d 3 of now, sorted
#                  and joined (sort, join, awk, sort by growth) with the
#                  du of then, kept as a file
#   ncdu_growth    the other habit: ncdu -o of now, and a short script
#                  over it and the export of then (bench/ncdu-growth.py)
# OLD, du's file and ncdu's export of then are made first, once; then
# the tree changes (bench/growth-change.py, seeded with --seed: 1% of the
# files grow by 4-64 KiB, 0.2% are removed, 5% of the leaf directories
# gain 20 files of 64 KiB, one leaf directory moves), and NEW is a
# snapshot of the changed tree.  bench/run mounts its image read-only,
# so the change is made on its own read-write mount of the image before
# the states run (and copied to the disk image, for the cold state),
# and the inode, directory and name counts the state checks use are
# counted again.  With --mnt the tree is not ours and is not changed:
# NEW is then a second snapshot of the same tree, no growth, which is
# still the worst case of the offline figure (every record decoded,
# none skipped).  Run it alone or after other suites (they would
# measure the changed tree; snapshot's and ab's OLD would be older).
# Before the runs, the contenders' outputs are compared once: the live
# and offline rows byte for byte, and the "now" size of the top and of
# every directory at depth 1 against du's and ncdu's.
# Targets: since_files under 1 s hot at 1M inodes (its wall scaled to
# 1M inodes); since_live within 1.2x of diff_live; the two habits' wall
# over since_live's, stated (>= 1); peak RSS per million inodes of both
# du --since contenders (offline: grows with the directories, not the
# files; live: the snapshot scan's, as diff's).  The per-1M figures are
# meant for 1M inodes: at --quick's 100k the fixed costs (about 6 MiB of
# program and buffers offline, 20 MiB live) count ten times over.
# Run: bench/run --suite growth --states hot,uncached

growth_depth=3

# growth_change_tree: apply growth-change.py to the image on a
# read-write mount of its own, then mount it as bench/run had it.
growth_change_tree() {
	local medium=$MOUNTED img other=

	case $medium in
	mem) img=$IMG_MEM other=$IMG_DISK ;;
	disk) img=$IMG_DISK other=$IMG_MEM ;;
	*) die "growth suite: no image mounted" ;;
	esac
	unmount_image
	mount -o loop "$img" "$OWN_MNT" ||
		die "growth suite: mounting $img read-write failed"
	MOUNTED=$medium
	python3 "$SELF_DIR/growth-change.py" "$OWN_MNT/tree" "$SEED" >&2 ||
		die "growth suite: growth-change.py failed"
	unmount_image
	if [ -n "$other" ]; then
		cp --sparse=always "$img" "$other" ||
			die "growth suite: copying the changed image failed"
	fi
	mount_image "$medium"
	# the state checks expect the changed tree's counts
	NINODES=$("$FLOOR" "$MNT" | sed -n 's/.* inodes=\([0-9]*\) .*/\1/p')
	[ -n "$NINODES" ] || die "growth suite: floor probe failed"
	read -r NDIRS NNAMES < <(find "$MNT" -printf '%y\n' |
		awk '$1 == "d" { d++ } END { print d + 0, NR }')
	log "growth suite: changed tree: $NINODES inodes, $NDIRS directories," \
		"$NNAMES names"
}

# growth_top FILE PREFIX: "PATH NOW" of the top and the directories at
# depth 1 of a CHANGE NOW THEN ... PATH listing (PATH the last field,
# PREFIX cut from its front), sorted; rows gone (NOW 0) left out.
growth_top() {
	awk -F '\t' -v p="$2" '{
		path = $NF
		if (p != "" && index(path, p) == 1) {
			path = substr(path, length(p) + 1)
			sub("^/", "", path)
			if (path == "") path = "."
		}
		if (path !~ /\// && $2 > 0) print path, $2 }' "$1" |
		LC_ALL=C sort
}

# growth_agree DIR NAME WHAT PREFIX: die unless DIR/NAME.out (WHAT's
# output, its paths under PREFIX) has du --since's top rows.
growth_agree() {
	growth_top "$1/$2.out" "$4" >"$1/$2.top"
	cmp -s "$1/files.top" "$1/$2.top" ||
		die "growth suite: du --since and $3 disagree on now:" \
			"$(diff "$1/files.top" "$1/$2.top" | head -n 4 |
				tr '\n' ' ')"
}

growth_contenders() {
	local j=$JOBS d=${SHM:-/dev/shm}/xbulk-bench-growth n=$growth_depth
	local tab=$'\t' join ncdu top

	command -v ncdu >/dev/null ||
		die "growth suite: ncdu not installed (apt-get install ncdu)"
	command -v python3 >/dev/null || die "growth suite: no python3"
	rm -rf "$d"
	mkdir -p "$d"
	GROWTH_DIR=$d
	# then: made once, outside the timing
	"$XBULK" snapshot -j 2 "$MNT" "$d/old" ||
		die "growth suite: xbulk snapshot failed"
	du -x -B1 -d "$n" "$MNT" >"$d/then.du" ||
		die "growth suite: du of then failed"
	ncdu -q -x -o "$d/then.json" "$MNT" >/dev/null 2>&1 ||
		die "growth suite: ncdu -o of then failed"
	if [ -n "$OWN_MNT" ]; then
		growth_change_tree
	else
		log "growth suite: --mnt: the tree is not changed; NEW is a" \
			"second snapshot of it (no growth)"
	fi
	"$XBULK" snapshot -j 2 "$MNT" "$d/new" ||
		die "growth suite: xbulk snapshot failed"

	# now, by each contender's command, once: the outputs must agree
	join="du -x -B1 -d $n $M | LC_ALL=C sort -t '$tab' -k2,2 |
		LC_ALL=C join -t '$tab' -1 2 -2 2 -a 1 -a 2 -e 0 -o 0,1.1,2.1 \
			<(LC_ALL=C sort -t '$tab' -k2,2 $d/then.du) - |
		awk -F '$tab' '{ printf \"%.0f\t%.0f\t%.0f\t%s\n\",
			\$3 - \$2, \$3, \$2, \$1 }' |
		LC_ALL=C sort -t '$tab' -k1,1nr"
	ncdu="ncdu -q -x -o $d/now.json $M >/dev/null 2>&1 &&
		python3 $(q "$SELF_DIR/ncdu-growth.py") -d $n $d/then.json \
			$d/now.json"
	"$XBULK" du --since "$d/old" -B1 -d "$n" "$d/new" >"$d/files.out" ||
		die "growth suite: xbulk du --since OLD NEW failed"
	"$XBULK" du --since "$d/old" -B1 -d "$n" -j "$j" "$MNT" \
		>"$d/live.out" ||
		die "growth suite: xbulk du --since OLD MNT failed"
	cmp -s "$d/files.out" "$d/live.out" ||
		die "growth suite: du --since OLD MNT and OLD NEW differ" \
			"($d/live.out, $d/files.out)"
	bash -c "$join" >"$d/join.out" || die "growth suite: du + join failed"
	bash -c "$ncdu" >"$d/ncdu.out" ||
		die "growth suite: ncdu + script failed"
	growth_top "$d/files.out" "" >"$d/files.top"
	[ -s "$d/files.top" ] ||
		die "growth suite: du --since printed no top row"
	growth_agree "$d" join "du + join" "$MNT"
	growth_agree "$d" ncdu "ncdu + script" ""
	top=$(awk -F '\t' '$NF == "." { print $1 }' "$d/files.out")
	log "growth suite: $(wc -l <"$d/files.out") rows to -d $n; growth" \
		"at the top: $top bytes; du + join and ncdu agree on now at" \
		"depth <= 1"
	rm -f "$d/now.json"

	contender since_files "exec $XBULK du --since $d/old -B1 -d $n \
		$d/new >/dev/null" check=none
	contender "since_live_$j" "exec $XBULK du --since $d/old -B1 -d $n \
		-j $j $M >/dev/null"
	contender "diff_live_$j" \
		"$XBULK diff -j $j $d/old $M >/dev/null; [ \$? -le 1 ]"
	contender du_join "$join >/dev/null"
	# (the exit status is the pipeline's, the export removed after)
	contender ncdu_growth "$ncdu >/dev/null; r=\$?; rm -f $d/now.json;
		exit \$r"
}

growth_targets() {
	local j=$JOBS state n rss limit

	for state in $STATES; do
		# issue 28: under 1 s hot for 1M inodes (at another size,
		# the wall scaled to 1M: linear, fixed costs included)
		n=$(med hot since_files wall)
		[ "$state" = hot ] && target hot \
			"since_files wall (s per 1M inodes)" \
			"$([ -n "$n" ] && awk -v w="$n" -v n="$NINODES" \
				'BEGIN { printf "%.3f", w * 1e6 / n }')" "<=" 1
		target "$state" "since_live_$j wall / diff_live_$j wall" \
			"$(ratio "$(med "$state" "since_live_$j" wall)" \
				"$(med "$state" "diff_live_$j" wall)")" "<=" 1.2
		target "$state" "du_join wall / since_live_$j wall" \
			"$(ratio "$(med "$state" du_join wall)" \
				"$(med "$state" "since_live_$j" wall)")" ">=" 1
		target "$state" "ncdu_growth wall / since_live_$j wall" \
			"$(ratio "$(med "$state" ncdu_growth wall)" \
				"$(med "$state" "since_live_$j" wall)")" ">=" 1
		for n in since_files "since_live_$j"; do
			rss=$(med "$state" "$n" rss_kib)
			[ -n "$rss" ] || continue
			# offline: directories only; live: the scan's, as
			# the snapshot suite's diff (<= 200)
			limit=200
			[ "$n" = since_files ] && limit=32
			target "$state" "$n peak RSS (MiB per 1M inodes)" \
				"$(awk -v r="$rss" -v n="$NINODES" 'BEGIN {
					printf "%.1f", r / 1024 * 1e6 / n }')" \
				"<=" "$limit"
		done
	done
	rm -rf "$GROWTH_DIR"
}
