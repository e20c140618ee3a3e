#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers for xbulk's integration tests.  Source this file:
#
#	. "$(dirname "$0")/lib.sh"
#	xb_require_root_loop
#	xb_mkfs_mount 1G "-d agcount=4"
#	xb_populate "$XB_MNT" 2000
#	...
#
# xb_mkfs_mount installs EXIT/INT/TERM traps that unmount the filesystem,
# detach its loop device and remove the temporary directory.  A test that
# needs its own clean-up must register it with xb_at_exit instead of
# calling trap itself.

set -euo pipefail

XB_TMP=
XB_IMG=
XB_MNT=
XB_MOUNT_OPTS=
XB__EXIT_HOOKS=()

# Exit code meson treats as "test skipped".
XB_SKIP=77

# XB_TEST_DEPTH=full (scripts/check --full) runs the longer forms of the
# tests that have one: every geometry through the whole xfs_io matrix,
# every point of a slowed run for the signals, longer churn.  The default,
# "standard", is what scripts/check runs in its 15 minutes: each case
# still once, on fewer geometries and points (each test says which).
XB_TEST_DEPTH=${XB_TEST_DEPTH:-standard}

# Is this the full run?
xb_full()
{
	[[ $XB_TEST_DEPTH == full ]]
}

# Wait until a change just made cannot be flagged as changing by the
# next snapshot (settle.py says why).
xb_settle()
{
	python3 "$TOP/tests/integration/settle.py"
}

xb_skip()
{
	echo "SKIP: $*"
	exit "$XB_SKIP"
}

xb_die()
{
	echo "FAIL: $*" >&2
	exit 1
}

# xb_want_fail NAME STATUS PATTERN OUT ERR CMD...: run CMD (stdout to
# OUT, stderr to ERR); it must exit STATUS with one line on stderr that
# matches the extended regex PATTERN and nothing on stdout.
xb_want_fail()
{
	local name=$1 want=$2 pat=$3 out=$4 err=$5 rc=0

	shift 5
	"$@" >"$out" 2>"$err" || rc=$?
	((rc == want)) ||
		xb_die "$name: exit status $rc, not $want: $(cat "$err")"
	[[ $(wc -l <"$err") == 1 ]] ||
		xb_die "$name: not one line: $(cat "$err")"
	grep -Eq -- "$pat" "$err" ||
		xb_die "$name: message '$(cat "$err")' lacks /$pat/"
	[[ ! -s $out ]] || xb_die "$name: printed on stdout"
}

# ---------------------------------------------------------------------------
# Preconditions

xb__have_xfs()
{
	grep -qw xfs /proc/filesystems 2>/dev/null && return 0
	modprobe -q xfs 2>/dev/null || true
	grep -qw xfs /proc/filesystems 2>/dev/null
}

# Skip (exit 77) unless we are root, have loop devices, XFS and xfsprogs.
xb_require_root_loop()
{
	local tool

	((EUID == 0)) || xb_skip "needs root"
	losetup -f >/dev/null 2>&1 || xb_skip "no loop device support"
	xb__have_xfs || xb_skip "xfs not in /proc/filesystems"
	for tool in mkfs.xfs xfs_io xfs_db; do
		command -v "$tool" >/dev/null 2>&1 ||
			xb_skip "$tool not installed (run scripts/deps)"
	done
}

# ---------------------------------------------------------------------------
# Image, mount and clean-up

# Mkfs options the suite runs over, one set per line.  Every line makes a
# filesystem that mounts on a 1G sparse image (kernel 6.18, mkfs 6.1).
# v4 (-m crc=0) images are left out: this kernel refuses to mount them.
xb_geometries()
{
	cat <<-'EOF'
	-d agcount=2
	-d agcount=8
	-d agcount=4 -i size=512
	-d agcount=4 -i size=2048
	-b size=1024 -m bigtime=0,finobt=0 -i sparse=0 -d agcount=4
	-d agcount=4 -i nrext64=1
	EOF
}

