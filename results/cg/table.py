#!/usr/bin/env python3
"""table.py - the table of results/cg/README.md from the recorded run
(scripts/run_h200_cg.sh, which writes cg-h200.csv): per matrix and
work-group size, the time per CG iteration of xwg's persistent kernel,
the multi-kernel OpenCL version and CUDA's cooperative-groups version, the
ratios the issue sets goals for, and the whole-solve times, launch
included. Each xwg figure is the median of the run's repeats (the first
repeat's solve also includes the kernel's first-launch compile). Prints
markdown.

usage: results/cg/table.py [CSV]   (default: cg-h200.csv beside this file;
       cg-pocl16.csv is the run on the GPU machine's PoCL)
"""
import csv
import os
import statistics
import sys


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "cg-h200.csv")
    runs = {}
    order = []
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["matrix"], int(row["local"]))
            if key not in runs:
                order.append(key)
            runs.setdefault(key, {}).setdefault(row["variant"], []).append(row)
    print("| matrix | work-items | iterations | xwg persistent | multi-kernel "
          "| CUDA grid.sync() | xwg / CUDA | multi / xwg | whole solve: xwg "
          "| multi | CUDA | all verified |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- |")
    for key in order:
        v = runs[key]

        def per_iter(variant):
            return statistics.median(float(r["ms_per_iter"]) * 1000
                                     for r in v[variant])

        def solve(variant):
            rows = v[variant][1:] or v[variant]  # past the first launch
            return statistics.median(float(r["solve_ms"]) for r in rows)

        def groups(variant):
            return v[variant][0]["groups"]

        x, m = per_iter("persistent"), per_iter("multi")
        ok = all(r["verified"] == "1" for rows in v.values() for r in rows)
        if "cuda-grid-sync" in v:  # (a CPU device's run has no CUDA row)
            c = per_iter("cuda-grid-sync")
            cuda = "%.1f us (%s blocks)" % (c, groups("cuda-grid-sync"))
            ratio, cuda_solve = "%.2f" % (x / c), "%.3f ms" % solve(
                "cuda-grid-sync")
        else:
            cuda, ratio, cuda_solve = "-", "-", "-"
        print("| %s | %d | %s | %.1f us (%s groups) | %.1f us (%s groups) | "
              "%s | %s | %.2f | %.3f ms | %.3f ms | %s | %s |"
              % (key[0], key[1], v["persistent"][0]["iterations"], x,
                 groups("persistent"), m, groups("multi"), cuda, ratio,
                 m / x, solve("persistent"), solve("multi"), cuda_solve,
                 "yes" if ok else "NO"))


if __name__ == "__main__":
    main()
