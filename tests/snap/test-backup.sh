#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The README's incremental backup, end to end (tests/snap/backup.py):
# its cron line, taken from README.md as it stands (only the paths, the
# ssh to a local subshell and -j put in: the deletions first, rsync -H
# -A -X -S, --linked0's names without -I, then --copy0's with it); over
# rounds of changes that include every case that once lost data, and a
# sparse file, a changed xattr, ACLs and (round 4) a second name for a
# 100 MiB file, the backup directory must equal the source tree (and
# rsync -aHAX -c --delete -n must find nothing to do: links, ACLs,
# xattrs, directory times), at -j 1 and -j 2; after round 4 the backup
# holds the file as one inode of two names and rsync sent under 1 MiB of
# literal data (its --stats).  In rounds 1 and 2 a listed file vanishes before rsync
# copies it (an rsync first on PATH removes it before it runs the real
# one, then fails its open under strace: exit status 24): the recipe
# must still promote STATE, and the next round must make the backup the
# source again.  SNAP_MUTATE=all runs more rounds and operations.
#
# Environment: XBULK; SNAP_MUTATE.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"

xb_require_root_loop
command -v rsync >/dev/null || xb_skip "rsync not installed (scripts/deps)"

if [[ ${SNAP_MUTATE:-} == all ]]; then
	rounds=12 ops=200
else
	rounds=4 ops=60		# the fixed cases' four rounds
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
line() { grep -n -- "$1" "$T/readme.sh" | cut -d: -f1; }
[[ $(line '--deleted0 |$') -lt $(line '--linked0 |$') &&
   $(line '--linked0 |$') -lt $(line '--copy0 |$') ]] &&
	[[ $(grep -c -- ' -H -A -X -S ' "$T/readme.sh") == 2 &&
	   $(grep -c -- ' -H -A -X -S -I ' "$T/readme.sh") == 1 ]] &&
	[[ $(grep -c ' "$BACKUP"/ || \[ $? = 24 \]; } &&$' "$T/readme.sh") == 2 ]] &&
	! grep -Eq 'ssh|/srv|backup:' "$T/readme.sh" ||
	xb_die "the README's backup lines changed shape: $(cat "$T/readme.sh")"

# rsync, with XB_VANISH, a file of its list (a path below MNT), gone as
# on a busy filesystem: XB_VANISH_WHEN=before removes it before rsync
# starts (after the diff: --ignore-missing-args's case), =during between
# rsync's look and its copy (strace fails rsync's open with ENOENT, the
# file is removed when rsync ends: exit status 24); the real rsync's
# exit status goes to XB_VANISH_LOG
command -v strace >/dev/null || xb_skip "strace not installed (scripts/deps)"
mkdir "$T/bin"
export XB_RSYNC
XB_RSYNC=$(command -v rsync)
cat >"$T/bin/rsync" <<'EOF'
#!/usr/bin/env bash
# every run's --stats to XB_RSYNC_STATS, for the literal data sent
if [[ -z ${XB_VANISH:-} ]]; then
	exec "$XB_RSYNC" --stats "$@" >>"$XB_RSYNC_STATS"
fi
log=$XB_VANISH_LOG rel=${XB_VANISH#"$MNT"/} rc=0
cat >"$log.list"
if ! tr '\0' '\n' <"$log.list" | grep -qxF -- "$rel"; then
	# another of the recipe's lists
	exec "$XB_RSYNC" --stats "$@" <"$log.list" >>"$XB_RSYNC_STATS"
fi
set -- --stats "$@"
exec >>"$XB_RSYNC_STATS"
if [[ $XB_VANISH_WHEN == before ]]; then
	rm -- "$XB_VANISH"
	"$XB_RSYNC" "$@" <"$log.list" || rc=$?
else
	strace -f -o "$log.strace" -P "$XB_VANISH" -P "$rel" -P "${rel##*/}" \
		-e trace=open,openat -e inject=open,openat:error=ENOENT \
		"$XB_RSYNC" "$@" <"$log.list" || rc=$?
	rm -- "$XB_VANISH"
fi
echo "$rc" >"$log"
exit "$rc"
EOF
chmod +x "$T/bin/rsync"

# -j 1, then -j 2 on a new tree (the first one's inode numbers freed)
for j in 1 2; do
	rm -rf "$T/work" "$XB_MNT/s" "$XB_MNT/m"
	mkdir "$T/work"
	python3 "$TOP/tests/snap/backup.py" --xbulk "$XBULK" --mnt "$XB_MNT" \
		--dir "$T/work" -j "$j" --rounds "$rounds" --ops "$ops" \
		--vanish "$T/bin" \
		--recipe "readme=$T/readme.sh" >"$T/log" ||
		xb_die "$(cat "$T/log")"
	cat "$T/log"
done
echo "$((rounds * 2)) rounds passed (-j 1 and 2; 4 with a listed file" \
	"vanished before rsync copied it), 0 failed"
