#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Damaged filesystems for the fuzz harness (test-fuzz-fs.sh), the way
# fstests' fuzz tests make them: a small pristine image per geometry, and
# for each case a copy of it with one field of one metadata structure
# changed by xfs_db's `fuzz -d FIELD VERB` (-d: through no write verifier,
# with a valid CRC, so that what is tested is the kernel's structure
# checks and what xbulk makes of them).  Source it after lib.sh and
# lib-reliability.sh.
#
#	fz_build NAME          the pristine image $FZ_DIR/NAME.img of a
#	                       geometry, its inode sample NAME.inodes and its
#	                       fields NAME.fields ("PATH-CMDS|FIELD" lines)
#	fz_case NAME PATH FIELD VERB
#	                       fuzz a copy, mount it read-only, run every
#	                       scan on it and check the runs; sets FZ_OUTCOME
#	                       (pass, fail, n/a, kernel) and counts (FZ_NA_DB:
#	                       the n/a cases xfs_db would not fuzz; the other
#	                       n/a ones would not mount)
#
# The images are mounted on this machine's own kernel.  A kernel-side
# hang or oops is counted apart (FZ_KERNEL), not as xbulk's failure; every
# mount is read-only (norecovery) and is taken down by the exit hooks,
# lazily if it must be, with its loop device.

FZ_DIR=
FZ_MNT=
FZ_IMG=
FZ_CASES=0
FZ_NA=0
FZ_NA_DB=0
FZ_PASS=0
FZ_FAILED=0
FZ_KERNEL=0
FZ_RUNS=0
FZ_RC0=0
FZ_RC1=0
FZ_RCX=0
FZ_OUTCOME=
FZ_TIMEOUT=${XB_FUZZ_TIMEOUT:-30}
# What the kernel prints when it, not the filesystem, is in trouble.  (XFS
# prints a stack trace with each "Internal error ... Corruption detected"
# report: that is the filesystem's damage found, not the kernel's.)
FZ_TROUBLE='BUG:|Oops|WARNING:|general protection|blocked for more than|soft lockup|hard LOCKUP|Kernel panic|UBSAN|KASAN|Assertion failed'

fz_init()
{
	FZ_DIR=$XB_TMP/fuzz
	FZ_MNT=$XB_TMP/fuzz/mnt
	mkdir -p "$FZ_MNT"
	xb_at_exit fz_umount
}

# Take down the case's mount and loop device, whatever state they are in.
fz_umount()
{
	local dev

	[[ -n $FZ_IMG ]] || return 0
	if awk -v m="$FZ_MNT" '$2 == m { f = 1 } END { exit !f }' \
		/proc/self/mounts; then
		timeout 30 umount "$FZ_MNT" 2>/dev/null ||
			umount -l "$FZ_MNT" 2>/dev/null
	fi
	while read -r dev; do
		[[ -n $dev ]] && losetup -d "$dev" 2>/dev/null
	done < <(losetup -j "$FZ_IMG" -O NAME -n 2>/dev/null || true)
	rm -f "$FZ_IMG"
	FZ_IMG=
	return 0
}

# --- geometries ------------------------------------------------------------

# The mkfs options and population of each geometry.
fz_geometry()
{
	case $1 in
	# 1 KiB blocks, ~12k inodes in AG 0: two-level inobt and finobt
	# (issue 8's finding 1 was found on this shape).
	twolevel)	echo "-b size=1024 -d agcount=2" ;;
	# The same with a free inode in many chunks: a two-level finobt.
	twofree)	echo "-b size=1024 -d agcount=2" ;;
	# 4 KiB blocks, 512-byte inodes, a populated tree over 2 AGs.
	mixed)		echo "-i size=512 -d agcount=2" ;;
	# 1 KiB blocks without sparse inodes: chunks not 64-aligned.
	unaligned)	echo "-b size=1024 -i sparse=0,size=512 -d agcount=2" ;;
	# 2 KiB inodes with sparse chunks (holemask).
	sparse)		echo "-i size=2048,sparse=1 -d agcount=2" ;;
	*)		xb_die "fz_geometry: unknown geometry $1" ;;
	esac
}

