#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of xbulk du's output that need more than diff (test-du.sh).

  check_du.py by KEY FIND_OUT XBULK_CSV [BULKSTAT_JSONL]
      xbulk du --by KEY -o csv (one PATH) against sums of
      `find -xdev -printf '%i %U %G %y %b %s\\n'`, each inode counted once
      (projid: from xbulk bulkstat -o jsonl by inode number; age: from
      a seventh field, %Ts; ext: "(none)" for all, as for the inodes of
      --unreachable, which have no name), and each row's name: NSS's,
      /etc/projid's or none for ids, the key for the other keys.
  check_du.py formats DU0 JSONL CSV
      xbulk du -o jsonl and -o csv have du -0 -B1's records, in order:
      the path (exactly, from path_b64 where it is not UTF-8) and bytes.
  check_du.py svg FILE
      every box's area is its share of its directory's boxes within 1%,
      every label, as wide as DejaVu Sans (the font the SVG asks for)
      sets it, lies inside its rectangle, and the legend inside the
      picture.
  check_du.py owners FILE
      --color-by owner: every box without boxes inside has the legend's
      colour of the owner its tooltip names, and the legend's owner
      colours are far apart (RGB distance 60 or more).
  check_du.py png FILE
      the PNG decodes and is not one colour.
"""
import base64
import csv
import grp
import json
import pwd
import re
import struct
import sys
import time
import xml.etree.ElementTree as ET
import zlib

TYPES = {'f': 'file', 'd': 'dir', 'l': 'symlink', 'p': 'fifo',
         's': 'socket', 'c': 'char', 'b': 'block'}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


AGES = [(86400, '<1d'), (7 * 86400, '<7d'), (30 * 86400, '<30d'),
        (90 * 86400, '<90d'), (365 * 86400, '<1y'), (3 * 365 * 86400, '<3y')]
# apparent sizes: each class four times the one before
SIZES = ['<4K', '<16K', '<64K', '<256K', '<1M', '<4M', '<16M', '<64M',
         '<256M', '<1G', '<4G', '<16G', '<64G', '<256G', '<1T', '<4T',
         '<16T', '<64T', '<256T', '<1P', '>=1P']


def age_class(mtime):
    age = time.time() - mtime
    return next((label for limit, label in AGES if age < limit), 'older')


def size_class(size):
    k = 0
    while k < len(SIZES) - 1 and size >= 4096 << 2 * k:
        k += 1
    return SIZES[k]


def projid_names():
    """/etc/projid's "name:id" lines, the first name of an id."""
    names = {}
    try:
        with open('/etc/projid') as f:
            for line in f:
                m = re.match(r'([^#:][^:]*):(\d+)', line)
                if m:
                    names.setdefault(m.group(2), m.group(1))
    except FileNotFoundError:
        pass
    return names


def key_name(key, k):
    """The name xbulk gives key @k of --by @key ('' for none)."""
    try:
        if key == 'uid':
            return pwd.getpwuid(int(k)).pw_name
        if key == 'gid':
            return grp.getgrgid(int(k)).gr_name
    except KeyError:
        return ''
    if key == 'projid':
        return projid_names().get(k, '')
    return k


def by(key, find_out, xbulk_csv, bulkstat=None):
    projid = {}
    if bulkstat:
        with open(bulkstat) as f:
            for line in f:
                rec = json.loads(line)
                projid[rec['bs_ino']] = rec['bs_projectid']
    want, seen = {}, set()
    with open(find_out) as f:
        for line in f:
            ino, uid, gid, typ, blocks, size, *mtime = line.split()
            if ino in seen:
                continue
            seen.add(ino)
            k = {'uid': uid, 'gid': gid, 'type': TYPES[typ],
                 'projid': str(projid.get(int(ino), 'missing')),
                 'ext': '(none)', 'size-class': size_class(int(size)),
                 'age': age_class(int(mtime[0])) if mtime else 'no %Ts'}[key]
            row = want.setdefault(k, [0, 0, 0, key_name(key, k)])
            row[0] += 1
            row[1] += int(blocks) * 512
            row[2] += int(size)
    got = {}
    with open(xbulk_csv, newline='') as f:
        for rec in csv.DictReader(f):
            got[rec['key']] = [int(rec['inodes']), int(rec['disk_bytes']),
                               int(rec['apparent_bytes']), rec['name']]
    if got != want:
        fail('--by %s: xbulk %s, find %s' % (key, sorted(got.items()),
                                             sorted(want.items())))
    print('by %s: %d groups, %d inodes equal' % (key, len(got), len(seen)))


