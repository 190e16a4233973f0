#!/usr/bin/env python3
"""table.py - the tables of results/collectives/README.md, from the
recorded runs (scripts/run_h200_collectives.sh): per-call cost of xwg's
barrier, split barrier and float all-reduce against CUDA's grid.sync()
and all-reduce, and the data checks. Prints markdown.

usage: results/collectives/table.py [DIR]   (default: this folder)
"""
import csv
import os
import sys


def main():
    here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    cost = {}
    with open(os.path.join(here, "collectives-h200.csv")) as f:
        for row in csv.DictReader(f):
            label, variant = row["label"], row["variant"]
            local, groups, us = row["local_size"], row["groups"], row["us"]
            cost[(label, variant, int(local))] = (int(groups), float(us))
    print("| work-items | xwg barrier | xwg split | xwg all-reduce (float) "
          "| CUDA grid.sync() | CUDA all-reduce (float) "
          "| xwg all-reduce / xwg barrier | xwg all-reduce / CUDA all-reduce |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for local in (64, 256, 1024):
        def cell(label, variant):
            groups, us = cost[(label, variant, local)]
            return "%.2f us (%d groups)" % (us, groups), us
        b, bus = cell("xwg-nvidia", "barrier/default")
        s, _ = cell("xwg-nvidia", "split/default")
        r, rus = cell("xwg-nvidia", "allreduce-float/default")
        g, _ = cell("cuda", "grid.sync")
        c, cus = cell("cuda", "allreduce-float")
        print("| %d | %s | %s | %s | %s | %s | %.2f | %.2f |"
              % (local, b, s, r, g, c, rus / bus, rus / cus))
    print()
    print("| run | test | algorithm | work-items | groups | episodes "
          "| errors | result |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    # The last run of scripts/run_h200_collectives.sh, then earlier ones:
    # at 60fbaeb, with the test kernel's work-group size declared
    # (a43277c), and with the batched fold (2b9bd4b); README.md says how
    # each was run.
    for run, name in (("last", "collectives-stress-h200.csv"),
                      ("60fbaeb", "collectives-stress-60fbaeb-h200.csv"),
                      ("a43277c", "collectives-stress-declared-h200.csv"),
                      ("2b9bd4b", "collectives-stress-fold-h200.csv")):
        with open(os.path.join(here, name)) as f:
            for row in csv.DictReader(f):
                if row["test"] == "collective_misuse":
                    continue
                print("| %s | %s | %s | %s | %s | %s | %s | %s%s |"
                      % (run, row["test"], row["variant"],
                         row["local_size"], row["groups"], row["episodes"],
                         row["errors"], row["result"],
                         ": " + row["note"] if row["note"] else ""))
    with open(os.path.join(here, "collectives-stress-h200.csv")) as f:
        misuse = [r for r in csv.DictReader(f)
                  if r["test"] == "collective_misuse"]
    passed = sum(r["result"] == "pass" for r in misuse)
    print()
    print("Misuse: %d of %d launches (4 misuses x 3 algorithms x 2 sizes) "
          "ended in XWG_ERROR_BARRIER_MISUSE." % (passed, len(misuse)))


if __name__ == "__main__":
    main()
