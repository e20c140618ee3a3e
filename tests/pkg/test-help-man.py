#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every command's --help and the man page agree, for whatever commands
# `xbulk help` lists:
#   - the commands are those of the man page's COMMANDS section;
#   - every option of a command's --help is documented: it heads an item
#     (.TP, .IP) somewhere in the page;
#   - every option heading an item of an OPTIONS section is an option of
#     xbulk or of a command (items elsewhere, such as find's primaries,
#     need not be in a --help);
#   - find's refused names (--help's "Refused" line) are named in the page;
#   - a command's SYNOPSIS lists only options of its --help, and all of
#     them (an option counts as listed when one of its names is, as -o for
#     "-o, --format"; --help aside), unless the synopsis stands for them
#     with an italic OPTION, options or expression.
# An option line of a --help is indented by at most 8 columns and starts
# with "-" (deeper lines are descriptions), as completion/xbulk reads it.
# xbulk's own options (xbulk --help) are checked against the synopsis
# lines of plain "xbulk".
#
# Environment (tests/pkg/meson.build): XBULK, MAN (the page's source).

import os
import re
import subprocess
import sys

# An option in roff: \- for each dash (a bare - also counts), font escapes
# removed first.
ROFF_FONT = re.compile(r'\\f[BIRP]|\\f\(..|\\f\[[^]]*\]')
OPTION = re.compile(r'(?<![\w-])(--?[A-Za-z0-9?][A-Za-z0-9_-]*)')
PLACEHOLDER = re.compile(r'^\.(I|RI|BI|IR|IB)\b.*\b(options?|expression)\b',
                         re.IGNORECASE)
HELP_OPTION = re.compile(r'^[ \t]{1,8}-')


def run(*args):
    return subprocess.run([os.environ['XBULK'], *args], check=True,
                          capture_output=True, text=True).stdout


def commands():
    """The commands `xbulk help` lists below "Commands:"."""
    out, on = [], False
    for line in run('help').splitlines():
        if line.startswith('Commands:'):
            on = True
        elif on and not line.strip():
            break
        elif on and re.match(r'^\s+[a-z]', line):
            out.append(line.split()[0])
    return out


def help_groups(text):
    """The options of a --help's option lines, one set of names each:
    "-o, --format <fmt>" is one option, "-depth -maxdepth" two."""
    groups = []
    for line in text.splitlines():
        if not HELP_OPTION.match(line):
            continue
        joined = False
        for word in line.split():
            if not word.startswith('-'):
                break
            if not joined:
                groups.append(set())
            joined = word.endswith(',')
            groups[-1].add(re.sub(r'\[=.*', '', word.rstrip(',')))
    return groups


def roff_options(line):
    text = ROFF_FONT.sub('', line).replace('\\-', '-')
    # quoted roff arguments: keep the text, drop the quotes
    text = text.replace('"', ' ')
    return set(OPTION.findall(text.split(None, 1)[1] if
                              text.startswith('.') and ' ' in text else
                              text))


def parse_man(path):
    """Item headings' options (all, and those of OPTIONS sections),
    COMMANDS' names, SYNOPSIS blocks."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    tags, option_tags, cmds, synopsis = set(), set(), [], {}
    section, block, after_tp = '', None, False

    def heading(line):
        opts = roff_options(line)
        tags.update(opts)
        if 'OPTIONS' in section.upper():
            option_tags.update(opts)

    for line in lines:
        if line.startswith('.SH'):
            section = line[3:].strip().strip('"')
            block = None
            continue
        if after_tp:
            after_tp = False
            heading(line)
            if section == 'COMMANDS':
                words = ROFF_FONT.sub('', line).split()
                if len(words) >= 2 and words[0] in ('.B', '.BR', '.BI'):
                    cmds.append(words[1].strip('"'))
            continue
        if line.startswith(('.TP', '.TQ')):
            after_tp = True
        elif line.startswith('.IP '):
            heading(line)
        if section != 'SYNOPSIS':
            continue
        m = re.match(r'^\.B\s+"?xbulk(?:\s+([a-z_]+))?"?\s*$', line)
        if m:
            block = m.group(1) or ''
            synopsis.setdefault(block, {'opts': set(), 'all': False})
            continue
        if line.startswith('.br'):
            block = None
        elif block is not None:
            synopsis[block]['opts'] |= roff_options(line)
            if PLACEHOLDER.match(line):
                synopsis[block]['all'] = True
    return tags, option_tags, cmds, synopsis


def main():
    errors = []
    tags, option_tags, man_cmds, synopsis = parse_man(os.environ['MAN'])
    cmds = commands()
    if sorted(cmds) != sorted(man_cmds):
        errors.append(f'xbulk help lists {sorted(cmds)}, the man page\'s '
                      f'COMMANDS {sorted(man_cmds)}')

    known = set()
    for cmd in [''] + cmds:
        where = f'xbulk {cmd}'.strip()
        groups = help_groups(run(cmd, '--help') if cmd else run('--help'))
        opts = set().union(*groups) if groups else set()
        known |= opts
        for opt in sorted(opts - tags):
            errors.append(f'{where} --help: {opt} is not in the man page')
        syn = synopsis.get(cmd)
        if syn is None:
            errors.append(f'man page: no SYNOPSIS line for {where}')
            continue
        for opt in sorted(syn['opts'] - opts):
            errors.append(f'man page SYNOPSIS of {where}: {opt} is not in '
                          f'its --help')
        if syn['all']:
            continue
        for g in groups:
            if '--help' in g and cmd:
                continue
            if not g & syn['opts']:
                errors.append(f'man page SYNOPSIS of {where} lacks '
                              f'{" / ".join(sorted(g))}')
    for opt in sorted(option_tags - known):
        errors.append(f'man page documents {opt}, which no --help lists')
    # find's refused names (the "Refused" heading's line, from the
    # library's table like its lists): the page says why, somewhere
    with open(os.environ['MAN'], encoding='utf-8') as f:
        page = roff_options(' ' + f.read())
    for line in run('find', '--help').splitlines():
        if line.startswith('Refused'):
            for opt in sorted(set(OPTION.findall(line.split(':', 1)[1])) -
                              page):
                errors.append(f'xbulk find --help refuses {opt}, which '
                              f'the man page does not name')

    for e in errors:
        print(f'FAIL: {e}', file=sys.stderr)
    if errors:
        return 1
    print(f'PASS: {len(cmds)} commands, {len(known)} options, '
          f'--help and man page agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
