# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/suites/snapfind.sh: find over a snapshot file (issue 26), against
# plocate on the same names and against xbulk find on the mount:
#   snap_name   xbulk find --snapshot S MNT -name '*7*'
#   plocate     plocate -b -d DB '*7*'   (updatedb -U MNT, nothing pruned)
#   live_name   xbulk find -j N MNT -name '*7*'
#   snap_size   xbulk find --snapshot S MNT -size +8k -printf '%p %s\n'
#   live_size   xbulk find -j N MNT -size +8k -printf '%p %s\n'
# The snapshot and the database are made once, on /dev/shm: the offline
# contenders read no inode (no cache state to prove; check=none).
# Every contender prints the same names (the suite checks the counts).
# Run: bench/run --suite snapfind --states hot,uncached

snapfind_contenders() {
	local j=$JOBS d=${SHM:-/dev/shm}/xbulk-bench-snapfind n_snap n_loc

	command -v plocate >/dev/null && command -v updatedb >/dev/null ||
		die "snapfind suite: plocate not installed (apt-get install plocate)"
	mkdir -p "$d"
	"$XBULK" snapshot -j 2 "$MNT" "$d/snap" ||
		die "snapfind suite: xbulk snapshot failed"
	updatedb -o "$d/plocate.db" -U "$MNT" --prunepaths '' --prunefs '' \
		--prunenames '' -l no ||
		die "snapfind suite: updatedb failed"
	n_snap=$("$XBULK" find --snapshot "$d/snap" "$MNT" -name '*7*' | wc -l)
	n_loc=$(plocate -b -d "$d/plocate.db" '*7*' | wc -l)
	[ "$n_snap" = "$n_loc" ] ||
		die "snapfind suite: $n_snap names from the snapshot, $n_loc from plocate"
	log "snapfind suite: $n_snap names match '*7*'"
	contender snap_name "exec $XBULK find --snapshot $d/snap $M \
		-name '*7*' >/dev/null" records=names check=none
	contender plocate "exec plocate -b -d $d/plocate.db '*7*' >/dev/null" \
		records=names check=none
	contender "live_name_$j" "exec $XBULK find -j $j $M -name '*7*' \
		>/dev/null" records=names check=dirs
	contender snap_size "exec $XBULK find --snapshot $d/snap $M \
		-size +8k -printf '%p %s\n' >/dev/null" records=names \
		check=none
	contender "live_size_$j" "exec $XBULK find -j $j $M -size +8k \
		-printf '%p %s\n' >/dev/null" records=names
}