# The geometries of mkfs.xfs 6.13 (scripts/trixie-tools xfsprogs), one set per
# line, each tagged "xfsprogs=6.13" (xb_mkfs_mount then runs mkfs 6.13 and
# xb_xfs_io runs xfs_io 6.13 on the image): its defaults (nrext64=1,
# rmapbt=1), parent pointers, the metadata directory, file content
# exchange, and every combination of them that mkfs 6.13 makes.  Each
# line names exchange= itself, as mkfs 6.13 turns exchange on with
# parent=1 (unless told exchange=0) and refuses metadir=1 without it:
# parent alone, parent+exchange, exchange alone, metadir+exchange, all
# three.  All mount on kernel 6.13 and later.
xb_new_geometries()
{
	cat <<-'EOF'
	xfsprogs=6.13 -d agcount=4
	xfsprogs=6.13 -d agcount=4 -n parent=1 -i exchange=0
	xfsprogs=6.13 -d agcount=4 -n parent=1 -i exchange=1
	xfsprogs=6.13 -d agcount=4 -i exchange=1
	xfsprogs=6.13 -d agcount=4 -m metadir=1 -i exchange=1
	xfsprogs=6.13 -d agcount=3 -n parent=1 -m metadir=1 -i size=1024,exchange=1
	xfsprogs=6.13 -b size=1024 -d agcount=4 -m metadir=1,rmapbt=0 -i nrext64=0,exchange=1
	EOF
}

# ---------------------------------------------------------------------------
# xfsprogs 6.13 in its private prefix (scripts/trixie-tools xfsprogs)

XB_NEW_ROOT=
XB_XFSPROGS=6.1

# Is xfsprogs 6.13 installed?  Sets XB_NEW_ROOT.
xb_have_new()
{
	[[ -n $XB_NEW_ROOT ]] && return 0
	XB_NEW_ROOT=$("$(dirname "${BASH_SOURCE[0]}")/../../scripts/trixie-tools" xfsprogs \
		--root 2>/dev/null) || XB_NEW_ROOT=
	[[ -n $XB_NEW_ROOT ]]
}

# xb_new TOOL ARGS...: run xfsprogs 6.13's TOOL (xfs_io, mkfs.xfs,
# xfs_db, ...) through its own loader and libraries.
xb_new()
{
	local lib

	xb_have_new || xb_die "xfsprogs 6.13 not installed (scripts/deps as root)"
	lib=$XB_NEW_ROOT/usr/lib/x86_64-linux-gnu
	"$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
		"$XB_NEW_ROOT/usr/sbin/$1" "${@:2}"
}

# xb_xfsprogs VERSION TOOL ARGS...: TOOL of xfsprogs VERSION (6.13: the
# private one; anything else: the system's, 6.1).
xb_xfsprogs()
{
	local version=$1 tool=$2

	shift 2
	if [[ $version == 6.13 ]]; then
		xb_new "$tool" "$@"
	else
		"$tool" "$@"
	fi
}

# xb_xfs_io ARGS..., xb_xfs_db ARGS...: the xfs_io or xfs_db of the
# xfsprogs that made the current image (6.13 for xb_new_geometries).
xb_xfs_io()
{
	xb_xfsprogs "$XB_XFSPROGS" xfs_io "$@"
}

xb_xfs_db()
{
	xb_xfsprogs "$XB_XFSPROGS" xfs_db "$@"
}

xb__mounted()
{
	[[ -n $XB_MNT ]] || return 1
	mountpoint -q "$XB_MNT" 2>/dev/null && return 0
	# mountpoint(1) stat()s the directory, which fails (EIO) once the
	# filesystem is shut down: look in the mount table too.
	awk -v m="$XB_MNT" 'BEGIN { gsub(/ /, "\\040", m) }
		$2 == m { f = 1 } END { exit !f }' /proc/self/mounts
}

# Detach every loop device still bound to our image.
xb__detach_loops()
{
	local dev

	[[ -n $XB_IMG ]] || return 0
	while read -r dev; do
		if [[ -n $dev ]]; then
			losetup -d "$dev" 2>/dev/null || true
		fi
	done < <(losetup -j "$XB_IMG" -O NAME -n 2>/dev/null || true)
}

