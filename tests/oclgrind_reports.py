#!/usr/bin/env python3
"""oclgrind_reports.py - runs a program under Oclgrind's race and
uninitialised-value checkers and sorts its reports into expected and real.

Oclgrind does not model synchronisation between work-groups through
atomics. It reports a race for every pair of accesses from two different
groups that the global barrier orders (user data written before the barrier
and read after it), and for xwg's own polling of its state words. Those are
expected. A report whose two accesses come from the same group, and any
uninitialised-value report, are real: the barrier cannot explain them.

Usage: oclgrind_reports.py [--expect-real] -- oclgrind --data-races \\
           --uninitialized PROGRAM ARGS...
Exits 0 when the program passed and there were no real reports (or, with
--expect-real, when there were some: the known-bad control).
"""
import re
import subprocess
import sys

GROUP = re.compile(r"(First|Second) entity:.*Group\((\d+),(\d+),(\d+)\)")


def classify(stderr):
    """(expected, real, samples of real reports) from Oclgrind's stderr."""
    blocks = re.split(r"\n(?=\S)", stderr)
    expected, real, samples = 0, 0, []
    for block in blocks:
        head = block.strip().splitlines()[0] if block.strip() else ""
        if "data race" in head:
            groups = [m.group(2, 3, 4) for m in GROUP.finditer(block)]
            if len(groups) == 2 and groups[0] != groups[1]:
                expected += 1
                continue
            real += 1
        elif "ninitiali" in head:
            real += 1
        else:
            continue
        if len(samples) < 3:
            samples.append(block.strip())
    return expected, real, samples


def main():
    args = sys.argv[1:]
    expect_real = "--expect-real" in args
    command = args[args.index("--") + 1:]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    sys.stdout.write(proc.stdout)
    expected, real, samples = classify(proc.stderr)
    print("oclgrind reports: %d expected (between groups, ordered by the "
          "barrier), %d real (inside a group, or uninitialised)" % (expected, real))
    for s in samples:
        print("real report:\n" + s)
    if proc.returncode != 0:
        print("program failed with exit code %d" % proc.returncode)
        print(proc.stderr[-3000:])
        return 1
    if expect_real:
        return 0 if real > 0 else 1
    return 0 if real == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
