#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad input (issue 5, items 6 and 7): malformed options and numbers,
# missing and extra arguments, paths that are not on XFS or not files,
# no permission, no CAP_SYS_ADMIN, setuid/setgid, and what xbulk opens.
#
# One line of the CASES table per case:
#
#	STATUS  RUNNER  REGEX  ARGV...
#
# read as shell words (quotes work, $MNT and the other variables below
# are expanded).  RUNNER is - (root), nobody (uid/gid 65534, no caps),
# nocap (root without any capability), suid or sgid (a set-id copy of
# xbulk run by nobody).  For STATUS != 0 each case checks:
#   - the exit status is STATUS, and below 128 (no crash, no OOM kill);
#   - nothing on stdout;
#   - stderr is exactly one line matching ^REGEX$, plus, for a usage error
#     (2) only, the hint line "Try 'xbulk [CMD] --help'.";
#   - it ends within 10 seconds (a FIFO must not hang).
# For STATUS 0: stderr is empty and the first line of stdout matches.
#
# Environment: XBULK (the binary), XBULK_SUID_TEST (the same without
# RUNPATH, for the set-id cases: ld.so ignores $ORIGIN then).

. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
XBULK=${XBULK:-$TOP/build/xbulk}
XBULK_SUID_TEST=${XBULK_SUID_TEST:-$TOP/build/tests/integration/xbulk-suid-test}
AGCOUNT=4

xb_require_root_loop
[[ -x $XBULK ]] || xb_die "$XBULK not built"
[[ -x $XBULK_SUID_TEST ]] || xb_die "$XBULK_SUID_TEST not built"
for tool in setpriv prlimit timeout mkfs.ext4 python3; do
	command -v "$tool" >/dev/null 2>&1 || xb_skip "$tool not installed"
done

npass=0
nfail=0
ncases=0
declare -A by_status=()

fail()
{
	nfail=$((nfail + 1))
	echo "FAIL: $*"
}

# ---------------------------------------------------------------------------
# The places the cases point at

xb_mkfs_mount 1G "-d agcount=$AGCOUNT"
xb_populate "$XB_MNT" 200
# Let nobody reach the mount point (mktemp -d made the directory 0700).
chmod 755 "$XB_TMP"
MNT=$XB_MNT
T=$XB_TMP

mkdir "$MNT/private"
touch "$MNT/private/file"
chmod 700 "$MNT/private"
touch "$MNT/noperm"
chmod 000 "$MNT/noperm"

mkfifo "$T/fifo"
ln -s /dev/null "$T/null-link"
/usr/bin/env python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/socket"

truncate -s 64M "$T/ext4.img"
mkfs.ext4 -q -F "$T/ext4.img"
mkdir "$T/ext4" "$T/tmpfs"
xb_at_exit "umount '$T/ext4' 2>/dev/null"
mount -o loop "$T/ext4.img" "$T/ext4"
touch "$T/ext4/file"
xb_at_exit "umount '$T/tmpfs' 2>/dev/null"
mount -t tmpfs -o size=1m xbulk-test "$T/tmpfs"

# A set-uid and a set-gid copy, run by nobody, in a directory nobody can
# reach (not mounted nosuid: /tmp is not, here; checked below).
mkdir -m 755 "$T/suid" "$T/sgid"
install -m 4755 "$XBULK_SUID_TEST" "$T/suid/xbulk"
install -m 2755 -g root "$XBULK_SUID_TEST" "$T/sgid/xbulk"

LONG=$(printf '%0300d' 0)
LONG=$MNT/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG/$LONG
LONG=$LONG/$LONG/$LONG
ROOT_INO=$(stat -c %i "$MNT")

# Message prefixes
B='xbulk bulkstat: '
I='xbulk inumbers: '
S='xbulk bulkstat_single: '
NOCAP='Operation not permitted \(needs CAP_SYS_ADMIN\)'

# ---------------------------------------------------------------------------
# The cases

