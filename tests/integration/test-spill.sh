#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A memory budget changes nothing but where the names engine keeps what
# grows with the inode count (issue 25): find, du, snapshot and diff
# against a mount print byte for byte what they print in memory, at -j 1
# and -j 2, when every block (a snapshot's field stream too) goes to the
# spill file and its pages are let go every 1024 entries (XBULK_MEMORY=1M,
# or --memory 1M once per command); --stats=json says bytes were spilled;
# the spill file is never seen and its space is given back after SIGTERM,
# SIGINT, a closed stdout and a full --tmpdir (a small tmpfs; an ext2,
# which has no fallocate), which is one line and exit status 1; ulimit -v
# does not stop a spill; in a memory cgroup smaller than the in-memory
# need, snapshot completes under the default budget derived from the
# cgroup's limit.  find is forced to the scan (--strategy scan): the
# names-only walk of its simplest expressions holds nothing per inode.
#
# Environment: XBULK, POPULATE (bench/populate).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/find/lib-find.sh"
command -v jq >/dev/null || xb_skip "jq not installed (scripts/deps)"

XBULK=$(realpath "${XBULK:?}")
xb_require_root_loop
xb_mkfs_mount 4G "-d agcount=4"
M=$XB_MNT
T=$XB_TMP
SPILL=$T/spill			# --tmpdir: off the scanned filesystem
mkdir "$SPILL"
export TMPDIR=$SPILL
pass=0 fail=0

XF_NOW=$(date +%s)
(xf_make_tree "$M/odd")
mkdir "$M/pop"
"${POPULATE:?}" -n 30000 --empty-files "$M/pop" >/dev/null
ln "$M/odd/lower.txt" "$M/pop/hardlink"
sync

# spilled NAME CMD...: CMD in memory, then with every block spilled
# (budget $AT, 1M unless set); outputs and statuses must match
spilled()
{
	local name=$1 wrc grc

	shift
	XBULK_MEMORY=4G "$@" >"$T/want" 2>&1 && wrc=0 || wrc=$?
	XBULK_MEMORY=${AT:-1M} "$@" >"$T/got" 2>&1 && grc=0 || grc=$?
	if cmp -s "$T/want" "$T/got" && ((wrc == grc)) && [[ -s $T/want ]]
	then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name (status $wrc, spilled $grc)"
		diff "$T/want" "$T/got" | head -6 | cut -c1-160 || true
	fi
}