def formats(du0, jsonl, csv_file):
    with open(du0, 'rb') as f:
        want = [tuple(reversed(r.split(b'\t', 1)))
                for r in f.read().split(b'\0')[:-1]]
    want = [(p, int(n)) for p, n in want]
    got = []
    with open(jsonl, 'rb') as f:
        for line in f:
            rec = json.loads(line)
            path = (base64.b64decode(rec['path_b64']) if rec['path_b64']
                    else rec['path'].encode())
            got.append((path, rec['bytes']))
    if got != want:
        fail('-o jsonl: %d records, du -0 %d; first difference %r' %
             (len(got), len(want),
              next((g, w) for g, w in zip(got + [None] * len(want), want)
                   if g != w)))
    # strict UTF-8: a name that is not UTF-8 is U+FFFD in path, its bytes
    # in path_b64
    with open(csv_file, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f))
    if rows[0] != ['path', 'bytes', 'inodes', 'path_b64']:
        fail('-o csv: header %r' % rows[0])
    got = [(base64.b64decode(r[3]) if r[3] else r[0].encode(), int(r[1]))
           for r in rows[1:]]
    if any(r[3] and '\ufffd' not in r[0] for r in rows[1:]):
        fail('-o csv: path_b64 where path has no U+FFFD')
    if got != want:
        fail('-o csv: %d rows, du -0 %d records' % (len(got), len(want)))
    print('formats: %d records equal in jsonl and csv' % len(want))


def font_widths():
    """Advance widths of DejaVu Sans in em, by character; characters the
    font lacks come from another font: 1 em."""
    from fontTools.ttLib import TTFont
    font = TTFont('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')
    cmap, hmtx = font.getBestCmap(), font['hmtx']
    em = font['head'].unitsPerEm
    return lambda ch: (hmtx[cmap[ord(ch)]][0] / em if ord(ch) in cmap
                       else 1.0)


def boxes(svg_file):
    tree = ET.parse(svg_file)
    ns = '{http://www.w3.org/2000/svg}'
    out = {}
    for g in tree.getroot().iter(ns + 'g'):
        if 'data-id' not in g.attrib:
            continue
        b = {'id': g.get('data-id'), 'parent': g.get('data-parent'),
             'bytes': int(g.get('data-bytes')), 'kind': g.get('data-kind'),
             'inner': None, 'rect': None, 'text': None}
        if g.get('data-inner'):
            b['inner'] = [float(v) for v in g.get('data-inner').split()]
        r = g.find(ns + 'rect')
        if r is not None:
            b['rect'] = [float(r.get(a)) for a in ('x', 'y', 'width',
                                                   'height')]
        t = g.find(ns + 'text')
        if t is not None:
            b['text'] = (float(t.get('x')), float(t.get('y')),
                         float(t.get('font-size')), t.text or '')
        out[b['id']] = b
    return out


