#!/usr/bin/env python3
"""h200_to_csv.py - turns the raw outputs of scripts/run_h200.sh (the
recorded ones are in results/raw/h200/) into a discovery CSV, with the CUDA
occupancy calculator's answer for the same block size and shared memory as
each row's reference. Record the CSV with results/record.py.

Usage: python3 scripts/h200_to_csv.py [RAW_DIR] [OUT_CSV]
       (defaults: results/raw/h200, build/out/discovery-h200.csv)
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RAW = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "results", "raw", "h200")
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "out", "discovery-h200.csv")

COLUMNS = ["implementation", "device", "local_size", "local_mem", "groups_min",
           "groups_median", "groups_max", "compute_units", "time_ms",
           "reference_groups", "reference_source"]

# raw file -> the implementation label it stands for
RUNS = [
    ("nvidia-default.json", "nvidia-opencl (default: window 20 us)"),
    ("nvidia-window5.json", "nvidia-opencl (window 5 us)"),
    ("nvidia-window50.json", "nvidia-opencl (window 50 us)"),
    ("nvidia-ticket.json", "nvidia-opencl (paper's ticket lock)"),
    ("pocl16.json", "pocl-16cores (GPU machine's host)"),
]


def cuda_reference(path):
    """{(local_size, local_mem): groups} from the occupancy calculator."""
    table = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            table[(int(row["local_size"]), int(row["local_mem"]))] = int(row["groups"])
    return table


def nearest_reference(table, local_size, local_mem):
    """The calculator's row for this block size and the nearest shared
    memory (the "max" row steps a few bytes below the calculator's)."""
    rows = [(abs(m - local_mem), g) for (s, m), g in table.items() if s == local_size]
    return min(rows)[1] if rows else ""


def main():
    ref = cuda_reference(os.path.join(RAW, "cuda-occupancy.csv"))
    out_rows = []
    for name, label in RUNS:
        path = os.path.join(RAW, name)
        if not os.path.exists(path):
            print(f"h200_to_csv: {name} missing, skipped", file=sys.stderr)
            continue
        for dev in json.load(open(path)):
            is_pocl = name.startswith("pocl")
            for occ in dev["occupancy"]:
                out_rows.append({
                    "implementation": label,
                    "device": dev["device"],
                    "local_size": occ["local_size"],
                    "local_mem": occ["local_mem"],
                    "groups_min": occ["groups_min"],
                    "groups_median": occ["groups_median"],
                    "groups_max": occ["groups_max"],
                    "compute_units": dev["compute_units"],
                    "time_ms": occ["time_ms"],
                    "reference_groups": dev["compute_units"] if is_pocl else
                    nearest_reference(ref, occ["local_size"], occ["local_mem"]),
                    "reference_source": "worker threads" if is_pocl else
                    "CUDA occupancy calculator",
                })
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    with open(OUT, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(out_rows)
    print(f"h200_to_csv: {len(out_rows)} rows to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
