#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The incremental backup of the README, end to end (issue 19): each
# RECIPE (a bash script: the README's cron line, or the same steps with
# the deletions first) keeps a backup directory of the mounted XFS MNT
# with rsync -a, xbulk diff -0 and --deleted0 and a STATE snapshot.
# Rounds of changes, each with the cases that once lost data (a file
# replaced by rename-over, as editors, sed -i and package managers save;
# a retargeted symlink; a new file that reuses a freed inode number, at
# the same path and elsewhere; a new directory at a moved directory's old
# name; a directory replaced by a file or by a symlink to a directory; a
# hard-linked file written to; a write of the same size with its times
# put back) and a seeded random plan of every
# operation of mutate.py; after each, every backup must equal MNT:
# the same paths, types, permission bits, owners, symlink targets, file
# contents and mtimes, and STATE promoted.
#
# Round 3 adds a sparse file, an xattr and ACLs; round 4 only a second
# name for a 100 MiB file: the backup must then hold it as one inode of
# two links, and the round's rsyncs must have sent under 1 MiB of
# literal data (their --stats, in XB_RSYNC_STATS): the recipe links the
# new name rather than copying the data again (issue 27).
#
# With --vanish BIN, every recipe runs with BIN first on PATH: an rsync
# that adds --stats (to XB_RSYNC_STATS); in rounds 1 and 2 it makes
# XB_VANISH, which must be on one of its lists, vanish
# (XB_VANISH_WHEN) before rsync looks, then between its look and its
# copy, and writes the real rsync's exit status to XB_VANISH_LOG.  It is
# the recipe's own s/vanish-WHEN-NAME, written to just before (so
# listed), as on a busy filesystem.  rsync must have said so (exit status
# 0 with --ignore-missing-args, then 24), STATE must be promoted all the
# same, the backup must be the source but for that file's old copy, and
# the next round must make it the source again.
#
#   backup.py --xbulk XBULK --mnt MNT --dir WORK -j N --rounds N
#             [--vanish BIN] --recipe NAME=SCRIPT...
# A recipe runs with XBULK, J (threads), MNT, BACKUP, STATE in its
# environment.  Exit status 0 when every round of every recipe passed.

import os
import random
import shutil
import stat
import struct
import subprocess
import sys

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutate import Plan, arguments, ftype, seed_tree  # noqa: E402


# A name that is not UTF-8 (Latin-1 e acute)
LATIN1 = 'latin1-' + os.fsdecode(b'\xe9')


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def save_atomic(path, data):
    """As editors save: a temporary file renamed over the old one."""
    tmp = os.path.join(os.path.dirname(path), '.' +
                       os.path.basename(path) + '.tmp')
    write(tmp, data)
    os.rename(tmp, path)


def populate(s):
    """The tree the fixed cases work on, under s."""
    for d in ('pkg/lib', 'moved/sub', 'd2f', 'd2l', 'tgt', 'old/keep',
              'mvfrom/deep/er'):
        os.makedirs(os.path.join(s, d))
    for f, data in (('save.txt', b'saved once\n'),
                    ('sed.txt', b'alpha beta\n'),
                    ('same.txt', b'one\n'), ('elsewhere.txt', b'two\n'),
                    ('pkg/bin', b'#!/bin/sh\necho 1\n'),
                    ('pkg/lib/libx.so', b'\x7fELF one'),
                    ('pkg/lib/old.so', b'\x7fELF old'),
                    ('moved/sub/f', b'below a moved directory\n'),
                    ('moved/gone', b'only in the old directory\n'),
                    ('d2f/a', b'a'), ('d2f/b', b'b'),
                    ('d2l/x', b'x in the old directory\n'),
                    ('tgt/x', b'x in the target\n'),
                    ('f2d', b'a file, then a directory\n'),
                    ('hard1', b'linked\n'), ('swapA', b'A\n'),
                    ('swapB', b'B\n'), ('old/keep/k', b'k\n'),
                    ('mvfrom/deep/er/f', b'deep\n'),
                    ('sp ace\nnew line', b'odd name\n')):
        write(os.path.join(s, f), data)
    write(os.path.join(s, LATIN1), b'not utf-8\n')
    write(os.path.join(s, 'big'), os.urandom(BIG))
    os.link(os.path.join(s, 'hard1'), os.path.join(s, 'hard2'))
    os.symlink('tgt', os.path.join(s, 'link'))
    os.symlink('tgt', os.path.join(s, 'link2'))
    os.mkfifo(os.path.join(s, 'fifo'))


