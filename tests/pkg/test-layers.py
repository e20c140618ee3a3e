#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fail if the object files of libxbulk or of the command call each other
in a circle.

Reads every member of the static libraries given with nm, as one graph:
member A depends on member B when A has an undefined symbol that B
defines.  Files must form layers (every arrow points down), so the graph
must have no cycle; each strongly connected component of more than one
file is printed with the symbols that tie it, and the test fails.  The
library is one archive (libxbulk_internal.a); the command is two, its
helpers (libxbulk_cli.a) and the executable's own objects.

Usage: test-layers.py NM ARCHIVE...
"""
import subprocess
import sys


def members(nm, archive):
    """{member: (defined symbols, undefined symbols)} from nm -A."""
    out = subprocess.run([nm, "-A", archive], check=True,
                         capture_output=True, text=True).stdout
    objs = {}
    for line in out.splitlines():
        # "archive:member:[value] type name"
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        member = parts[1].rsplit("/", 1)[-1].removesuffix(".o")
        fields = parts[2].split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        defs, undefs = objs.setdefault(member, (set(), set()))
        if kind == "U":
            undefs.add(name)
        elif kind in "TDBRVWGS":
            defs.add(name)
    return objs


def graph(objs):
    owner = {}
    for m, (defs, _) in objs.items():
        for s in defs:
            owner[s] = m
    edges = {m: {} for m in objs}
    for m, (_, undefs) in objs.items():
        for s in undefs:
            o = owner.get(s)
            if o and o != m:
                edges[m].setdefault(o, []).append(s)
    return edges


def sccs(edges):
    """Tarjan's algorithm, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def read_all(nm, archives):
    """members() of every archive, as one dict; None after a message if
    an archive is empty or repeats a member's name (one would hide the
    other)."""
    objs = {}
    for archive in archives:
        more = members(nm, archive)
        twice = sorted(objs.keys() & more.keys())
        if not more:
            print(f"test-layers: no objects in {archive}")
            return None
        if twice:
            print(f"test-layers: {archive}: named as before: "
                  + " ".join(twice))
            return None
        objs.update(more)
    return objs


def main():
    nm, archives = sys.argv[1], sys.argv[2:]
    objs = read_all(nm, archives)
    if objs is None:
        return 1
    if len(objs) < 10:
        print(f"test-layers: only {len(objs)} objects")
        return 1
    edges = graph(objs)
    bad = [c for c in sccs(edges) if len(c) > 1]
    for comp in bad:
        print("cycle among: " + " ".join(comp))
        for a in comp:
            for b in comp:
                if b in edges[a]:
                    syms = ", ".join(sorted(edges[a][b])[:4])
                    print(f"  {a} -> {b}: {syms}")
    nedges = sum(len(v) for v in edges.values())
    print(f"test-layers: {len(objs)} objects, {nedges} edges, "
          f"{len(bad)} cycles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
