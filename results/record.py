#!/usr/bin/env python3
"""Record a run: its rows into a results CSV, and its line into runs.csv.

usage: python3 results/record.py --run ID --from FILE --into CSV
           (--command TEXT | --more) [--device TEXT] [--driver TEXT] [--platform NAME]
           [--commit REV] [--date YYYY-MM-DD] [--note TEXT]
           [--replace OLD_ID] [--more]

FILE is what an experiment wrote (scripts/run EXPERIMENT --out DIR): a CSV
in its tool's columns, whose first column is `label` (xwg-bench,
barrier_driver, xwg-cg, xwg-launch-bench) or `implementation` (discovery,
litmus, the graph applications). CSV is a file under results/. Each row of
FILE goes into CSV with `run` = ID, the label as `series` where CSV has
that column (a label NAMEn as series NAME and `repeat` n where CSV has
that column too), and every other column by name; a column CSV needs and FILE
lacks is an error. --replace OLD_ID first takes OLD_ID's rows out of CSV,
and its line out of runs.csv once no CSV has rows of it (git history keeps
them). --more adds the rows of a run that runs.csv holds already (a run
that wrote several files) to one more CSV, which must hold none of its
rows yet; runs.csv keeps the run's line as it is. --commit defaults to
the checkout's HEAD, --date to today.

Contract: nothing is written unless everything checks: ID is new (with
--more: in runs.csv, and not yet in CSV), FILE has rows and the columns CSV needs. Exit 0 on success, 2 (with a message
naming the problem) otherwise. Then run `python3 results/render.py`.
"""
import argparse
import csv
import datetime
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS_HEADER = ["run", "date", "commit", "platform", "device", "driver",
               "command", "note"]


class RecordError(Exception):
    pass


def read(path):
    """(header, rows as dicts) of a CSV file."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def converted(rows, header, run):
    """FILE's rows in CSV's columns."""
    out = []
    for i, r in enumerate(rows, 2):
        r = dict(r, run=run)
        if "series" in header and "series" not in r and "label" in r:
            r["series"] = r["label"]
            if "repeat" in header and "repeat" not in r:
                # xwg-launch-bench's labels NAME1, NAME2: series, repeat
                m = re.match(r"^(.*?)([0-9]+)$", r["label"])
                r["series"], r["repeat"] = m.groups() if m else (r["label"], "1")
        missing = [c for c in header if c not in r]
        if missing:
            raise RecordError("--from line %d: no column %s (it has %s)" %
                              (i, ", ".join(missing), ", ".join(rows[0])))
        out.append({c: r[c] for c in header})
    return out


def runs_elsewhere(into):
    """Run ids that results CSVs other than INTO have rows of."""
    used = set()
    for path in glob.glob(os.path.join(HERE, "**", "*.csv"), recursive=True):
        rel = os.path.relpath(path, HERE)
        if (rel == "runs.csv" or rel.startswith("raw" + os.sep)
                or os.path.abspath(path) == into):
            continue
        used |= {r.get("run") for r in read(path)[1]}
    return used


def record(a):
    into = os.path.abspath(a.into)
    if not into.startswith(HERE + os.sep) or not os.path.exists(into):
        raise RecordError("--into %s: not a CSV under results/" % a.into)
    runs_path = os.path.join(HERE, "runs.csv")
    runs_header, runs = read(runs_path)
    known = any(r["run"] == a.run for r in runs)
    if known and not a.more:
        raise RecordError("--run %s: runs.csv has it already (--more adds "
                          "a file of the same run)" % a.run)
    if a.more and not known:
        raise RecordError("--more: runs.csv has no run %s" % a.run)
    if not a.more and not a.command:
        raise RecordError("--command: the command that made the run is needed")
    if a.replace and not any(r["run"] == a.replace for r in runs):
        raise RecordError("--replace %s: not in runs.csv" % a.replace)
    header, kept = read(into)
    if "run" not in header:
        raise RecordError("--into %s: no run column" % a.into)
    if a.more and any(r["run"] == a.run for r in kept):
        raise RecordError("--more: %s holds rows of run %s already"
                          % (a.into, a.run))
    from_header, new = read(a.source)
    if not new:
        raise RecordError("--from %s: no rows" % a.source)
    new = converted(new, header, a.run)
    if a.replace:
        kept = [r for r in kept if r["run"] != a.replace]
        if a.replace not in runs_elsewhere(into):
            runs = [r for r in runs if r["run"] != a.replace]
    commit = a.commit or subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
        capture_output=True, text=True).stdout.strip()
    if not a.more:
        runs.append({"run": a.run, "date": a.date or
                     datetime.date.today().isoformat(), "commit": commit,
                     "platform": a.platform, "device": a.device,
                     "driver": a.driver, "command": a.command, "note": a.note})
    write(into, header, kept + new)
    write(runs_path, runs_header or RUNS_HEADER, runs)
    print("record: %d rows of run %s into %s%s; now python3 results/render.py"
          % (len(new), a.run, os.path.relpath(into, os.path.dirname(HERE)),
             " (replacing %s)" % a.replace if a.replace else ""))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", required=True)
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("--into", required=True)
    p.add_argument("--command", default="")
    p.add_argument("--device", default="")
    p.add_argument("--driver", default="")
    p.add_argument("--platform", default="")
    p.add_argument("--commit", default="")
    p.add_argument("--date", default="")
    p.add_argument("--note", default="")
    p.add_argument("--replace", default="")
    p.add_argument("--more", action="store_true")
    try:
        record(p.parse_args())
    except (RecordError, OSError) as e:
        print("record: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
