#!/usr/bin/env python3
"""How often a seeded bug of tests/racecheck gives a wrong answer in a
plain run, on a real device, against xwg-racecheck's every time.

    racecheck_plain_runs.py [--launches R] [--csv FILE] [--label NAME]
                            [--racecheck XWG_RACECHECK [--checks C]]
                            DRIVER FILE.cl...

DRIVER is build/tests/racecheck_driver; the device is the one that
XWG_TEST_PLATFORM and OCL_ICD_VENDORS pick. For each FILE the corrected
twin (-DXWG_FIXED) runs R launches first: its answer (the driver's hash,
per group count) is the right one, and a twin whose launches disagree
stops the run, since then the reference itself is in doubt. Then the
seeded kernel runs R launches (one process, fresh buffers each launch),
and every launch whose hash differs from the twin's at the same group
count is a wrong answer; a launch that fails (the watchdog's
XWG_ERROR_BARRIER_TIMEOUT, say) is counted as failed. With --racecheck,
xwg-racecheck then checks the seeded kernel C times (5 unless told) on
its own small problem (4 work-items a group, 64 words, 3 steps) and
counts the checks that reported something (exit status 1). One line per
file: launches, groups, wrong, failed, checks, reported; with --csv, the
same as rows (label, kernel, local_size, n, steps, launches, groups,
wrong, failed, checks, reported) for results/record.py.

Exit status 0 when every file ran, 2 when a twin was not deterministic
or a run could not start.
"""
import argparse
import collections
import csv
import os
import re
import subprocess
import sys

# The plain run's problem: larger than the checker's (4 work-items, 64
# words, 3 steps), so that a race has room to show.
LOCAL, N, STEPS = "64", "4096", "8"
LINE = re.compile(r"(\d+) groups of \d+, hash ([0-9a-f]+)")
FAILED = re.compile(r"launch failed: (\S+)")


def launches_of(driver, path, count, options=None):
    """[(groups, hash)] of each launch that completed, the errors of those
    that failed, and the driver's exit status and error output."""
    cmd = [driver, "--launches", str(count), path, LOCAL, N, STEPS]
    cmd += [options] if options else []
    try:
        done = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=60 + count)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else e.stdout
        return ([(int(g), h) for g, h in LINE.findall(out or "")],
                FAILED.findall(out or ""), -1, "timed out")
    return ([(int(g), h) for g, h in LINE.findall(done.stdout)],
            FAILED.findall(done.stdout), done.returncode, done.stderr.strip())


def checks_reporting(racecheck, driver, path, count):
    """How many of COUNT checks of PATH by xwg-racecheck found something;
    None if one could not check (exit status 2)."""
    found = 0
    for _ in range(count):
        done = subprocess.run([racecheck, driver, path, "4", "64", "3"],
                              capture_output=True, text=True, timeout=300)
        if done.returncode not in (0, 1):
            print(done.stderr[-2000:], file=sys.stderr)
            return None
        found += done.returncode == 1
    return found


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--launches", type=int, default=100)
    p.add_argument("--csv")
    p.add_argument("--label", default="plain")
    p.add_argument("--racecheck")
    p.add_argument("--checks", type=int, default=5)
    p.add_argument("driver")
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    rows = []
    for path in args.files:
        name = os.path.basename(path)
        fixed, _, status, err = launches_of(args.driver, path,
                                            args.launches, "-DXWG_FIXED")
        right = collections.defaultdict(set)
        for groups, h in fixed:
            right[groups].add(h)
        if status != 0 or any(len(h) != 1 for h in right.values()):
            print(f"{name}: the corrected twin gave no single answer "
                  f"(status {status}, {dict(right)}): {err}",
                  file=sys.stderr)
            return 2
        seeded, errors, status, err = launches_of(args.driver, path,
                                                  args.launches)
        if len(seeded) + len(errors) != args.launches:
            print(f"{name}: {len(seeded) + len(errors)} of {args.launches} "
                  f"launches ran (status {status}): {err}", file=sys.stderr)
            return 2
        wrong = sum(h not in right.get(g, ()) for g, h in seeded)
        failed = len(errors)
        groups = "/".join(str(g) for g in sorted({g for g, _ in seeded}))
        checks, reported = 0, 0
        if args.racecheck:
            checks = args.checks
            reported = checks_reporting(args.racecheck, args.driver, path,
                                        checks)
            if reported is None:
                print(f"{name}: xwg-racecheck could not check it",
                      file=sys.stderr)
                return 2
        print(f"{name:24} {args.launches} launches on {groups or '-'} "
              f"groups: {wrong} wrong, {failed} failed"
              + (f" ({', '.join(sorted(set(errors)))})" if errors else "")
              + (f"; xwg-racecheck reported {reported} of {checks}"
                 if checks else ""))
        rows.append([args.label, name, LOCAL, N, STEPS, args.launches,
                     groups or "-", wrong, failed, checks, reported])
    if args.csv:
        with open(args.csv, "a", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            if f.tell() == 0:
                w.writerow(["label", "kernel", "local_size", "n", "steps",
                            "launches", "groups", "wrong", "failed",
                            "checks", "reported"])
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
