#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The names engine (lib/names/) against GNU find on one mounted tree:
# names_dump prints "ino<TAB>path" and a NUL per entry, as
# find -xdev -printf '%i\t%p\0' does, and the two must be the same bytes
# (so also the same order: readdir order, a directory of 12,000 entries
# sorted by inode number) on a tree with names holding spaces, newlines,
# tabs and invalid UTF-8, 255-byte names, a 10,050-level deep directory
# (paths far past PATH_MAX), hard links inside and across directories,
# symlinks, FIFOs, sockets, device nodes, empty directories and
# directories without permissions:
#   - -j 1, 2 and 3; find -depth's order; several starts (a subtree, a
#     trailing '/', a file, a symlink); symlink targets (%l); a keep
#     filter that drops every file;
#   - every directory opened once, by name: with every inode cached, a
#     build looks up in the inode cache only what the scan returns and
#     the few inodes it opens by handle (the root), not one per directory
#     (a tree of 1,111 small directories; before commit ce48da0 a reader
#     reopened by handle each directory whose parent's fd it had closed);
#   - the XFS handle layout against name_to_handle_at();
#   - a bind mount of a subdirectory (paths stay inside it; what is
#     outside is unreached) and a tmpfs mounted inside the tree (shown as
#     find -xdev shows it, not entered; what it covers is unreached);
#   - no atime change (strictatime), proven able to fail by ls;
#   - without CAP_DAC_READ_SEARCH or CAP_SYS_ADMIN: a clear failure;
#   - cancellation at several points of the build: stopped within 100 ms
#     on a quiet machine (the longest is printed); the check fails only
#     past 1000 ms, as test-signals.sh, for loaded machines.
#
# Environment: NAMES_DUMP.

. "$(dirname "$0")/lib-names.sh" names

xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP
M=$XB_MNT
xb_populate "$M" 3000

# --- the odd parts of the tree
"$PY" - "$M" <<'EOF'
import os, socket, sys
m = sys.argv[1]
os.chdir(m)
os.mkdir(b"odd")
for n in [b"with space", b"new\nline", b"tab\there", b"bad\xff\xfeutf8",
          b"-leading-dash", b"quote'\"back\\slash", b"x" * 255,
          b"\xc3\xa9t\xc3\xa9"]:
    open(b"odd/" + n, "w").close()
os.mkdir(b"odd/" + b"d" * 255)
open(b"odd/" + b"d" * 255 + b"/" + b"f" * 255, "w").close()
os.mkdir("odd/empty")
os.mkdir("odd/empty2")
s = socket.socket(socket.AF_UNIX)
s.bind("odd/sock")
s.close()
os.mkfifo("odd/fifo")
os.link("odd/with space", "odd/hardlink in same dir")
os.link("odd/with space", "d01/hardlink across")
os.symlink("../nowhere", "odd/dangling")
os.symlink("with space", "odd/symlink")
# directories nobody may enter (root reads them anyway)
for d in ["locked", "locked/inner"]:
    os.mkdir("odd/" + d)
    open("odd/%s/file" % d, "w").close()
os.chmod("odd/locked/inner", 0)
os.chmod("odd/locked", 0)
# small directories, 10 x 10 x 10 under one, 3 files each
for a in range(10):
    for b in range(10):
        for c in range(10):
            d = "small/%d/%d/%d" % (a, b, c)
            os.makedirs(d)
            for f in range(3):
                open("%s/f%d" % (d, f), "w").close()
# a big directory: fts sorts its entries by inode number
os.mkdir("big")
for i in range(12000):
    open("big/f%05d" % ((i * 7919) % 12000), "w").close()
os.mkdir("big/sub")
# a deep one: 10,050 levels, paths of ~20,000 bytes
os.mkdir("deep")
os.chdir("deep")
for i in range(10050):
    os.mkdir("d")
    os.chdir("d")
open("leaf", "w").close()
EOF
sync

# run OUT CMD...: stdout to OUT, stderr to OUT.err; REL_RC: exit status
run()
{
	local out=$1

	shift
	REL_RC=0
	"$@" >"$out" 2>"$out.err" || REL_RC=$?
}

# dump OUT [ARGS...]: names_dump ARGS
dump()
{
	local out=$1

	shift
	run "$out" "$DUMP" "$@"
}

