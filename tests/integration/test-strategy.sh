#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The names engine's two strategies give the same output: xbulk find and
# xbulk du with --strategy walk and --strategy scan, byte for byte (and
# their exit statuses), on a tree with a small and a large subtree,
# -maxdepth cases, a hard link crossing a subtree's border, a mount point
# inside a subtree, a symlink operand, nested and several operands, and
# the mount's top; --stats=json says the strategy taken: the forced one,
# and auto's walk for a leaf and scan for the top; du --unreachable with
# --strategy walk is a usage error.
#
# Environment: XBULK (the binary).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
XBULK=$(realpath "$XBULK")
xb_require_root_loop
xb_mkfs_mount 512M "-d agcount=4"
M=$XB_MNT
pass=0 fail=0

mkdir -p "$M/big/sub1" "$M/small/a/b" "$M/other" "$M/empty"
for i in $(seq 1 400); do echo "$i" > "$M/big/f$i"; done
for i in $(seq 1 60); do
	mkdir "$M/big/sub1/d$i"
	touch "$M/big/sub1/d$i/x"
	mkdir "$M/big/sub1/d$i/e"
done
echo hi > "$M/small/a/file"
head -c 100000 /dev/urandom > "$M/other/o"
ln "$M/other/o" "$M/small/a/link"	# crosses small's border
ln "$M/other/o" "$M/small/a/b/link2"	# and twice inside it
ln -s ../other "$M/small/sym"
mkdir "$M/small/mnt"
mount -t tmpfs tmpfs "$M/small/mnt"
xb_at_exit "umount '$M/small/mnt' 2>/dev/null"
touch "$M/small/mnt/t"

# same ARGS...: find or du with both strategies, compared
same()
{
	local s rc

	for s in scan walk; do
		rc=0
		"$XBULK" "$1" --strategy "$s" "${@:2}" >"$XB_TMP/$s" 2>&1 ||
			rc=$?
		echo "status $rc" >>"$XB_TMP/$s"
	done
	if cmp -s "$XB_TMP/scan" "$XB_TMP/walk"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $*"
		diff "$XB_TMP/scan" "$XB_TMP/walk" | head -6
	fi
}

P='%p %i %n %s %y %d %m\n'
same find "$M/small" -printf "$P"
same find "$M/small" -maxdepth 1 -printf "$P"
same find "$M/small" -maxdepth 0 -empty -printf "$P"
same find "$M/big" -maxdepth 1 -empty -printf "$P"
same find "$M/big" -maxdepth 2 -printf "$P"
same find "$M/big" -mindepth 2 -maxdepth 3 -type d -empty
same find "$M/big" -printf "$P"
same find "$M/big/sub1" -depth -printf "$P"
same find "$M/small" "$M/big/sub1" "$M/small/a" -printf "$P"
same find "$M/small" -samefile "$M/other/o"
same find "$M/small" -links +1 -type f -printf "$P"
same find -H "$M/small/sym" -printf "$P"
same find "$M/small/sym" -printf "$P"
same find "$M/small/a/file" -printf "$P"
same find "$M/small" -xdev -printf "$P"
same find "$M" -maxdepth 2 -printf "$P"
same find "$M/nonexistent" "$M/small" -printf "$P"
same du "$M/small"
same du -a "$M/small"
same du -s "$M/big"
same du -d 1 "$M/big"
same du -a --inodes "$M/small" "$M/other"
same du -s "$M/other" "$M/small"
same du -l "$M/small"
same du "$M/empty"
same du "$M"
same du -a --apparent-size "$M/small/a"

# stats=json: STRATEGY ARGS...: the strategy taken
taken()
{
	local want=$1 got

	shift
	got=$("$XBULK" "$1" --stats=json "${@:2}" 2>&1 >/dev/null |
	      sed -n 's/.*"strategy": "\(.*\)".*/\1/p')
	if [[ $got == "$want" ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $* took '$got', not $want"
	fi
}
taken walk find --strategy walk "$M"
taken scan find --strategy scan "$M/small"
taken walk find "$M/small/a"
taken scan find "$M"
taken scan find "$M/small" "$M"
taken walk du "$M/small"
taken scan du "$M"
taken scan du --unreachable "$M/small"

rc=0
"$XBULK" du --strategy walk --unreachable "$M/small" >/dev/null 2>&1 || rc=$?
if ((rc == 2)); then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: du --unreachable --strategy walk"
fi
rc=0
"$XBULK" find --strategy nope "$M" >/dev/null 2>&1 || rc=$?
if ((rc == 2)); then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: --strategy nope"
fi

echo "strategy: $pass passed, $fail failed"
((fail == 0))
