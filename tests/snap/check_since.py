#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check xbulk du --since's rows (test-du-since.sh) against GNU du and find.

Usage: check_since.py WORK DEPTH ROWS.jsonl UID.jsonl GID.jsonl
(each of -o jsonl, the same -d DEPTH; UID and GID with --by)

WORK holds, for each side (old, new): SIDE.find (find -xdev -printf
'%i\\t%y\\t%b\\t%s\\t%U\\t%G\\t%P\\0'), SIDE.du and SIDE.dui (du -x -0 -B1 and
du -x -0 --inodes run in the mount point on ".").  Expected figures per directory come from the documented
rule (xbulk(8), du --since): each inode once, in the directory of its
lowest (parent inode, name) name.  Every directory whose figures the rule
and GNU du agree on by construction (no inode with names both inside
and outside its subtree) is checked against GNU du too, so the rule's
figures are GNU du's wherever du's walk order cannot matter.  Owners
from find's %U / %G and %b, each inode once.  Exits 1 with the first
difference.
"""
import json
import os
import sys
from base64 import b64decode


def load(work, side):
    """inode -> dict(kind, blocks, size, uid, gid), dirs' paths, names."""
    inodes, dirpath, names = {}, {}, []
    raw = open(os.path.join(work, side + ".find"), "rb").read()
    for rec in raw.split(b"\0")[:-1]:
        ino, kind, blocks, size, uid, gid, path = rec.split(b"\t", 6)
        ino = int(ino)
        inodes[ino] = dict(kind=kind, bytes=int(blocks) * 512,
                           apparent=int(size), uid=int(uid), gid=int(gid))
        path = path or b"."
        if kind == b"d":
            dirpath[ino] = path
        names.append((ino, path))
    pathdir = {p: i for i, p in dirpath.items()}
    links = {}
    for ino, path in names:
        if path == b".":
            continue
        parent, _, name = path.rpartition(b"/")
        links.setdefault(ino, []).append((pathdir[parent or b"."], name))
    return inodes, dirpath, pathdir, links


def rule_sums(inodes, dirpath, pathdir, links, key=None):
    """Subtree figures per directory inode by the documented rule; with
    key ("uid", "gid"), per (directory inode, id)."""
    top = pathdir[b"."]
    parent = {d: min(links[d])[0] for d in dirpath if d != top}
    sums = {} if key else {d: [0, 0, 0] for d in dirpath}
    for ino, v in inodes.items():
        at = ino if v["kind"] == b"d" else min(links[ino])[0]
        while True:
            s = sums.setdefault((at, v[key]) if key else at, [0, 0, 0])
            s[0] += v["bytes"]
            s[1] += v["apparent"]
            s[2] += 1
            if at == top:
                break
            at = parent[at]
    return sums


def gnu_du(work, side, pathdir):
    """(bytes, inodes) of GNU du per directory inode."""
    out = {}
    for ext, i in (("du", 0), ("dui", 1)):
        raw = open(os.path.join(work, side + "." + ext), "rb").read()
        for line in raw.split(b"\0")[:-1]:
            n, path = line.split(b"\t", 1)
            path = path if path == b"." else path[2:]
            out.setdefault(pathdir[path], [0, 0])[i] = int(n)
    return out


def ambiguous(dirpath, links):
    """Directories GNU du's walk order could charge differently."""
    amb = set()
    for ino, ls in links.items():
        if len({p for p, _ in ls}) < 2:
            continue
        for p, _ in ls:
            d = dirpath[p]
            while True:
                amb.add(d)
                if d == b".":
                    break
                d = d.rpartition(b"/")[0] or b"."
    return {i for i, p in dirpath.items() if p in amb}


def owners(inodes, key):
    out = {}
    for v in inodes.values():
        s = out.setdefault(v[key], [0, 0])
        s[0] += v["bytes"]
        s[1] += 1
    return out


def fail(msg):
    print("check_since: " + msg, file=sys.stderr)
    sys.exit(1)


def text(obj, key):
    b = obj.get(key + "_b64")
    return b64decode(b) if b else (obj[key].encode() if obj[key] else None)