def case_round1(s):
    save_atomic(os.path.join(s, 'save.txt'), b'saved twice\n')
    subprocess.run(['sed', '-i', 's/alpha/gamma/', os.path.join(s, 'sed.txt')],
                   check=True)
    # ln -sfn: unlink and symlink again (the inode number comes back)
    subprocess.run(['ln', '-sfn', 'pkg', os.path.join(s, 'link')], check=True)
    tmp = os.path.join(s, 'link2.tmp')
    os.symlink('d2f', tmp)
    os.rename(tmp, os.path.join(s, 'link2'))
    # delete and create: the freed inode number again, same path, then
    # another path
    os.unlink(os.path.join(s, 'same.txt'))
    write(os.path.join(s, 'same.txt'), b'one, again\n')
    os.unlink(os.path.join(s, 'elsewhere.txt'))
    write(os.path.join(s, 'tgt', 'reused'), b'where elsewhere.txt was\n')
    # a package upgrade: the new tree built beside, swapped in
    os.makedirs(os.path.join(s, 'pkg.new/lib'))
    write(os.path.join(s, 'pkg.new/bin'), b'#!/bin/sh\necho 2\n')
    write(os.path.join(s, 'pkg.new/lib/libx.so'), b'\x7fELF two')
    os.rename(os.path.join(s, 'pkg'), os.path.join(s, 'pkg.old'))
    os.rename(os.path.join(s, 'pkg.new'), os.path.join(s, 'pkg'))
    shutil.rmtree(os.path.join(s, 'pkg.old'))
    # a directory moved, a new one at its old name with one same name
    os.rename(os.path.join(s, 'moved'), os.path.join(s, 'moved2'))
    os.makedirs(os.path.join(s, 'moved/sub'))
    write(os.path.join(s, 'moved/sub/f'), b'a new f at the old path\n')
    write(os.path.join(s, 'moved2/sub/f'), b'changed below the move\n')
    # directory -> file; directory -> symlink to a directory; file ->
    # directory
    shutil.rmtree(os.path.join(s, 'd2f'))
    write(os.path.join(s, 'd2f'), b'was a directory\n')
    shutil.rmtree(os.path.join(s, 'd2l'))
    os.symlink('tgt', os.path.join(s, 'd2l'))
    os.unlink(os.path.join(s, 'f2d'))
    os.makedirs(os.path.join(s, 'f2d/in'))
    write(os.path.join(s, 'f2d/in/x'), b'x\n')
    # a file with two names written to
    with open(os.path.join(s, 'hard1'), 'ab') as f:
        f.write(b'appended\n')
    # two names swapped
    os.rename(os.path.join(s, 'swapA'), os.path.join(s, 'swap.tmp'))
    os.rename(os.path.join(s, 'swapB'), os.path.join(s, 'swapA'))
    os.rename(os.path.join(s, 'swap.tmp'), os.path.join(s, 'swapB'))
    save_atomic(os.path.join(s, LATIN1), b'saved again\n')


