#!/usr/bin/env python3
"""check_study_refused.py ROOT BUILD - xwg-study on a device that the
self-test refuses (ctest: Mesa rusticl 22.3 on llvmpipe, whose barrier
reads stale data) writes a row that says refused, with the wrong reads of
every path the self-test tried, and measures the rest forced onto the
path that read the most of them.

1. BUILD/xwg-study --quick exits 0 within its limit, and its file passes
   results/study/schema.json and study_files.py's verdict checks;
2. its verdict, and its table row's, is refused, never safe;
3. self_test.runs lists each path tried, the last the path chosen, and
   together they read wrong values; the table row's self-test cell names
   each path;
4. forced says XWG_SELF_TEST=report and a path whose self-test finished
   with the most wrong reads, which the later steps ran on.
Exits 0 if all hold, 1 otherwise, saying which did not.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_study import run_study  # noqa: E402


def problems(doc, row):
    """What in DOC (and its table ROW) breaks points 2 to 4."""
    out = []
    if doc["verdict"] != "refused" or not row["verdict"].startswith("refused"):
        out.append("verdict %r, row %r: not refused" % (doc["verdict"],
                                                         row["verdict"]))
    runs = doc["self_test"].get("runs") or []
    if not runs:
        return out + ["no self_test.runs"]
    if runs[-1]["path"] != doc["atomics"]["path"]:
        out.append("the last run (%s) is not the path chosen (%s)"
                   % (runs[-1]["path"], doc["atomics"]["path"]))
    if sum(r["wrong_reads"] for r in runs) == 0:
        out.append("the runs read no wrong value: %s" % runs)
    missing = [r["path"] for r in runs if r["path"] not in row["self_test"]]
    if missing:
        out.append("the row's self-test cell %r names no %s"
                   % (row["self_test"], missing))
    finished = [r for r in runs if r["status"] == "XWG_SUCCESS"]
    most = max((r["wrong_reads"] for r in finished), default=None)
    paths = {r["path"] for r in finished if r["wrong_reads"] == most}
    forced = doc.get("forced") or {}
    if forced.get("self_test") != "report" or forced.get("atomics") not in paths:
        out.append("forced %r, not XWG_SELF_TEST=report on one of %s"
                   % (doc.get("forced"), sorted(paths)))
    return out


def main():
    root, build = (os.path.abspath(a) for a in sys.argv[1:3])
    sys.path.insert(0, os.path.join(root, "results"))
    import study_files
    limit = 150
    out = os.path.join(tempfile.mkdtemp(prefix="check-refused-"),
                       "refused.json")
    p, took = run_study(os.path.join(build, "xwg-study"), out, limit)
    if p.returncode != 0 or not os.path.exists(out):
        found = ["xwg-study exited %d: %s" % (
            p.returncode, p.stderr.strip().splitlines()[-1:])]
    else:
        doc = json.load(open(out))
        found = study_files.check(doc)
        if not found:
            doc["_file"] = "refused.json"
            row = study_files.row(doc)
            found = problems(doc, row)
            print("check_study_refused: %s: %s; %s, in %.0f s"
                  % (row["device"], row["verdict"], row["self_test"], took))
        if took > limit + 15:
            found.append("it took %.0f s, over its limit of %d s"
                         % (took, limit))
    for f in found:
        print("check_study_refused: FAIL: " + f)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
