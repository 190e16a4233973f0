#!/usr/bin/env python3
"""Turn the JSON that xwg's tools print into the CSVs of results/.

usage: to_csv.py discovery CSV [JSON] --implementation NAME
           [--reference N] [--reference-source TEXT] [--require-platform S]
       to_csv.py discovery-nvidia [RAW_DIR] [OUT_CSV]
       to_csv.py litmus IMPLEMENTATION CSV < JSON

discovery         appends the rows of `xwg-discover --json` to CSV, one per
                  (device, occupancy configuration); JSON is a file, or
                  stdin when absent or "-". The reference (the groups the
                  implementation is known to hold at once) and where it
                  comes from are given on the command line; leave
                  --reference out when it is unknown. experiments/
                  discovery.sh calls it on the local implementations.
discovery-nvidia  writes OUT_CSV afresh from what `scripts/run discovery
                  --platform nvidia` left in RAW_DIR (the recorded ones
                  are in results/raw/h200/), with the CUDA occupancy
                  calculator's answer for the same block size and shared
                  memory as each row's reference (defaults:
                  results/raw/h200, build/out/discovery-h200.csv).
litmus            appends the rows of `xwg-litmus --json` (on stdin) to
                  CSV, labelled IMPLEMENTATION.

Each writes the header when its CSV is new or empty. Record the CSV with
results/record.py (results/README.md, "Adding a run"). Python 3 standard
library only.
"""
import argparse
import csv
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DISCOVERY_COLUMNS = [
    "implementation", "device", "local_size", "local_mem", "groups_min",
    "groups_median", "groups_max", "compute_units", "time_ms",
    "reference_groups", "reference_source",
]

LITMUS_COLUMNS = ["implementation", "device", "path", "test", "placement",
                  "fence", "iterations", "runs", "weak", "weak_is",
                  "o00", "o01", "o10", "o11"]

# The raw files of the nvidia discovery run, and the implementation label
# each stands for.
NVIDIA_RUNS = [
    ("nvidia-default.json", "nvidia-opencl (default: window 20 us)"),
    ("nvidia-window5.json", "nvidia-opencl (window 5 us)"),
    ("nvidia-window50.json", "nvidia-opencl (window 50 us)"),
    ("nvidia-ticket.json", "nvidia-opencl (paper's ticket lock)"),
    ("pocl16.json", "pocl-16cores (GPU machine's host)"),
]


def discovery(argv):
    p = argparse.ArgumentParser(prog="to_csv.py discovery",
                                description="append xwg-discover --json "
                                            "rows to a CSV")
    p.add_argument("csv", help="CSV file to append to")
    p.add_argument("json", nargs="?", default="-",
                   help="xwg-discover --json output (default: stdin)")
    p.add_argument("--implementation", required=True,
                   help="name of the implementation/configuration")
    p.add_argument("--reference", default="",
                   help="known co-resident groups (empty: unknown)")
    p.add_argument("--reference-source", default="",
                   help="where the reference comes from")
    p.add_argument("--require-platform", default=None,
                   help="fail unless every device's platform name contains "
                        "this text (case-insensitive)")
    a = p.parse_args(argv)

    if a.reference != "":
        try:
            if int(a.reference) <= 0:
                raise ValueError
        except ValueError:
            p.error("--reference must be a positive integer or empty")

    if a.json == "-":
        text = sys.stdin.read()
    else:
        with open(a.json, encoding="utf-8") as f:
            text = f.read()
    try:
        devices = json.loads(text)
    except json.JSONDecodeError as e:
        sys.exit("to_csv discovery: invalid JSON: %s" % e)
    if not isinstance(devices, list) or not devices:
        sys.exit("to_csv discovery: no device in the JSON")

    rows = []
    for d in devices:
        if a.require_platform is not None and \
                a.require_platform.lower() not in d["platform"].lower():
            sys.exit("to_csv discovery: platform %r does not match %r"
                     % (d["platform"], a.require_platform))
        for o in d["occupancy"]:
            rows.append({
                "implementation": a.implementation,
                "device": d["device"],
                "local_size": o["local_size"],
                "local_mem": o["local_mem"],
                "groups_min": o["groups_min"],
                "groups_median": o["groups_median"],
                "groups_max": o["groups_max"],
                "compute_units": d["compute_units"],
                "time_ms": o["time_ms"],
                "reference_groups": a.reference,
                "reference_source": a.reference_source,
            })
    if not rows:
        sys.exit("to_csv discovery: no occupancy row in the JSON")

    new = not os.path.exists(a.csv) or os.path.getsize(a.csv) == 0
    with open(a.csv, "a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=DISCOVERY_COLUMNS,
                           lineterminator="\n")
        if new:
            w.writeheader()
        w.writerows(rows)
    print("to_csv discovery: %d row(s) for %s appended to %s"
          % (len(rows), a.implementation, a.csv), file=sys.stderr)
    return 0


