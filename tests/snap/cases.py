#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The rules of xbulk diff case by case (issue 19): where mutate.py's
# random plans may or may not hit a rule, each case here makes one change
# (or a few that belong together) on a mounted XFS, deterministically,
# and checks the diff as mutate.py does (the rules in Python, GNU find's
# listings, -0, --deleted0 and --expand), plus the lines the case exists
# for: a file replaced by rename-over is a deletion and a creation at
# one path, the same inode number with a new generation too, and so on.
# At the end every change code and every facet of the man page must
# have come up.
#
#   cases.py --xbulk XBULK --mnt MNT --dir SNAPDIR [-j N]
# Exit status 0 when every case passed; prints one line per case.

import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutate import (Tree, arguments, check_lists, expected,  # noqa: E402
                    find_check, find_listing, fsxattr, getx, reported,
                    run_diff, settle, XFLAG_NODUMP)

C = 'c'		# the cases' tree, below the mount


def put(mnt, rel, data=b'x\n', mode='wb'):
    with open(os.path.join(mnt, C, rel), mode) as f:
        f.write(data)


def at(mnt, *rel):
    return os.path.join(mnt, C, *rel)


def reuse(mnt, victim, make, same_path=False):
    """Remove @victim and make new entries (make(path)), at its path or
    beside it, until one gets its inode number back (XFS hands a freed
    number out again soon); the others are removed again.  The name
    that got it."""
    ino = os.lstat(at(mnt, victim)).st_ino
    os.unlink(at(mnt, victim))
    tries = []
    for i in range(200):
        p = at(mnt, os.path.dirname(victim), f'reuse{i}')
        make(at(mnt, victim) if same_path else p)
        if same_path:
            os.rename(at(mnt, victim), p)
        if os.lstat(p).st_ino == ino:
            for q in tries:
                os.unlink(q)
            if same_path:
                os.rename(p, at(mnt, victim))
                return victim
            return os.path.relpath(p, at(mnt))
        tries.append(p)
        # XFS frees an unlinked inode in the background (inodegc)
        time.sleep(0.02)
    raise SystemExit(f'inode {ino} never came back')


def setup(mnt):
    for d in ('d1', 'd2', 'tree/a', 'tree/b', 'keep'):
        os.makedirs(at(mnt, d))
    for f in ('d1/f1', 'd1/f2', 'd1/f3', 'd1/f4', 'd1/f5', 'd1/f6',
              'tree/a/x', 'tree/a/y', 'tree/b/z', 'h', 'multi', 'ren',
              'over', 'keep/k'):
        put(mnt, f)
    os.symlink('t1', at(mnt, 'sym'))
    os.link(at(mnt, 'multi'), at(mnt, 'd2', 'multi2'))


def rewrite_same_size(mnt):
    """Other bytes of the same size, the times put back as touch -d and
    cp -p do (atime too), then a read (atime on past ctime)."""
    st = os.lstat(at(mnt, 'd1', 'f4'))
    put(mnt, 'd1/f4', b'y\n')
    os.utime(at(mnt, 'd1', 'f4'),
             ns=(st.st_atime_ns - 10**9, st.st_mtime_ns))
    time.sleep(0.01)
    with open(at(mnt, 'd1', 'f4'), 'rb') as f:
        f.read()


def same_ino(got, p1, p2):
    """The '-' line of @p1 and the '+' line of @p2 share the inode."""
    a = [c for c in got if c[0] == '-' and c[2] == p1]
    b = [c for c in got if c[0] == '+' and c[2] == p2]
    return bool(a and b and a[0][1] == b[0][1])


