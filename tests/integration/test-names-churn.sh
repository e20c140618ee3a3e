#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The names engine under churn and on damaged filesystems:
#   - while two workers create, rename (within and across directories,
#     directories too) and remove files and directories, repeated
#     names_dump runs at -j 1, 2 and 3 must each end with exit status 0,
#     print no path twice, and print every stable entry (a set made
#     before the churn and never touched) with its right path;
#   - a directory block made unreadable with xfs_db: the same output as
#     GNU find, the directory named (problem line and walk entry), exit 1
#     as find;
#   - an inode cluster made unreadable: its names still listed as find
#     lists them (find needs no stat for %i %p), each inode reported with
#     a path;
#   - an AG whose inode btree the kernel cannot read (its root block's
#     magic zeroed with xfs_db): names_dump, xbulk find and xbulk du go
#     on with the other AGs, name the AG (a problem; find's and du's
#     message, exit 1) and leave out only the names of its inodes;
#   - a directory listed by a second directory (a hard link to it, made
#     with xfs_db): named as damage, not followed, no loop; walked under
#     the parent its own ".." entry names, whichever listing is read
#     first (the link comes first in the root's listing, so -j 1 reads
#     the directory through it and leaves the dentry cache's parent
#     there: the ".." a path walk would see).
#
# Environment: NAMES_DUMP; CHURN_SECS (default 12).

. "$(dirname "$0")/lib-names.sh" names-churn
CHURN_SECS=${CHURN_SECS:-12}

# --- churn ------------------------------------------------------------
xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
M=$XB_MNT
mkdir "$M/stable" "$M/churn"
for ((d = 0; d < 16; d++)); do
	mkdir -p "$M/stable/s$d/sub"
	(cd "$M/stable/s$d" && for ((i = 0; i < 60; i++)); do
		: >"f$i"
	done && : >sub/leaf)
done
sync
find "$M/stable" -printf '%i\t%p\0' | sort -z >"$T/stable"
echo "$(tr -cd '\0' <"$T/stable" | wc -c) stable entries"

cat >"$T/churn.py" <<'EOF'
import os, random, sys, time
root, secs, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
r = random.Random(seed)
end = time.time() + secs
dirs, files, n, ops = [root], [], 0, 0
while time.time() < end:
    n += 1
    op = r.randrange(8)
    try:
        if op == 0 and len(dirs) < 300:
            d = os.path.join(r.choice(dirs), "d%d" % n)
            os.mkdir(d)
            dirs.append(d)
        elif op <= 2 and len(files) < 3000:
            f = os.path.join(r.choice(dirs), "f%d" % n)
            open(f, "w").close()
            files.append(f)
        elif op == 3 and files:
            i = r.randrange(len(files))
            t = os.path.join(r.choice(dirs), "r%d" % n)
            os.rename(files[i], t)
            files[i] = t
        elif op == 4 and len(dirs) > 1:
            s = dirs[r.randrange(1, len(dirs))]
            p = r.choice(dirs)
            if p == s or p.startswith(s + "/"):
                continue
            t = os.path.join(p, "m%d" % n)
            os.rename(s, t)
            move = lambda x: t + x[len(s):] if x == s or \
                x.startswith(s + "/") else x
            dirs = [move(x) for x in dirs]
            files = [move(x) for x in files]
        elif op == 5 and files:
            os.unlink(files.pop(r.randrange(len(files))))
        elif op == 6 and len(dirs) > 1:
            i = r.randrange(1, len(dirs))
            os.rmdir(dirs[i])
            dirs.pop(i)
        elif op == 7 and len(dirs) > 1:
            i = r.randrange(1, len(dirs))
            s = dirs[i]
            t = os.path.join(os.path.dirname(s), "n%d" % n)
            os.rename(s, t)
            move = lambda x: t + x[len(s):] if x == s or \
                x.startswith(s + "/") else x
            dirs = [move(x) for x in dirs]
            files = [move(x) for x in files]
        ops += 1
    except OSError:
        pass
print("ops=%d dirs=%d files=%d" % (ops, len(dirs), len(files)))
EOF

pids=()
xb_at_exit 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done'
for w in 0 1; do
	mkdir "$M/churn/w$w"
	"$PY" "$T/churn.py" "$M/churn/w$w" "$CHURN_SECS" "$w" \
		>"$T/churn$w.log" 2>&1 &
	pids+=($!)
done