# same WHAT EXPECTED ACTUAL: the same bytes, else the first differences
same()
{
	if cmp -s "$2" "$3"; then
		rel_pass
		return
	fi
	rel_fail "$1: differs from find"
	if cmp -s <(tr '\0' '\n' <"$2" | sort) <(tr '\0' '\n' <"$3" | sort)
	then
		echo "      (same entries, another order)"
	fi
	rel_show_diff <(tr '\0' '\n' <"$2") <(tr '\0' '\n' <"$3")
}

PF='%i\t%p\0'
find "$M" -xdev -printf "$PF" >"$T/find"
echo "$(tr -cd '\0' <"$T/find" | wc -c) entries"

# --- the whole tree at -j 1, 2, 3
for j in 1 2 3; do
	dump "$T/j$j" -j "$j" "$M"
	rel_check "-j $j: exit status" 0 "$REL_RC"
	same "-j $j" "$T/find" "$T/j$j"
done
rel_check "summary line" 1 "$(grep -c '^names_dump: inodes=' "$T/j1.err")"

# --- every directory opened once, by name, none again by handle: with
# the tree cached, the inode cache's lookups are the scan's and a few
# more (the root: bulkstat_single, checked and read by handle; the
# realtime bitmap and summary inodes the kernel looks up and bulkstat
# does not return: 5 here), whatever the readers' order
dev=$(basename "$(findmnt -n -o SOURCE "$M")")
lookups()
{
	awk '/^ig / { print $2 }' "/sys/fs/xfs/$dev/stats/stats"
}
if [[ -r /sys/fs/xfs/$dev/stats/stats ]]; then
	for j in 1 2; do
		find "$M" -xdev >/dev/null	# every dentry and inode cached
		before=$(lookups)
		dump "$T/q" -q -j "$j" "$M"
		extra=$(($(lookups) - before - $(sed -n \
			's/.* inodes=\([0-9]*\) .*/\1/p' "$T/q.err")))
		echo "-j $j: $extra inode cache lookups beyond the scan's"
		rel_ok "-j $j: no directory opened again ($extra lookups)" \
			test "$extra" -le 8
	done
else
	echo "SKIP: no /sys/fs/xfs/$dev/stats/stats: lookups not counted"
fi

# --- find -depth's order
find "$M" -xdev -depth -printf "$PF" >"$T/find-depth"
dump "$T/depth" -j 2 -d "$M"
same "-depth" "$T/find-depth" "$T/depth"

# --- several starts: a subtree, a trailing '/', files, a symlink, '..'
starts=("$M/d01" "$M/d02/sub/" "$M/odd/with space" "$M/d00/sym_3"
	"$M/big" "$M/odd/../d03" "$M/")
find "${starts[@]}" -xdev -printf "$PF" >"$T/find-starts"
dump "$T/starts" -j 2 "$M" "${starts[@]}"
same "starts" "$T/find-starts" "$T/starts"

# --- symlink targets, read by handle
find "$M" -xdev \( -type l -printf '%i\t%p\t%l\0' \) -o -printf "$PF" \
	>"$T/find-l"
dump "$T/l" -l "$M"
same "symlink targets" "$T/find-l" "$T/l"

# --- a keep filter that drops every file: directories only
find "$M" -xdev -type d -printf "$PF" >"$T/find-dirs"
dump "$T/k" -j 2 -k "$M"
same "keep filter" "$T/find-dirs" "$T/k"
rel_check "keep filter: dropped count" \
	"$(find "$M" -xdev ! -type d -printf '%i\n' | sort -u | wc -l)" \
	"$(sed -n 's/.* dropped=\([0-9]*\) .*/\1/p' "$T/k.err")"

# --- the handle layout
for p in "$M" "$M/d05" "$M/odd/with space"; do
	rel_ok "handle of $p as name_to_handle_at() gives it" "$DUMP" -H "$p"
done

# --- a bind mount of a subdirectory: its top is the top
B=$T/bindmnt
mkdir "$B"
mount --bind "$M/d03" "$B"
xb_at_exit "umount -l '$B' 2>/dev/null"
find "$B" -xdev -printf "$PF" >"$T/find-bind"
dump "$T/bind" -j 2 -u "$B"
# the walk, then the unreached inodes: split at the first line of -u
n=$(tr -cd '\0' <"$T/find-bind" | wc -c)
head -z -n "$n" "$T/bind" >"$T/bind-walk"
same "bind mount" "$T/find-bind" "$T/bind-walk"
tail -z -n +"$((n + 1))" "$T/bind" | tr '\0' '\n' | sort -n >"$T/bind-u"
comm -23 <(find "$M" -xdev -printf '%i\n' | sort -u) \
	<(find "$B" -printf '%i\n' | sort -u) | sort -n >"$T/bind-u-want"
