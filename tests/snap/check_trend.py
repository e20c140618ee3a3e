#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""du --trend --svg's chart against the summaries it was drawn from.

  check_trend.py svg FILE.svg HISTORY-DIR LINES OTHER FULL

FILE.svg must hold LINES series lines, an "other" line when OTHER is
"yes", and the filesystem's used space, size and projection when FULL
is "yes"; every line one point per summary (the size one more), all on
one time axis (x grows with the stamps, the same x for one stamp in
every line) and one linear size axis from 0 (y = y0 - k * bytes for
one y0 and k across all lines); the lines are the largest series by
their newest point, named (<title>) as the summaries name them (bytes
that are not UTF-8 and controls as U+FFFD), the other line their sum;
every text inside the picture.
"""
import base64
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def shown(raw):
    """The name as the chart shows it: U+FFFD per byte that is not
    UTF-8 and per C0 control but the tab."""
    out = raw.decode('utf-8', errors='replace')
    return ''.join('\ufffd' if ord(c) < 0x20 and c != '\t' else c
                   for c in out)


def summaries(hist):
    """{name: [bytes at each summary or None]}, the times, the fs."""
    files = sorted(glob.glob(os.path.join(hist, '*.summary.jsonl')))
    series, fs = {}, []
    for i, path in enumerate(files):
        lines = [json.loads(l) for l in open(path, encoding='utf-8')]
        fs.append((lines[0]['fs_bytes'], lines[0]['fs_free_bytes']))
        for l in lines[1:]:
            if l['kind'] != 'dir' or l['depth'] != 1:
                continue
            raw = (base64.b64decode(l['path_b64']) if l.get('path_b64')
                   else l['path'].encode())
            series.setdefault(raw, [None] * len(files))[i] = l['bytes']
    return series, fs, len(files)


def points(g):
    pl = g.find(NS + 'polyline')
    return [tuple(float(c) for c in p.split(','))
            for p in pl.get('points').split()]


def svg(path, hist, nlines, other, full):
    root = ET.parse(path).getroot()
    series, fs, n = summaries(hist)
    groups = {}
    for g in root.iter(NS + 'g'):
        groups.setdefault(g.get('data-kind'), []).append(g)
    lines = groups.get('series', [])
    if len(lines) != int(nlines):
        fail('%d series lines, not %s' % (len(lines), nlines))
    if bool(groups.get('other')) != (other == 'yes'):
        fail('an other line: %s, want %s' % (bool(groups.get('other')),
                                             other))
    for kind in ('fs-used', 'fs-size', 'projection'):
        if len(groups.get(kind, [])) != (full == 'yes'):
            fail('%s lines: %d, want %s' % (kind,
                                            len(groups.get(kind, [])),
                                            full))
    # the largest by their newest point, named as the summaries name them
    newest = sorted(series.items(),
                    key=lambda kv: -[v for v in kv[1] if v is not None][-1])
    want = {shown(raw): v for raw, v in newest[:len(lines)]}
    got = {g.find(NS + 'title').text: points(g) for g in lines}
    if set(got) != set(want):
        fail('lines %r, not the largest %r' % (sorted(got), sorted(want)))
    drawn = [(want[name], pts) for name, pts in got.items()]
    if groups.get('other'):
        rest = [v for _, v in newest[len(lines):]]
        drawn.append(([sum(v[i] or 0 for v in rest) for i in range(n)],
                       points(groups['other'][0])))
    if full == 'yes':
        drawn.append(([b - f for b, f in fs], points(groups['fs-used'][0])))
        size = points(groups['fs-size'][0])
        if len(size) != n + 1 or size[-1][1] != size[-2][1]:
            fail('the size line: %r' % size)
        drawn.append(([b for b, _ in fs], size[:n]))
    # one time axis: x grows, the same for a stamp in every line
    xs = None
    for vals, pts in drawn:
        have = [i for i, v in enumerate(vals) if v is not None]
        if len(pts) != len(have):
            fail('%d points for %d summaries' % (len(pts), len(have)))
        x = {i: p[0] for i, p in zip(have, pts)}
        if any(x[a] >= x[b] for a, b in zip(have, have[1:])):
            fail('x does not grow with time: %r' % pts)
        if xs is None:
            xs = x
        elif any(abs(xs[i] - x[i]) > 0.01 for i in x if i in xs):
            fail('one stamp, two x: %r %r' % (xs, x))
    # one size axis from 0: y0 and k from the largest line
    vals, pts = drawn[0]
    pairs = [(v, p[1]) for v, p in
             zip([v for v in vals if v is not None], pts)]
    (v1, y1), (v2, y2) = pairs[0], pairs[-1]
    if v1 == v2:
        fail('the largest line does not change: no scale to check')
    k = (y1 - y2) / (v2 - v1)
    y0 = y1 + k * v1
    for vals, pts in drawn:
        for v, p in zip([v for v in vals if v is not None], pts):
            if abs(p[1] - (y0 - k * v)) > 0.05:
                fail('y %.2f for %d bytes, the axis says %.2f' %
                     (p[1], v, y0 - k * v))
    width = float(root.get('width'))
    for t in root.iter(NS + 'text'):
        if float(t.get('x')) < 0 or float(t.get('x')) > width:
            fail('text %r outside the picture' % t.text)
    print('trend svg: %d lines of %d points, axes consistent' %
          (len(drawn), n))


if __name__ == '__main__':
    if sys.argv[1] == 'svg':
        svg(*sys.argv[2:])
    else:
        fail('usage: check_trend.py svg FILE HIST LINES OTHER FULL')
