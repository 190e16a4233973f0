#!/usr/bin/env python3
"""check_known_bad.py [--partial] SOURCE_DIR BUILD_DIR - tests/known_bad.md
is the one table of the known-bad variants, and the kernels, the names the
programs take and the tests agree with it. --partial (the configure left
out the tests of a missing OpenCL implementation; never in CI): a named
test that ctest lacks is reported, not counted as a problem.

Checks:
  1. the variants are the same three ways: those the kernels guard
     (`defined(XWG_TEST_BROKEN_NAME)` in kernels/), the names in
     tests/known_bad.h (XWG_KNOWN_BAD_MAP) and the table's rows; and no
     kernel guard compares a variant to a number (the old scheme);
  2. every test a row names exists in ctest (BUILD_DIR), is labelled
     known-bad, is named for that row's variant (it ends in
     `_<name in lower case>`), and builds that variant: its environment or
     command line names it (XWG_TEST_BROKEN=NAME, --broken NAME, or
     -D XWG_TEST_BROKEN_NAME);
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

NAME = r"[A-Z][A-Z0-9_]*"


def table_rows(text):
    """{variant: [test names]} from the markdown table (variant, was, what
    it breaks, caught by, how it fails)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        name = cells[0].strip("`")
        if not re.fullmatch(NAME, name):
            continue
        tests = [] if cells[3].startswith("(none") else [
            t.strip() for t in cells[3].split(",")]
        rows[name] = tests
    return rows


def kernel_variants(src):
    """(the variants kernels/ guards, its guards that compare a variant
    to a number)."""
    found, numbered = set(), []
    for path in sorted(glob.glob(os.path.join(src, "kernels", "*"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        found.update(re.findall(r"defined\s*\(\s*XWG_TEST_BROKEN_(%s)\s*\)"
                                % NAME, text))
        for m in re.finditer(r"XWG_TEST_BROKEN_\w+\s*==\s*\d+", text):
            numbered.append("%s: %s" % (os.path.basename(path), m.group(0)))
    return found, numbered


def header_names(src):
    """The names in tests/known_bad.h's XWG_KNOWN_BAD_MAP, in order."""
    with open(os.path.join(src, "tests", "known_bad.h"), encoding="utf-8") as f:
        text = f.read()
    body = re.search(r"#define XWG_KNOWN_BAD_MAP\(X\)((?:.*\\\n)*.*)", text)
    return re.findall(r"\bX\((%s)\)" % NAME, body.group(1)) if body else []


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
    for pattern in (r"XWG_TEST_BROKEN=(\w+)", r"--broken (\w+)",
                    r"XWG_TEST_BROKEN_(\w+)"):
        m = re.search(pattern, text)
        if m:
            return m.group(1).upper()
    return None


def problems(rows, defined, names, tests, partial=False):
    out = []
    for v in sorted(defined - set(rows)):
        out.append("%s is defined in kernels/ but has no row" % v)
    for v in sorted(set(rows) - defined):
        out.append("%s has a row but kernels/ does not define it" % v)
    for v in sorted(defined - set(names)):
        out.append("%s is defined in kernels/ but not in tests/known_bad.h"
                   % v)
    for v in sorted(set(names) - defined):
        out.append("%s is in tests/known_bad.h but kernels/ does not "
                   "define it" % v)
    for v in sorted(set(n for n in names if names.count(n) > 1)):
        out.append("%s is in tests/known_bad.h twice" % v)
    for v, tests_named in sorted(rows.items()):
        for name in tests_named:
            if not name.endswith("_" + v.lower()):
                out.append("%s: %s is not named for it (_%s)" %
                           (v, name, v.lower()))
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
    (defined, numbered), names = kernel_variants(src), header_names(src)
    tests = ctest_tests(build)
    found = problems(rows, defined, names, tests, partial)
    found += ["a numbered guard is left in kernels/%s" % n for n in numbered]
    for p in found:
        print("check_known_bad: %s" % p)
    # The checks must be able to fail.
    first = sorted(rows)[0]
    without = {v: t for v, t in rows.items() if v != first}
    misspelt = dict(rows, **{first: ["no_such_test"]})
    for what, broken in (("a row removed", without),
                         ("a test misspelt", misspelt)):
        if not problems(broken, defined, names, tests):
            found.append("the checks miss %s" % what)
            print("check_known_bad: the checks miss %s" % what)
    print("check_known_bad: %d variants, %d problems" % (len(rows), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
