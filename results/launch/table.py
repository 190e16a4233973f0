#!/usr/bin/env python3
"""table.py - the table of results/launch/README.md from a recorded run of
scripts/run_h200_launch.sh (xwg-launch-bench twice per build, and
bench/cuda/launch.cu once): per row of the benchmark, microseconds per
launch (per request for the request rows) for each build, the mean of its
runs, and each xwg row over the plain OpenCL row that the issue compares
it with. Labels name the builds: xwg-nvidia-NAME1, -NAME2 are one build
(NAME), cuda the CUDA anchor. Prints markdown.

usage: results/launch/table.py [CSV]   (default: launch-h200.csv beside
       this file)
"""
import csv
import os
import re
import statistics
import sys

# Each xwg row, and the plain row of the same run it is measured against.
AGAINST = {
    "xwg/enqueue": "plain/enqueue",
    "xwg/wait": "plain/readback",
    "xwg/launch-ex": "plain/readback",
    "xwg/wait+discovery": "plain/readback",
    "xwg/chained": "plain/chained",
    "requests/xwg": "requests/plain",
}


def build_of(label):
    """xwg-nvidia-old-launch2 -> old-launch; cuda -> cuda."""
    return re.sub(r"^xwg-[a-z]+-|\d+$", "", label)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "launch-h200.csv")
    runs = {}  # build -> label -> row -> us
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            b = build_of(r["label"])
            runs.setdefault(b, {}).setdefault(r["label"], {})[r["row"]] = \
                float(r["us"])
            if r["row"] not in rows:
                rows.append(r["row"])
    builds = [b for b in runs if b != "cuda"]
    print("| row | " + " | ".join(
        "%s (us) | %s / plain" % (b, b) for b in builds) +
        (" | CUDA (us) |" if "cuda" in runs else " |"))
    print("| --- |" + " --- | --- |" * len(builds) +
          (" --- |" if "cuda" in runs else ""))
    for row in rows:
        cells = []
        for b in builds:
            labels = runs[b].values()
            us = [v[row] for v in labels if row in v]
            if not us:
                cells += ["-", "-"]
                continue
            ratio = "-"
            if row in AGAINST:
                ratios = [v[row] / v[AGAINST[row]] for v in labels
                          if row in v and AGAINST[row] in v]
                ratio = "%.2f" % statistics.mean(ratios)
            cells += ["%.1f" % statistics.mean(us), ratio]
        if "cuda" in runs:
            cuda = [v[row] for v in runs["cuda"].values() if row in v]
            cells.append("%.1f" % cuda[0] if cuda else "-")
        print("| %s | %s |" % (row, " | ".join(cells)))


if __name__ == "__main__":
    main()