rel_ok "bind mount: unreached = outside the subdirectory" \
	cmp -s "$T/bind-u-want" "$T/bind-u"
umount "$B"

# --- a mount inside the tree: shown as find -xdev shows it, not entered
covered=$(stat -c %i "$M/d04/sub")
mount -t tmpfs -o size=1m none "$M/d04/sub"
xb_at_exit "umount -l '$M/d04/sub' 2>/dev/null"
touch "$M/d04/sub/on-tmpfs"
find "$M" -xdev -printf "$PF" >"$T/find-mnt"
dump "$T/o-mnt" -j 2 "$M"
same "tmpfs inside" "$T/find-mnt" "$T/o-mnt"
find "$M" -xdev -depth -printf "$PF" >"$T/find-mnt-depth"
dump "$T/mnt-depth" -d "$M"
same "tmpfs inside, -depth" "$T/find-mnt-depth" "$T/mnt-depth"
dump "$T/mnt-u" -u "$M" "$M/odd/empty"
rel_ok "covered directory $covered is unreached" \
	grep -qz "^$covered\$" "$T/mnt-u"
umount "$M/d04/sub"

# --- no atime change: strictatime would update it on every read
mount -o remount,strictatime "$M"
before=$(stat -c %x "$M/d05" "$M/d05/sub" "$M")
dump "$T/atime" -j 2 "$M"
rel_check "atimes after the walk" "$before" \
	"$(stat -c %x "$M/d05" "$M/d05/sub" "$M")"
ls "$M/d05" >/dev/null
rel_ok "ls changes the atime (the check can fail)" \
	test "$before" != "$(stat -c %x "$M/d05" "$M/d05/sub" "$M")"
mount -o remount,relatime "$M"

# --- without the capabilities
run "$T/nocap" \
	setpriv --inh-caps=-all --bounding-set=-dac_read_search "$DUMP" "$M"
rel_check "no CAP_DAC_READ_SEARCH: exit status" 1 "$REL_RC"
rel_ok "no CAP_DAC_READ_SEARCH: the handle stage, EPERM" \
	grep -q 'stage 2): Operation not permitted' "$T/nocap.err"
run "$T/nocap" setpriv --inh-caps=-all --bounding-set=-sys_admin "$DUMP" "$M"
rel_check "no CAP_SYS_ADMIN: exit status" 1 "$REL_RC"
rel_ok "no CAP_SYS_ADMIN: the scan stage, EPERM" \
	grep -q 'stage 1): Operation not permitted' "$T/nocap.err"

# --- cancellation, wherever it lands: what the engine does after the
# flag is set is at most, per thread, the scan's call under way (4,096
# records, lib/names/build.c) and, per reader, the subdirectories of the
# directory it read opened at once (256 by name, the rest by handle:
# lookups), and one walk's 1,024 entries before it looks again
# (lib/names/walk.c); how long it took is printed, not judged.  (The
# reads' stop is counted in getdents calls by test-find-signals.sh, on a
# larger tree.)
maxms=0
for ms in 0 2 5 10 20 40 80; do
	for j in 1 2; do
		tag="cancel at $ms ms, -j $j"
		dump "$T/cancel" -j "$j" -C "$ms" "$M"
		stop=$(sed -n 's/.*stopped \([0-9.]*\) ms after the cancel: lookups_after=\(-*[0-9]*\) entries_after=\([0-9]*\)$/\1 \2 \3/p' \
			"$T/cancel.err")
		if [[ $REL_RC == 0 ]] &&
		   grep -q 'finished before the cancel' "$T/cancel.err"; then
			rel_pass
			continue
		elif [[ $REL_RC != 130 && $REL_RC != 0 ]]; then
			rel_fail "$tag: exit status $REL_RC"
			continue
		elif [[ -z $stop ]]; then
			rel_fail "$tag: no figures after the cancel"
			continue
		fi
		read -r took looked walked <<<"$stop"
		echo "  [$tag] stopped $took ms after it (printed only):" \
			"$looked lookups, $walked entries walked after it"
		rel_ok "[$tag] $looked lookups after the cancel" \
			test "$looked" -ge 0 -a "$looked" -le $((j * (4096 + 256)))
		rel_ok "[$tag] $walked entries walked after the cancel" \
			test "$walked" -le 1024
		took=${took%.*}
		((took > maxms)) && maxms=$took
	done
done
echo "cancellation: longest stop ${maxms} ms (printed only)"

rel_done
