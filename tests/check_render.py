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
3. A new device needs no code change: on a scratch copy, a copy of a
   study file under a new name and device (carrying the optional fields
   that older files lack: device_version, self_test.runs, litmus.rows,
   forced) makes render.py add its lines, and only those, to every
   table that reads the study's files (study-devices and each table
   with `each`, as tables.toml lists them), after which --check passes.
4. Plots, on a scratch copy with a stand-in for matplotlib (which draws
   nothing and writes what it was asked to draw as the PNG's bytes, so
   that no matplotlib is needed and the bytes are the same every run):
   the first render writes every plot and says so; a second writes
   nothing, leaves each PNG's bytes and time alone, and says "up to
   date" (it used to rewrite every PNG behind an "up to date"). The
   study's plot draws no bar for a refused device (Zink's barrier bar,
   measured forced past its refusal, stood beside usable devices'), and
   one for every other file.
5. results/record.py on a scratch copy: a run that replaces another is
   recorded and renders, and --more adds its rows to a second CSV; an
   existing run id, --more for a CSV that holds the run or for a run
   runs.csv lacks, and a file without the CSV's columns are refused, and
   change nothing.
Exits 0 if all hold, 1 otherwise, saying which did not.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib


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


def table_lines(d, name):
    """The body lines of results/tables/NAME.md in D: header and rule
    left out."""
    path = os.path.join(d, "results", "tables", name + ".md")
    if not os.path.exists(path):
        return []
    lines = [l for l in open(path, encoding="utf-8").read().splitlines()
             if l.startswith("| ")]
    return lines[2:]


def check_new_device(root):
    """A copy of one study file under a new name, its device renamed, is
    a new device's file: render.py must give it lines in every study
    table without any code change (the study's renderer takes any number
    of files), and add nothing else. Without this, a table drawn from a
    fixed list of devices, or from the first file only, would pass."""
    d = scratch(root)
    study = os.path.join(d, "results", "study")
    with open(os.path.join(d, "results", "tables.toml"), "rb") as f:
        names = [t["name"] for t in tomllib.load(f)["table"] if "study" in t]
    try:
        with open(os.path.join(study, "nvidia-h200.json")) as f:
            doc = json.load(f)
        doc["device"]["device"] = "Check Device"
        doc["device"]["device_version"] = "OpenCL 3.0 check"
        doc["device"]["platform_version"] = "OpenCL 3.0 check"
        doc["self_test"]["runs"] = [{"path": "ptx", "result": "passed",
                                     "status": "XWG_SUCCESS",
                                     "wrong_reads": 0, "groups": 4224}]
        doc["litmus"]["rows"] = [{"test": "MP", "placement": "inter",
                                  "fence": "device", "weak": 0,
                                  "weak_is": "forbidden", "iterations": 50}]
        doc["forced"] = None
        with open(os.path.join(study, "zz-check-device.json"), "w") as f:
            json.dump(doc, f)
        before = {n: table_lines(d, n) for n in names}
        p = subprocess.run([sys.executable, os.path.join(
            d, "results", "render.py")], capture_output=True, text=True)
        if p.returncode != 0:
            return ["a new device's file: render.py exited %d (%s)" %
                    (p.returncode, p.stderr.strip())]
        failures = []
        for n in names:
            after = table_lines(d, n)
            added = [l for l in after if l not in before[n]]
            if not added or len(after) != len(before[n]) + len(added) or \
                    not all("zz-check-device" in l or "Check Device" in l
                            for l in added):
                failures.append("a new device's file: table %s gained %s"
                                % (n, added or "no line"))
        want = {"study-devices": "OpenCL 3.0 check",
                "study-litmus-rows": "| MP | inter | device |"}
        for n, text in want.items():
            if n in names and not any(text in l for l in table_lines(d, n)):
                failures.append("a new device's file: table %s lacks %r"
                                % (n, text))
        if run(d, "--check")[0] != 0:
            failures.append("a new device's file: --check fails after "
                            "rendering")
        if len(names) < 2:
            failures.append("tables.toml has %d study tables" % len(names))
        return failures
    finally:
        shutil.rmtree(d)


# A stand-in for matplotlib: every call on a figure or axes is recorded,
# and savefig writes the record as the "PNG".
FAKE_PYPLOT = """
import json


class _Recorder:
    def __init__(self, calls):
        self._calls = calls

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self._calls.append([name, repr(args), repr(sorted(kwargs.items()))])
        return call


class _Figure(_Recorder):
    def savefig(self, f, **kwargs):
        data = json.dumps(self._calls).encode()
        if isinstance(f, str):
            with open(f, "wb") as out:
                out.write(data)
        else:
            f.write(data)


def subplots(**kwargs):
    calls = []
    return _Figure(calls), _Recorder(calls)


def close(fig):
    pass
"""

PLOT_CHECKS = 4


