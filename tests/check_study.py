#!/usr/bin/env python3
"""check_study.py ROOT BUILD - xwg-study writes what the study table needs,
within its time limit, and never calls a refused device safe.

1. BUILD/xwg-study on the first OpenCL device there is (ctest points
   OCL_ICD_VENDORS at PoCL) with --quick and a time limit: it exits 0
   within the limit (and a few seconds more to write), and its file
   passes results/study/schema.json and the verdict checks of
   results/study_files.py, and renders as a row of the study table;
2. the time bound holds whatever the tools do: with stand-in tools
   (--tools) whose discovery answers at once and whose other three never
   end, the run still ends within its limit, with those steps timed out
   and the file written; and a stress whose pilot passes but whose sized
   run never ends keeps the pilot's rows and reads timed out, never ok;
3. the checks can fail: a file without its stress part, and files that
   call a device safe while its self-test refused it, its stress read
   wrong values, or its litmus tests saw a forbidden outcome, are each
   refused, as is a failed self-test called passed; the script's own
   verdict says refused for a refused self-test and for wrong values,
   untested for an undecided self-test, a stress that never ran and a
   stress run that failed without a wrong value (a hang), and safe only
   with every stress run passed;
4. results/study/not-run.toml gives every unreachable vendor its facts
   and sources, and a vendor without them is refused.
Exits 0 if all hold, 1 otherwise, saying which did not.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run_study(study, out, limit, *extra):
    """xwg-study's completed process and its seconds. Past its limit and a
    minute, it gets a SIGTERM (which stops its tools too), then a kill;
    the returncode then says so."""
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, study, "--quick", "--time-limit",
                          str(limit), "--out", out, *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        stdout, stderr = p.communicate(timeout=limit + 60)
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            stdout, stderr = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            stdout, stderr = p.communicate()
    return (subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr),
            time.monotonic() - t0)


# A barrier_driver whose pilot (its --csv ends in -pilot.csv) passes at
# once, and whose sized run then never ends.
STRESS_PILOT_ONLY = """csv=""
while [ $# -gt 0 ]; do [ "$1" = --csv ] && csv=$2; shift; done
case $csv in *-pilot.csv)
  for a in xf counter tree; do
    echo "study,stand-in,cl20,stress,$a,64,2,400,0,0.01,pass," >> "$csv"
  done
  exit 0 ;;
