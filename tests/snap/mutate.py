#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The mutation driver for xbulk diff (issue 19).  On a mounted XFS it
# builds a tree, then for each seed: takes a snapshot, applies a seeded
# random plan (create, delete, write, truncate, chmod, chown, xattr set
# and remove, xflags, project, rename within and across directories,
# rename of directories with subtrees, hard link add and remove, delete +
# create that reuses the inode number, symlink retarget, mkfifo, touch -m
# and -a), and checks that `xbulk diff -o jsonl OLD MNT --save NEW`
# reports exactly the changes the rules of the man page (DIFF) make of
# what it did: the state before and after (every name, lstat(2) and
# FS_IOC_FSGETXATTR of every inode, and the inodes it freed: an inode
# number seen again after that is a new inode) go
# through a Python statement of the rules.  A second, independent check
# joins GNU find's `%i %p %s %T@ %C@ %m %U %G %n` listings of before and
# after on inode for the facets find can see.  NEW becomes the next
# seed's OLD (so --save is checked as well).
#
#   mutate.py --xbulk XBULK --mnt MNT --dir SNAPDIR [-j N] [--seeds A-B]
#             [--ops N]
# Exit status 0 when every seed passed; prints one line per seed.

import argparse
import fcntl
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'integration'))
from settle import settle  # noqa: E402

FSGETXATTR = 0x801c581f		# FS_IOC_FSGETXATTR, struct fsxattr (28)
FSSETXATTR = 0x401c5820
XFLAG_NODUMP = 0x80
XFLAG_HASATTR = 0x80000000	# derived (an attribute fork): no facet
XFLAG_PREALLOC = 0x2		# derived (preallocated extents): layout


