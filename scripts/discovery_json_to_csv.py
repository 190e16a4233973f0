#!/usr/bin/env python3
"""Append the rows of `xwg-discover --json` output to a CSV file.

usage: discovery_json_to_csv.py CSV [JSON] --implementation NAME
           [--reference N] [--reference-source TEXT] [--require-platform S]

Reads the JSON from the file JSON, or from stdin when it is absent or "-".
Writes the header first when CSV does not exist or is empty. One row per
(device, occupancy configuration). The reference (the number of groups the
implementation is known to hold at once) and where it comes from are given
on the command line; leave --reference out when it is unknown.

Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import sys

COLUMNS = [
    "implementation", "device", "local_size", "local_mem", "groups_min",
    "groups_median", "groups_max", "compute_units", "time_ms",
    "reference_groups", "reference_source",
]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
        sys.exit("discovery_json_to_csv: invalid JSON: %s" % e)
    if not isinstance(devices, list) or not devices:
        sys.exit("discovery_json_to_csv: no device in the JSON")

    rows = []
    for d in devices:
        if a.require_platform is not None and \
                a.require_platform.lower() not in d["platform"].lower():
            sys.exit("discovery_json_to_csv: platform %r does not match %r"
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
        sys.exit("discovery_json_to_csv: no occupancy row in the JSON")

    new = not os.path.exists(a.csv) or os.path.getsize(a.csv) == 0
    with open(a.csv, "a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerows(rows)
    print("discovery_json_to_csv: %d row(s) for %s appended to %s"
          % (len(rows), a.implementation, a.csv), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
