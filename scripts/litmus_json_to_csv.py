#!/usr/bin/env python3
"""litmus_json_to_csv.py IMPLEMENTATION CSV < json - appends xwg-litmus
--json rows to CSV (header written when the file is new): implementation,
device, path, test, placement, fence, iterations, runs, weak, weak_is,
o00, o01, o10, o11."""
import csv
import json
import os
import sys

COLUMNS = ["implementation", "device", "path", "test", "placement", "fence",
           "iterations", "runs", "weak", "weak_is", "o00", "o01", "o10", "o11"]


def main():
    impl, path = sys.argv[1], sys.argv[2]
    rows = json.load(sys.stdin)
    if not rows:
        sys.exit("litmus_json_to_csv: no rows")
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        w = csv.writer(f)
        if fresh:
            w.writerow(COLUMNS)
        for r in rows:
            o = r["outcomes"]
            w.writerow([impl, r["device"], r["path"], r["test"], r["placement"],
                        r["fence"], r["iterations"], r["runs"], r["weak"],
                        r["weak_is"], o["00"], o["01"], o["10"], o["11"]])


if __name__ == "__main__":
    main()