# name, what it does (mnt -> None, or the relative path a reuse got),
# the lines it must yield (code, path below c/, old path, facets or
# None: any), and the paths -0 / --deleted0 must (+) and must not (-)
# list.
CASES = [
    ('create', lambda m: put(m, 'd2/new'),
     [('+', 'd2/new', None, ()), ('E', 'd2', None, ('content',))],
     {'+0': ['d2/new', 'd2']}),
    ('delete', lambda m: os.unlink(at(m, 'd1', 'f6')),
     [('-', 'd1/f6', None, ())], {'+del': ['d1/f6']}),
    ('content', lambda m: put(m, 'd1/f1', b'more\n', 'ab'),
     [('M', 'd1/f1', None, ('content',))], {'+0': ['d1/f1']}),
    ('mode', lambda m: os.chmod(at(m, 'd1', 'f2'), 0o600),
     [('M', 'd1/f2', None, ('mode',))], {}),
    ('owner', lambda m: os.lchown(at(m, 'd1', 'f2'), 1001, -1),
     [('M', 'd1/f2', None, ('owner',))], {}),
    ('group', lambda m: os.lchown(at(m, 'd1', 'f2'), -1, 1002),
     [('M', 'd1/f2', None, ('group',))], {}),
    ('project', lambda m: fsxattr(at(m, 'd1', 'f3'), projid=7),
     [('M', 'd1/f3', None, ('project',))], {}),
    ('xflags', lambda m: fsxattr(at(m, 'd1', 'f3'),
                                 xflags=getx(at(m, 'd1', 'f3'))[0] ^
                                 XFLAG_NODUMP),
     [('M', 'd1/f3', None, ('xflags',))], {}),
    ('ctime only: an xattr', lambda m: os.setxattr(at(m, 'd1', 'f3'),
                                                   'user.k', b'v'),
     [('M', 'd1/f3', None, ('ctime',))], {'+0': ['d1/f3']}),
    ('ctime only: chmod to the same mode',
     lambda m: os.chmod(at(m, 'd1', 'f2'), 0o600),
     [('M', 'd1/f2', None, ('ctime',))], {}),
    ('touch -a: the ctime it moves',
     lambda m: subprocess.run(['touch', '-a', at(m, 'd1', 'f1')],
                              check=True),
     [('M', 'd1/f1', None, ('ctime',))], {'+0': ['d1/f1']}),
    ('a write of the same size, its times put back (touch -d, cp -p)',
     rewrite_same_size, [('M', 'd1/f4', None, ('ctime',))],
     {'+0': ['d1/f4']}),
    ('entries and link count: mkdir', lambda m: os.mkdir(at(m, 'd2', 'sub')),
     [('+', 'd2/sub', None, ()), ('E', 'd2', None, ('content', 'nlink'))],
     {}),
    ('entries: touch -m on a directory',
     lambda m: os.utime(at(m, 'd1'), ns=(0, 10**18)),
     [('E', 'd1', None, ('content',))], {'+0': ['d1']}),
    ('rename in a directory',
     lambda m: os.rename(at(m, 'ren'), at(m, 'ren2')),
     [('R', 'ren2', 'ren', ())], {'+0': ['ren2'], '+del': ['ren']}),
    ('rename to another directory, with a chmod',
     lambda m: (os.rename(at(m, 'ren2'), at(m, 'd1', 'ren3')),
                os.chmod(at(m, 'd1', 'ren3'), 0o640)),
     [('R', 'd1/ren3', 'ren2', ('mode',))], {}),
    ('a directory moved with what lies below it',
     lambda m: os.rename(at(m, 'tree'), at(m, 'd2', 'tree2')),
     [('R', 'd2/tree2', 'tree', ())],
     {'+0': ['d2/tree2', 'd2/tree2/a/x', 'd2/tree2/b'], '+del': ['tree'],
      '>': ['d2/tree2/a/x', 'd2/tree2/b']}),
    ('a directory moved back, a file below it written',
     lambda m: (os.rename(at(m, 'd2', 'tree2'), at(m, 'tree')),
                put(m, 'tree/a/x', b'changed\n', 'ab')),
     [('R', 'tree', 'd2/tree2', ()), ('M', 'tree/a/x', None, ('content',))],
     {'+0': ['tree/a/y'], '+del': ['d2/tree2'], '>': ['tree/a/y']}),
    ('a new directory at a moved one\'s old name',
     lambda m: (os.rename(at(m, 'tree'), at(m, 'tree.old')),
                os.makedirs(at(m, 'tree', 'a')), put(m, 'tree/a/x')),
     [('R', 'tree.old', 'tree', ()), ('+', 'tree', None, ()),
      ('+', 'tree/a/x', None, ())],
     {'+0': ['tree', 'tree/a/x', 'tree.old/a/y'],
      '-del': ['tree', 'tree/a', 'tree/a/x'],
      '+del': ['tree/a/y', 'tree/b']}),
    ('a hard link added', lambda m: os.link(at(m, 'h'), at(m, 'd1', 'h2')),
     [('L', 'd1/h2', None, ())], {'+0': ['d1/h2', 'h']}),
    ('a hard link removed', lambda m: os.unlink(at(m, 'd1', 'h2')),
     [('U', 'd1/h2', None, ())], {'+del': ['d1/h2']}),
    ('one name of two renamed',
     lambda m: os.rename(at(m, 'd2', 'multi2'), at(m, 'd1', 'multi3')),
     [('U', 'd2/multi2', None, ()), ('L', 'd1/multi3', None, ())], {}),
    ('a file with two names written to',
     lambda m: put(m, 'multi', b'more\n', 'ab'),
     [('M', None, None, ('content',))],
     {'+0': ['multi', 'd1/multi3']}),
    ('the same number, a new generation',
     lambda m: reuse(m, 'd1/f4', lambda p: open(p, 'wb').close(), True),
     [('-', 'd1/f4', None, ()), ('+', 'd1/f4', None, ())],
     {'+0': ['d1/f4'], '-del': ['d1/f4'], 'frees': ['d1/f4']}),
    ('the same number, another type',
     lambda m: reuse(m, 'd1/f5', os.mkfifo),
     [('-', 'd1/f5', None, ())], {'+del': ['d1/f5'], 'frees': ['d1/f5']}),
    ('a file replaced by rename-over',
     lambda m: (put(m, '.over.tmp', b'saved\n'),
                os.rename(at(m, '.over.tmp'), at(m, 'over'))),
     [('-', 'over', None, ()), ('+', 'over', None, ())],
     {'+0': ['over'], '-del': ['over'], 'frees': ['over']}),
    ('a symlink retargeted',
     lambda m: subprocess.run(['ln', '-sfn', 't2', at(m, 'sym')],
                              check=True),
     [('-', 'sym', None, ()), ('+', 'sym', None, ())],
     {'+0': ['sym'], '-del': ['sym'], 'frees': ['sym']}),
    ('a directory replaced by a symlink to one',
     lambda m: (os.rename(at(m, 'keep'), at(m, 'd2', 'kept')),
                os.symlink('d2/kept', at(m, 'keep'))),
     [('R', 'd2/kept', 'keep', ()), ('+', 'keep', None, ())],
     {'+0': ['keep', 'd2/kept/k'], '-del': ['keep', 'keep/k']}),
    ('a path deleted below a renamed directory is its OLD path',
     lambda m: (os.rename(at(m, 'd1'), at(m, 'd1m')),
                os.unlink(at(m, 'd1m', 'f1'))),
     [('R', 'd1m', 'd1', None), ('-', 'd1/f1', None, ())],
     {'+del': ['d1'], '-del': ['d1/f1'], '+0': ['d1m/f2']}),
    ('a fifo made', lambda m: os.mkfifo(at(m, 'fifo')),
     [('+', 'fifo', None, ())], {}),
]