def cuda_reference(path):
    """{(local_size, local_mem): groups} from the occupancy calculator."""
    table = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            table[(int(row["local_size"]), int(row["local_mem"]))] = \
                int(row["groups"])
    return table


def nearest_reference(table, local_size, local_mem):
    """The calculator's row for this block size and the nearest shared
    memory (the "max" row steps a few bytes below the calculator's)."""
    rows = [(abs(m - local_mem), g) for (s, m), g in table.items()
            if s == local_size]
    return min(rows)[1] if rows else ""


def discovery_nvidia(argv):
    if len(argv) > 2:
        sys.exit("usage: to_csv.py discovery-nvidia [RAW_DIR] [OUT_CSV]")
    raw = argv[0] if argv else os.path.join(ROOT, "results", "raw", "h200")
    out = argv[1] if len(argv) > 1 else \
        os.path.join(ROOT, "build", "out", "discovery-h200.csv")
    ref = cuda_reference(os.path.join(raw, "cuda-occupancy.csv"))
    out_rows = []
    for name, label in NVIDIA_RUNS:
        path = os.path.join(raw, name)
        if not os.path.exists(path):
            print(f"to_csv discovery-nvidia: {name} missing, skipped",
                  file=sys.stderr)
            continue
        # PoCL's reference is its worker threads, one per core.
        is_pocl = name.startswith("pocl")
        with open(path) as f:
            devices = json.load(f)
        for dev in devices:
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
                    nearest_reference(ref, occ["local_size"],
                                      occ["local_mem"]),
                    "reference_source": "worker threads" if is_pocl else
                    "CUDA occupancy calculator",
                })
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    # The csv module's own line ends (CRLF), as the recorded file has.
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=DISCOVERY_COLUMNS)
        w.writeheader()
        w.writerows(out_rows)
    print(f"to_csv discovery-nvidia: {len(out_rows)} rows to {out}",
          file=sys.stderr)
    return 0


def litmus(argv):
    if len(argv) != 2:
        sys.exit("usage: to_csv.py litmus IMPLEMENTATION CSV < JSON")
    impl, path = argv
    rows = json.load(sys.stdin)
    if not rows:
        sys.exit("to_csv litmus: no rows")
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        w = csv.writer(f)
        if fresh:
            w.writerow(LITMUS_COLUMNS)
        for r in rows:
            o = r["outcomes"]
            w.writerow([impl, r["device"], r["path"], r["test"],
                        r["placement"], r["fence"], r["iterations"],
                        r["runs"], r["weak"], r["weak_is"],
                        o["00"], o["01"], o["10"], o["11"]])
    return 0


COMMANDS = {"discovery": discovery, "discovery-nvidia": discovery_nvidia,
            "litmus": litmus}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if not argv or argv[0] not in COMMANDS:
        sys.exit(__doc__.split("\n\n")[1])
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