def getx(path):
    """(xflags, projid) of a regular file or directory."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        buf = bytearray(28)
        fcntl.ioctl(fd, FSGETXATTR, buf)
        x = struct.unpack('5I8s', buf)
        return (x[0] & ~(XFLAG_HASATTR | XFLAG_PREALLOC), x[3])
    finally:
        os.close(fd)


def fsxattr(path, xflags=None, projid=None):
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        buf = bytearray(28)
        fcntl.ioctl(fd, FSGETXATTR, buf)
        x = list(struct.unpack('5I8s', buf))
        if xflags is not None:
            x[0] = xflags
        if projid is not None:
            x[3] = projid
        fcntl.ioctl(fd, FSSETXATTR, struct.pack('5I8s', *x))
    finally:
        os.close(fd)


class Tree:
    """What the filesystem under the mount holds: names and lstat."""

    def __init__(self, mnt):
        self.mnt = mnt
        self.links = {}		# ino -> set of (parent ino, name)
        self.st = {}		# ino -> os.stat_result
        self.path = {}		# (parent ino, name) -> path from the top
        self.x = {}		# ino -> (xflags, projid): files, dirs
        self.top = os.lstat(mnt).st_ino
        self.st[self.top] = os.lstat(mnt)
        self.links[self.top] = set()
        self._walk(mnt, '', self.top)

    def _walk(self, d, rel, dino):
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            st = os.lstat(p)
            r = name if not rel else rel + '/' + name
            self.st[st.st_ino] = st
            self.links.setdefault(st.st_ino, set()).add((dino, name))
            self.path[(dino, name)] = r
            if ftype(st) in 'fd':
                self.x[st.st_ino] = getx(p)
            if os.path.isdir(p) and not os.path.islink(p):
                self._walk(p, r, st.st_ino)

    def paths(self, ino):
        if ino == self.top:
            return ['.']
        return sorted(self.path[l] for l in self.links[ino])


def ftype(st):
    m = st.st_mode & 0o170000
    return {0o100000: 'f', 0o040000: 'd', 0o120000: 'l', 0o010000: 'p',
            0o140000: 's', 0o020000: 'c', 0o060000: 'b'}.get(m, '?')


def inode_change(old, new, freed, ino):
    """What the rules make of inode @ino: ('same', facets, names removed,
    names added) for one inode in both, else ('new'|'gone'|'replaced',
    None, None, None).  The facets are those its lines carry."""
    a, b = old.st.get(ino), new.st.get(ino)
    if a and b and (ino in freed or ftype(a) != ftype(b)):
        return 'replaced', None, None, None
    if not b:
        return 'gone', None, None, None
    if not a:
        return 'new', None, None, None
    f = set()
    if a.st_size != b.st_size or a.st_mtime_ns != b.st_mtime_ns:
        f.add('content')
    if (a.st_mode ^ b.st_mode) & 0o7777:
        f.add('mode')
    if a.st_uid != b.st_uid:
        f.add('owner')
    if a.st_gid != b.st_gid:
        f.add('group')
    xa, xb = old.x.get(ino, (0, 0)), new.x.get(ino, (0, 0))
    if xa[1] != xb[1]:
        f.add('project')
    if xa[0] != xb[0]:
        f.add('xflags')
    if a.st_nlink != b.st_nlink:
        f.add('nlink')
    # an atime change does not explain ctime: touch -a looks as touch -d
    # putting back the times of a write of the same size
    if not f and a.st_ctime_ns != b.st_ctime_ns:
        f.add('ctime')
    la, lb = old.links[ino], new.links[ino]
    rm, add = la - lb, lb - la
    if len(la) == 1 and len(lb) == 1 and rm:
        f.discard('ctime')		# a rename
    elif rm or add:
        f -= {'nlink', 'ctime'}
    return 'same', f, rm, add


def expected(old, new, freed, expand=False):
    """The changes the man page's rules make of OLD -> NEW, as tuples
    (code, ino, path, old_path, facets); with @expand, the moved lines
    of --expand too."""
    out = []
    for ino in set(old.st) | set(new.st):
        what, f, rm, add = inode_change(old, new, freed, ino)
        if what in ('gone', 'replaced'):
            out += [('-', ino, p, None, ()) for p in old.paths(ino)]
        if what in ('new', 'replaced'):
            out += [('+', ino, p, None, ()) for p in new.paths(ino)]
        if what != 'same':
            continue
        a, b = old.st[ino], new.st[ino]
        la, lb = old.links[ino], new.links[ino]
        if len(la) == 1 and len(lb) == 1 and rm:
            out.append(('R', ino, new.path[next(iter(add))],
                        old.path[next(iter(rm))], tuple(sorted(f))))
            continue
        out += [('U', ino, old.path[l], None, ()) for l in rm]
        out += [('L', ino, new.path[l], None, ()) for l in add]
        if f:
            entries = (ftype(b) == 'd' and 'content' in f and
                       not f - {'content', 'nlink', 'ctime'} and
                       a.st_mtime_ns != b.st_mtime_ns)
            # the first name in (parent inode, name) order
            first = min(lb) if lb else None
            out.append(('E' if entries else 'M', ino,
                        new.path[first] if first else
                        ('.' if ino == new.top else None), None,
                        tuple(sorted(f))))
        elif expand and not rm and not add:
            out += [('>', ino, new.path[l], old.path[l], ())
                    for l in lb if new.path[l] != old.path[l]]
    return sorted(out, key=repr)


def expected_lists(old, new, freed):
    """What diff -0 and --deleted0 print by their rules, as sets of
    paths: every name of NEW whose inode, entry or path changed, and
    every name of an inode that gained one (for rsync -H); every path of
    OLD that names nothing in NEW and whose parent path is a directory
    in NEW (the top is)."""
    nul = set()
    for ino in new.st:
        what, f, _, _ = inode_change(old, new, freed, ino)
        if ino == new.top:
            if f:
                nul.add('.')
            continue
        gained = any(l not in old.links.get(ino, ()) for l in new.links[ino])
        for l in new.links[ino]:
            if (what != 'same' or f or gained or l not in old.links[ino] or
                    old.path[l] != new.path[l]):
                nul.add(new.path[l])

    def kinds(t):
        return {t.path[l]: ftype(t.st[ino]) == 'd'
                for ino, ls in t.links.items() for l in ls}
    op, np = kinds(old), kinds(new)
    gone = {p for p in op if p not in np and
            ('/' not in p or np.get(p.rsplit('/', 1)[0]))}
    return nul, gone


def reported(lines):
    out = []
    for j in lines:
        out.append((j['code'], j['ino'], j['path'], j['old_path'],
                    tuple(sorted(j['facets']))))
        if j['changing']:
            raise SystemExit(f"changing flag on {j}")
    return sorted(out, key=repr)


class Plan:
    """A seeded random plan applied to the tree under mnt/m."""

    def __init__(self, mnt, rng, freed):
        self.mnt, self.rng, self.freed = mnt, rng, freed
        self.base = os.path.join(mnt, 'm')
        self.n = 0

    def name(self):
        self.n += 1
        return f'n{self.rng.randrange(1 << 30):x}{self.n}'

    def dirs(self):
        out = []
        for d, sub, _ in os.walk(self.base):
            out.append(d)
        return out

    def files(self, kind='f'):
        out = []
        for d, _, names in os.walk(self.base):
            for n in names:
                p = os.path.join(d, n)
                st = os.lstat(p)
                if ftype(st) == kind:
                    out.append(p)
        return out

    def pick(self, v):
        return self.rng.choice(v) if v else None

    def op(self):
        r = self.rng
        ops = [self.create, self.create, self.mkdir, self.delete,
               self.write, self.truncate, self.chmod, self.chown,
               self.xattr, self.xflags, self.project, self.rename,
               self.rename, self.rename_dir, self.link, self.unlink_link,
               self.reuse, self.retarget, self.fifo, self.touch_m,
               self.touch_a, self.rmtree, self.symlink]
        r.choice(ops)()

    def create(self):
        d = self.pick(self.dirs())
        with open(os.path.join(d, self.name()), 'wb') as f:
            f.write(b'x' * self.rng.randrange(0, 9000))

    def mkdir(self):
        os.mkdir(os.path.join(self.pick(self.dirs()), self.name()))

    def symlink(self):
        os.symlink('t' * self.rng.randrange(1, 90),
                   os.path.join(self.pick(self.dirs()), self.name()))

    def fifo(self):
        os.mkfifo(os.path.join(self.pick(self.dirs()), self.name()))

    def _free(self, p):
        st = os.lstat(p)
        if st.st_nlink <= 1 or ftype(st) == 'd':
            self.freed.add(st.st_ino)

    def delete(self):
        p = self.pick(self.files() + self.files('l') + self.files('p'))
        if p:
            self._free(p)
            os.unlink(p)

    def rmtree(self):
        d = self.pick(self.dirs()[1:])
        if not d or self.rng.random() >= 0.3:
            return
        names, nlink = {}, {}		# non-directories: names inside
        self.freed.add(os.lstat(d).st_ino)
        for root, dirs, files in os.walk(d):
            for n in dirs:
                self.freed.add(os.lstat(os.path.join(root, n)).st_ino)
            for n in files:
                st = os.lstat(os.path.join(root, n))
                names[st.st_ino] = names.get(st.st_ino, 0) + 1
                nlink[st.st_ino] = st.st_nlink
        for ino, k in names.items():
            if k >= nlink[ino]:
                self.freed.add(ino)
        shutil.rmtree(d)

    def write(self):
        p = self.pick(self.files())
        if p:
            with open(p, 'ab') as f:
                f.write(b'y' * self.rng.randrange(1, 5000))

    def truncate(self):
        p = self.pick(self.files())
        if p:
            size = os.lstat(p).st_size
            os.truncate(p, size + 1 if self.rng.random() < 0.5 or
                        not size else size // 2)

    def chmod(self):
        p = self.pick(self.files() + self.dirs()[1:])
        if p:
            m = os.lstat(p).st_mode & 0o777
            os.chmod(p, m ^ (0o040 if self.rng.random() < 0.5 else 0o004))

    def chown(self):
        p = self.pick(self.files() + self.files('l'))
        if p:
            st = os.lstat(p)
            if self.rng.random() < 0.5:
                os.lchown(p, 1000 + (st.st_uid + 1) % 4, -1)
            else:
                os.lchown(p, -1, 1000 + (st.st_gid + 1) % 4)

    def xattr(self):
        p = self.pick(self.files())
        if not p:
            return
        if 'user.t' in os.listxattr(p):
            os.removexattr(p, 'user.t')
        else:
            os.setxattr(p, 'user.t', b'v' * self.rng.randrange(1, 60))

    def xflags(self):
        p = self.pick(self.files())
        if p:
            fsxattr(p, xflags=getx(p)[0] ^ XFLAG_NODUMP)

    def project(self):
        p = self.pick(self.files())
        if p:
            fsxattr(p, projid=(getx(p)[1] + 1) % 5)

    def rename(self):
        p = self.pick(self.files() + self.files('l'))
        if p:
            os.rename(p, os.path.join(self.pick(self.dirs()), self.name()))

    def rename_dir(self):
        d = self.pick(self.dirs()[1:])
        if not d:
            return
        to = [x for x in self.dirs() if not (x + '/').startswith(d + '/')]
        os.rename(d, os.path.join(self.pick(to), self.name()))

    def link(self):
        p = self.pick(self.files())
        if p:
            os.link(p, os.path.join(self.pick(self.dirs()), self.name()))

    def unlink_link(self):
        v = [p for p in self.files() if os.lstat(p).st_nlink > 1]
        p = self.pick(v)
        if p:
            os.unlink(p)

    def reuse(self):
        """Delete a file and create another in its directory at once:
        XFS usually hands the freed inode number out again."""
        p = self.pick(self.files())
        if p:
            self._free(p)
            os.unlink(p)
            with open(os.path.join(os.path.dirname(p), self.name()),
                      'wb') as f:
                f.write(b'r')

    def retarget(self):
        p = self.pick(self.files('l'))
        if p:
            tmp = p + '.new'
            os.symlink('target' + self.name(), tmp)
            self._free(p)
            os.rename(tmp, p)

    def touch_m(self):
        p = self.pick(self.files() + self.dirs()[1:])
        if p:
            st = os.lstat(p)
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1000),
                     follow_symlinks=False)

    def touch_a(self):
        p = self.pick(self.files())
        if p:
            st = os.lstat(p)
            os.utime(p, ns=(st.st_atime_ns + 1000, st.st_mtime_ns),
                     follow_symlinks=False)


def find_listing(mnt):
    """GNU find's view, by inode: [path, size, mtime, ctime, mode, uid,
    gid, nlink, type, atime] per name."""
    out = subprocess.run(['find', mnt, '-printf',
                          '%i %P %s %T@ %C@ %m %U %G %n %y %A@\n'],
                         check=True, capture_output=True, text=True).stdout
    by = {}
    for line in out.splitlines():
        ino, rest = line.split(' ', 1)
        by.setdefault(int(ino), []).append(rest.rsplit(' ', 9))
    return by


def find_check(before, after, got, freed):
    """GNU find's view joined on inode against the diff's lines."""
    lines = {}
    for c in got:
        lines.setdefault(c[1], []).append(c)
    errs = []
    for ino in set(before) | set(after):
        a, b, g = before.get(ino), after.get(ino), lines.get(ino, [])
        codes = {c[0] for c in g}
        if ino in freed:
            continue
        if a and not b:
            if '-' not in codes:
                errs.append(f'find: {ino} gone, diff says {g}')
            continue
        if b and not a:
            if '+' not in codes:
                errs.append(f'find: {ino} new, diff says {g}')
            continue
        if len(a) != 1 or len(b) != 1:
            continue		# hard links: the first check covers them
        a, b = a[0], b[0]
        facets = set().union(*[set(c[4]) for c in g]) if g else set()
        # what find sees of each facet: (a field, or two)
        seen = {'content': a[1:3] != b[1:3], 'mode': a[4] != b[4],
                'owner': a[5] != b[5], 'group': a[6] != b[6],
                'nlink': a[7] != b[7], 'ctime': a[3] != b[3]}
        for k, moved in seen.items():
            if k == 'ctime':
                continue	# only when nothing else explains it
            if moved and k not in facets:
                errs.append(f'find: {ino} {k} moved {a} -> {b}: diff {g}')
            if k in facets and not moved:
                errs.append(f'find: {ino} diff says {k}, find sees '
                            f'{a} -> {b}')
        if 'ctime' in facets and not seen['ctime']:
            errs.append(f'find: {ino} diff says ctime, find sees {a}')
        # ctime moved without atime: something changed, the diff says what
        if seen['ctime'] and a[9] == b[9] and not g:
            errs.append(f'find: {ino} ctime moved {a} -> {b}, diff silent')
        if os.path.basename(a[0]) != os.path.basename(b[0]) and \
                'R' not in codes:
            errs.append(f'find: {ino} moved {a[0]} -> {b[0]}: diff {g}')
        if a[:9] == b[:9] and g:
            errs.append(f'find: {ino} unchanged, diff {g}')
    return errs


def check_lists(args, old_snap, new_snap, old, new, freed):
    """diff -0, --deleted0 and --expand of the two snapshot files against
    the rules: the errors found, and what each printed (sets of paths;
    '>': the paths of --expand's moved lines)."""
    errs, lists = [], {}
    for opt, want in zip(('-0', '--deleted0'),
                         expected_lists(old, new, freed)):
        p = subprocess.run([args.xbulk, 'diff', opt, old_snap, new_snap],
                           capture_output=True)
        if p.returncode or p.stderr:
            raise SystemExit(f'diff {opt}: exit status {p.returncode}: '
                             f'{p.stderr}')
        got = [os.fsdecode(x) for x in p.stdout.split(b'\0')[:-1]]
        lists[opt] = set(got)
        if len(got) != len(lists[opt]):
            errs.append(f'diff {opt}: a path twice: {sorted(got)}')
        errs += [f'diff {opt} lists {x!r}, the rules do not'
                 for x in sorted(lists[opt] - want)][:5]
        errs += [f'diff {opt} lacks {x!r}'
                 for x in sorted(want - lists[opt])][:5]
    p = subprocess.run([args.xbulk, 'diff', '--expand', '-o', 'jsonl',
                        old_snap, new_snap], capture_output=True, text=True)
    got = reported([json.loads(x) for x in p.stdout.splitlines()])
    lists['>'] = {c[2] for c in got if c[0] == '>'}
    want = expected(old, new, freed, expand=True)
    errs += [f'--expand: only in the diff: {x}'
             for x in sorted(set(got) - set(want), key=repr)][:5]
    errs += [f'--expand: only by the rules: {x}'
             for x in sorted(set(want) - set(got), key=repr)][:5]
    return errs, lists


def run_diff(args, old, new_save):
    p = subprocess.run([args.xbulk, 'diff', '-j', str(args.j), '-o', 'jsonl',
                        old, args.mnt, '--save', new_save],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1) or p.stderr:
        raise SystemExit(f'diff: exit status {p.returncode}: {p.stderr}')
    return [json.loads(x) for x in p.stdout.splitlines()]


def arguments():
    """The options every driver of tests/snap takes: --xbulk, --mnt, --dir
    (its snapshots), -j."""
    ap = argparse.ArgumentParser()
    ap.add_argument('--xbulk', required=True)
    ap.add_argument('--mnt', required=True)
    ap.add_argument('--dir', required=True)
    ap.add_argument('-j', type=int, default=1)
    return ap


def seed_tree(mnt, entries, links):
    """The tree the plans start from, under mnt/m (made once): @entries
    files and directories, @links symlinks and as many hard links."""
    base = os.path.join(mnt, 'm')
    if os.path.exists(base):
        return
    os.mkdir(base)
    plan = Plan(mnt, random.Random(0), set())
    for _ in range(entries):
        (plan.mkdir if plan.rng.random() < 0.2 else plan.create)()
    for _ in range(links):
        plan.symlink()
        plan.link()


def main():
    ap = arguments()
    ap.add_argument('--seeds', default='1-3')
    ap.add_argument('--ops', type=int, default=150)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split('-'))
    total = 0

    seed_tree(args.mnt, 60, 10)
    state = os.path.join(args.dir, f'state-j{args.j}')
    settle()
    subprocess.run([args.xbulk, 'snapshot', '-j', str(args.j), args.mnt,
                    state], check=True)
    for seed in range(lo, hi + 1):
        freed = set()
        old = Tree(args.mnt)
        fold = find_listing(args.mnt)
        plan = Plan(args.mnt, random.Random(seed), freed)
        for _ in range(args.ops):
            plan.op()
        new = Tree(args.mnt)
        fnew = find_listing(args.mnt)
        # an inode freed and not seen again is just gone
        freed &= set(new.st)
        settle()
        got = reported(run_diff(args, state, state + '.new'))
        want = expected(old, new, freed)
        if got != want:
            gs, ws = set(got), set(want)
            print(f'FAIL: seed {seed} -j {args.j}: diff reported '
                  f'{len(got)} changes, the rules say {len(want)}')
            for x in sorted(gs - ws, key=repr)[:10]:
                print(f'  only in the diff : {x}')
            for x in sorted(ws - gs, key=repr)[:10]:
                print(f'  only by the rules: {x}')
            return 1
        errs = find_check(fold, fnew, got, freed)
        errs += check_lists(args, state, state + '.new', old, new,
                            freed)[0]
        if errs:
            print(f'FAIL: seed {seed} -j {args.j}: ' + '\n  '.join(errs[:10]))
            return 1
        os.rename(state + '.new', state)
        total += len(got)
        print(f'PASS: seed {seed} -j {args.j}: {args.ops} operations, '
              f'{len(got)} changes as the rules say')
    print(f'{hi - lo + 1} passed, 0 failed ({total} changes)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
