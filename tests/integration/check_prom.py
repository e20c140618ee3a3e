#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check xbulk du --prometheus's file (Prometheus text format 0.0.4).

check_prom.py by FILE BY JSONL [CAP]: the series of BY (uid, gid or
projid) hold the sums of `xbulk du --by BY -o jsonl PATH`'s rows: each
kept key with its name, and with a CAP (--max-series) the largest CAP
keys kept and "other" the rest; each figure's total the same.

check_prom.py scan FILE STATS BEFORE AFTER: xbulk_scan_* against the
run's --stats=json (scan_records, wall_s) and the clock around the run;
no errors.

check_prom.py dirs FILE BYTES INODES: the directory series hold GNU
du -0's figures (BYTES: du -B1's output, INODES: du --inodes's), names that are not UTF-8 as the man page's rule says (U+FFFD per bad
byte and an ino label with the inode's number, from stat()).

check_prom.py served FILE METRICS: every series of FILE is in
node_exporter's /metrics (METRICS) with the same value and labels
(node_exporter may order them otherwise), and the textfile collector
reported no error.
"""
import json
import os
import re
import sys

OWNER = {"uid": ("user", "user"), "gid": ("group", "group"),
         "projid": ("project", "project")}
FIGURES = {"disk_usage_bytes": "disk_bytes",
           "apparent_size_bytes": "apparent_bytes", "inodes": "inodes"}


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\":
            out.append({"n": "\n", "\\": "\\", '"': '"'}[s[i + 1]])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def parse(text):
    """{(name, frozenset(labels)): value}, and the HELP/TYPE names."""
    series, typed = {}, {}
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            typed[name] = kind
            continue
        if line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$", line)
        if not m:
            sys.exit(f"bad line: {line!r}")
        labels, rest = {}, m.group(3) or ""
        while rest:
            lm = LABEL.match(rest)
            if not lm:
                sys.exit(f"bad labels: {line!r}")
            labels[lm.group(1)] = unescape(lm.group(2))
            rest = rest[lm.end():]
        # node_exporter fills a label some series lack with ""
        labels = {k: v for k, v in labels.items() if v != ""}
        key = (m.group(1), frozenset(labels.items()))
        if key in series:
            sys.exit(f"duplicate series: {line!r}")
        series[key] = float(m.group(4))
    return series, typed


def load(path):
    with open(path, "rb") as f:
        return parse(f.read().decode("utf-8"))


def of(series, name):
    return [(dict(k[1]), v) for k, v in series.items() if k[0] == name]


def fail(msgs):
    for m in msgs:
        print(m)
    sys.exit(1 if msgs else 0)


def check_by(path, by, jsonl, cap=None):
    series, typed = load(path)
    metric, label = OWNER[by]
    rows = [json.loads(l) for l in open(jsonl, encoding="utf-8") if l.strip()]
    rows.sort(key=lambda r: (-r["disk_bytes"], -r["apparent_bytes"],
                             r["key"]))
    cap = int(cap) if cap else 100
    kept, rest = rows[:cap], rows[cap:]
    msgs = []
    for fig, col in FIGURES.items():
        name = f"xbulk_{metric}_{fig}"
        if typed.get(name) != "gauge":
            msgs.append(f"{name}: no # TYPE gauge")
        got = {s[by]: (s[label], v) for s, v in of(series, name)}
        want = {str(r["key"]): (r["name"] or str(r["key"]), r[col])
                for r in kept}
        if rest:
            want["other"] = ("other", sum(r[col] for r in rest))
        if got != want:
            msgs.append(f"{name}: {got} != {want}")
        if sum(v for _, v in got.values()) != sum(r[col] for r in rows):
            msgs.append(f"{name}: the total changed")
    fail(msgs)


def check_scan(path, stats, before, after):
    series, _ = load(path)
    st = json.load(open(stats))
    v = {k[0]: val for k, val in series.items() if k[0].startswith(
        "xbulk_scan_")}
    msgs = []
    if v.get("xbulk_scan_inodes") != st["scan_records"]:
        msgs.append(f"scan_inodes {v.get('xbulk_scan_inodes')} != "
                    f"{st['scan_records']}")
    if not 0 < v.get("xbulk_scan_duration_seconds", -1) <= st["wall_s"]:
        msgs.append(f"duration {v.get('xbulk_scan_duration_seconds')} not "
                    f"in (0, {st['wall_s']}]")
    if not int(before) <= v.get("xbulk_scan_timestamp_seconds", 0) <= \
            int(after):
        msgs.append(f"timestamp {v.get('xbulk_scan_timestamp_seconds')} "
                    f"not in [{before}, {after}]")
    if v.get("xbulk_scan_errors") != 0:
        msgs.append(f"errors {v.get('xbulk_scan_errors')}")
    fail(msgs)


def label_text(raw):
    """The man page's rule: U+FFFD for each byte that is not UTF-8."""
    return raw.decode("utf-8", "replace")


def du_lines(dufile):
    """{path bytes: figure} of du -0's lines "FIGURE\tPATH"."""
    with open(dufile, "rb") as f:
        return {p: int(n) for n, p in (line.split(b"\t", 1) for line in
                                       f.read().split(b"\0") if line)}


def check_dirs(path, bytes_file, inodes_file):
    series, _ = load(path)
    msgs = []
    want = {}
    inodes = du_lines(inodes_file)
    for p, b in du_lines(bytes_file).items():
        labels = {"directory": label_text(p)}
        if labels["directory"].encode() != p:
            labels["ino"] = str(os.lstat(p).st_ino)
        want[frozenset(labels.items())] = (b, inodes[p])
    for name, idx in (("xbulk_directory_disk_usage_bytes", 0),
                      ("xbulk_directory_inodes", 1)):
        got = {frozenset((k, v) for k, v in s.items()
                         if k in ("directory", "ino")): v
               for s, v in of(series, name)}
        exp = {k: v[idx] for k, v in want.items()}
        if got != exp:
            msgs.append(f"{name}: {sorted(got.items(), key=str)} != "
                        f"{sorted(exp.items(), key=str)}")
    fail(msgs)


def check_served(path, metrics):
    ours, _ = load(path)
    theirs, _ = load(metrics)
    msgs = [f"not served: {k} {v}" for k, v in ours.items()
            if theirs.get(k) != v]
    errs = [v for k, v in theirs.items()
            if k[0] == "node_textfile_scrape_error"]
    if errs != [0]:
        msgs.append(f"node_textfile_scrape_error {errs}")
    fail(msgs)


if __name__ == "__main__":
    cmds = {"by": check_by, "scan": check_scan, "dirs": check_dirs,
            "served": check_served}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