# fz_populate NAME MNT
fz_populate()
{
	local d

	case $1 in
	twolevel|twofree)
		mkdir "$2/d"
		(cd "$2/d" && seq 1 12000 | xargs touch)
		# one free inode in every few chunks: a finobt of many records
		if [[ $1 == twofree ]]; then
			(cd "$2/d" && seq 50 50 12000 | xargs rm -f)
		fi
		;;
	mixed)
		xb_populate "$2" 2000 ;;
	unaligned|sparse)
		for d in 0 1 2 3; do
			mkdir "$2/d$d"
			(cd "$2/d$d" && seq 1 700 | xargs touch)
			(cd "$2/d$d" && seq 7 9 700 | xargs rm -f)
		done ;;
	esac
	sync
}

# fz_fields NAME: the fields to fuzz, one "PATH-CMDS|FIELD" line each.
# PATH-CMDS are xfs_db commands (';'-separated) that reach the structure.
fz_fields()
{
	local img=$FZ_DIR/$1.img ino level flevel

	level=$(xfs_db -r -c 'agi 0' -c 'print level' "$img" | sed 's/.* = //')
	flevel=$(xfs_db -r -c 'agi 0' -c 'print free_level' "$img" |
		 sed 's/.* = //')
	fz__fields "agi 0" "$img"
	fz__btree "agi 0;addr root" "$level" "$img"
	[[ -n $flevel && $flevel != 0 ]] &&
		fz__btree "agi 0;addr free_root" "$flevel" "$img"
	# a sample of inode core fields, of a regular file in AG 0
	ino=$(sed -n 2p "$FZ_DIR/$1.inodes")
	fz__fields "inode $ino" "$img" |
		grep -E '\|(core\.(magic|mode|version|format|nlinkv2|uid|size|nblocks|nextents|naextents|forkoff|aformat|gen)|v3\.(flags2|inumber|cowextsize))$'
}

# fz__btree PATH LEVEL IMG: a btree's root block and, below a node, its
# first leaf.
fz__btree()
{
	local path=$1 level=$2 img=$3

	fz__fields "$path" "$img"
	((level > 1)) && fz__fields "$path;addr ptrs[1]" "$img"
	return 0
}