runs=0 gone=0 moved=0
end=$(($(date +%s) + CHURN_SECS))
while (($(date +%s) < end)); do
	j=$((runs % 3 + 1))
	runs=$((runs + 1))
	rc=0
	timeout 60 "$DUMP" -j "$j" "$M" >"$T/out" 2>"$T/err" || rc=$?
	if ((rc != 0)); then
		rel_fail "run $runs (-j $j): exit status $rc:" \
			"$(head -n 3 "$T/err")"
		continue
	fi
	twice=$(cut -z -f2- "$T/out" | sort -z | uniq -dz | tr '\0' '\n')
	if [[ -n $twice ]]; then
		rel_fail "run $runs (-j $j): paths twice:" \
			"$(head -n 3 <<<"$twice")"
		continue
	fi
	missing=$(sort -z "$T/out" | comm -z -23 "$T/stable" - | tr '\0' '\n')
	if [[ -n $missing ]]; then
		rel_fail "run $runs (-j $j): stable entries missing or" \
			"misnamed: $(head -n 3 <<<"$missing")"
		continue
	fi
	gone=$((gone + $(sed -n 's/.* gone=\([0-9]*\) .*/\1/p' "$T/err")))
	moved=$((moved + $(sed -n 's/.* moved=\([0-9]*\) .*/\1/p' "$T/err")))
	rel_pass
done
# the workers must have run all along
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=$((failed + 1))
done
pids=()
rel_check "churn workers that failed" 0 "$failed"
((runs >= 3)) || rel_fail "only $runs runs"
churn=$(cat "$T"/churn*.log | tr '\n' ' ')
echo "churn: $churn runs=$runs dirs gone=$gone moved=$moved"

# a last run after the churn: find's bytes again
find "$M" -xdev -printf '%i\t%p\0' >"$T/find"
"$DUMP" -j 2 "$M" >"$T/out" 2>"$T/err"
rel_ok "after the churn: the same bytes as find" cmp -s "$T/find" "$T/out"

# --- damage -------------------------------------------------------------
xb_mkfs_mount 512M ""
T=$XB_TMP
M=$XB_MNT
# X before P: the root lists X first
mkdir -p "$M/X" "$M/P/y" "$M/Z" "$M/bad" "$M/ok"
touch "$M/X/f" "$M/P/y/inner" "$M/ok/a"
(cd "$M/Z" && for ((i = 0; i < 80; i++)); do : >"f$i"; done)
(cd "$M/bad" && for ((i = 0; i < 200; i++)); do : >"file_$i"; done)
y=$(stat -c %i "$M/P/y")
x=$(stat -c %i "$M/X")
z70=$(stat -c %i "$M/Z/f70")
bad=$(stat -c %i "$M/bad")
xb_umount
# X/f now names directory P/y: a hard link to a directory
xfs_db -x -c "inode $x" -c "write u3.sfdir3.list[0].inumber.i4 $y" \
	-c "write u3.sfdir3.list[0].filetype 2" "$XB_IMG" >/dev/null
# Z/f70's inode cluster unreadable (bad magic, good CRC)
xfs_db -x -c "inode $z70" -c "write -d core.magic 0" "$XB_IMG" >/dev/null
# bad's first directory block unreadable
xfs_db -x -c "inode $bad" -c "dblock 0" -c "write -d dhdr.hdr.magic 0" \
	"$XB_IMG" >/dev/null 2>&1
xb_remount

rc=0
find "$M" -xdev -printf '%i\t%p\0' >"$T/find" 2>"$T/find.err" || rc=$?
rel_check "find's exit status" 1 "$rc"
# find follows X/f into P/y; the engine names it and shows P/y only
grep -zv "^[0-9]*	$M/X/f\(/\|\$\)" "$T/find" >"$T/find-nolink"
for j in 1 2; do
	rc=0
	timeout 60 "$DUMP" -j $j "$M" >"$T/out" 2>"$T/err" || rc=$?
	rel_check "-j $j: exit status with an unreadable directory" 1 "$rc"
	rel_ok "-j $j: the same entries as find, but X/f and its contents" \
		cmp -s "$T/find-nolink" "$T/out"
	rel_ok "-j $j: unreadable directory named in the walk" \
		grep -q "names_dump: '$M/bad': Structure needs cleaning" \
		"$T/err"
	rel_ok "-j $j: unreadable directory named as a problem" \
		grep -q "^problem unreadable ino=$bad .* err=-117 path=$M/bad\$" \
		"$T/err"
	rel_ok "-j $j: bad inode reported with its name" \
		grep -q "^problem bad-inode ino=$z70 .* path=$M/Z/f70\$" \
		"$T/err"
	rel_ok "-j $j: directory hard link named, not followed" \
		grep -q "^problem dir-link ino=$y .* path=$M/X/f\$" "$T/err"
	rel_check "-j $j: damage count" 1 \
		"$(sed -n 's/.* damage=\([0-9]*\) .*/\1/p' "$T/err")"
