#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bash completion (completion/xbulk), driven as bash-completion drives
# it: COMP_WORDS/COMP_CWORD/COMP_LINE set, the function `complete -p`
# names called, COMPREPLY read.  The commands and options it must offer
# come from the xbulk under test (`xbulk help`, `xbulk CMD --help`), so
# the test follows new commands.  With root and loop devices, PATH is
# also checked against a loop-mounted XFS whose mount point has a space.
#
# Environment (tests/pkg/meson.build): XBULK, COMPLETION, XB_SANITIZE.

. "$(dirname "$0")/../integration/lib.sh"

BASH_COMPLETION=/usr/share/bash-completion/bash_completion
FAILS=0

check()
{
	local what=$1 ok=$2

	if ((ok)); then
		echo "ok   $what"
	else
		echo "FAIL $what" >&2
		FAILS=$((FAILS + 1))
	fi
}

# comp WORD... : complete the last word of the command line WORD...
# (words as bash splits them: "--stats=js" is "--stats" "=" "js") and
# print the candidates, one a line.
comp()
{
	local spec i line=

	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	for ((i = 0; i < $#; i++)); do
		if ((i)) && [[ ${COMP_WORDS[i]} != = && ${COMP_WORDS[i - 1]} != = ]]
		then
			line+=' '
		fi
		line+=${COMP_WORDS[i]}
	done
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	spec=$(complete -p "$1") || return 1
	spec=${spec#*-F }
	"${spec%% *}" "$1" "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
	return 0
}

# expect WHAT "CANDIDATES" WORD... : exactly these candidates (any order)
expect()
{
	local what=$1 want=$2 got

	shift 2
	got=$(comp "$@" | sort | tr '\n' ' ')
	want=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort | tr '\n' ' ')
	[[ $got == "$want" ]] || echo "  '$*': got '$got', want '$want'" >&2
	check "$what" "$([[ $got == "$want" ]] && echo 1 || echo 0)"
}

# expect_has WHAT CANDIDATE WORD... : CANDIDATE is among them
expect_has()
{
	local what=$1 want=$2

	shift 2
	if comp "$@" | grep -xF -- "$want" >/dev/null; then
		check "$what" 1
	else
		echo "  '$*': '$want' not in: $(comp "$@" | tr '\n' ' ')" >&2
		check "$what" 0
	fi
}

# The commands xbulk help lists (the lines below "Commands:").
commands()
{
	xbulk help | sed -n '/^Commands:/,/^$/s/^[[:blank:]]\{1,\}\([a-z_]\{1,\}\).*/\1/p'
}

# One name of each option of xbulk CMD --help (on lines indented by 1 to
# 8 columns, then "-"; names joined by a comma are one option's): its
# long name if it has one (as bash-completion's _parse_help prefers),
# else its short one.  Not those listed under a heading "Refused".
help_options()
{
	xbulk "$1" --help | awk '/^[^[:blank:]]/ { refused = /^Refused/ }
		!refused && /^[[:blank:]]{1,8}-/' |
		awk '{
			best = ""
			for (i = 1; i <= NF && $i ~ /^-/; i++) {
				t = $i; sub(/\[=.*/, "", t)
				comma = sub(/,$/, "", t)
				if (best == "" || (t ~ /^--/ && best !~ /^--/))
					best = t
				if (!comma) {
					print best
					best = ""
				}
			}
		}'
}

test_commands()
{
	local -a cmds
	local cmd got missing

	mapfile -t cmds < <(commands)
	((${#cmds[@]} >= 4)) || xb_die "xbulk help lists ${#cmds[@]} commands"
	expect "every command of 'xbulk help'" "${cmds[*]}" xbulk ''
	expect "commands by prefix" "bulkstat bulkstat_single" xbulk bulk
	expect "xbulk's own options" "--help --version" xbulk -
	expect "help COMMAND" "bulkstat bulkstat_single" xbulk help bulk
	expect "nothing after help COMMAND" "" xbulk help bulkstat ''
	for cmd in "${cmds[@]}"; do
		[[ $cmd == help ]] && continue
		got=$(comp xbulk "$cmd" -)
		missing=$(help_options "$cmd" | grep -vxF -f <(echo "$got"))
		[[ -z $missing ]] || echo "  'xbulk $cmd -': lacks" $missing >&2
		check "$cmd: every option of its --help ($(wc -w <<<"$got"))" \
			"$([[ -z $missing ]] && echo 1 || echo 0)"
	done
}

test_values()
{
	expect "-o values" "text jsonl csv" xbulk bulkstat -o ''
	expect "--format values" "jsonl" xbulk inumbers --format j
	expect "-v values" "1 5" xbulk bulkstat_single -v ''
	expect "--stats=values" "text json" xbulk bulkstat --stats = ''
	expect "--stats=j" "json" xbulk inumbers -q --stats = j
	expect "-a takes a number: no candidates" "" xbulk bulkstat -a ''
	expect "an option after --stats (its value needs =)" "--stats-file" \
		xbulk bulkstat --stats --stats-
	expect "literal arguments after PATH" "root" \
		xbulk bulkstat_single -v 5 /mnt ''
	expect "no argument after bulkstat's PATH" "" \
		xbulk bulkstat -j 2 /mnt ''
	expect "find's primaries (a list line of its --help)" "-maxdepth" \
		xbulk find /mnt -maxd
	expect "find's actions are offered" \
		"-empty -exec -execdir -executable" xbulk find /mnt -e
	expect "find's refused options are not offered" "" \
		xbulk find /mnt -conte
	expect "-follow is offered" "-follow" xbulk find /mnt -fol
	expect "du's long options" "--max-depth --max-series" \
		xbulk du -s --max-
	expect "du's -o values" "text jsonl csv" xbulk du -o ''
	expect "du's --by values" "uid gid projid type ext age size-class" \
		xbulk du --by ''
	expect "du's --color-by values" "owner age" xbulk du --color-by ''
	expect "du's --time values" "mtime atime ctime birth" \
		xbulk du -s --time ''
	expect "du's --svg completes files" "$TMP/files/stats.json" \
		xbulk du --svg "$TMP/files/st"
	expect "no PATH once find's expression began" "" \
		xbulk find /mnt -name ''

	expect "--stats-file completes files" "$TMP/files/stats.json" \
		xbulk bulkstat --stats-file "$TMP/files/st"
}

# A command in the shapes of help the tree's commands do not use yet: an
# optional, repeated PATH, values in an option line's <a|b|c>, a
# description line that starts with "-".
fakebulk()
{
	case $* in
	help)	printf 'Commands:\n   fake   A fake command\n\n' ;;
	"fake --help")
		cat <<-'EOF'
		Usage: xbulk fake [OPTION]... [PATH]...

		   -a, --all  Everything.
		   --by <uid|gid|type>
		              A table per key;
		              -print is described here, not an option.
		   -B <size>  Units.
		EOF
		;;
	*)	return 2 ;;
	esac
}

test_shapes()
{
	complete -F _xbulk fakebulk
	expect "options, long names first" "--all --by -B" fakebulk fake -
	expect "values of <a|b|c>" "uid gid type" fakebulk fake --by ''
	expect "values of <a|b|c> after =" "gid" fakebulk fake --by = g
	expect "no values for <size>" "" fakebulk fake -B ''
	cd "$TMP/files"
	expect "[PATH]... after an option's argument" "stats.json" \
		fakebulk fake -B 4k st
	expect "[PATH]... again" "stats.json" fakebulk fake -a sub st
	cd /
}

test_path()
{
	local mnt

	if ((EUID != 0)) || ! losetup -f >/dev/null 2>&1; then
		echo "note: PATH completion not checked (needs root, loop devices)"
		return
	fi
	TMPDIR="$TMP_SPACE" xb_mkfs_mount 512M "-d agcount=2"
	mnt=$XB_MNT
	: >"$mnt/file1"
	expect_has "PATH: an XFS mount point with a space" "$mnt" \
		xbulk bulkstat ''
	expect_has "PATH after an option's argument" "$mnt" \
		xbulk bulkstat -a 1 -o csv ''
	expect_has "PATH for inumbers" "$mnt" xbulk inumbers --stats ''
	expect_has "PATH... for find" "$mnt" xbulk find -j 2 /mnt ''
	expect_has "[PATH]... for du" "$mnt" xbulk du -s -d 1 ''
	if comp xbulk bulkstat "" | grep -xF /proc >/dev/null; then
		check "PATH: no mount point of another filesystem type" 0
	else
		check "PATH: no mount point of another filesystem type" 1
	fi
	# (a relative name: bash-completion 2.11's _filedir does not match
	# a typed "a\ dir")
	cd "$mnt"
	expect "PATH: files when no mount point matches" file1 \
		xbulk bulkstat fi
	cd /
	xb_cleanup
}

main()
{
	[[ -r $BASH_COMPLETION ]] ||
		xb_skip "bash-completion not installed (scripts/deps)"
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbulk-comp.XXXXXX")
	TMP_SPACE=$TMP/'a dir'
	# xb_mkfs_mount's traps replace this one and run the hook
	trap 'rm -rf --one-file-system "$TMP"' EXIT
	xb_at_exit 'rm -rf --one-file-system "$TMP"'
	mkdir "$TMP/bin" "$TMP_SPACE"
	mkdir -p "$TMP/files/sub"
	: >"$TMP/files/stats.json"
	ln -s "$XBULK" "$TMP/bin/xbulk"
	PATH=$TMP/bin:$PATH

	# bash-completion as an interactive shell has it, then ours.
	set +eu
	. "$BASH_COMPLETION"
	. "$COMPLETION"
	compopt() { :; }	# only valid while bash itself completes
	[[ $(complete -p xbulk) == "complete -F _xbulk xbulk" ]]
	check "complete -p xbulk" $((!$?))

	test_commands
	test_values
	test_shapes
	test_path
	((FAILS == 0)) || xb_die "$FAILS completion checks failed"
	echo "PASS"
}

main "$@"