def render_with_fake_matplotlib(d):
    """render.py in D with the stand-in matplotlib: (exit, stdout)."""
    fake = os.path.join(d, "fake-matplotlib")
    os.makedirs(os.path.join(fake, "matplotlib"), exist_ok=True)
    with open(os.path.join(fake, "matplotlib", "__init__.py"), "w") as f:
        f.write("def use(backend):\n    pass\n")
    with open(os.path.join(fake, "matplotlib", "pyplot.py"), "w") as f:
        f.write(FAKE_PYPLOT)
    env = dict(os.environ, PYTHONPATH=fake)
    p = subprocess.run([sys.executable, os.path.join(d, "results",
                                                     "render.py")],
                       capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def check_study_plot(root, png):
    """The study plot's x labels (the stand-in's record of the call) are
    the study files that were not refused, and only those."""
    sys.path.insert(0, os.path.join(root, "results"))
    import study_files
    docs = [study_files.row(doc) for doc in study_files.load_folder("study")]
    refused = {r["name"] for r in docs if r["verdict"].startswith("refused")}
    usable = {r["name"] for r in docs} - refused
    calls = json.load(open(png))
    labels = [c[1] for c in calls if c[0] == "set_xticklabels"]
    if not refused or not labels:
        return ["plots: no refused study file (%s) or no labels drawn"
                % sorted(refused)]
    drawn = {n for n in refused | usable if repr(n) in labels[0]}
    if drawn & refused or usable - drawn:
        return ["plots: study-barrier-256 drew %s; refused: %s"
                % (sorted(drawn), sorted(refused))]
    return []


def check_plots(root):
    """A render writes the plots that changed, says which, and leaves the
    others alone: "up to date" must mean that nothing was written."""
    failures = []
    d = scratch(root)
    try:
        plots = os.path.join(d, "results", "plots")
        code, out = render_with_fake_matplotlib(d)
        pngs = sorted(os.listdir(plots)) if os.path.isdir(plots) else []
        if code != 0 or not pngs or not all(
                "results/plots/" + p in out for p in pngs):
            failures.append("plots: the first render (exit %d) did not write "
                            "and name every plot: %s" % (code, out.strip()))
            return failures
        failures += check_study_plot(root, os.path.join(
            plots, "study-barrier-256.png"))
        # An hour back, so that a rewrite within the same second shows.
        stamp = {}
        for p in pngs:
            path = os.path.join(plots, p)
            t = os.stat(path).st_mtime_ns - 3600 * 10**9
            os.utime(path, ns=(t, t))
            stamp[p] = (t, open(path, "rb").read())
        code, out = render_with_fake_matplotlib(d)
        if code != 0 or out.strip() != "render: up to date":
            failures.append("plots: a second render with nothing changed "
                            "said %r (exit %d), not 'render: up to date'"
                            % (out.strip(), code))
        rewritten = [p for p in pngs
                     if (os.stat(os.path.join(plots, p)).st_mtime_ns,
                         open(os.path.join(plots, p), "rb").read())
                     != stamp[p]]
        if rewritten:
            failures.append("plots: a second render rewrote %s"
                            % ", ".join(rewritten))
    finally:
        shutil.rmtree(d)
    return failures


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


def summary_run(root):
    """The run that the summary table shows (it changes with each new
    run, so the cases below read it rather than name it)."""
    with open(os.path.join(root, "results", "tables.toml"), "rb") as f:
        table = next(t for t in tomllib.load(f)["table"]
                     if t["name"] == "summary")
    return table["where"]["run"]


def summary_where(root, occupancy):
    """The summary table's `where` line in tables.toml, with `occupancy`
    in place of its own."""
    return 'where = { run = "%s", occupancy = "%s" }' % (summary_run(root),
                                                         occupancy)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    failures = []
    if run(root, "--check")[0] != 0:
        failures.append("the committed tables are not what the CSVs give "
                        "(run python3 results/render.py)")
    res = lambda d, *p: os.path.join(d, "results", *p)
    cases = [
        ("a row of an unknown run", 2, "is not in runs.csv", lambda d: edit(
            res(d, "barrier-h200.csv"), "\n%s," % summary_run(d),
            "\nno-such-run,")),
        ("a run without rows", 2, "no CSV has rows of unused-run", lambda d: open(
            res(d, "runs.csv"), "a").write("unused-run,2026-12-02,0000000,"
                                           "x,x,x,x,\n")),
        ("a table selecting nothing", 2, "table summary: no row", lambda d: edit(
            res(d, "tables.toml"), summary_where(d, "full"),
            summary_where(d, "fulll"))),
        ("a pivot column with no value", 2, "column 'xf' has no value", lambda d: edit(
            res(d, "tables.toml"), 'variant = "barrier/xf" }',
            'variant = "barrier/xff" }')),
        ("a document naming no table", 2, "no table 'no-such-table'", lambda d: edit(
            os.path.join(d, "README.md"),
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
    new_device = check_new_device(root)
    failures += new_device
    failures += check_plots(root)
    failures += check_record(root)
    for f in failures:
        print("check_render: FAIL: %s" % f)
    total = len(cases) + 3 + PLOT_CHECKS + RECORD_CHECKS
    passed = total - len(failures) + max(0, len(new_device) - 1)
    print("check_render: %d of %d checks passed" % (passed, total))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