def wanted(got, case_lines):
    """The case's lines not found in @got."""
    missing = []
    for code, path, old, facets in case_lines:
        full = f'{C}/{path}' if path else None
        oldfull = f'{C}/{old}' if old else None
        if not any(c[0] == code and (not full or c[2] == full) and
                   c[3] == oldfull and
                   (facets is None or c[4] == tuple(sorted(facets)))
                   for c in got):
            missing.append((code, full, oldfull, facets))
    return missing


def main():
    args = arguments().parse_args()

    if os.path.exists(at(args.mnt)):
        subprocess.run(['rm', '-rf', at(args.mnt)], check=True)
    setup(args.mnt)
    state = os.path.join(args.dir, f'cases-j{args.j}')
    settle()
    subprocess.run([args.xbulk, 'snapshot', '-j', str(args.j), args.mnt,
                    state], check=True)
    codes, facets = set(), set()
    for name, act, lines, lists in CASES:
        old, fold = Tree(args.mnt), find_listing(args.mnt)
        freed = {os.lstat(at(args.mnt, v)).st_ino
                 for v in lists.get('frees', [])}
        time.sleep(0.01)	# each case in a clock tick of its own
        made = act(args.mnt)
        new, fnew = Tree(args.mnt), find_listing(args.mnt)
        freed &= set(new.st)
        settle()
        got = reported(run_diff(args, state, state + '.new'))
        want = expected(old, new, freed)
        errs = [f'only in the diff: {x}' for x in sorted(
            set(got) - set(want), key=repr)]
        errs += [f'only by the rules: {x}' for x in sorted(
            set(want) - set(got), key=repr)]
        errs += [f'no line {x}' for x in wanted(got, lines)]
        errs += find_check(fold, fnew, got, freed)
        e, got_lists = check_lists(args, state, state + '.new', old, new,
                                   freed)
        errs += e
        for key, opt, inside in (('+0', '-0', True), ('-0', '-0', False),
                                 ('+del', '--deleted0', True),
                                 ('-del', '--deleted0', False),
                                 ('>', '>', True)):
            errs += [f'{opt}: {p!r} {"missing" if inside else "listed"}'
                     for p in lists.get(key, [])
                     if (f'{C}/{p}' in got_lists[opt]) != inside]
        if isinstance(made, str) and not same_ino(
                got, f'{C}/{lines[0][1]}', f'{C}/{made}'):
            errs.append(f'{made} did not get the inode number of '
                        f'{lines[0][1]}')
        if errs:
            print(f'FAIL: case "{name}" -j {args.j}:\n  ' +
                  '\n  '.join(errs[:12]))
            return 1
        codes |= {c[0] for c in got}
        codes |= {'>' for _ in got_lists['>']}
        facets |= {f for c in got for f in c[4]}
        os.rename(state + '.new', state)
        print(f'PASS: case "{name}" -j {args.j}: {len(got)} lines')
    missing = (set('+-RMELU>') - codes) | ({
        'content', 'mode', 'owner', 'group', 'project', 'xflags', 'nlink',
        'ctime'} - facets)
    if missing:
        print(f'FAIL: -j {args.j}: no case made {sorted(missing)}')
        return 1
    print(f'{len(CASES)} cases passed, 0 failed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