def case_round2(s):
    # back again: file -> directory, directory -> file, symlink ->
    # directory
    os.unlink(os.path.join(s, 'd2f'))
    os.makedirs(os.path.join(s, 'd2f'))
    write(os.path.join(s, 'd2f/new'), b'n\n')
    shutil.rmtree(os.path.join(s, 'f2d'))
    write(os.path.join(s, 'f2d'), b'a file again\n')
    os.unlink(os.path.join(s, 'd2l'))
    os.makedirs(os.path.join(s, 'd2l'))
    write(os.path.join(s, 'd2l/x'), b'x, a directory again\n')
    # a moved directory's old name taken by a file, the move deep
    os.rename(os.path.join(s, 'mvfrom'), os.path.join(s, 'tgt/mvto'))
    write(os.path.join(s, 'mvfrom'), b'a file at the old name\n')
    write(os.path.join(s, 'tgt/mvto/deep/er/f'), b'deep, changed\n')
    # one name of two removed, the other renamed over a file
    os.unlink(os.path.join(s, 'hard2'))
    os.rename(os.path.join(s, 'hard1'), os.path.join(s, 'save.txt'))
    # a directory renamed over an empty one
    os.makedirs(os.path.join(s, 'empty'))
    os.rename(os.path.join(s, 'old'), os.path.join(s, 'empty'))
    os.rename(os.path.join(s, 'moved2'), os.path.join(s, 'moved/sub2'))


def case_round3(s):
    # the package upgraded again, its old tree left under another name
    os.rename(os.path.join(s, 'pkg'), os.path.join(s, 'pkg.1'))
    os.makedirs(os.path.join(s, 'pkg/lib'))
    write(os.path.join(s, 'pkg/lib/libx.so'), b'\x7fELF three')
    subprocess.run(['sed', '-i', 's/gamma/delta/', os.path.join(s, 'sed.txt')],
                   check=True)
    subprocess.run(['ln', '-sfn', 'd2l', os.path.join(s, 'link')], check=True)
    os.chmod(os.path.join(s, 'pkg.1/bin'), 0o755)
    os.lchown(os.path.join(s, 'swapA'), 1001, 1002)
    # other bytes of the same size, the times put back (touch -d, cp -p)
    x = os.path.join(s, 'tgt/x')
    st = os.lstat(x)
    with open(x, 'r+b') as f:
        f.write(b'X')
    os.utime(x, ns=(st.st_atime_ns - 10**9, st.st_mtime_ns))
    # what rsync -S, -X and -A keep: a sparse file, a changed xattr,
    # an ACL on a file and a default ACL on a directory
    with open(os.path.join(s, 'sparse'), 'wb') as f:
        f.truncate(SPARSE)
        f.seek(SPARSE // 2)
        f.write(b'one block of data')
    os.setxattr(os.path.join(s, 'same.txt'), 'user.k', b'changed')
    os.setxattr(os.path.join(s, 'pkg/lib/libx.so'), 'system.posix_acl_access',
                acl((ACL_USER, 4, 1234), (ACL_GROUP, 6, 1002)))
    os.setxattr(os.path.join(s, 'pkg/lib'), 'system.posix_acl_default',
                acl((ACL_USER, 7, 1234)))


def case_round4(s):
    # nothing but a second name for a large file: rsync -H links it on
    # the backup, without sending its data again (issue 27)
    os.link(os.path.join(s, 'big'), os.path.join(s, 'big.link'))


# POSIX ACLs as the kernel takes them in system.posix_acl_* (no setfacl
# needed): version 2, then (tag, permissions, id) entries in tag order
ACL_USER, ACL_GROUP = 0x02, 0x08


def acl(*named):
    """An ACL of the owner rw-, the group r--, others r-- and the @named
    (tag, permissions, id) entries, with a mask that grants them."""
    none = 0xffffffff
    ents = [(0x01, 6, none)] + [e for e in named if e[0] == ACL_USER] + \
        [(0x04, 4, none)] + [e for e in named if e[0] == ACL_GROUP] + \
        [(0x10, 7, none), (0x20, 4, none)]
    return struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e)
                                           for e in ents)


CASES = [case_round1, case_round2, case_round3, case_round4]
QUIET = {3}		# rounds without the random plan: case_round4 alone
BIG = 100 << 20		# bytes of s/big, which gains a name in round 4
SPARSE = 1 << 30	# apparent bytes of s/sparse, made in round 3
LITERAL = 1 << 20	# most bytes of data rsync may send in round 4


