#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What xbulk does with the features of modern XFS that the xfs_io matrix
# (test-xfsio-matrix.sh) cannot compare byte for byte, on one image made
# by mkfs.xfs 6.13 with parent pointers and a metadata directory:
#
#  - bulkstat -m and bulkstat_single -m on a kernel that rejects
#    XFS_BULK_IREQ_METADIR (before 6.13): strace makes the first bulkstat
#    call fail with EINVAL, as such a kernel does; xbulk must say so in one
#    line and exit 1, with no record on stdout.
#
# Skips without xfsprogs 6.13 (scripts/trixie-tools xfsprogs) or strace.
# Environment: XBULK (the binary).

# shellcheck disable=SC2317 # functions run through rel_* helpers
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-reliability.sh"

rel_init modern
xb_have_new || xb_skip "xfsprogs 6.13 not installed (scripts/deps as root)"
command -v strace >/dev/null || xb_skip "strace not installed (scripts/deps)"

W=
# ---------------------------------------------------------------------------
# A kernel that rejects XFS_BULK_IREQ_METADIR

# The number of the first XFS_IOC_BULKSTAT ioctl (_IOR('X', 127, 64
# bytes)) among the ioctls of xbulk ARGS..., as strace counts them.
first_bulkstat_call()
{
	strace -f -e trace=ioctl -o "$W/trace" "$XBULK" "$@" \
		>/dev/null 2>&1 || true
	grep -n '0x58, 0x7f, 0x40' "$W/trace" | head -n 1 | cut -d: -f1
}

# rejects WHAT ARGS...: xbulk ARGS with the first bulkstat call failing
# EINVAL must print one line naming the flag, nothing on stdout, exit 1.
rejects()
{
	local n rc=0 want='the kernel rejects XFS_BULK_IREQ_METADIR (-m needs Linux 6.13 or later)'

	n=$(first_bulkstat_call "$@")
	if [[ -z $n ]]; then
		rel_fail "xbulk $*: no bulkstat ioctl in strace's trace"
		return
	fi
	strace -f -o /dev/null -e trace=ioctl \
		-e "inject=ioctl:error=EINVAL:when=$n" "$XBULK" "$@" \
		>"$W/out" 2>"$W/err" || rc=$?
	if ((rc == 1)) && [[ ! -s $W/out ]] &&
	   [[ $(wc -l <"$W/err") == 1 ]] && grep -qF "$want" "$W/err"; then
		rel_pass
	else
		rel_fail "xbulk $* (bulkstat call $n fails EINVAL): exit status $rc, $(wc -c <"$W/out") bytes on stdout, stderr '$(head -n 2 "$W/err")'"
	fi
}

check_metadir_rejected()
{
	local meta

	rejects bulkstat -m -j 1 "$XB_MNT"
	rejects bulkstat -m -j 1 -d -n 7 "$XB_MNT"
	meta=$(xb_new xfs_io -c 'bulkstat -m' "$XB_MNT" |
		sed -n 's/^bs_ino = //p' | sed -n 2p)
	rejects bulkstat_single -m "$XB_MNT" "$meta" root
	# Without -m the same calls carry no such flag: nothing to reject
	# (the injected EINVAL is then the kernel's answer to the call).
}

# ---------------------------------------------------------------------------

xb_mkfs_mount 1G "xfsprogs=6.13 -d agcount=4 -n parent=1 -m metadir=1"
W=$XB_TMP/w
mkdir -p "$W"
xb_populate "$XB_MNT" 300
REL_TAG="parent+metadir"
check_metadir_rejected
REL_TAG=
xb_cleanup
rel_done