# Unmount XB_MNT (retrying while busy) and detach its loop device.
# Leaves the mount point first if the current directory is inside it.
# Returns non-zero if the filesystem is still mounted afterwards.
xb_umount()
{
	local i

	[[ -n $XB_MNT ]] || return 0
	case $PWD/ in
	"$XB_MNT"/*) cd / ;;
	esac
	for ((i = 0; i < 30; i++)); do
		xb__mounted || break
		umount "$XB_MNT" 2>/dev/null && break
		sleep 0.1
	done
	xb__detach_loops
	! xb__mounted
}

# Mount XB_IMG on XB_MNT again, optionally with extra mount options.
xb_remount()
{
	local opts=${1:-$XB_MOUNT_OPTS}

	xb__mounted && xb_die "xb_remount: $XB_MNT is still mounted"
	mount -o "loop${opts:+,$opts}" "$XB_IMG" "$XB_MNT"
}

# Is PID this shell or one of its descendants?
xb__ours()
{
	local pid=$1 stat ppid

	while ((pid > 1)); do
		((pid == $$)) && return 0
		read -r stat 2>/dev/null <"/proc/$pid/stat" || return 1
		stat=${stat##*) }
		read -r _ ppid _ <<<"$stat"
		pid=$ppid
	done
	return 1
}

# Does PID have its cwd, root or an open file on XB_MNT?
xb__uses_mnt()
{
	local pid=$1 link target

	for link in "/proc/$pid/cwd" "/proc/$pid/root" "/proc/$pid"/fd/*; do
		target=$(readlink "$link" 2>/dev/null) || continue
		[[ $target == "$XB_MNT" || $target == "$XB_MNT"/* ]] &&
			return 0
	done
	return 1
}

# SIGKILL the processes this test started that keep XB_MNT busy.
xb__kill_mnt_users()
{
	local dir pid killed=0

	for dir in /proc/[0-9]*; do
		pid=${dir#/proc/}
		((pid == $$ || pid == BASHPID)) && continue
		if ! xb__ours "$pid" || ! xb__uses_mnt "$pid"; then
			continue
		fi
		echo "xb_cleanup: killing pid $pid, it keeps $XB_MNT busy" >&2
		kill -KILL "$pid" 2>/dev/null && killed=1
	done
	((killed)) && sleep 0.2
	return 0
}

# Register a command to run at exit, before the filesystem is unmounted
# (e.g. to kill a background scanner that would keep it busy).
xb_at_exit()
{
	XB__EXIT_HOOKS+=("$*")
}

# Unmount, detach and remove everything xb_mkfs_mount made.  Idempotent,
# never fails; safe to call from a trap while errexit is on.
xb_cleanup()
{
	local -

	set +e
	[[ -n $XB_TMP ]] || return 0

	if ! xb_umount; then
		xb__kill_mnt_users
		if ! xb_umount; then
			echo "xb_cleanup: $XB_MNT busy, lazy unmount" >&2
			umount -l "$XB_MNT" 2>/dev/null
			xb__detach_loops
		fi
	fi
	# --one-file-system: never reach into a filesystem still mounted there
	rm -rf --one-file-system "$XB_TMP"
	XB_TMP='' XB_IMG='' XB_MNT='' XB_MOUNT_OPTS='' XB_XFSPROGS=6.1
	return 0
}

xb__run_exit_hooks()
{
	local i

	for ((i = ${#XB__EXIT_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${XB__EXIT_HOOKS[i]}" || true
	done
	XB__EXIT_HOOKS=()
}

# Run the exit hooks, clean up and exit with status RC.
xb__finish()
{
	local rc=$1

	set +e
	xb__run_exit_hooks
	xb_cleanup
	exit "$rc"
}

xb__install_traps()
{
	trap 'xb__finish $?' EXIT
	trap 'xb__finish 130' INT
	trap 'xb__finish 143' TERM
}

# xb_mkfs_mount SIZE "MKFS OPTS" ["MOUNT OPTS"]
#
# Make a sparse SIZE image in a fresh temporary directory, mkfs.xfs it with
# the given options and loop-mount it.  Sets XB_TMP, XB_IMG and XB_MNT.
# MKFS OPTS starting with "xfsprogs=6.13" (xb_new_geometries) use mkfs.xfs
# 6.13 and set XB_XFSPROGS=6.13 (xb_xfs_io, xb_xfs_db follow it).
# A filesystem made by an earlier call is cleaned up first.
xb_mkfs_mount()
{
	local size=$1 mkfs_opts=${2:-} mount_opts=${3:-}
	local -a opts

	xb_cleanup
	xb__install_traps

	XB_TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbulk.XXXXXX")
	XB_IMG=$XB_TMP/xfs.img
	XB_MNT=$XB_TMP/mnt
	XB_MOUNT_OPTS=$mount_opts
	mkdir "$XB_MNT"

	read -r -a opts <<<"$mkfs_opts"
	truncate -s "$size" "$XB_IMG"
	if [[ ${opts[0]:-} == xfsprogs=6.13 ]]; then
		XB_XFSPROGS=6.13
		xb_new mkfs.xfs -q -f "${opts[@]:1}" "$XB_IMG"
	else
		mkfs.xfs -q -f "${opts[@]}" "$XB_IMG"
	fi
	xb_remount "$mount_opts"
}

# xb_cluster_inodes: inodes per inode cluster of the image at XB_IMG, from
# its superblock (xb_xfs_db -r reads it mounted too): the unit the kernel
# reads and verifies at once, so that a zeroed magic number makes every
# inode of the cluster unreadable.  8 KiB scaled by the inode size over
# 256 bytes (v5), 8 KiB if the inode alignment is smaller, at least one
# block's worth.
xb_cluster_inodes()
{
	local sb isize bsize align bytes n

	sb=$(xb_xfs_db -r -c 'sb 0' -c 'print inodesize blocksize inoalignmt' \
		"$XB_IMG")
	isize=$(sed -n 's/^inodesize = //p' <<<"$sb")
	bsize=$(sed -n 's/^blocksize = //p' <<<"$sb")
	align=$(sed -n 's/^inoalignmt = //p' <<<"$sb")
	bytes=$((8192 * isize / 256))
	((align * bsize >= bytes)) || bytes=8192
	n=$((bytes / isize))
	((n >= bsize / isize)) || n=$((bsize / isize))
	echo "$n"
}

# ---------------------------------------------------------------------------
# Populating a filesystem

# Run CMD ARGS... on the NUL-separated path names read from stdin, in
# batches (so neither ARG_MAX nor the fd limit of xfs_io is hit).
xb__batch()
{
	xargs -0 -r -n 512 "$@"
}

# xb__every ARRAY FIRST STEP: print every STEP-th element of ARRAY,
# starting at index FIRST, NUL-separated.
xb__every()
{
	local -n arr_=$1
	local first=$2 step=$3 i

	for ((i = first; i < ${#arr_[@]}; i += step)); do
		printf '%s\0' "${arr_[i]}"
	done
}

# Clamp N*PCT/100 into [MIN, MAX].
xb__share()
{
	local n=$1 pct=$2 min=$3 max=$4 v

	v=$((n * pct / 100))
	((v < min)) && v=$min
	((v > max)) && v=$max
	echo "$v"
}

# A string of LEN copies of CHAR, built without forking.
xb__repeat()
{
	local -n out_=$1
	local ch=$2 len=$3

	printf -v out_ '%*s' "$len" ''
	out_=${out_// /$ch}
}

# Write the xattr dump for setfattr --restore to stdout.
xb__xattr_dump()
{
	local -n files_=$1
	local big i j f

	xb__repeat big v 30000
	for ((i = 0; i < ${#files_[@]}; i++)); do
		f=${files_[i]}
		printf '# file: %s\n' "$f"
		printf 'user.xb_idx="%d"\n' "$i"
		case $((i % 6)) in
		0)	printf 'user.empty=""\n' ;;
		1)	printf 'user.bin=0x%08x\n' $((i * 2654435761 % 4294967296)) ;;
		2)	# many attrs: leaf format attr fork (extents)
			for ((j = 0; j < 60; j++)); do
				printf 'user.many_%03d="value %d of file %d"\n' \
					"$j" "$j" "$i"
			done ;;
		3)	# remote value: attr fork with extents
			printf 'user.big="%s"\n' "$big" ;;
		*)	printf 'trusted.xb="t%d"\n' "$i" ;;
		esac
		printf '\n'
	done
}

# xb_populate MNT N
#
# Fill MNT with N entries of mixed kinds (`find MNT | wc -l` is exactly N
# for N >= 150; a smaller N still gets one of each kind, ~120 entries),
# spread over 48 directories and so over several AGs: small, empty, sparse, many-extent and preallocated regular files, nested
# directories, short/long/remote symlinks, fifos, char and block devices,
# hard links (nlink 2..5), user and trusted xattrs (short form, leaf form,
# remote values), project IDs (16- and 32-bit), extent size hints, some
# xflags, deleted inodes (holes in inode chunks), timestamps before 1970
# and after 2038 (clamped on bigtime=0), assorted uids/gids/modes.
# Deterministic; finishes with sync.
xb_populate()
{
	local mnt=$1 n=$2

	[[ -d $mnt ]] || xb_die "xb_populate: $mnt is not a directory"
	((n > 0)) || xb_die "xb_populate: bad count '$n'"
	(cd "$mnt" && TZ=UTC LC_ALL=C xb__populate "$n")
	sync
}

xb__populate()
{
	local n=$1
	local -a dirs=() data=() empty=() sparse=() multi=() prealloc=()
	local -a fifos=() hl=() xattr=() proj=() ext=() doomed=() syms=()
	local -a all=() files=()
	local n_data n_sparse n_multi n_fifo n_hl n_xattr n_proj n_ext
	local n_sym n_fill n_links=0 n_other i j k d f len blob tgt
	local long250 long1000 seg

	# --- directories: 16 top-level (the rotor spreads them over the AGs),
	# each with two nested levels
	for ((i = 0; i < 16; i++)); do
		d=$(printf 'd%02d' "$i")
		dirs+=("$d" "$d/sub" "$d/sub/deep")
	done
	mkdir -p ext_dir proj_dir flag_dir "${dirs[@]}"
	xfs_io -c 'extsize 1m' ext_dir
	xfs_io -c 'chproj 7' -c 'chattr +P' proj_dir
	xfs_io -c 'chattr +n' -c 'chattr +d' flag_dir

	n_data=$(xb__share "$n" 20 1 100000000)
	n_sparse=$(xb__share "$n" 1 2 32)
	n_multi=4
	n_fifo=$(xb__share "$n" 1 1 64)
	n_hl=$(xb__share "$n" 1 4 64)
	n_xattr=$(xb__share "$n" 3 6 3000)
	n_proj=$(xb__share "$n" 2 2 2000)
	n_ext=$(xb__share "$n" 1 2 64)
	n_sym=$(xb__share "$n" 5 12 100000000)
	for ((i = 0; i < n_hl; i++)); do
		n_links=$((n_links + i % 4 + 1))
	done
	# root, 3 flag dirs, dirs, 8 device nodes, 4 prealloc, 6 files in
	# the flag dirs, 4 links_K dirs
	n_other=$((1 + 3 + ${#dirs[@]} + 8 + 4 + 6 + 4))
	n_fill=$((n - n_other - n_data - n_sparse - n_multi - n_fifo - n_hl \
		  - n_links - n_xattr - n_proj - n_ext - n_sym))
	((n_fill >= 0)) || n_fill=0

	# --- names, round-robin over the directories
	for ((i = 0; i < n_data; i++)); do
		data+=("${dirs[i % 48]}/data_$i")
	done
	for ((i = 0; i < n_sparse; i++)); do
		sparse+=("${dirs[(i * 7) % 48]}/sparse_$i")
	done
	for ((i = 0; i < n_multi; i++)); do
		multi+=("${dirs[(i * 13) % 48]}/multi_$i")
	done
	for ((i = 0; i < 4; i++)); do
		prealloc+=("${dirs[(i * 5) % 48]}/prealloc_$i")
	done
	for ((i = 0; i < n_fifo; i++)); do
		fifos+=("${dirs[(i * 3) % 48]}/fifo_$i")
	done
	for ((i = 0; i < n_hl; i++)); do
		hl+=("${dirs[(i * 11) % 48]}/hl_$i")
	done
	for ((i = 0; i < n_xattr; i++)); do
		xattr+=("${dirs[(i * 5) % 48]}/xattr_$i")
	done
	for ((i = 0; i < n_proj; i++)); do
		proj+=("${dirs[(i * 17) % 48]}/proj_$i")
	done
	for ((i = 0; i < n_ext; i++)); do
		ext+=("${dirs[(i * 19) % 48]}/ext_$i")
	done
	# every 11th of them is deleted again at the end
	for ((i = 0; ${#empty[@]} < n_fill; i++)); do
		f="${dirs[i % 48]}/e_$i"
		files+=("$f")
		if ((i % 11 == 5)); then
			doomed+=("$f")
		else
			empty+=("$f")
		fi
	done

	# --- empty files, and in between them the ones deleted again later
	# (holes in the inode chunks), one touch
	printf '%s\0' "${files[@]}" "${hl[@]}" "${xattr[@]}" "${proj[@]}" \
		"${ext[@]}" | xb__batch touch --
	touch ext_dir/inherit_0 ext_dir/inherit_1 \
	      proj_dir/inherit_0 proj_dir/inherit_1 \
	      flag_dir/f0 flag_dir/f1

	# --- small data files, bash builtins only (no fork per file)
	xb__repeat blob x 6000
	for ((i = 0; i < n_data; i++)); do
		len=$(((i * 397) % 5000))
		printf 'data file %d\n%s' "$i" "${blob:0:len}" >"${data[i]}"
	done

	# --- sparse: 1 GiB with 4 KiB written in the middle; two shapes
	xb__every sparse 0 2 |
		xb__batch xfs_io -f -c 'truncate 1g' -c 'pwrite -q 512m 4k'
	xb__every sparse 1 2 |
		xb__batch xfs_io -f -c 'pwrite -q 0 4k' -c 'pwrite -q 3g 4k' \
			-c 'truncate 5g'

	# --- many extents: every other 4 KiB block, highest offset first so
	# that speculative preallocation past EOF cannot fill the holes
	local -a cmds=()
	for ((k = 199; k >= 0; k--)); do
		cmds+=(-c "pwrite -q $((k * 8192)) 4096")
	done
	cmds+=(-c fsync)
	printf '%s\0' "${multi[@]}" | xb__batch xfs_io -f "${cmds[@]}"

	# --- preallocated (unwritten) extents: sets the prealloc xflag
	printf '%s\0' "${prealloc[@]}" |
		xb__batch xfs_io -f -c 'falloc 0 1m' -c 'pwrite -q 0 4k'

	# --- symlinks: ln -t names them after the target's last component
	xb__repeat seg a 240
	long250=$seg
	long1000=$seg/$seg/$seg/$seg
	for ((i = 0; i < n_sym; i++)); do
		case $((i % 16)) in
		0)	tgt=$long1000/rsym_$i ;;	# remote (extents)
		1|2)	tgt=$long250/lsym_$i ;;		# long, >200 chars
		*)	tgt=../target/sym_$i ;;		# short, inline
		esac
		syms+=("$tgt")
		if (((i + 1) % 48 == 0 || i + 1 == n_sym)); then
			ln -s -t "${dirs[(i / 48) % 48]}" -- "${syms[@]}"
			syms=()
		fi
	done

	# --- fifos, device nodes
	printf '%s\0' "${fifos[@]}" | xb__batch mkfifo --
	mknod d00/chr_null c 1 3
	mknod d01/chr_tty c 4 64
	mknod d02/chr_pts c 136 0
	mknod d03/chr_max c 511 262143
	mknod d04/blk_loop b 7 0
	mknod d05/blk_sd b 8 17
	mknod d06/blk_nvme b 259 65536
	mknod d07/blk_zero b 0 0

	# --- hard links: hl_i ends with nlink 2..5
	for ((k = 1; k <= 4; k++)); do
		files=()
		for ((i = 0; i < n_hl; i++)); do
			((i % 4 + 1 >= k)) && files+=("${hl[i]}")
		done
		d=${dirs[(k * 10) % 48]}/links_$k
		mkdir "$d"
		ln -t "$d" -- "${files[@]}"
	done

	# --- xattrs: one setfattr for all of them
	xattr+=(d10 d11/sub)
	setfattr --restore=- < <(xb__xattr_dump xattr)
	setfattr -h -n trusted.link -v on d00/sym_3

	# --- project IDs (16-bit and one past 16 bits), extent size hints
	xb__every proj 0 2 |
		xb__batch xfs_io -c 'chproj 42'
	xb__every proj 1 2 |
		xb__batch xfs_io -c 'chproj 4000000'
	printf '%s\0' "${ext[@]}" | xb__batch xfs_io -c 'extsize 1m'
	# Off by default: kernel 6.18's bulkstat does not clear
	# bs_cowextsize_blks for an inode without the hint, so later records
	# of the same ioctl call repeat it and the output depends on where
	# the batches start.
	if [[ ${XB_POPULATE_COWEXTSIZE:-0} == 1 ]]; then
		xfs_io -c 'cowextsize 256k' "${ext[0]}" 2>/dev/null || true
	fi
	xfs_io -c 'chattr +A' -c 'chattr +S' -c 'chattr +d' "${data[0]}"

	# --- deletions leave holes in the inode chunks
	printf '%s\0' "${doomed[@]}" | xb__batch rm -f --

	# --- owners and modes (chown before chmod: chown clears set-id bits)
	xb__every empty 0 10 | xb__batch chown 1234:5678 --
	xb__every empty 1 20 |
		xb__batch chown 3000000000:4294967294 --
	xb__every data 2 20 | xb__batch chown 65534:65534 --
	printf '%s\0' "${fifos[@]}" | xb__batch chown -h 42:42 --
	xb__every empty 3 30 | xb__batch chmod 4755 --
	xb__every empty 4 30 | xb__batch chmod 2711 --
	xb__every empty 5 30 | xb__batch chmod 0 --
	xb__every empty 6 30 | xb__batch chmod 6777 --
	xb__every data 7 30 | xb__batch chmod 0444 --
	chmod 1777 d12 d13/sub
	chmod 0700 d14
	chmod 2775 d15/sub/deep

	# --- timestamps last; before 1970 and after 2038 (clamped on
	# bigtime=0); -h so symlinks themselves are changed, -c never creates
	# shellcheck disable=SC2034 # used through xb__every's nameref
	all=("${empty[@]}" "${data[@]}")
	xb__every all 0 10 |
		xb__batch touch -h -c -d '1960-01-01 00:00:00.000000005' --
	xb__every all 3 10 |
		xb__batch touch -h -c -d '2100-06-01 12:00:00.999999999' --
	xb__every all 10 20 |
		xb__batch touch -h -c -a -d '1901-12-14 00:00:00' --
	xb__every all 13 20 |
		xb__batch touch -h -c -m -d '2038-01-19 03:14:08.1' --
	touch -h -c -d '1969-12-31 23:59:59.999999999' \
		d00/sym_3 d00/chr_null "${fifos[0]}" d05
	touch -h -c -d '2486-07-02 08:20:15' d06/blk_nvme d07 "${sparse[0]}"
}
