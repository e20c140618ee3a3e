#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare two ncdu JSON exports (ncdu -o, xbulk du --ncdu) as trees.

check_ncdu.py same THEIRS OURS: the same tree: every entry's name (bytes,
not only UTF-8), kind (directory or not) and fields, siblings in any
order; the header's progname, progver and timestamp are left out.  Both
must be format 1.2.
"""
import json
import sys


def load(path):
    with open(path, "rb") as f:
        # names are bytes: surrogateescape keeps those not UTF-8
        doc = json.loads(f.read().decode("utf-8", "surrogateescape"))
    if doc[0] != 1 or doc[1] != 2:
        sys.exit(f"{path}: format {doc[0]}.{doc[1]}, not 1.2")
    return doc[3]


def canon(node):
    """A directory (list) or entry (dict) as a sortable tuple."""
    if isinstance(node, list):
        info, kids = node[0], node[1:]
        return ("d", sorted(info.items()), sorted(canon(k) for k in kids))
    return ("f", sorted(node.items()), [])


def diff(a, b, path, out):
    if a[0] != b[0] or a[1] != b[1]:
        out.append(f"{path}: {a[:2]} != {b[:2]}")
        return
    ka = {dict(k[1])["name"]: k for k in a[2]}
    kb = {dict(k[1])["name"]: k for k in b[2]}
    for name in sorted(set(ka) | set(kb)):
        p = f"{path}/{name!r}"
        if name not in ka or name not in kb:
            out.append(f"{p}: only in {'ours' if name in kb else 'theirs'}")
        else:
            diff(ka[name], kb[name], p, out)


def main():
    what, theirs, ours = sys.argv[1:4]
    if what != "same":
        sys.exit(f"unknown check {what}")
    t = load(theirs)
    o = load(ours)
    out = []
    diff(canon(t), canon(o), "", out)
    for line in out[:20]:
        print(line)
    if out:
        sys.exit(f"{len(out)} differences")


main()
