#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Wait until the coarse realtime clock, which a snapshot's start is read
# from (lib/snap/live.c), is past the fine-grained clock of now, so that
# no change made before is flagged as changing during the next scan.
# Since Linux 6.13 (multigrain timestamps) a change can carry a
# fine-grained ctime up to a clock tick ahead of the coarse clock: a
# snapshot taken within that tick flags the inode, rightly (it cannot
# tell it from a change during the scan), but not what a test that made
# the change before the scan expects.  As a command (xb_settle in
# lib.sh) or imported (settle()).
import time

CLOCK_REALTIME_COARSE = getattr(time, 'CLOCK_REALTIME_COARSE', 5)


def settle():
    now = time.clock_gettime_ns(time.CLOCK_REALTIME)
    deadline = time.monotonic() + 10
    while (time.clock_gettime_ns(CLOCK_REALTIME_COARSE) <= now and
           time.monotonic() < deadline):
        time.sleep(0.002)


if __name__ == '__main__':
    settle()
