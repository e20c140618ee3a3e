#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The README's incremental backup, end to end (tests/snap/backup.py):
# its cron line, taken from README.md as it stands (only the paths, the
# ssh to a local subshell and -j put in), and the same steps with the
# deletions first; over rounds of changes that include every case that
# once lost data, each backup directory must equal the source tree, at
# -j 1 and -j 2.  SNAP_MUTATE=all runs more rounds and operations.
#
# Environment: XBULK; SNAP_MUTATE.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"

xb_require_root_loop
command -v rsync >/dev/null || xb_skip "rsync not installed (scripts/deps)"

if [[ ${SNAP_MUTATE:-} == all ]]; then
	rounds=12 ops=200
else
	rounds=3 ops=60		# the fixed cases' three rounds
fi

xb_mkfs_mount 1G "-d agcount=4"
T=$XB_TMP

# The README's block after "An incremental backup", with our paths.
awk '/^An incremental backup/ { on = 1 }
     on && /^```/ { if (inb) exit; inb = 1; next }
     inb' "$TOP/README.md" |
	sed -e 's|backup:/srv/mnt/|"$BACKUP"/|' \
	    -e "s|ssh backup 'cd /srv/mnt \&\& \(.*\)'|(cd \"\$BACKUP\" \&\& \1)|" \
	    -e 's|/mnt/|"$MNT"/|; s|/mnt |"$MNT" |' \
	    -e 's|STATE\.new|@NEW@|g; s|STATE|"$STATE"|g; s|@NEW@|"$STATE.new"|g' \
	    -e 's|xbulk diff|"$XBULK" diff -j "$J"|g' >"$T/readme.sh"
grep -q -- '-0 |$' "$T/readme.sh" && grep -q -- '--deleted0 |$' "$T/readme.sh" &&
	grep -q '^	rsync .*"\$BACKUP"/ &&$' "$T/readme.sh" &&
	! grep -Eq 'ssh|/srv|backup:' "$T/readme.sh" ||
	xb_die "the README's backup lines changed shape: $(cat "$T/readme.sh")"
rsync=$(grep '^	rsync ' "$T/readme.sh")
# The same steps, the deletions first.
cat >"$T/delete-first.sh" <<EOF
set -o pipefail
"\$XBULK" diff -j "\$J" "\$STATE" "\$MNT" --save "\$STATE.new" --deleted0 |
	(cd "\$BACKUP" && xargs -0 -r rm -rf --) &&
"\$XBULK" diff -j "\$J" "\$STATE" "\$STATE.new" -0 |
$rsync
mv "\$STATE.new" "\$STATE"
EOF

# -j 1, then -j 2 on a new tree (the first one's inode numbers freed)
for j in 1 2; do
	rm -rf "$T/work" "$XB_MNT/s" "$XB_MNT/m"
	mkdir "$T/work"
	python3 "$TOP/tests/snap/backup.py" --xbulk "$XBULK" --mnt "$XB_MNT" \
		--dir "$T/work" -j "$j" --rounds "$rounds" --ops "$ops" \
		--recipe "readme=$T/readme.sh" \
		--recipe "delete-first=$T/delete-first.sh" >"$T/log" ||
		xb_die "$(cat "$T/log")"
	cat "$T/log"
done
echo "$((rounds * 4)) rounds passed (2 recipes, -j 1 and 2), 0 failed"