done

# --- an AG the kernel cannot walk -----------------------------------------
xb_mkfs_mount 512M "-d agcount=4"
T=$XB_TMP
M=$XB_MNT
for d in a b c d e f; do
	mkdir -p "$M/$d/sub"
	(cd "$M/$d" && for ((i = 0; i < 30; i++)); do : >"f$i"; done)
	: >"$M/$d/sub/leaf"
done
sync
# inode number = AG << (agblklog + inopblog) | agino
bits=$(($(xfs_db -r -c sb -c 'print agblklog' "$XB_IMG" | sed 's/.* = //') +
	$(xfs_db -r -c sb -c 'print inopblog' "$XB_IMG" | sed 's/.* = //')))
ag=0
for d in a b c d e f; do
	ag=$(($(stat -c %i "$M/$d") >> bits))
	((ag != 0)) && break	# AG 0 holds the root
done
((ag != 0)) || xb_die "no directory outside AG 0"
find "$M" -xdev -printf '%i\t%p\0' >"$T/find"
# what no walk can show: inodes of that AG, and what is under them
"$PY" - "$T/find" "$bits" "$ag" >"$T/expected" <<'EOF_PY'
import sys
data, bits, ag = open(sys.argv[1], "rb").read(), int(sys.argv[2]), int(sys.argv[3])
gone, out = [], []
for rec in data.split(b"\0")[:-1]:
    ino, path = rec.split(b"\t", 1)
    if int(ino) >> bits == ag or any(path.startswith(g) for g in gone):
        gone.append(path + b"/")
        continue
    out.append(rec + b"\0")
sys.stdout.buffer.write(b"".join(out))
EOF_PY
xb_umount
xfs_db -x -c "agi $ag" -c "addr root" -c "write -d magic 0" "$XB_IMG" \
	>/dev/null
xb_remount
for j in 1 2; do
	rc=0
	timeout 60 "$DUMP" -j $j "$M" >"$T/out" 2>"$T/err" || rc=$?
	rel_check "damaged AG $ag, -j $j: names_dump's exit status" 0 "$rc"
	rel_ok "damaged AG $ag, -j $j: every name of the other AGs" \
		cmp -s "$T/expected" "$T/out"
	rel_ok "damaged AG $ag, -j $j: named as a problem" \
		grep -q "^problem ag-fault .* err=-117 path=$M agno=$ag\$" \
		"$T/err"
	rel_check "damaged AG $ag, -j $j: no other AG a problem" 1 \
		"$(grep -c "^problem ag-fault " "$T/err")"
	rc=0
	LC_ALL=C timeout 60 "$XB" find -j $j "$M" -printf '%i\t%p\0' >"$T/out" \
		2>"$T/err" || rc=$?
	rel_check "damaged AG $ag, find -j $j: exit status" 1 "$rc"
	rel_ok "damaged AG $ag, find -j $j: every name of the other AGs" \
		cmp -s "$T/expected" "$T/out"
	rel_ok "damaged AG $ag, find -j $j: the AG named" \
		grep -q "^xbulk find: '$M': AG $ag: .*: Structure needs cleaning; the rest of AG $ag was not scanned (the names of its inodes are left out)\$" \
		"$T/err"
	rel_check "damaged AG $ag, find -j $j: no other AG named" 1 \
		"$(grep -c ": AG [0-9]*: " "$T/err")"
	rc=0
	timeout 60 "$XB" du -s -j $j "$M" >"$T/out" 2>"$T/err" || rc=$?
	rel_check "damaged AG $ag, du -j $j: exit status" 1 "$rc"
	rel_ok "damaged AG $ag, du -j $j: the total" \
		grep -q "^[0-9]*	$M\$" "$T/out"
	rel_ok "damaged AG $ag, du -j $j: the AG named" \
		grep -q "^xbulk du: $M: AG $ag: .*: Structure needs cleaning; the rest of AG $ag was not scanned (its inodes are not counted)\$" \
		"$T/err"
	rel_check "damaged AG $ag, du -j $j: no other AG named" 1 \
		"$(grep -c ": AG [0-9]*: " "$T/err")"
done

rel_result "secs=$CHURN_SECS runs=$runs gone=$gone moved=$moved $churn"
rel_done
