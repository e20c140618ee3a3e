#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_formats.py KIND TEXT JSONL CSV
#
# Parse xbulk's three outputs of the same records (KIND bulkstat or
# inumbers) with independent parsers (the text by hand, JSON Lines with
# Python's json module, CSV with its csv module) and compare every value:
# each JSON value against the text's, each CSV field against the JSON
# value of its column.  The decoded columns (times as ISO 8601, flag
# names, file types) are recomputed here from the numbers, with Python's
# datetime and tables written from the kernel headers.
#
# check_formats.py stat JSONL STATLIST
#
# Compare records with coreutils stat(1) of paths: STATLIST lines are
# "ino|size|nlink|uid|gid|rawmode_hex|atime|mtime|ctime|btime" from
# TZ=UTC stat --printf '%i|%s|%h|%u|%g|%f|%x|%y|%z|%w\n'.
#
# Prints one line per failure and a summary; exits 1 on any failure.

import csv
import datetime
import json
import re
import sys

XFLAGS = {
    0x1: "realtime", 0x2: "prealloc", 0x8: "immutable", 0x10: "append",
    0x20: "sync", 0x40: "noatime", 0x80: "nodump", 0x100: "rtinherit",
    0x200: "projinherit", 0x400: "nosymlinks", 0x800: "extsize",
    0x1000: "extszinherit", 0x2000: "nodefrag", 0x4000: "filestream",
    0x8000: "dax", 0x10000: "cowextsize", 0x80000000: "hasattr",
}
SICK = {
    0x1: "inode", 0x2: "bmbtd", 0x4: "bmbta", 0x8: "bmbtc", 0x10: "dir",
    0x20: "xattr", 0x40: "symlink", 0x80: "parent", 0x100: "dirtree",
}
TYPES = {
    0o010000: "fifo", 0o020000: "chardev", 0o040000: "directory",
    0o060000: "blockdev", 0o100000: "regular", 0o120000: "symlink",
    0o140000: "socket",
}
TIMES = ("bs_atime", "bs_ctime", "bs_mtime", "bs_btime")
HEX = ("bs_xflags", "bs_gen", "bs_sick", "bs_checked", "xi_allocmask")

failures = 0
checked = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 50:
        print("FAIL: " + msg)


def expect(what, want, got):
    global checked
    checked += 1
    if want != got:
        fail("%s: expected %r, got %r" % (what, want, got))


def parse_text(path, first):
    """xfs_io's text: 'first = N' then TAB 'name = value' lines."""
    recs = []
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(first + " = "):
                recs.append({first: line.split(" = ", 1)[1]})
            elif line.startswith("\t") and " = " in line and recs:
                k, v = line[1:].split(" = ", 1)
                recs[-1][k] = v
            else:
                fail("text: unexpected line %r" % line)
    return recs


def names(value, table):
    out, rest = [], value
    for bit in range(64):
        if value >> bit & 1 and (1 << bit) in table:
            out.append(table[1 << bit])
            rest &= ~(1 << bit)
    if rest:
        out.append("0x%x" % rest)
    return out


def iso(sec, nsec):
    t = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=sec)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % nsec


def check_value_from_text(where, key, text, rec):
    """The JSON value(s) of text field KEY."""
    if key in TIMES:
        sec, nsec = text.split(".")
        sec = int(sec)
        if sec >= 1 << 63:		# xfs_io prints seconds unsigned
            sec -= 1 << 64
        expect(where + key, sec, rec[key])
        expect(where + key + "_nsec", int(nsec), rec[key + "_nsec"])
        expect(where + key + "_iso", iso(sec, int(nsec)), rec[key + "_iso"])
    elif key == "bs_mode":
        expect(where + key, text, rec[key])
        expect(where + "bs_mode_type",
               TYPES.get(int(text, 8) & 0o170000, "unknown"),
               rec["bs_mode_type"])
    elif key in HEX:
        if not text.startswith("0x"):
            fail(where + key + ": text value %r is not hex" % text)
            return
        v = int(text, 16)
        expect(where + key, v, rec[key])
        if key == "bs_xflags":
            expect(where + key + "_names", names(v, XFLAGS), rec[key + "_names"])
        elif key in ("bs_sick", "bs_checked"):
            expect(where + key + "_names", names(v, SICK), rec[key + "_names"])
    else:
        if not re.fullmatch(r"[0-9]+", text):
            fail(where + key + ": text value %r is not decimal" % text)
            return
        expect(where + key, int(text), rec[key])