def rsync_judge(src, dst):
    """What rsync -aHAX -c --delete would still do from @src to @dst
    (itemized; none: the backup is the source, hard links, ACLs, xattrs
    and directory times included)."""
    p = subprocess.run(['rsync', '-aHAXn', '-c', '--delete', '-i',
                        src + '/', dst + '/'], capture_output=True,
                       text=True, errors='replace', check=True)
    return p.stdout.splitlines()[:10]


def round3_kept(src, dst, literal):
    """After round 3: the backup's s/sparse still sparse."""
    sp = os.lstat(os.path.join(dst, 's', 'sparse'))
    if sp.st_blocks * 512 > 1 << 20:
        return [f's/sparse: {sp.st_blocks * 512} bytes on disk']
    return []


def round4_kept(src, dst, literal):
    """After round 4: the backup's s/big and s/big.link one inode, and
    its data not sent again (@literal: rsync's "Literal data" bytes of
    the round)."""
    b = [os.lstat(os.path.join(dst, 's', n)) for n in ('big', 'big.link')]
    errs = []
    if (b[0].st_ino, b[0].st_nlink) != (b[1].st_ino, 2):
        errs.append(f's/big, s/big.link: inodes {b[0].st_ino}, '
                    f'{b[1].st_ino}, nlink {b[0].st_nlink}: not one link')
    if literal is None or literal >= LITERAL:
        errs.append(f'rsync sent {literal} bytes of literal data for a '
                    f'new name of a {BIG}-byte file')
    return errs


KEPT = {2: round3_kept, 3: round4_kept}


def literal_data(log):
    """The bytes of "Literal data" in the --stats of @log's rsyncs, or
    None without any."""
    try:
        with open(log) as f:
            n = [int(line.split(':')[1].split()[0].replace(',', ''))
                 for line in f if line.startswith('Literal data:')]
    except FileNotFoundError:
        return None
    return sum(n) if n else None


def snapshot_tree(top):
    """Every path below @top: (type, mode, uid, gid, target, mtime)."""
    out = {}
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(d, n)
            st = os.lstat(p)
            t = ftype(st)
            out[os.path.relpath(p, top)] = (
                t, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid,
                os.readlink(p) if t == 'l' else None,
                st.st_mtime_ns if t == 'f' else None)
    return out


def same_bytes(p, q):
    """The same contents (read each time: filecmp.cmp() keeps the answer
    for files of the same size and mtime, which is the case at stake)."""
    with open(p, 'rb') as f, open(q, 'rb') as g:
        while True:
            a, b = f.read(1 << 16), g.read(1 << 16)
            if a != b:
                return False
            if not a:
                return True


def compare(src, dst):
    """What differs between the trees @src and @dst (at most 10)."""
    a, b = snapshot_tree(src), snapshot_tree(dst)
    errs = [f'missing in the backup: {p!r}' for p in sorted(a.keys() - b)]
    errs += [f'only in the backup: {p!r}' for p in sorted(b.keys() - a)]
    for p in sorted(a.keys() & b.keys()):
        if a[p] != b[p]:
            errs.append(f'{p!r}: source {a[p]}, backup {b[p]}')
        elif a[p][0] == 'f' and not same_bytes(os.path.join(src, p),
                                               os.path.join(dst, p)):
            errs.append(f'{p!r}: contents differ')
    return errs[:10]


# Round index: when the file vanishes, the real rsync's exit status, and
# in words
VANISH = {0: ('before', '0', 'before rsync looked'),
          1: ('during', '24', "between rsync's look and its copy")}


def vanishing(s, name, env, work, bin_dir, when):
    """s/vanish-WHEN-NAME written to (so listed), and the environment that
    runs BIN's rsync, which makes it vanish."""
    v = os.path.join(s, f'vanish-{when}-{name}')
    with open(v, 'ab') as f:
        f.write(b'written, then gone before rsync copies it\n')
    return dict(env, XB_VANISH=v, XB_VANISH_WHEN=when,
                XB_VANISH_LOG=os.path.join(work, 'vanish.log'))


