#!/usr/bin/env python3
"""check_render.py ROOT - the recorded results render to what is committed,
and the renderer refuses data that breaks its contract.

1. `results/render.py --check` on ROOT: every table file and every table
   block of README.md and docs/performance.md is what the CSVs give.
2. On a scratch copy of the results and the documents, each of these
   breakages must make the renderer fail (it would otherwise publish a
   table that does not trace to a run, or hide a typo as '-'):
     - a row whose run is not in runs.csv            (exit 2)
     - a run of runs.csv that no CSV has rows of     (exit 2)
     - a table whose filter selects no row           (exit 2)
     - a pivot column that selects no value          (exit 2)
     - a document naming a table that does not exist (exit 2)
     - a CSV value changed without rendering again   (--check: exit 1)
   and the unbroken copy must pass.
3. results/record.py on a scratch copy: a run that replaces another is
   recorded and renders, and --more adds its rows to a second CSV; an
   existing run id, --more for a CSV that holds the run or for a run
   runs.csv lacks, and a file without the CSV's columns are refused, and
   change nothing.
Exits 0 if all hold, 1 otherwise, saying which did not.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def run(root, *args):
    """The renderer's exit status and what it printed on stderr."""
    p = subprocess.run([sys.executable, os.path.join(root, "results",
                                                     "render.py"), *args],
                       capture_output=True, text=True)
    return p.returncode, p.stderr


def scratch(root):
    """A copy of ROOT's results/, README.md, docs/ and src/study/ (whose
    xwg-study rules check the study's files) in a new folder."""
    d = tempfile.mkdtemp(prefix="xwg-render-")
    shutil.copytree(os.path.join(root, "src", "study"),
                    os.path.join(d, "src", "study"))
    shutil.copytree(os.path.join(root, "results"), os.path.join(d, "results"),
                    ignore=shutil.ignore_patterns("plots", "raw"))
    shutil.copytree(os.path.join(root, "docs"), os.path.join(d, "docs"))
    shutil.copy(os.path.join(root, "README.md"), d)
    return d


def edit(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        raise SystemExit("check_render: %r not in %s" % (old, path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


RECORD_CHECKS = 6


def check_record(root):
    """results/record.py on a scratch copy: a new run replaces an old one
    and renders; a run id that exists, --more for a CSV that holds the
    run or for a run runs.csv lacks, and a file without a column the CSV
    needs, are refused with nothing written."""
    failures = []
    d = scratch(root)
    record = os.path.join(d, "results", "record.py")
    tool = os.path.join(d, "tool.csv")
    with open(tool, "w") as f:
        f.write("label,device,variant,local_size,occupancy,groups,us\n"
                "xwg,cpu,barrier/default,64,full,2,0.5\n")

    def rec(*args, into="barrier-pocl.csv"):
        return subprocess.run([sys.executable, record, "--from", tool,
                               "--into", os.path.join(d, "results", into),
                               "--command", "scripts/run bench", *args],
                              capture_output=True, text=True).returncode
    try:
        got = rec("--run", "new-run", "--replace", "pocl2-bench-9acc09a")
        rendered = subprocess.run([sys.executable, os.path.join(
            d, "results", "render.py")], capture_output=True).returncode
        if got != 0 or rendered != 0 or run(d, "--check")[0] != 0:
            failures.append("record.py: a replacing run did not record and "
                            "render (%d, %d)" % (got, rendered))
        before = open(os.path.join(d, "results", "runs.csv")).read()
        if (rec("--run", "new-run", "--more", into="barrier-h200.csv") != 0
                or open(os.path.join(d, "results", "runs.csv")).read()
                != before):
            failures.append("record.py: --more did not add a run's rows to "
                            "a second CSV, runs.csv unchanged")
        if rec("--run", "new-run") != 2:
            failures.append("record.py: an existing run id was accepted")
        if rec("--run", "new-run", "--more") != 2:
            failures.append("record.py: --more added a run's rows to a CSV "
                            "that holds them already")
        if rec("--run", "no-such-run", "--more") != 2:
            failures.append("record.py: --more accepted a run that runs.csv "
                            "does not hold")
        with open(tool, "w") as f:
            f.write("label,device,variant\nxwg,cpu,barrier/default\n")
        if rec("--run", "other-run") != 2:
            failures.append("record.py: a file without the CSV's columns "
                            "was accepted")
        if open(os.path.join(d, "results", "runs.csv")).read() != before:
            failures.append("record.py: a refused run changed runs.csv")
    finally:
        shutil.rmtree(d)
    return failures


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    failures = []
    if run(root, "--check")[0] != 0:
        failures.append("the committed tables are not what the CSVs give "
                        "(run python3 results/render.py)")
    res = lambda d, *p: os.path.join(d, "results", *p)
    cases = [
        ("a row of an unknown run", 2, "is not in runs.csv", lambda d: edit(
            res(d, "barrier-h200.csv"), "\nh200-bench-4bcb157,",
            "\nno-such-run,")),
        ("a run without rows", 2, "no CSV has rows of unused-run", lambda d: open(
            res(d, "runs.csv"), "a").write("unused-run,2026-12-02,0000000,"
                                           "x,x,x,x,\n")),
        ("a table selecting nothing", 2, "table summary: no row", lambda d: edit(
            res(d, "tables.toml"), 'where = { run = "h200-bench-4bcb157", '
            'occupancy = "full" }', 'where = { run = "h200-bench-4bcb157", '
            'occupancy = "fulll" }')),
        ("a pivot column with no value", 2, "column 'xf' has no value", lambda d: edit(
            res(d, "tables.toml"), 'variant = "barrier/xf" }',
            'variant = "barrier/xff" }')),
        ("a document naming no table", 2, "no table 'no-such-table'", lambda d: edit(
            os.path.join(d, "docs", "performance.md"),
            "<!-- table: summary -->", "<!-- table: no-such-table -->")),
        ("a value changed without rendering", 1, "out of date", lambda d: edit(
            res(d, "barrier-h200.csv"),
            ",barrier/default,256,full,1056,", ",barrier/default,256,full,"
            "1056,9")),
    ]
    clean = scratch(root)
    if run(clean, "--check")[0] != 0:
        failures.append("the unbroken scratch copy does not pass")
    shutil.rmtree(clean)
    for what, want, message, breakage in cases:
        d = scratch(root)
        try:
            breakage(d)
            got, err = run(d, "--check")
            if got != want or message not in err:
                failures.append("%s: exit %d (%s), expected %d and %r" %
                                (what, got, err.strip(), want, message))
        finally:
            shutil.rmtree(d)
    failures += check_record(root)
    for f in failures:
        print("check_render: FAIL: %s" % f)
    total = len(cases) + 2 + RECORD_CHECKS
    print("check_render: %d of %d checks passed" %
          (total - len(failures), total))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
