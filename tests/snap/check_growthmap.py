#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check xbulk du --since --svg's picture (issue 28, part 3) against
du --since's rows of the same OLD and NEW (-d 64 -o jsonl):

  check_growthmap.py SVG ROWS PATH=WORD...

- every directory box: its bytes now and then are its row's, its
  data-growth word (grew, shrunk, same, new) the sign of its row's change
  or its state, a moved one's tooltip says its old path;
- the legend's scale: 4 reds growing darker, 4 blues, a neutral grey;
- every box without boxes inside is filled with the legend's swatch of
  its class: the one whose bound is the first at least its change;
- the legend's deleted space is the sum of the highest deleted rows;
- each PATH=WORD given: that directory's box has that word.
Names are compared as the picture writes them: U+FFFD for bytes that
are not UTF-8."""
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def fail(msg):
    sys.stderr.write('check_growthmap: %s\n' % msg)
    sys.exit(1)


def text_of(row, key):
    if row.get(key + '_b64'):
        import base64
        raw = base64.b64decode(row[key + '_b64'])
        return raw.decode('utf-8', 'replace')
    return row[key]


def human(v):
    """du -h's figure: rounded up, one decimal below 10."""
    units = 'KMGTPE'
    if v < 1024:
        return str(v)
    k = 0
    x = v / 1024
    while x >= 1024 and k + 1 < len(units):
        x /= 1024
        k += 1
    if x < 10:
        s = '%.1f' % (math.ceil(x * 10) / 10)
        if s == '10.0':
            return '10' + units[k]
        return s + units[k]
    return '%d%s' % (math.ceil(x), units[k])


def main():
    svg_file, rows_file = sys.argv[1:3]
    want = dict(a.rsplit('=', 1) for a in sys.argv[3:])
    rows = {}
    for line in open(rows_file, encoding='utf-8'):
        r = json.loads(line)
        rows[text_of(r, 'path')] = r
    root = ET.parse(svg_file).getroot()
    # the legend: swatches and their texts, in order
    legend, swatch = [], None
    for el in root:
        if el.tag == NS + 'rect' and el.get('stroke') == '#999999':
            swatch = el.get('fill')
        elif el.tag == NS + 'text' and swatch:
            legend.append((el.text, swatch))
            swatch = None
    fills = dict((t, f) for t, f in legend)
    if 'unchanged' not in fills or 'new' not in fills:
        fail('legend %r: no unchanged or new' % legend)
    grew = [(t, f) for t, f in legend if t.startswith('+')]
    shrunk = [(t, f) for t, f in reversed(legend) if t.startswith('-')]
    if len(grew) != 4 or len(shrunk) != 4:
        fail('legend %r: not 4 classes each way' % legend)

    def rgb(c):
        return [int(c[i:i + 2], 16) for i in (1, 3, 5)]
    # the diverging scale: grew red, shrunk blue, both darker outwards;
    # unchanged a neutral grey
    for scale, hue, other in ((grew, 0, 2), (shrunk, 2, 0)):
        v = [rgb(f) for t, f in scale]
        if any(c[hue] <= c[other] for c in v) or \
                [sum(c) for c in v] != sorted((sum(c) for c in v),
                                             reverse=True):
            fail('legend %r: not a %s scale darker outwards' %
                 (scale, 'red' if hue == 0 else 'blue'))
    grey = rgb(fills['unchanged'])
    if max(grey) != min(grey):
        fail('unchanged is %s, not grey' % fills['unchanged'])
    seen = {}
    dirs = 0
    for g in root.iter(NS + 'g'):
        if g.get('data-kind') != 'dir':
            continue
        title = g.find(NS + 'title').text.split('\n')
        path = '.' if g.get('data-parent') == '0' else title[0]
        r = rows.get(path)
        if r is None:
            fail('box %r: no row' % path)
        word = g.get('data-growth')
        change = r['bytes_now'] - r['bytes_then']
        expect = 'new' if r['state'] == 'new' else \
            'grew' if change > 0 else 'shrunk' if change < 0 else 'same'
        if word != expect:
            fail('box %r: %s, its row says %s' % (path, word, expect))
        if int(g.get('data-bytes')) != r['bytes_now'] or \
                int(g.get('data-then')) != r['bytes_then']:
            fail('box %r: %s then %s bytes, its row %d then %d' %
                 (path, g.get('data-bytes'), g.get('data-then'),
                  r['bytes_now'], r['bytes_then']))
        if r['state'] == 'moved' and \
                'moved from ' + text_of(r, 'old_path') not in title:
            fail('box %r: moved, tooltip %r' % (path, title))
        fill = g.find(NS + 'rect').get('fill')
        if not g.get('data-inner'):
            if word in ('new', 'same'):
                ok = fills['new' if word == 'new' else 'unchanged']
            else:
                scale = grew if change > 0 else shrunk
                ok = None
                for t, f in scale:
                    # bounds are powers of two (exact in du -h) but
                    # the last, the largest change, which takes the rest
                    ok = f
                    if abs(change) <= parse(t[1:]):
                        break
            if fill != ok:
                fail('box %r (%s %+d): fill %s, the legend says %s' %
                     (path, word, change, fill, ok))
        seen[path] = word
        dirs += 1
    for path, word in want.items():
        if seen.get(path) != word:
            fail('%r: %s, not %s' % (path, seen.get(path), word))
    # deleted: the highest deleted directories' bytes then
    gone = [p for p, r in rows.items() if r['state'] == 'deleted']
    top = [p for p in gone if os.path.dirname(p) not in gone]
    text = 'deleted: %s in %d director%s' % (
        human(sum(rows[p]['bytes_then'] for p in top)), len(top),
        'y' if len(top) == 1 else 'ies')
    if text not in fills:
        fail('legend %r: no %r' % ([t for t, f in legend], text))
    print('growthmap: %d directories coloured as their rows, %s' %
          (dirs, text))


def parse(s):
    mult = {'K': 1, 'M': 2, 'G': 3, 'T': 4, 'P': 5, 'E': 6}
    if s[-1] in mult:
        return float(s[:-1]) * 1024 ** mult[s[-1]]
    return float(s)


if __name__ == '__main__':
    main()