def csv_field(v):
    if v is None:
        return ""
    if isinstance(v, list):
        return "|".join(v)
    return str(v)


def check_formats(kind, text_path, jsonl_path, csv_path):
    first = "bs_ino" if kind == "bulkstat" else "xi_startino"
    text = parse_text(text_path, first)
    with open(jsonl_path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines[-1] != "":
        fail("jsonl: the last line has no newline")
    jrecs = [json.loads(line) for line in lines[:-1]]
    with open(csv_path, encoding="utf-8", newline="") as f:
        raw = f.read()
    if raw and not raw.endswith("\r\n"):
        fail("csv: rows must end with CRLF")
    if raw.replace("\r\n", "").count("\n") or raw.replace("\r\n", "").count("\r"):
        fail("csv: a bare LF or CR")
    rows = list(csv.reader(raw.splitlines(keepends=True), strict=True))
    header, rows = rows[0], rows[1:]

    expect(kind + " records: text vs jsonl", len(text), len(jrecs))
    expect(kind + " records: text vs csv", len(text), len(rows))
    for i, (t, j) in enumerate(zip(text, jrecs)):
        where = "%s record %d (%s %s): " % (kind, i, first, t.get(first))
        # every text field is in the JSON object
        for key, value in t.items():
            if key not in j:
                fail(where + "JSON has no " + key)
                continue
            check_value_from_text(where, key, value, j)
        # and the JSON object has nothing else
        extra = set(j) - set(t)
        for key in t:
            extra -= {key + "_nsec", key + "_iso", key + "_names",
                      key + "_type"}
        if extra:
            fail(where + "JSON keys not in the text: %s" % sorted(extra))
        expect(where + "JSON key order vs CSV header", header, list(j))
    for i, (j, r) in enumerate(zip(jrecs, rows)):
        expect("%s row %d: columns" % (kind, i), len(header), len(r))
        for name, field in zip(header, r):
            expect("%s row %d column %s" % (kind, i, name),
                   csv_field(j.get(name)), field)
    print("%s: %d records, %d values compared" % (kind, len(text), checked))


def stat_time(s):
    """'2026-11-29 21:39:57.564284856 +0000' -> the _iso spelling."""
    m = re.fullmatch(r"(\S+) (\S+) \+0000", s)
    return m and "%sT%sZ" % (m.group(1), m.group(2))


def check_stat(jsonl_path, stat_path):
    with open(jsonl_path, encoding="utf-8") as f:
        by_ino = {r["bs_ino"]: r for r in map(json.loads, f)}
    n = 0
    with open(stat_path, encoding="utf-8") as f:
        for line in f:
            ino, size, nlink, uid, gid, mode, at, mt, ct, bt = \
                line.rstrip("\n").split("|")
            r = by_ino.get(int(ino))
            where = "stat of inode %s: " % ino
            if r is None:
                fail(where + "no record")
                continue
            expect(where + "size", int(size), r["bs_size"])
            expect(where + "nlink", int(nlink), r["bs_nlink"])
            expect(where + "uid", int(uid), r["bs_uid"])
            expect(where + "gid", int(gid), r["bs_gid"])
            expect(where + "mode", int(mode, 16), int(r["bs_mode"], 8))
            expect(where + "atime", stat_time(at), r["bs_atime_iso"])
            expect(where + "mtime", stat_time(mt), r["bs_mtime_iso"])
            expect(where + "ctime", stat_time(ct), r["bs_ctime_iso"])
            if bt != "-":
                expect(where + "btime", stat_time(bt), r["bs_btime_iso"])
            n += 1
    print("stat: %d paths, %d values compared" % (n, checked))


def main():
    if len(sys.argv) == 5 and sys.argv[1] in ("bulkstat", "inumbers"):
        check_formats(*sys.argv[1:])
    elif len(sys.argv) == 4 and sys.argv[1] == "stat":
        check_stat(*sys.argv[2:])
    else:
        sys.exit(__doc__ or "usage: see the comment at the top")
    if failures:
        print("%d failures" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
