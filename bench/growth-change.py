#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""growth-change DIR [SEED]: change the tree under DIR, as a day would.

For bench/suites/growth.sh: the growth between a snapshot and now needs
a tree that changed.  Walks DIR in sorted order and, drawing from a
random generator seeded with SEED (default 1), so that the same tree
and seed give the same changes:
  - grows 1% of the regular files with one name by 4-64 KiB
    (posix_fallocate past the end: blocks that du counts, no data
    written, so an image on tmpfs stays small);
  - removes 0.2% of them;
  - adds, in 5% of the leaf directories, a directory "grown" of 20
    files of 64 KiB each;
  - moves one leaf directory into another top-level directory (a move
    is one row of `xbulk du --since`, two of a join by path).
Prints what it did on one line.  Needs DIR mounted read-write.
"""
import os
import random
import stat
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("Usage: growth-change DIR [SEED]")
    top = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) == 3 else 1)
    grown = grown_bytes = removed = added = 0
    leaves = []
    for d, subdirs, files in os.walk(top):
        subdirs.sort()
        if not subdirs and d != top:
            leaves.append(d)
        for name in sorted(files):
            path = os.path.join(d, name)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
                continue
            r = rng.random()
            if r < 0.01:
                n = rng.randint(1, 16) * 4096
                fd = os.open(path, os.O_WRONLY)
                try:
                    os.posix_fallocate(fd, st.st_size, n)
                finally:
                    os.close(fd)
                grown += 1
                grown_bytes += n
            elif r < 0.012:
                os.unlink(path)
                removed += 1
    for d in leaves:
        if rng.random() >= 0.05:
            continue
        new = os.path.join(d, "grown")
        os.mkdir(new)
        for i in range(20):
            fd = os.open(os.path.join(new, f"f{i:02d}"),
                         os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.posix_fallocate(fd, 0, 65536)
            finally:
                os.close(fd)
        added += 1
    moved = ""
    tops = sorted(os.path.join(top, e) for e in os.listdir(top)
                  if os.path.isdir(os.path.join(top, e)))
    if len(leaves) > 1 and len(tops) > 1:
        src = rng.choice(leaves)
        dst_top = next(t for t in tops
                       if not src.startswith(t + os.sep))
        dst = os.path.join(dst_top, os.path.basename(src) + ".moved")
        os.rename(src, dst)
        moved = f", moved {os.path.relpath(src, top)} to " \
                f"{os.path.relpath(dst, top)}"
    print(f"growth-change: {grown} files grew by {grown_bytes} bytes, "
          f"{removed} removed, {added} directories of 20 new files"
          f"{moved}")


if __name__ == "__main__":
    main()