# snap_csv TAG SNAPSHOT: SNAPSHOT's rows, as export --csv writes them
snap_csv()
{
	rm -rf "$T/csv.$1"
	mkdir "$T/csv.$1"
	"$XBULK" export --csv "$T/csv.$1" "$2" >/dev/null
	cat "$T/csv.$1"/*.csv
}

for j in 1 2; do
	spilled "find -j $j %p..." "$XBULK" find --strategy scan -j "$j" "$M" \
		-printf '%p %i %s %n %u %g %m %y %TY %d\n'
	spilled "find -j $j -ls" "$XBULK" find --strategy scan -j "$j" "$M/odd" -ls
	spilled "find -j $j two operands -depth" "$XBULK" find --strategy scan -j "$j" \
		"$M/pop" "$M/odd" -depth -name '*1*' -print
	spilled "find -j $j -empty -type d" "$XBULK" find --strategy scan -j "$j" "$M" \
		-type d -empty
	spilled "find -j $j -samefile" "$XBULK" find --strategy scan -j "$j" "$M" \
		-samefile "$M/odd/lower.txt"
	spilled "du -j $j -a" "$XBULK" du -j "$j" -a "$M"
	spilled "du -j $j --by uid" "$XBULK" du -j "$j" -s --by uid "$M"
	spilled "du -j $j --inodes -d 2" "$XBULK" du -j "$j" --inodes -d 2 \
		"$M/pop" "$M/odd"
	# files folded into their directories: ~20 bytes an inode, so a
	# smaller budget for the pages to be let go too
	AT=256K spilled "du -j $j -d 3 (folded)" "$XBULK" du -j "$j" -d 3 "$M"
	AT=256K spilled "du -j $j -S -b (folded)" "$XBULK" du -j "$j" -S -b \
		"$M/pop"
	rm -f "$T/s.mem" "$T/s.spill"
	XBULK_MEMORY=4G "$XBULK" snapshot -j "$j" "$M" "$T/s.mem"
	XBULK_MEMORY=1M "$XBULK" snapshot -j "$j" "$M" "$T/s.spill"
	snap_csv "$j" "$T/s.spill" >"$T/got"
	snap_csv "$j" "$T/s.mem" >"$T/want"
	if cmp -s "$T/want" "$T/got" && [[ -s $T/want ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: snapshot -j $j spilled: other rows"
	fi
done

# diff against the mount after changes, both ways
"$XBULK" snapshot "$M" "$T/old"
mv "$M/pop/d0" "$M/odd/moved" 2>/dev/null || mv "$M/odd/d1" "$M/moved"
rm -f "$M/odd/size1"*
echo new >"$M/odd/newfile"
ln "$M/odd/newfile" "$M/odd/newlink"
sync
xb_settle	# else the run in memory may mark a change (!), the spilled one not
for j in 1 2; do
	spilled "diff -j $j" "$XBULK" diff -j "$j" "$T/old" "$M"
	spilled "diff -j $j -o jsonl" "$XBULK" diff -j "$j" -o jsonl \
		"$T/old" "$M"
done

# --memory itself, and --stats=json saying what was spilled
"$XBULK" find --strategy scan -j 2 --memory 1M --stats=json "$M" -printf '%p\n' \
	>"$T/got" 2>"$T/stats"
XBULK_MEMORY=4G "$XBULK" find --strategy scan -j 2 "$M" -printf '%p\n' >"$T/want"
if cmp -s "$T/want" "$T/got" &&
   jq -e '.spill_bytes > 0 and .spill_trims > 0 and
	       .memory_budget_bytes == 1048576' \
	"$T/stats" >/dev/null; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: find --memory 1M --stats=json"
	head -c 600 "$T/stats"
fi
for c in "du -s" "snapshot" "diff $T/old"; do
	rm -f "$T/s.x"
	# shellcheck disable=SC2086
	case $c in
	snapshot) set -- snapshot --memory 1M --stats=json "$M" "$T/s.x" ;;
	diff*) set -- diff --memory 1M --stats=json "$T/old" "$M" ;;
	# du -s folds its files: under 1M at this size
	*) set -- du -s --memory 256K --stats=json "$M" ;;
	esac
	"$XBULK" "$@" >/dev/null 2>"$T/stats" || true
	if jq -e '.spill_bytes > 0 and .spill_trims > 0' "$T/stats" \
		>/dev/null; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $c --memory 1M --stats=json: nothing spilled"
		head -c 600 "$T/stats"
	fi
done

# Spill hygiene: the file is unnamed, and its space comes back at exit
# whatever the exit.  A 4 MiB tmpfs as --tmpdir.
SMALL=$T/small
mkdir "$SMALL"
mount -t tmpfs -o size=3m xbulk-spill "$SMALL"	# one 2 MiB block
xb_at_exit "umount $SMALL"
used()
{
	df -k --output=used "$SMALL" | tail -1 | tr -d ' '
}
clean()
{
	local what=$1

	if [[ -z $(ls -A "$SMALL") ]] && (($(used) == 0)); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what left spill data ($(used) KiB, $(ls -A "$SMALL"))"
	fi
}
XBULK_MEMORY=1M "$XBULK" find --strategy scan --tmpdir "$SMALL" "$M" >/dev/null \
	2>"$T/err" && rc=0 || rc=$?
# the line says what was placed and about what the whole run needs,
# more than the directory holds
need=$(sed -n "s/.*no room in ${SMALL//\//\\/} for the spill file: \([0-9]*\) bytes placed of about \([0-9]*\) needed.*/\1 \2/p" "$T/err")
if ((rc == 1)) && (($(wc -l <"$T/err") == 1)) && [[ -n $need ]] &&
   ((${need#* } > ${need% *})); then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: a full --tmpdir: status $rc, $(head -c 300 "$T/err")"
fi
clean "a full --tmpdir"
umount "$SMALL"
# ext2 has no fallocate(): the space is reserved by writing zeros, so a
# full disk is the same line, not a SIGBUS at a write to the mapping
truncate -s 4M "$T/ext2.img"
mkfs.ext2 -q -F "$T/ext2.img"
mount -o loop "$T/ext2.img" "$SMALL"
XBULK_MEMORY=1M "$XBULK" find --strategy scan --tmpdir "$SMALL" "$M" >/dev/null \
	2>"$T/err" && rc=0 || rc=$?
umount "$SMALL"
if ((rc == 1)) && grep -q "no room in $SMALL" "$T/err"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: a full ext2 --tmpdir: status $rc, $(head -c 300 "$T/err")"
fi
# under ulimit -v the addresses reserved for the mapping fit the limit
if (ulimit -v 1048576 && XBULK_MEMORY=1M "$XBULK" du -s "$M" >/dev/null)
then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: du spilled under ulimit -v 1 GiB"
fi
mount -t tmpfs -o size=64m xbulk-spill "$SMALL"
{ XBULK_MEMORY=1M "$XBULK" find --strategy scan --tmpdir "$SMALL" "$M" || true; } |
	head -1 >/dev/null
clean "a closed stdout"
for sig in TERM INT; do
	# stopped once the spill file exists, then signalled
	XBULK_MEMORY=1M "$XBULK" du -a --tmpdir "$SMALL" "$M" >/dev/null &
	pid=$!
	for _ in $(seq 1 200); do
		(($(used) > 0)) && break
		sleep 0.01
	done
	kill -s "$sig" "$pid" 2>/dev/null || true
	wait "$pid" || true
	clean "SIG$sig"
done

# Inside a memory cgroup of 32 MiB, smaller than what snapshot needs in
# memory for 300k inodes (~48 MiB): killed with a budget of 4G, done
# under the default budget it derives from the limit (8 MiB), with the
# rows of a snapshot taken outside.  The inodes are warmed outside first
# (the kernel charges an inode it reads to the reader's cgroup), the
# spill file is on disk ($T: tmpfs pages would be charged too).
memcg_dir()
{
	if [[ -f /sys/fs/cgroup/cgroup.controllers ]] &&
	   grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	then
		echo "/sys/fs/cgroup/xbulk-spill-$$ memory.max"
	elif [[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]]; then
		echo "/sys/fs/cgroup/memory/xbulk-spill-$$ memory.limit_in_bytes"
	fi
}
in_cgroup()
{
	local dir=$1

	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$dir" "$@"
}
read -r CG LIMIT < <(memcg_dir) || true
if [[ -n ${CG:-} ]] && mkdir "$CG" 2>/dev/null; then
	xb_at_exit "rmdir '$CG' 2>/dev/null"
	mkdir "$M/big"
	"$POPULATE" -n 270000 --empty-files "$M/big" >/dev/null
	sync
	"$XBULK" bulkstat -q "$M"
	"$XBULK" find --strategy scan "$M" >/dev/null
	rm -f "$T/s.out" "$T/s.cg" "$T/s.4g"
	"$XBULK" snapshot "$M" "$T/s.out"
	echo $((32 << 20)) >"$CG/$LIMIT"
	in_cgroup "$CG" env XBULK_MEMORY=4G "$XBULK" snapshot "$M" "$T/s.4g" \
		>/dev/null 2>&1 && rc4=0 || rc4=$?
	in_cgroup "$CG" env -u XBULK_MEMORY "$XBULK" snapshot --stats=json \
		"$M" "$T/s.cg" 2>"$T/stats" && rc=0 || rc=$?
	if ((rc4 != 0 && rc == 0)) &&
	   jq -e '.memory_budget_bytes == 8388608 and .spill_bytes > 0' \
		"$T/stats" >/dev/null &&
	   cmp -s <(snap_csv out "$T/s.out") <(snap_csv cg "$T/s.cg"); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: a 32 MiB cgroup: status $rc4 with 4G, $rc under" \
		     "the default budget; $(head -c 300 "$T/stats")"
	fi
	echo $((1 << 62)) >"$CG/$LIMIT" 2>/dev/null || echo max >"$CG/$LIMIT"
	rmdir "$CG"
else
	echo "SKIP (one case): no memory cgroup controller to make one in"
fi

echo "spill: $pass passed, $fail failed"
((fail == 0))