CASES=$(cat <<'EOF'
# --- bulkstat: numbers
2 - "${B}-n: empty number"                                       bulkstat -n '' "$MNT"
2 - "${B}-n: '-1' is negative"                                   bulkstat -n -1 "$MNT"
2 - "${B}-n: '0x10' is not a decimal number"                     bulkstat -n 0x10 "$MNT"
2 - "${B}-n: '12x' is not a decimal number"                      bulkstat -n 12x "$MNT"
2 - "${B}-n: ' 12' is not a decimal number"                      bulkstat -n ' 12' "$MNT"
2 - "${B}-n: '12 ' is not a decimal number"                      bulkstat -n '12 ' "$MNT"
2 - "${B}-n: '\+5' is not a decimal number"                      bulkstat -n +5 "$MNT"
2 - "${B}-n: '1e3' is not a decimal number"                      bulkstat -n 1e3 "$MNT"
2 - "${B}-n: '4294967296' is out of range \(largest is 4294967295\)" bulkstat -n 4294967296 "$MNT"
2 - "${B}-n: '18446744073709551616' is out of range \(largest is 4294967295\)" bulkstat -n 18446744073709551616 "$MNT"
2 - "${B}-n: batch size must be at least 1"                      bulkstat -n 0 "$MNT"
2 - "${B}-n: batch size must be at least 1"                      bulkstat -n 000 "$MNT"
2 - "${B}-v: empty number"                                       bulkstat -v '' "$MNT"
2 - "${B}-v: version must be 1 or 5, not 3"                      bulkstat -v 3 "$MNT"
2 - "${B}-v: version must be 1 or 5, not 0"                      bulkstat -v 0 "$MNT"
2 - "${B}-v: '5x' is not a decimal number"                       bulkstat -v 5x "$MNT"
2 - "${B}-v: '-5' is negative"                                   bulkstat -v -5 "$MNT"
2 - "${B}-j: at least 1 thread is needed"                        bulkstat -j 0 "$MNT"
2 - "${B}-j: '99999' is out of range \(largest is 1024\)"        bulkstat -j 99999 "$MNT"
2 - "${B}-j: empty number"                                       bulkstat -j '' "$MNT"
2 - "${B}-j: '-2' is negative"                                   bulkstat -j -2 "$MNT"
2 - "${B}-a: empty number"                                       bulkstat -a '' "$MNT"
2 - "${B}-a: '-1' is negative"                                   bulkstat -a -1 "$MNT"
2 - "${B}-a: AG 4 does not exist \($MNT has 4 AGs\)"             bulkstat -a 4 "$MNT"
2 - "${B}-a: AG 4294967295 does not exist \($MNT has 4 AGs\)"    bulkstat -j 1 -a 4294967295 "$MNT"
2 - "${B}-a: '4294967296' is out of range \(largest is 4294967295\)" bulkstat -a 4294967296 "$MNT"
2 - "${B}-s: inode 5 is in AG 0, before AG 1 of -a"           bulkstat -a 1 -s 5 "$MNT"
2 - "${I}-s: inode 5 is in AG 0, before AG 1 of -a"           inumbers -j 1 -a 1 -s 5 "$MNT"
2 - "${B}-s: 'abc' is not a decimal number"                      bulkstat -s abc "$MNT"
2 - "${B}-s: '18446744073709551616' is out of range \(largest is 18446744073709551615\)" bulkstat -s 18446744073709551616 "$MNT"
2 - "${B}-s: empty number"                                       bulkstat -s '' "$MNT"
2 - "${B}-e: '0x1' is not a decimal number"                      bulkstat -e 0x1 "$MNT"
2 - "${B}-e: '-1' is negative"                                   bulkstat -e -1 "$MNT"
# --- bulkstat: options and arguments
2 - "${B}unknown option '--bogus'"                               bulkstat --bogus "$MNT"
2 - "${B}unknown option '-x'"                                    bulkstat -x "$MNT"
2 - "${B}unknown option '--help=x'"                              bulkstat --help=x "$MNT"
2 - "${B}option '-n' needs a value"                              bulkstat "$MNT" -n
2 - "${B}option '-a' needs a value"                              bulkstat "$MNT" -a
2 - "${B}option '-s' needs a value"                              bulkstat "$MNT" -s
2 - "${B}option '-e' needs a value"                              bulkstat "$MNT" -e
2 - "${B}option '-j' needs a value"                              bulkstat "$MNT" -j
2 - "${B}option '-v' needs a value"                              bulkstat "$MNT" -v
2 - "${B}missing PATH"                                           bulkstat
2 - "${B}missing PATH"                                           bulkstat -q -n 5
2 - "${B}unexpected argument '$MNT'"                             bulkstat "$MNT" "$MNT"
2 - "${B}unexpected argument 'extra'"                            bulkstat "$MNT" extra more
2 - "${B}PATH is empty"                                          bulkstat ''
# --- bulkstat: output format and statistics options
2 - "${B}-o: unknown format 'bogus' \(text, jsonl or csv\)"        bulkstat -o bogus "$MNT"
2 - "${B}-o: unknown format '' \(text, jsonl or csv\)"             bulkstat -o '' "$MNT"
2 - "${B}-o: unknown format 'xml' \(text, jsonl or csv\)"          bulkstat --format=xml "$MNT"
2 - "${B}-d works only with -o text"                             bulkstat -d -o jsonl "$MNT"
2 - "${B}--stats: unknown format 'xml' \(text or json\)"          bulkstat --stats=xml "$MNT"
2 - "${B}--stats-file: empty FILE"                               bulkstat --stats-file '' "$MNT"
1 - "${B}--stats-file: /nonexistent/xbulk/f: No such file or directory" bulkstat --stats-file /nonexistent/xbulk/f "$MNT"
1 - "${B}--stats-file: $T: Is a directory"                       bulkstat --stats-file "$T" "$MNT"
1 - "${B}--stats-file: /dev/full: No space left on device"       bulkstat -q --stats-file /dev/full "$MNT"
2 - "${B}--interval: 0 s is out of range \(0.1 to 3600\)"         bulkstat --interval 0 "$MNT"
2 - "${B}--interval: 99999999999 s is out of range \(0.1 to 3600\)" bulkstat --interval 99999999999 "$MNT"
2 - "${B}--interval: 'abc' is not a number of seconds"           bulkstat --interval abc "$MNT"
2 - "${B}--interval: '-1' is not a number of seconds"            bulkstat --interval -1 "$MNT"
2 - "${B}--interval: 'nan' is not a number of seconds"           bulkstat --interval nan "$MNT"
2 - "${B}--interval: 'inf' is not a number of seconds"           bulkstat --interval inf "$MNT"
2 - "${B}--interval: '1e999' is not a number of seconds"         bulkstat --interval 1e999 "$MNT"
2 - "${B}--interval: ' 1' is not a number of seconds"            bulkstat --interval ' 1' "$MNT"
2 - "${B}option '--interval' needs a value"                      bulkstat "$MNT" --interval
# --- inumbers
2 - "${I}-o: unknown format 'yaml' \(text, jsonl or csv\)"        inumbers -o yaml "$MNT"
2 - "${I}option '--stats-file' needs a value"                    inumbers "$MNT" --stats-file
2 - "${I}unknown option '-q'"                                    inumbers -q "$MNT"
2 - "${I}-n: batch size must be at least 1"                      inumbers -n 0 "$MNT"
2 - "${I}-n: empty number"                                       inumbers -n '' "$MNT"
2 - "${I}-v: version must be 1 or 5, not 2"                      inumbers -v 2 "$MNT"
2 - "${I}-j: at least 1 thread is needed"                        inumbers -j 0 "$MNT"
2 - "${I}-a: AG 99 does not exist \($MNT has 4 AGs\)"            inumbers -a 99 "$MNT"
2 - "${I}-s: '-1' is negative"                                   inumbers -s -1 "$MNT"
2 - "${I}-e: empty number"                                       inumbers -e '' "$MNT"
2 - "${I}option '-n' needs a value"                              inumbers "$MNT" -n
2 - "${I}missing PATH"                                           inumbers
2 - "${I}unexpected argument 'extra'"                            inumbers "$MNT" extra
# --- bulkstat_single
2 - "${S}missing PATH"                                           bulkstat_single
2 - "${S}missing PATH"                                           bulkstat_single -d
2 - "${S}missing INUM or root"                                   bulkstat_single "$MNT"
2 - "${S}inode: 'abc' is not a decimal number"                   bulkstat_single "$MNT" abc
2 - "${S}inode: 'ROOT' is not a decimal number"                  bulkstat_single "$MNT" ROOT
2 - "${S}inode: '0x80' is not a decimal number"                  bulkstat_single "$MNT" 0x80
2 - "${S}inode: empty number"                                    bulkstat_single "$MNT" ''
2 - "${S}inode: '-1' is negative"                                bulkstat_single "$MNT" -- -1
2 - "${S}unknown option '-1'"                                    bulkstat_single "$MNT" -1
2 - "${S}inode: '18446744073709551616' is out of range \(largest is 18446744073709551615\)" bulkstat_single "$MNT" root 18446744073709551616
2 - "${S}-v: version must be 1 or 5, not 3"                      bulkstat_single -v 3 "$MNT" root
2 - "${S}-v: empty number"                                       bulkstat_single -v '' "$MNT" root
2 - "${S}unknown option '-x'"                                    bulkstat_single -x "$MNT" root
2 - "${S}unknown option '-n'"                                    bulkstat_single -n 5 "$MNT" root
2 - "${S}option '-v' needs a value"                              bulkstat_single "$MNT" root -v
2 - "${S}-o: unknown format 'yaml' \(text, jsonl or csv\)"        bulkstat_single -o yaml "$MNT" root
2 - "${S}unknown option '--stats'"                               bulkstat_single --stats "$MNT" root
2 - "${S}PATH is empty"                                          bulkstat_single '' root
1 - "${S}inode 99999999999 is not allocated" bulkstat_single "$MNT" 99999999999
1 - "${S}root: the v1 ioctl cannot look up special inodes; use -v 5" bulkstat_single -v 1 "$MNT" root
# --- -m (xfs_io 6.13 ignores -m with -v 1; inumbers has none)
2 - "${B}-m needs the v5 ioctls; the v1 ones \(-v 1\) have no flags" bulkstat -m -v 1 "$MNT"
2 - "${S}-m needs the v5 ioctls; the v1 ones \(-v 1\) have no flags" bulkstat_single -m -v 1 "$MNT" root
2 - "${I}unknown option '-m'"                                    inumbers -m "$MNT"
# --- paths
1 - "${B}/nonexistent/xbulk: No such file or directory"          bulkstat /nonexistent/xbulk
1 - "${I}/nonexistent/xbulk: No such file or directory"          inumbers /nonexistent/xbulk
1 - "${S}/nonexistent/xbulk: No such file or directory"          bulkstat_single /nonexistent/xbulk root
1 - "${B}$MNT/noperm/x: Not a directory"                         bulkstat "$MNT/noperm/x"
1 - "${B}$MNT/0+/0+/0+.*: File name too long"                    bulkstat "$LONG"
1 - "${B}$T/ext4: not on an XFS filesystem"                      bulkstat "$T/ext4"
1 - "${S}$T/ext4/file: not on an XFS filesystem"                 bulkstat_single "$T/ext4/file" root
1 - "${B}$T/tmpfs: not on an XFS filesystem"                     bulkstat "$T/tmpfs"
1 - "${I}/proc: not on an XFS filesystem"                        inumbers /proc
1 - "${S}/proc/self/status: not on an XFS filesystem"            bulkstat_single /proc/self/status root
1 - "${B}/dev/null: not a regular file or directory"             bulkstat /dev/null
1 - "${B}$T/null-link: not a regular file or directory"          bulkstat "$T/null-link"
1 - "${B}$T/fifo: not a regular file or directory"               bulkstat "$T/fifo"
1 - "${I}$T/fifo: not a regular file or directory"               inumbers -j 1 "$T/fifo"
1 - "${S}$T/fifo: not a regular file or directory"               bulkstat_single "$T/fifo" root
1 - "${B}$T/socket: not a regular file or directory"             bulkstat "$T/socket"
# --- permissions and capabilities
1 nobody "${B}$MNT/private: Permission denied"                   bulkstat "$MNT/private"
1 nobody "${S}$MNT/private/file: Permission denied"              bulkstat_single "$MNT/private/file" root
1 nobody "${B}$MNT/noperm: Permission denied"                    bulkstat "$MNT/noperm"
1 nobody "${B}$MNT: bulkstat: $NOCAP"                            bulkstat "$MNT"
1 nocap  "${B}$MNT: bulkstat: $NOCAP"                            bulkstat -j 1 "$MNT"
1 nocap  "${B}$MNT: bulkstat: $NOCAP"                            bulkstat -j 2 "$MNT"
1 nocap  "${B}$MNT: bulkstat: $NOCAP"                            bulkstat -v 1 -j 1 "$MNT"
1 nocap  "${I}$MNT: inumbers: $NOCAP"                            inumbers "$MNT"
1 nocap  "${S}$MNT: bulkstat: $NOCAP"                            bulkstat_single "$MNT" root
1 suid   "xbulk: refusing to run setuid or setgid"               bulkstat "$MNT"
1 sgid   "xbulk: refusing to run setuid or setgid"               --version
# --- the command itself
2 - "xbulk: missing COMMAND"                                     
2 - "xbulk: unknown command 'frobnicate'"                        frobnicate "$MNT"
2 - "xbulk: unknown command ''"                                  ''
2 - "xbulk: unknown command '--bogus'"                           --bogus
2 - "xbulk: unknown command 'frobnicate'"                        help frobnicate
2 - "xbulk help: unknown option '-x'"                            help -x
2 - "xbulk help: too many arguments"                             help bulkstat inumbers
# --- what must succeed
0 - "Usage: xbulk COMMAND .*"                                    --help
0 - "Usage: xbulk COMMAND .*"                                    -h
0 - "xbulk [0-9]+\.[0-9]+\.[0-9]+"                               --version
0 - "Usage: xbulk COMMAND .*"                                    help
0 - "Usage: xbulk help .*"                                       help --help
0 - "Usage: xbulk inumbers .*"                                   help inumbers
0 - "Usage: xbulk bulkstat .*"                                   bulkstat --help
0 - "Usage: xbulk inumbers .*"                                   inumbers -h
0 - "Usage: xbulk bulkstat_single .*"                            bulkstat_single --help
0 - "bulkstat: startino=[0-9]+ flags=0x0 agno=0 ret=0 icount=10 ocount=10" bulkstat -d -n 010 "$MNT"
0 - "bs_ino = $ROOT_INO"                                         bulkstat_single "$MNT" root
0 - "bs_ino = $ROOT_INO"                                         bulkstat_single "$MNT" 0$ROOT_INO
0 nobody "Usage: xbulk bulkstat .*"                              bulkstat --help
EOF
)
# No thread can start (a default stack larger than the address space):
# pthread_create's cause named.  Not under the sanitizers, whose
# runtimes size their own stacks from ulimit -s.
THREAD='cannot start a thread \(pthread_create: Resource temporarily unavailable\): no (memory|room) for its [0-9]+ KiB stack .*'
[[ ${XB_SANITIZE:-none} != none ]] || CASES+="
1 bigstack \"${B}cannot set up the scan \\(-n 4096, -j 2\\): $THREAD\" bulkstat -q -j 2 \"\$MNT\"
1 bigstack \"${I}cannot set up the scan \\(-n 4096, -j 2\\): $THREAD\" inumbers -j 2 \"\$MNT\"
1 bigstack \"${B}the progress monitor: $THREAD\" bulkstat -q -j 1 --interval 1 \"\$MNT\""