# fz__fields PATH IMG: the scalar fields of the structure PATH reaches;
# of an array (unlinked, keys, ptrs, recs) its first, middle and last
# entries.
fz__fields()
{
	local path=$1 img=$2
	local -a cmds=()
	local p

	IFS=';' read -r -a parts <<<"$path"
	for p in "${parts[@]}"; do
		cmds+=(-c "$p")
	done
	xfs_db -r "${cmds[@]}" -c print "$img" | awk -v path="$path" '
		/^[a-z0-9_.]+(\[[0-9-]+\])? = / {
			name = $1
			if (name ~ /\[[0-9]+-[0-9]+\]$/) {
				split(name, a, /[][-]/)
				lo = a[2] + 0; hi = a[3] + 0
				sub(/\[.*/, "", name)
				n = split(lo " " int((lo + hi) / 2) " " hi, idx, " ")
				sf = ""
				if ($3 ~ /^\[/) {
					sf = $3; gsub(/[][]/, "", sf)
				}
				for (i = 1; i <= n; i++) {
					if (i > 1 && idx[i] == idx[i - 1])
						continue
					if (sf == "") {
						print path "|" name "[" idx[i] "]"
						continue
					}
					m = split(sf, f, ",")
					for (j = 1; j <= m; j++)
						print path "|" name "[" idx[i] "]." f[j]
				}
				next
			}
			if (name ~ /\[[0-9]+\]$/) {
				sf = $3; gsub(/[][]/, "", sf)
				if (sf == "") { print path "|" name; next }
				m = split(sf, f, ",")
				for (j = 1; j <= m; j++)
					print path "|" name "." f[j]
				next
			}
			print path "|" name
		}'
}

# fz_build NAME: the pristine image of geometry NAME, its inode sample and
# its field list.
fz_build()
{
	local name=$1 img=$FZ_DIR/$1.img mnt=$FZ_DIR/build
	local -a opts

	read -r -a opts <<<"$(fz_geometry "$name")"
	mkdir -p "$mnt"
	truncate -s 512M "$img"
	mkfs.xfs -q -f "${opts[@]}" "$img"
	FZ_IMG=$FZ_DIR/build.img
	mv "$img" "$FZ_IMG"
	mount -o loop "$FZ_IMG" "$mnt"
	fz_populate "$name" "$mnt"
	# root, the first file, one in the middle, the last, a free one
	"$XBULK" bulkstat -j 1 "$mnt" | sed -n 's/^bs_ino = //p' >"$FZ_DIR/all"
	{
		sed -n '1p;2p' "$FZ_DIR/all"
		sed -n "$(($(wc -l <"$FZ_DIR/all") / 2))p;\$p" "$FZ_DIR/all"
		echo $(($(tail -n 1 "$FZ_DIR/all") + 1))
	} >"$FZ_DIR/$name.inodes"
	umount "$mnt"
	losetup -j "$FZ_IMG" -O NAME -n | xargs -r -n 1 losetup -d
	mv "$FZ_IMG" "$img"
	FZ_IMG=
	fz_fields "$name" >"$FZ_DIR/$name.fields"
}

# --- one case ---------------------------------------------------------------

# The time since boot, as dmesg stamps its lines: to tell a case's own.
fz__kmsg_mark()
{
	cut -d ' ' -f 1 /proc/uptime
}

# fz__kernel_trouble MARK: the trouble lines the kernel printed since.
fz__kernel_trouble()
{
	dmesg | awk -v t="$1" '
		{ ts = substr($0, 2, index($0, "]") - 2) + 0 } ts >= t' |
		grep -E "$FZ_TROUBLE" || true
}

# fz__run TAG OUT ERR CMD...: run CMD under the time limit.  Sets FZ_RC
# (its exit status; 255 if it had to be killed) and FZ_STUCK=1 if it could
# not be killed (a task stuck in the kernel).
fz__run()
{
	local tag=$1 out=$2 err=$3 pid i state

	shift 3
	FZ_STUCK=0
	"$@" >"$out" 2>"$err" &
	pid=$!
	for ((i = 0; i < FZ_TIMEOUT * 20; i++)); do
		rel_alive "$pid" || break
		sleep 0.05
	done
	if rel_alive "$pid"; then
		state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
		kill -KILL "$pid" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			rel_alive "$pid" || break
			sleep 0.05
		done
		if rel_alive "$pid"; then
			FZ_STUCK=1
			echo "  [$tag] pid $pid in state $state cannot be killed" >&2
			FZ_RC=255
			return 0
		fi
		wait "$pid" 2>/dev/null || true
		FZ_RC=255
		echo "  [$tag] still running after ${FZ_TIMEOUT} s (state $state): killed"
		return 0
	fi
	FZ_RC=0
	wait "$pid" || FZ_RC=$?
}

# fz__check_scan TAG KIND OUT ERR: the checks of one scan.
fz__check_scan()
{
	local tag=$1 kind=$2 out=$3 err=$4 key bad

	FZ_RUNS=$((FZ_RUNS + 1))
	case $FZ_RC in
	0)	FZ_RC0=$((FZ_RC0 + 1)) ;;
	1)	FZ_RC1=$((FZ_RC1 + 1)) ;;
	*)	FZ_RCX=$((FZ_RCX + 1)) ;;
	esac
	if ((FZ_RC == 255)); then
		rel_fail "[$tag] did not end within ${FZ_TIMEOUT} s"
		return 1
	fi
	if ((FZ_RC != 0 && FZ_RC != 1)); then
		rel_fail "[$tag] exit status $FZ_RC: $(head -c 300 "$err")"
		return 1
	fi
	if ((FZ_RC == 0)) && [[ -s $err ]]; then
		rel_fail "[$tag] exit 0 with messages: $(head -c 300 "$err")"
		return 1
	fi
	if ((FZ_RC == 1)); then
		if grep -qv '^xbulk ' "$err" || ! [[ -s $err ]]; then
			rel_fail "[$tag] exit 1, stderr not only xbulk's messages: $(head -c 300 "$err")"
			return 1
		fi
		# What could not be read: an inode, an AG, or the filesystem
		if ! grep -qE 'inode [0-9]+|AG [0-9]+|: [^:]+: [A-Z]' "$err"; then
			rel_fail "[$tag] exit 1 without naming what could not be read: $(head -c 300 "$err")"
			return 1
		fi
	fi
	# Increasing inode order, so no record twice; whole records
	# (bulkstat_single prints in the order asked)
	key=bs_ino
	[[ $kind == single ]] && key=none
	[[ $kind == inumbers ]] && key=xi_startino
	bad=$(awk -v k="$key" '$1 == k {
		if (n++ && $3 + 0 <= last) { print "record " $3 " after " last; exit }
		last = $3 + 0 }' "$out")
	if [[ -n $bad ]]; then
		rel_fail "[$tag] out of order: $bad"
		return 1
	fi
	if [[ $kind != inumbers ]] && ! rel_whole_records "$out"; then
		rel_fail "[$tag] output does not end on a whole record"
		return 1
	fi
	rel_pass
}