def svg(svg_file):
    bx = boxes(svg_file)
    kids = {}
    for b in bx.values():
        if b['parent'] is not None:
            kids.setdefault(b['parent'], []).append(b)
    checked = labels = 0
    for pid, ks in kids.items():
        p = bx[pid]
        if not p['inner']:
            fail('box %s has boxes but no data-inner' % pid)
        area = p['inner'][2] * p['inner'][3]
        if sum(k['bytes'] for k in ks) != p['bytes']:
            fail('box %s: boxes sum to %d bytes, not %d' %
                 (pid, sum(k['bytes'] for k in ks), p['bytes']))
        for k in ks:
            want = k['bytes'] / p['bytes'] * area
            got = k['rect'][2] * k['rect'][3]
            if abs(got - want) > 0.01 * want:
                fail('box %s: area %.2f, its share is %.2f' %
                     (k['id'], got, want))
            x, y, w, h = k['rect']
            ix, iy, iw, ih = p['inner']
            e = 0.001
            if x < ix - e or y < iy - e or x + w > ix + iw + e or \
                    y + h > iy + ih + e:
                fail('box %s lies outside its directory' % k['id'])
            checked += 1
    width = font_widths()
    for b in bx.values():
        if not b['text']:
            continue
        tx, ty, fs, text = b['text']
        x, y, w, h = b['rect']
        tw = fs * sum(width(ch) for ch in text)
        if tx < x or tx + tw > x + w or ty - fs < y or ty + 0.25 * fs > y + h:
            fail('label %r of box %s does not fit: %.1f px in %.1f' %
                 (text, b['id'], tw, w - (tx - x)))
        labels += 1
    root = ET.parse(svg_file).getroot()
    ns = '{http://www.w3.org/2000/svg}'
    for t in root.findall(ns + 'text'):
        fs = float(t.get('font-size'))
        right = float(t.get('x')) + fs * sum(width(ch) for ch in t.text)
        if right > float(root.get('width')):
            fail('legend text %r ends at %.1f, past the picture' %
                 (t.text, right))
    if not checked or not labels:
        fail('no boxes (%d) or no labels (%d)' % (checked, labels))
    print('svg: %d boxes proportional, %d labels inside' % (checked, labels))


def owners(svg_file):
    ns = '{http://www.w3.org/2000/svg}'
    root = ET.parse(svg_file).getroot()
    legend, swatch = {}, None
    for el in root:
        if el.tag == ns + 'rect' and el.get('stroke') == '#999999':
            swatch = el.get('fill')
        elif el.tag == ns + 'text' and swatch:
            legend[el.text.rsplit(' ', 1)[0]] = swatch
            swatch = None
    colours = [c for n, c in legend.items()
               if c.startswith('#') and n != 'other owners']
    if len(colours) < 2:
        fail('legend: %r, not two owners or more' % legend)
    rgb = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours]
    for i, a in enumerate(rgb):
        for b in rgb[i + 1:]:
            if sum((x - y) ** 2 for x, y in zip(a, b)) < 60 ** 2:
                fail('owner colours %r and %r are too alike' % (a, b))
    boxes = 0
    for g in root.iter(ns + 'g'):
        if g.get('data-kind') not in ('file', 'dir') or g.get('data-inner'):
            continue
        owner = [line[7:] for line in g.find(ns + 'title').text.split('\n')
                 if line.startswith('owner: ')][0]
        want = legend.get(owner, legend.get('other owners'))
        got = g.find(ns + 'rect').get('fill')
        if got != want:
            fail('box %s of %s: fill %s, the legend says %s' %
                 (g.get('data-id'), owner, got, want))
        boxes += 1
    print('owners: %d boxes in the colours of %d owners' %
          (boxes, len(colours)))


def png(png_file):
    with open(png_file, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IDAT':
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    if len(set(raw)) < 16:
        fail('the picture is (nearly) blank: %d byte values' %
             len(set(raw)))
    print('png: %d bytes of pixels, %d byte values' % (len(raw),
                                                       len(set(raw))))


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'by':
        by(*sys.argv[2:])
    elif cmd == 'formats':
        formats(*sys.argv[2:])
    elif cmd == 'svg':
        svg(sys.argv[2])
    elif cmd == 'owners':
        owners(sys.argv[2])
    elif cmd == 'png':
        png(sys.argv[2])
    else:
        fail('unknown check ' + cmd)
