#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Errors that concern the whole filesystem stop with one message that
# says why (issue 8, finding 4).  On an idmapped bind mount the kernel
# refuses bulkstat, v1 and v5, with EINVAL (dmesg: "bulkstat not supported
# inside of idmapped mounts"); inumbers works.  Under -v 1 EINVAL is also
# the kernel's answer for a free inode, and xbulk 0.1 called the refusal
# "not allocated".  Now:
#   - bulkstat_single -v 5 and -v 1 of a list on the idmapped mount: exit
#     1, nothing on stdout, one line: the refusal, the idmapped mount, and
#     to use the filesystem's own mount;
#   - bulkstat -j 1, -j 2, -v 1: the same one line;
#   - inumbers -j 1/2: exit 0, the output of the filesystem's own mount;
#   - the same list on the own mount: exit 0;
#   - without CAP_SYS_ADMIN (nobody) the list stops with one line too.
# The idmapped mount is made by idmap_mount (open_tree, mount_setattr with
# MOUNT_ATTR_IDMAP and a user namespace, move_mount): Debian 12's mount(8)
# cannot make one.
#
# Environment: XBULK, IDMAP_MOUNT, XB_RESULTS.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init idmap
[[ -x ${IDMAP_MOUNT:-} ]] || xb_die "IDMAP_MOUNT (the idmap_mount helper) not built"

xb_mkfs_mount 1G "-d agcount=2"
xb_populate "$XB_MNT" 300
T=$XB_TMP
IDM=$T/idmapped
mkdir "$IDM"
umount_idm()
{
	umount "$IDM" 2>/dev/null || umount -l "$IDM" 2>/dev/null || true
}
xb_at_exit umount_idm
if ! "$IDMAP_MOUNT" "$XB_MNT" "$IDM" 2>"$T/idm.err"; then
	xb_skip "cannot make an idmapped mount: $(cat "$T/idm.err")"
fi
[[ $(stat -c %u "$IDM") == 100000 ]] ||
	xb_die "the idmapped mount does not map uid 0 to 100000"

mapfile -t inos < <("$XBULK" bulkstat -j 1 "$XB_MNT" |
		    sed -n 's/^bs_ino = //p' | sed -n '2p;100p;$p')
free=$((inos[2] + 1))
refusal="bulkstat: Invalid argument: the kernel refuses bulkstat on idmapped mounts; use the filesystem's own mount"

# one_line TAG WANT-RC WANT-LINE CMD...: exit status, nothing on stdout,
# exactly one line on stderr.
one_line()
{
	local tag=$1 want_rc=$2 want=$3 rc=0

	shift 3
	timeout 60 "$@" >"$T/out" 2>"$T/err" || rc=$?
	rel_check "[$tag] exit status" "$want_rc" "$rc"
	rel_check "[$tag] stdout bytes" 0 "$(stat -c %s "$T/out")"
	rel_check "[$tag] stderr" "$want" "$(cat "$T/err")"
}

for v in 5 1; do
	list=("${inos[@]}" "$free")
	[[ $v == 5 ]] && list=(root "${list[@]}")
	one_line "bulkstat_single -v $v, idmapped" 1 \
		"xbulk bulkstat_single: $IDM: $refusal" \
		"$XBULK" bulkstat_single -v "$v" "$IDM" "${list[@]}"
	rc=0
	"$XBULK" bulkstat_single -v "$v" "$XB_MNT" "${list[@]:0:${#list[@]}-1}" \
		>"$T/out" 2>"$T/err" || rc=$?
	rel_check "[bulkstat_single -v $v, own mount] exit status" 0 "$rc"
	rel_check "[bulkstat_single -v $v, own mount] records" \
		$((${#list[@]} - 1)) "$(grep -c '^bs_ino' "$T/out")"
done
for args in "-j 1" "-j 2" "-j 1 -v 1" "-j 2 -v 1"; do
	# shellcheck disable=SC2086
	one_line "bulkstat $args, idmapped" 1 "xbulk bulkstat: $IDM: $refusal" \
		"$XBULK" bulkstat $args "$IDM"
done
"$XBULK" inumbers -j 1 "$XB_MNT" >"$T/inumbers-own"
for j in 1 2; do
	rc=0
	"$XBULK" inumbers -j "$j" "$IDM" >"$T/out" 2>"$T/err" || rc=$?
	rel_check "[inumbers -j $j, idmapped] exit status" 0 "$rc"
	rel_ok "[inumbers -j $j, idmapped] output differs from the own mount's" \
		cmp -s "$T/inumbers-own" "$T/out"
done

# No CAP_SYS_ADMIN: the list stops at once, one line.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 755 "$T"
	one_line "bulkstat_single as nobody" 1 \
		"xbulk bulkstat_single: $XB_MNT: bulkstat: Operation not permitted (needs CAP_SYS_ADMIN)" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$XBULK" bulkstat_single "$XB_MNT" root "${inos[@]}"
fi

rel_result "passed=$REL_PASS failed=$REL_FAIL"
rel_done