# The command prefix that runs xbulk as RUNNER.
runner()
{
	local nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)

	case $1 in
	-)	echo "$XBULK" ;;
	nobody)	echo "${nobody[*]} $XBULK" ;;
	nocap)	echo "setpriv --inh-caps=-all --bounding-set=-all $XBULK" ;;
	bigstack) echo "prlimit --stack=219902325555200 $XBULK" ;;
	suid)	echo "${nobody[*]} $T/suid/xbulk" ;;
	sgid)	echo "${nobody[*]} $T/sgid/xbulk" ;;
	*)	xb_die "unknown runner '$1'" ;;
	esac
}

# check_case LINE: run one line of the table.
check_case()
{
	local line=$1 status runner regex rc what hint
	local -a run argv err=()

	eval "set -- $line"
	status=$1 runner=$2 regex=$3
	shift 3
	argv=("$@")
	read -r -a run <<<"$(runner "$runner")"
	what="[$runner] xbulk$(printf ' %q' "${argv[@]}")"
	ncases=$((ncases + 1))
	by_status[$status]=$((${by_status[$status]:-0} + 1))

	set +e
	timeout -k 2 10 "${run[@]}" "${argv[@]}" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	set -e
	mapfile -t err <"$T/err"

	if ((rc == 124 || rc == 137)); then
		fail "$what: hung (killed by timeout)"
		return
	fi
	if ((rc >= 128)); then
		fail "$what: crashed, status $rc: $(head -c 300 "$T/err")"
		return
	fi
	if ((rc != status)); then
		fail "$what: status $rc, expected $status; stderr: ${err[*]}"
		return
	fi
	if ((status == 0)); then
		if ((${#err[@]})); then
			fail "$what: stderr not empty: ${err[*]}"
		elif ! head -n 1 "$T/out" | grep -Eqx -- "$regex"; then
			fail "$what: stdout '$(head -n 1 "$T/out")' !~ /$regex/"
		else
			npass=$((npass + 1))
		fi
		return
	fi
	if [[ -s $T/out ]]; then
		fail "$what: wrote $(wc -c <"$T/out") bytes to stdout"
		return
	fi
	if ((${#err[@]} < 1)) || ! grep -Eqx -- "$regex" <<<"${err[0]}"; then
		fail "$what: stderr line '${err[0]:-}' !~ /$regex/"
		return
	fi
	if ((${#err[@]} == 2 && status == 2)); then
		hint="Try 'xbulk( ${argv[0]:-})? --help'\\."
		if ! grep -Eqx -- "$hint" <<<"${err[1]}"; then
			fail "$what: second stderr line '${err[1]}' is not the hint"
			return
		fi
	elif ((${#err[@]} != 1)); then
		fail "$what: ${#err[@]} lines on stderr: $(printf '[%s] ' "${err[@]}")"
		return
	fi
	npass=$((npass + 1))
}

run_table()
{
	local line

	while IFS= read -r line; do
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		check_case "$line"
	done <<<"$CASES"
}

# ---------------------------------------------------------------------------
# Checks outside the table

# The set-id cases mean something only if the kernel honours the bits.
check_setid_works()
{
	if findmnt -no OPTIONS -T "$T" | grep -qw nosuid; then
		xb_skip "$T is mounted nosuid: the set-id cases would test nothing"
	fi
}

# -n 010 is decimal 10 (not octal 8): the same output as -n 10.
check_octal_looking()
{
	local a b

	a=$("$XBULK" bulkstat -j 1 -d -n 010 "$MNT" | grep -c '^bulkstat: ')
	b=$("$XBULK" bulkstat -j 1 -d -n 10 "$MNT" | grep -c '^bulkstat: ')
	if [[ $a == "$b" ]]; then
		npass=$((npass + 1))
	else
		fail "-n 010 made $a calls, -n 10 made $b"
	fi
}

# -n 4294967295 reserves address space only: the same output as -n 4096,
# serial (-j 1) and parallel alike.
check_huge_batch()
{
	local j

	for j in 1 2; do
		if cmp -s <("$XBULK" bulkstat -j $j -n 4294967295 "$MNT") \
			  <("$XBULK" bulkstat -j 1 "$MNT"); then
			npass=$((npass + 1))
		else
			fail "-n 4294967295 -j $j differs from -n 4096"
		fi
	done
}

# strace lines that open for writing or change the filesystem, or write.
CHANGES_FS='O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|^[0-9]+ +(f|l)?(creat|unlink|rename|mkdir|rmdir|link|symlink|mknod|chmod|chown|truncate|utime|setxattr|removexattr)(at|at2|s|32|64|nsat)?\('
WRITES='(write|writev|pwrite64|pwritev2?|sendto|sendmsg)\('

# strace_lines LOG ERE EXCEPT: the first 3 lines of LOG matching ERE but
# not EXCEPT.
strace_lines()
{
	grep -E -- "$2" "$1" | grep -Ev -- "$3" | head -n 3 || true
}

# strace: the target is opened O_RDONLY; nothing is opened for writing,
# created or changed but the --stats-file when one is asked for, and
# /dev/null (where a signal points stdout, cli/common.c); nothing
# is written but to fds 1 and 2 and that file.
check_opens()
{
	local log=$T/strace.log stats=$T/stats.out args bad
	local -a av

	if ! command -v strace >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace \
			>/dev/null 2>&1 || true
	fi
	if ! command -v strace >/dev/null 2>&1; then
		echo "NOTE: strace not installed, open/write checks skipped"
		return
	fi
	for args in "bulkstat -j 1" "bulkstat -j 2" "bulkstat -q" \
		    "inumbers -j 2" "bulkstat -v 1 -j 1" \
		    "bulkstat -j 2 -o jsonl --stats=json --stats-file $stats" \
		    "inumbers -j 1 --stats --stats-file $stats" \
		    "bulkstat_single @ root $ROOT_INO" \
		    "bulkstat_single @ 99999999999"; do
		read -r -a av <<<"$args"
		if [[ ${av[1]} == @ ]]; then
			av[1]=$MNT
		else
			av+=("$MNT")
		fi
		rm -f "$stats"
		ASAN_OPTIONS=detect_leaks=0 strace -f -qq -y -s 0 -o "$log" \
			-e trace=%file,write,writev,pwrite64,pwritev,pwritev2,sendto,sendmsg \
			"$XBULK" "${av[@]}" >/dev/null 2>&1 || true
		if ! grep -Eq "open(at)?\(.*\"$MNT\", O_RDONLY" "$log"; then
			fail "strace xbulk $args: $MNT not opened O_RDONLY"
			continue
		fi
		if [[ $args == *--stats-file* && ! -s $stats ]]; then
			fail "strace xbulk $args: no statistics in $stats"
			continue
		fi
		bad=$(strace_lines "$log" "$CHANGES_FS" \
			"\"$stats\"|\"/dev/null\", O_WRONLY\|O_CLOEXEC\)")
		if [[ -n $bad ]]; then
			fail "strace xbulk $args: writes to the filesystem: $bad"
			continue
		fi
		bad=$(strace_lines "$log" "$WRITES" \
			"(write|writev|pwrite64|pwritev2?)\(([12]<|[0-9]+<$stats>)")
		if [[ -n $bad ]]; then
			fail "strace xbulk $args: writes to an fd other than 1 and 2: $bad"
			continue
		fi
		npass=$((npass + 1))
	done
}

check_setid_works
run_table
check_octal_looking
check_huge_batch
check_opens

summary=()
for s in $(printf '%s\n' "${!by_status[@]}" | sort -n); do
	summary+=("status $s: ${by_status[$s]}")
done
echo "bad-input: $ncases table cases ($(IFS=,; echo "${summary[*]}" | sed 's/,/, /g')), $npass checks passed, $nfail failed"
((nfail == 0))
