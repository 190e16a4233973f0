#!/usr/bin/env python3
"""check_known_bad.py [--partial] SOURCE_DIR BUILD_DIR - tests/known_bad.md
is the one list of the known-bad variants, and the kernels and the tests
agree with it. --partial (the configure left out the tests of a missing
OpenCL implementation; never in CI): a named test that ctest lacks is
reported, not counted as a problem.

Checks:
  1. every variant the kernels define (`XWG_TEST_BROKEN_KIND == N` in
     kernels/) has a row, and every row's variant is defined there;
  2. every test a row names exists in ctest (BUILD_DIR), is labelled
     known-bad, and builds that row's variant: its environment or command
     line sets it (XWG_TEST_BROKEN_BARRIER=N, -D XWG_TEST_BROKEN_BARRIER=N,
     --broken N or --broken-collective N, XWG_TEST_BROKEN=N for discovery);
  3. every known-bad test that builds a variant is named in that row.
Then it shows that it can fail: the same checks on the table without one
row, and with a test name misspelt, must each find a problem.
Exits 0 if all hold, 1 otherwise, printing each problem.
"""
import glob
import json
import os
import re
import subprocess
import sys

KINDS = {"BARRIER": "barrier", "COLLECTIVE": "collective",
         "DISCOVERY": "discovery"}


def table_rows(text):
    """{variant: [test names]} from the markdown table."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not re.match(r"^(barrier|collective|discovery) "
                                           r"\d+$", cells[0]):
            continue
        tests = [] if cells[2].startswith("(none") else [
            t.strip() for t in cells[2].split(",")]
        rows[cells[0]] = tests
    return rows


def kernel_variants(src):
    found = set()
    for path in glob.glob(os.path.join(src, "kernels", "*")):
        with open(path, encoding="utf-8") as f:
            for kind, n in re.findall(r"XWG_TEST_BROKEN_(BARRIER|COLLECTIVE|"
                                      r"DISCOVERY)\s*==\s*(\d+)", f.read()):
                found.add("%s %s" % (KINDS[kind], n))
    return found


def ctest_tests(build):
    """{name: (labels, text of its command and environment)}."""
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build,
                         capture_output=True, text=True, check=True).stdout
    tests = {}
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels = props.get("LABELS", [])
        env = props.get("ENVIRONMENT", [])
        tests[t["name"]] = (labels, " ".join(t.get("command", []) + env))
    return tests


def variant_built(text):
    """The variant a test's command and environment build, or None."""
    for pattern, kind in ((r"XWG_TEST_BROKEN_BARRIER=(\d+)", "barrier"),
                          (r"--broken (\d+)", "barrier"),
                          (r"--broken-collective (\d+)", "collective"),
                          (r"XWG_TEST_BROKEN_COLLECTIVE=(\d+)", "collective"),
                          (r"XWG_TEST_BROKEN=(\d+)", "discovery")):
        m = re.search(pattern, text)
        if m:
            return "%s %s" % (kind, m.group(1))
    return None


def problems(rows, defined, tests, partial=False):
    out = []
    for v in sorted(defined - set(rows)):
        out.append("%s is defined in kernels/ but has no row" % v)
    for v in sorted(set(rows) - defined):
        out.append("%s has a row but kernels/ does not define it" % v)
    for v, names in sorted(rows.items()):
        for name in names:
            if name not in tests:
                if partial:
                    print("check_known_bad: %s: %s not configured here" %
                          (v, name))
                else:
                    out.append("%s: no test %s" % (v, name))
                continue
            labels, text = tests[name]
            if "known-bad" not in labels:
                out.append("%s: %s is not labelled known-bad" % (v, name))
            if variant_built(text) != v:
                out.append("%s: %s builds %s" % (v, name, variant_built(text)))
    for name, (labels, text) in sorted(tests.items()):
        v = variant_built(text)
        if "known-bad" in labels and v and name not in rows.get(v, []):
            out.append("%s builds %s but its row does not name it" % (name, v))
    return out


def main():
    args = sys.argv[1:]
    partial = args[:1] == ["--partial"]
    src, build = args[1:] if partial else args
    with open(os.path.join(src, "tests", "known_bad.md"), encoding="utf-8") as f:
        rows = table_rows(f.read())
    defined, tests = kernel_variants(src), ctest_tests(build)
    found = problems(rows, defined, tests, partial)
    for p in found:
        print("check_known_bad: %s" % p)
    # The checks must be able to fail.
    first = sorted(rows)[0]
    without = {v: t for v, t in rows.items() if v != first}
    misspelt = dict(rows, **{"barrier 1": ["no_such_test"]})
    for what, broken in (("a row removed", without),
                         ("a test misspelt", misspelt)):
        if not problems(broken, defined, tests):
            found.append("the checks miss %s" % what)
            print("check_known_bad: the checks miss %s" % what)
    print("check_known_bad: %d variants, %d problems" % (len(rows), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
