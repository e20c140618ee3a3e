#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ncdu-growth [-d N] THEN NOW: what grew between two ncdu exports.

THEN and NOW are `ncdu -o` files of one tree made at two times.  Prints,
for each directory down to depth N (default 1) in either, its disk usage
(the entries' dsize) now and then and the change, largest growth first:
CHANGE NOW THEN PATH, tab-separated, bytes, PATH from the export's top
(".", "a/b"), the shape of `xbulk du --since -B1`.  A hard link (hlnkc)
is counted once per export, in the first directory the export lists it
in, as GNU du charges it to the first its walk meets.

What people do today without `xbulk du --since`: the short script a
person writes over two exports.  bench/suites/growth.sh times `ncdu -o`
of now and this script against xbulk.  Each export is read whole
(json.load) and reduced to its directories' sums before the next is
read, so the peak memory is one export's objects.
"""
import argparse
import json
import sys


def sums(path, depth):
    """{relative path: subtree dsize} of the directories down to depth."""
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8", "surrogateescape"))
    if not (isinstance(doc, list) and len(doc) >= 4 and doc[0] == 1):
        sys.exit(f"ncdu-growth: {path}: not an ncdu export")
    out = {}
    seen = set()

    def walk(node, rel, level):
        total = node[0].get("dsize", 0)
        for c in node[1:]:
            if isinstance(c, list):
                name = c[0]["name"]
                total += walk(c, name if rel == "." else f"{rel}/{name}",
                              level + 1)
                continue
            if c.get("hlnkc"):
                key = (c.get("dev"), c["ino"])
                if key in seen:
                    continue
                seen.add(key)
            total += c.get("dsize", 0)
        if level <= depth:
            out[rel] = total
        return total

    walk(doc[3], ".", 0)
    return out


def main():
    p = argparse.ArgumentParser(
        description="What grew between two ncdu exports, per directory.")
    p.add_argument("-d", "--max-depth", type=int, default=1)
    p.add_argument("then")
    p.add_argument("now")
    a = p.parse_args()
    then = sums(a.then, a.max_depth)
    now = sums(a.now, a.max_depth)
    rows = [(now.get(k, 0) - then.get(k, 0), now.get(k, 0), then.get(k, 0),
             k) for k in then.keys() | now.keys()]
    rows.sort(key=lambda r: (-r[0], r[3]))
    out = sys.stdout.buffer
    for g, n, t, k in rows:
        out.write(f"{g:+d}\t{n}\t{t}\t{k}\n".encode("utf-8",
                                                  "surrogateescape"))


if __name__ == "__main__":
    main()