esac
exec sleep 1000
"""


def stand_in_tools(folder, discover_json, stress=None):
    """xwg-discover that prints DISCOVER_JSON; the other tools sleep
    (barrier_driver runs the shell text STRESS, where given)."""
    with open(os.path.join(folder, "discover.json"), "w") as f:
        json.dump([discover_json], f)
    scripts = {"xwg-discover": "cat '%s'\n" % os.path.join(folder,
                                                          "discover.json")}
    for tool in ("xwg-bench", "barrier_driver", "xwg-litmus"):
        scripts[tool] = "exec sleep 1000\n"
    if stress:
        scripts["barrier_driver"] = stress
    for tool, body in scripts.items():
        path = os.path.join(folder, tool)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)


def main():
    root, build = (os.path.abspath(a) for a in sys.argv[1:3])
    sys.path.insert(0, os.path.join(root, "results"))
    import study_files
    xwg_study = study_files.study_command()
    study = os.path.join(build, "xwg-study")
    failures, checks = [], 0
    work = tempfile.mkdtemp(prefix="check-study-")

    # 1. A real run.
    checks += 1
    limit = 150
    out = os.path.join(work, "real.json")
    p, took = run_study(study, out, limit)
    doc = None
    if p.returncode != 0 or not os.path.exists(out):
        failures.append("xwg-study exited %d: %s" % (
            p.returncode, p.stderr.strip().splitlines()[-1:]))
    else:
        doc = json.load(open(out))
        found = study_files.check(doc)
        if found:
            failures.append("its file breaks the schema: %s" % found[:3])
        elif took > limit + 15:
            failures.append("it took %.0f s, over its limit of %d s"
                            % (took, limit))
        else:
            doc["_file"] = "real.json"
            row = study_files.row(doc)
            if row["device"] != doc["device"]["device"] or \
                    not doc["discovery"]:
                failures.append("its file makes no table row: %s" % row)
            print("check_study: %s, %s, in %.0f s" % (
                row["device"], row["verdict"], took))

    # 2. The time bound, with tools that never end.
    checks += 1
    if doc is not None:
        tools = os.path.join(work, "tools")
        os.mkdir(tools)
        discovered = {k: doc["device"][k] for k in doc["device"]}
        discovered.update(
            atomics_path=doc["atomics"]["path"],
            atomics_reason=doc["atomics"]["reason"],
            barrier_self_test=doc["self_test"]["result"],
            self_test_errors=doc["self_test"]["wrong_reads"],
            self_test_groups=doc["self_test"]["groups"],
            self_test_episodes=doc["self_test"]["episodes"],
            self_test_detail=doc["self_test"]["detail"],
            occupancy=doc["discovery"])
        stand_in_tools(tools, discovered)
        out = os.path.join(work, "bounded.json")
        p, took = run_study(study, out, 12, "--tools", tools)
        steps = ({s["name"]: s["status"] for s in json.load(open(out))["steps"]}
                 if p.returncode == 0 and os.path.exists(out) else {})
        if p.returncode != 0 or took > 12 + 10:
            failures.append("with tools that never end, xwg-study exited %d "
                            "after %.0f s (limit 12 s)" % (p.returncode, took))
        elif any(steps.get(s) != "timed_out"
                 for s in ("bench", "stress", "litmus")):
            failures.append("with tools that never end, the steps read %s"
                            % steps)
        # A stress whose pilot passes and whose sized run never ends: the
        # step stays timed out (the pilot's rows kept), never ok.
        checks += 1
        stand_in_tools(tools, discovered, STRESS_PILOT_ONLY)
        out = os.path.join(work, "cut.json")
        p, took = run_study(study, out, 12, "--tools", tools)
        cut = (json.load(open(out)) if p.returncode == 0 and
               os.path.exists(out) else None)
        stress_step = [s for s in (cut or {}).get("steps", [])
                       if s["name"] == "stress"]
        if cut is None or not stress_step or len(cut["stress"]) != 3:
            failures.append("a stress cut short: no file, or not the "
                            "pilot's 3 rows (exit %d)" % p.returncode)
        elif stress_step[0]["status"] != "timed_out":
            failures.append("a stress whose sized run never ended reads %r"
                            % stress_step[0]["status"])
    else:
        failures.append("the time bound: not checked (no real file)")

    # 3. The checks fail where they must.
    if doc is not None:
        bad = []
        b = copy.deepcopy(doc)
        del b["stress"]
        bad.append(("a file without its stress part", b))
        b = copy.deepcopy(doc)
        b["self_test"]["verdict"], b["verdict"] = "refused", "safe"
        bad.append(("safe with a refused self-test", b))
        b = copy.deepcopy(doc)
        b["self_test"]["verdict"], b["verdict"] = "passed", "safe"
        b["stress"] = [{"algo": "tree", "local_size": 64, "groups": 2,
                        "episodes": 10, "wrong_values": 3, "result": "fail"}]
        bad.append(("safe with wrong values in the stress", b))
        b = copy.deepcopy(doc)
        b["self_test"]["verdict"], b["verdict"] = "passed", "safe"
        b["litmus"]["weak_forbidden"] = 1
        bad.append(("safe with a forbidden litmus outcome", b))
        for what, b in bad:
            checks += 1
            if not study_files.check(b):
                failures.append("study_files.check accepted %s" % what)
        b = copy.deepcopy(doc)
        b["self_test"].update(result="failed", verdict="passed")
        bad.append(("a failed self-test's result called passed", b))
        for what, b in bad[-1:]:
            checks += 1
            if not study_files.check(b):
                failures.append("study_files.check accepted %s" % what)
        ok_steps = [{"name": n, "tool": n, "status": "ok", "seconds": 1.0,
                     "message": ""} for n in ("discover", "bench", "stress",
                                              "litmus")]
        for result, stress, want in (
                ("failed", [(0, "pass")], "refused"),
                ("passed", [(5, "fail")], "refused"),
                ("untested", [(0, "pass")], "untested"),
                ("passed", [], "untested"),             # the stress never ran
                ("passed", [(0, "fail")], "untested"),  # a hang, no wrong value
                ("passed", [(0, "pass")], "safe")):
            checks += 1
            b = copy.deepcopy(doc)
            b["self_test"].update(result=result, wrong_reads=0)
            b["stress"] = [{"algo": "xf", "local_size": 64, "groups": 2,
                            "episodes": 10, "wrong_values": w, "result": r}
                           for w, r in stress]
            b["litmus"].update(weak_forbidden=0, variants=40)
            b["steps"] = ok_steps
            got = xwg_study.verdict(b)
            if got != want:
                failures.append("verdict with a %s self-test and stress %s: "
                                "%s, not %s" % (result, stress, got, want))

        # A refused row names the most wrong reads of any path tried,
        # not the last path's detail (rusticl on Zink: cl20 read 8,064
        # stale values, then cl12 timed out in discovery).
        checks += 1
        b = copy.deepcopy(doc)
        b["verdict"] = "refused"
        b["self_test"].update(
            result="failed", verdict="refused", wrong_reads=0,
            detail="discovery timed out",
            runs=[{"path": "cl20", "result": "failed",
                   "status": "XWG_SUCCESS", "wrong_reads": 8064,
                   "groups": 2},
                  {"path": "cl12", "result": "failed",
                   "status": "XWG_SUCCESS", "wrong_reads": 0, "groups": 0}])
        cell = study_files.row(b)["verdict"]
        if cell != "refused (8064 wrong reads)":
            failures.append("a refused row whose first path read 8064 "
                            "wrong values says %r" % cell)

    # 4. The rows of the implementations not run: complete, or refused.
    checks += 1
    try:
        if len(study_files.not_run("study/not-run.toml")) < 5:
            failures.append("study/not-run.toml has fewer than 5 vendors")
    except study_files.StudyError as e:
        failures.append("study/not-run.toml: %s" % e)
    checks += 1
    partial = os.path.join(work, "partial.toml")
    with open(partial, "w") as f:
        f.write('[[vendor]]\nname = "X"\nimplementation = "Y"\n')
    try:
        study_files.not_run(partial)
        failures.append("not_run accepted a vendor without its facts")
    except study_files.StudyError:
        pass

    shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("check_study: FAIL: %s" % f)
    print("check_study: %d of %d checks passed" % (checks - len(failures),
                                                     checks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
