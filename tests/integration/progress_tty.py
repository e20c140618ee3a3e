#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run a command with its stderr on a pseudo-terminal, as a person watching
# --progress sees it, and what the terminal got:
#
#   progress_tty.py run RAW OUT -- COMMAND...
#       stdin /dev/null, stdout to the file OUT (or, with OUT "tty", on
#       the terminal too), stderr on the terminal; every byte the terminal
#       got goes to RAW.  Exits with the command's status (128 + N for
#       signal N).
#   progress_tty.py screen RAW
#       The lines RAW leaves on the screen: each "\r" goes back to the
#       start of the line, "ESC [ K" erases to its end, "\n" ends it.
#   progress_tty.py lines RAW
#       Every progress line drawn (the text after each "\r" up to the
#       erase that ends it), one a line.

import os
import pty
import re
import subprocess
import sys

ERASE = b'\x1b[K'


def run(raw, out, argv):
    master, slave = pty.openpty()
    stdout = slave if out == 'tty' else open(out, 'wb')
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout,
                            stderr=slave)
    os.close(slave)
    got = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:		# EIO: every writer closed the terminal
            break
        if not chunk:
            break
        got += chunk
    status = proc.wait()
    os.close(master)
    with open(raw, 'wb') as f:
        f.write(bytes(got))
    return 128 - status if status < 0 else status


def screen(raw):
    """The screen's lines: \r rewinds, ESC[K erases to the end."""
    lines, cur, col = [], bytearray(), 0
    data = raw.replace(b'\r\n', b'\n')	# the terminal's ONLCR
    i = 0
    while i < len(data):
        if data.startswith(ERASE, i):
            del cur[col:]
            i += len(ERASE)
            continue
        c = data[i]
        i += 1
        if c == 0x0d:
            col = 0
        elif c == 0x0a:
            lines.append(bytes(cur))
            cur, col = bytearray(), 0
        else:
            if col < len(cur):
                cur[col] = c
            else:
                cur.append(c)
            col += 1
    if cur:
        lines.append(bytes(cur))
    return lines


def main():
    mode = sys.argv[1]
    if mode == 'run':
        sep = sys.argv.index('--')
        sys.exit(run(sys.argv[2], sys.argv[3], sys.argv[sep + 1:]))
    with open(sys.argv[2], 'rb') as f:
        raw = f.read()
    if mode == 'screen':
        out = screen(raw)
    else:
        out = [m for m in re.findall(rb'\r([^\r\n]*?)\x1b\[K', raw) if m]
    for line in out:
        sys.stdout.buffer.write(line + b'\n')


main()