def main():
    ap = arguments()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--ops', type=int, default=60)
    ap.add_argument('--recipe', action='append', required=True)
    ap.add_argument('--vanish')
    args = ap.parse_args()

    s = os.path.join(args.mnt, 's')
    populate(s)
    seed_tree(args.mnt, 40, 6)
    for r in args.recipe:
        for when, _, _ in VANISH.values():
            write(os.path.join(s, f'vanish-{when}-' + r.split('=', 1)[0]),
                  b'first\n')

    recipes = []
    for r in args.recipe:
        name, script = r.split('=', 1)
        work = os.path.join(args.dir, name)
        os.makedirs(os.path.join(work, 'backup'))
        env = dict(os.environ, XBULK=args.xbulk, J=str(args.j),
                   MNT=args.mnt, BACKUP=os.path.join(work, 'backup'),
                   STATE=os.path.join(work, 'STATE'),
                   XB_RSYNC_STATS=os.path.join(work, 'rsync-stats'))
        if args.vanish:
            env['PATH'] = args.vanish + os.pathsep + env['PATH']
        # the first, full backup and its state
        subprocess.run([args.xbulk, 'snapshot', '-j', str(args.j),
                        args.mnt, env['STATE']], check=True)
        subprocess.run(['rsync', '-a', args.mnt + '/', env['BACKUP'] + '/'],
                       check=True)
        recipes.append((name, script, env, work))

    for rnd in range(args.rounds):
        if rnd < len(CASES):
            CASES[rnd](s)
        plan = Plan(args.mnt, random.Random(rnd + 1), set())
        for _ in range(0 if rnd in QUIET else args.ops):
            plan.op()
        for name, script, env, work in recipes:
            vanish = VANISH.get(rnd) if args.vanish else None
            if vanish:
                env = vanishing(s, name, env, work, args.vanish, vanish[0])
                if os.path.exists(env['XB_VANISH_LOG']):
                    os.unlink(env['XB_VANISH_LOG'])
            if os.path.exists(env['XB_RSYNC_STATS']):
                os.unlink(env['XB_RSYNC_STATS'])
            p = subprocess.run(['bash', script], env=env,
                               capture_output=True, text=True)
            if p.returncode:
                print(f'FAIL: {name} -j {args.j} round {rnd + 1}: exit '
                      f'status {p.returncode}: {p.stderr.strip()}')
                return 1
            if os.path.exists(env['STATE'] + '.new'):
                print(f'FAIL: {name} round {rnd + 1}: STATE not promoted')
                return 1
            want = []
            if vanish:
                # the backup keeps the file's old copy until the next
                # round's diff lists it as deleted
                try:
                    with open(env['XB_VANISH_LOG']) as f:
                        said = f.read().strip()
                except FileNotFoundError:
                    said = 'not on any rsync list'
                if said != vanish[1]:
                    print(f'FAIL: {name} round {rnd + 1}: the vanishing '
                          f'rsync: {said}, not exit status {vanish[1]}')
                    return 1
                want = [f"only in the backup: 's/vanish-{vanish[0]}-{name}'"]
            errs = compare(args.mnt, env['BACKUP'])
            if not vanish and not errs:
                errs = rsync_judge(args.mnt, env['BACKUP'])
            if rnd in KEPT and not errs:
                errs = KEPT[rnd](args.mnt, env['BACKUP'],
                                 literal_data(env['XB_RSYNC_STATS']))
            if errs != want:
                print(f'FAIL: {name} -j {args.j} round {rnd + 1}: the '
                      'backup is not the source' +
                      (f' but for {want[0]!r}' if want else '') + ':\n  ' +
                      '\n  '.join(errs or ['(it is the source)']))
                return 1
            lit = literal_data(env['XB_RSYNC_STATS'])
            print(f'PASS: {name} -j {args.j} round {rnd + 1}' +
                  (f' (a listed file vanished {vanish[2]})' if vanish
                   else '') +
                  (f', {lit} bytes of literal data' if lit is not None
                   else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
