#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drive ncdu's interface under tmux and read what it shows.

    ncdu_tui.py screens FILE [KEYS...]
        Start `ncdu -f FILE` in a detached tmux session of its own
        server, print the browser's screen as JSON (the directory shown
        and its rows), then for each KEYS argument (tmux send-keys
        names, separated by commas: "Down,Enter") send the keys and
        print the next screen.  Rows are [flag, bytes shown, name],
        bytes as ncdu rounds them (ncdu 1.18: one decimal, units of
        1024).

    ncdu_tui.py agree SCREENS N DU0
        Check screen N (from 0) of the file SCREENS (what `screens`
        printed) against `du -0 -B1 -d 1 DIR` (DU0): every
        subdirectory du lists is a row whose size is du's within ncdu's
        rounding.  Exit status 1 and one line per miss on stderr.

A screen is read once it is stable: the same capture twice in a row (at
most 400 polls, 50 ms apart; a bound, not a time asserted).
"""
import json
import os
import re
import subprocess
import sys
import time

UNITS = {' ': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40,
         'P': 1 << 50, 'E': 1 << 60}
# "  12.3 MiB [#####     ] /name" (a flag letter may stand in column 0)
ROW = re.compile(r'^(.)\s*(\d+\.\d) ([ KMGTPE])(?:iB| B) \[[# ]*\] ([/ ])(.*)$')
HEAD = re.compile(r'^--- (.*?) -+$')


def tmux(sock, *args, **kw):
    return subprocess.run(['tmux', '-L', sock] + list(args), check=True,
                          capture_output=True, text=True, **kw).stdout


def capture(sock):
    """The pane's text once two captures in a row agree and it shows a
    directory."""
    last = None
    for _ in range(400):
        text = tmux(sock, 'capture-pane', '-p', '-t', 'ncdu')
        if text == last and any(HEAD.match(ln) for ln in text.splitlines()):
            return text
        last = text
        time.sleep(0.05)
    sys.exit('ncdu_tui: no stable browser screen:\n' + (last or ''))


def parse(text):
    lines = text.splitlines()
    where = next(HEAD.match(ln).group(1) for ln in lines if HEAD.match(ln))
    rows = []
    for ln in lines:
        m = ROW.match(ln)
        if m:
            shown = float(m.group(2)) * UNITS[m.group(3)]
            rows.append([m.group(1).strip(), shown, m.group(5),
                         m.group(3)])
    return {'dir': where, 'rows': rows}


def screens(path, keys):
    sock = 'xbulk-ncdu-%d' % os.getpid()
    tmux(sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'ncdu',
         '-x', '160', '-y', '60', 'ncdu --ignore-config -f ' +
         "'" + path.replace("'", "'\\''") + "'",
         env=dict(os.environ, TERM='xterm'))
    try:
        out = [parse(capture(sock))]
        for k in keys:
            tmux(sock, 'send-keys', '-t', 'ncdu', *k.split(','))
            # the screen changes: wait for a new directory shown
            for _ in range(400):
                s = parse(capture(sock))
                if s != out[-1]:
                    break
                time.sleep(0.05)
            out.append(s)
        print(json.dumps(out))
    finally:
        subprocess.run(['tmux', '-L', sock, 'kill-server'],
                       capture_output=True)


def agree(screens_file, n, du0):
    with open(screens_file) as f:
        screen = json.load(f)[n]
    shown = {r[2]: r for r in screen['rows']}
    top = screen['dir']
    misses = []
    with open(du0, 'rb') as f:
        for item in f.read().split(b'\0'):
            if not item:
                continue
            size, path = item.decode('utf-8', 'surrogateescape').split(
                '\t', 1)
            if path == top:
                continue
            name = path[len(top) + 1:]
            row = shown.get(name)
            if row is None:
                misses.append('%s: not shown' % name)
                continue
            unit = UNITS[row[3]]
            # ncdu prints %5.1f of the size in its unit
            if abs(int(size) / unit - row[1] / unit) > 0.05 + 1e-9:
                misses.append('%s: du %s bytes, ncdu shows %.1f %s' %
                              (name, size, row[1] / unit, row[3]))
    for m in misses:
        print('ncdu_tui: ' + m, file=sys.stderr)
    return 1 if misses else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'screens':
        screens(sys.argv[2], sys.argv[3:])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == 'agree':
        return agree(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