# fz_case NAME PATH FIELD VERB: one fuzzed image, every scan on it.
fz_case()
{
	local name=$1 path=$2 field=$3 verb=$4 tag mark trouble p ok=1
	local -a cmds=() inos
	local -a parts

	tag="$name: $path: fuzz $field $verb"
	FZ_CASES=$((FZ_CASES + 1))
	FZ_IMG=$FZ_DIR/case.img
	cp --sparse=always "$FZ_DIR/$name.img" "$FZ_IMG"
	IFS=';' read -r -a parts <<<"$path"
	for p in "${parts[@]}"; do
		cmds+=(-c "$p")
	done
	if ! xfs_db -x "${cmds[@]}" -c "fuzz -d $field $verb" "$FZ_IMG" \
		>"$FZ_DIR/db.out" 2>&1 ||
	   grep -qiE 'unknown|invalid|not found|no current' "$FZ_DIR/db.out"; then
		FZ_OUTCOME=n/a
		FZ_NA=$((FZ_NA + 1))
		FZ_NA_DB=$((FZ_NA_DB + 1))
		fz_umount
		return 0
	fi
	mark=$(fz__kmsg_mark)
	if ! timeout 60 mount -o loop,ro,norecovery "$FZ_IMG" "$FZ_MNT" \
		2>/dev/null; then
		FZ_OUTCOME=n/a
		FZ_NA=$((FZ_NA + 1))
		trouble=$(fz__kernel_trouble "$mark")
		fz_umount
		if [[ -n $trouble ]]; then
			FZ_OUTCOME=kernel
			FZ_KERNEL=$((FZ_KERNEL + 1))
			echo "KERNEL: [$tag] at mount: $trouble" | head -n 3
		fi
		return 0
	fi
	mapfile -t inos <"$FZ_DIR/$name.inodes"
	local fails=$REL_FAIL stuck=0 run
	for run in "bulkstat -j 1" "bulkstat -j 2" "inumbers -j 1" \
		   "inumbers -j 2"; do
		# shellcheck disable=SC2086
		fz__run "$tag: $run" "$FZ_DIR/out" "$FZ_DIR/err" \
			"$XBULK" $run "$FZ_MNT"
		((FZ_STUCK)) && stuck=1 && break
		fz__check_scan "$tag: $run" "${run%% *}" "$FZ_DIR/out" \
			"$FZ_DIR/err" || ok=0
	done
	if ((!stuck)); then
		fz__run "$tag: bulkstat_single" "$FZ_DIR/out" "$FZ_DIR/err" \
			"$XBULK" bulkstat_single "$FZ_MNT" root "${inos[@]}"
		((FZ_STUCK)) && stuck=1
		((stuck)) || fz__check_scan "$tag: bulkstat_single" single \
			"$FZ_DIR/out" "$FZ_DIR/err" || ok=0
	fi
	trouble=$(fz__kernel_trouble "$mark")
	fz_umount
	if ((stuck)) || [[ -n $trouble ]]; then
		FZ_OUTCOME=kernel
		FZ_KERNEL=$((FZ_KERNEL + 1))
		# a task stuck in the kernel is the kernel's, not xbulk's
		REL_FAIL=$fails
		echo "KERNEL: [$tag] ${trouble:-a task stuck in the kernel}" |
			head -n 3
	elif ((ok)); then
		FZ_OUTCOME=pass
		FZ_PASS=$((FZ_PASS + 1))
	else
		FZ_OUTCOME=fail
		FZ_FAILED=$((FZ_FAILED + 1))
	fi
}