def main():
    work, depth, rows_f, uid_f, gid_f = sys.argv[1:]
    depth = int(depth)
    side = {}
    for s in ("old", "new"):
        inodes, dirpath, pathdir, links = load(work, s)
        sums = rule_sums(inodes, dirpath, pathdir, links)
        du = gnu_du(work, s, pathdir)
        amb = ambiguous(dirpath, links)
        checked = 0
        for d, v in sums.items():
            if d in amb:
                continue
            if du[d] != [v[0], v[2]]:
                fail("%s: %r: GNU du %r, the rule %r" %
                     (s, dirpath[d], du[d], v))
            checked += 1
        if not amb:
            fail("%s: no directory with a cross-directory hard link" % s)
        side[s] = (inodes, dirpath, sums,
                   {k: rule_sums(inodes, dirpath, pathdir, links, k)
                    for k in ("uid", "gid")})
        print("check_since: %s: %d directories as GNU du, %d by the rule "
              "alone" % (s, checked, len(amb)))
    (oi, od, osum, oby), (ni, nd, nsum, nby) = side["old"], side["new"]
    top_new = [d for d, p in nd.items() if p == b"."][0]

    def dep(p):
        return 0 if p == b"." else p.count(b"/") + 1

    want = {}
    for d, p in nd.items():
        old = od.get(d)
        if dep(p) <= depth or (old is not None and dep(old) <= depth):
            want[d] = (p, old, osum.get(d, [0, 0, 0]), nsum[d])
    for d, p in od.items():
        if d not in nd and dep(p) <= depth:
            want[d] = (p, None, osum[d], [0, 0, 0])
    got = {}
    prev = None
    for line in open(rows_f):
        r = json.loads(line)
        g = r["bytes_change"]
        if prev is not None and g > prev:
            fail("not largest growth first at %r" % r)
        prev = g
        got[r["ino"]] = r
    if sorted(got) != sorted(want):
        fail("rows %r, wanted %r" % (sorted(got), sorted(want)))
    for d, (p, old, then, now) in want.items():
        r = got[d]
        fig = ([r["bytes_then"], r["apparent_then"], r["inodes_then"]],
               [r["bytes_now"], r["apparent_now"], r["inodes_now"]])
        if fig != (then, now):
            fail("%r: %r, wanted %r" % (p, fig, (then, now)))
        if r["bytes_change"] != now[0] - then[0] or \
           r["inodes_change"] != now[2] - then[2]:
            fail("%r: change %r" % (p, r))
        state = ("deleted" if d not in nd else "new" if old is None else
                 "same" if old == p else "moved")
        if r["state"] != state or text(r, "path") != p or \
           text(r, "old_path") != (old if state == "moved" else None):
            fail("%r: state %s, paths %r %r; wanted %s, %r" %
                 (p, r["state"], r["path"], r["old_path"], state, old))
    # the top's rows per owner are find's %U / %G sums
    for key in ("uid", "gid"):
        for k, (b, n) in owners(ni, key).items():
            if nby[key][(top_new, k)][0::2] != [b, n]:
                fail("rule and find differ: %s %d" % (key, k))
    for f, key in ((uid_f, "uid"), (gid_f, "gid")):
        rows = {}
        for r in map(json.loads, open(f)):
            if r["by"] != key or (r["ino"], r["key"]) in rows:
                fail("%s row %r" % (key, r))
            rows[(r["ino"], r["key"])] = r
        want_by = {}
        for (d, k), v in nby[key].items():
            if d in want:
                want_by[(d, k)] = [[0, 0, 0], v]
        for (d, k), v in oby[key].items():
            if d in want:
                want_by.setdefault((d, k), [[0, 0, 0], [0, 0, 0]])[0] = v
        if sorted(rows) != sorted(want_by):
            fail("%s rows %r, wanted %r" % (key, sorted(rows),
                                            sorted(want_by)))
        for dk, (then, now) in want_by.items():
            r = rows[dk]
            g = ([r["bytes_then"], r["apparent_then"], r["inodes_then"]],
                 [r["bytes_now"], r["apparent_now"], r["inodes_now"]])
            if g != (then, now) or text(r, "path") != want[dk[0]][0]:
                fail("%s %r: %r, wanted %r" % (key, dk, g, (then, now)))
    print("check_since: %d directories, %d owners" %
          (len(want), len(rows)))


main()
