#!/usr/bin/env python3
"""xwg-study: is xwg safe and fast on this OpenCL device? One file says.

usage: xwg-study [--platform-name S] [--time-limit SECONDS] [--out FILE]
                 [--tools DIR] [--runner CMD] [--quick]

--quick runs fewer repeats, episodes and sizes (for tests); --tools names
the folder of xwg's tools (default: beside this script, then
../libexec/xwg, then the PATH); --runner runs each tool through CMD,
split at spaces, for an implementation that is a wrapper rather than an
ICD: `--runner oclgrind` (Oclgrind), `--runner "bash .zink/run.sh"`
(rusticl on Zink through its bundle).

For the first device of the first platform whose name or vendor
contains S (any case; default: the first platform), it runs xwg's own
tools, each within its share of the time limit, and writes one JSON file
(schema "xwg-study/1", results/study/schema.json) with everything the
portability study's table needs:

  device      platform, device, driver, OpenCL C, capabilities
              (xwg-discover --json);
  atomics     the path xwg chose, and why;
  self_test   the barrier self-test's verdict, wrong reads, groups;
  discovery   co-resident groups and discovery's time at 64, 256 and 1024
              work-items, without and with the most local memory;
  barrier     microseconds per xwg_barrier() of each algorithm at full
              occupancy, and a plain relaunch with a 4-byte read back,
              for comparison (xwg-bench; null where the noise of a busy
              CPU outweighed the difference it is taken from);
  vendor_barrier  the vendor's own device barrier on the same groups,
              where there is one (Intel's intel_device_barrier(), through
              xwg-intel-barrier), and in `discovery` the vendor's own count
              of co-resident groups (vendor_max_groups; null elsewhere);
  stress      a short data-checked stress of every algorithm
              (barrier_driver --only stress);
  litmus      the weak outcomes seen, forbidden ones counted apart
              (xwg-litmus --json);
  steps       what each tool did: ok, failed (its message), timed out or
              skipped, and its seconds.

Bench and stress each run a pilot first, then once more at the size that
half their remaining share fits by the pilot's pace: a simulator still
gets figures, a GPU the full run. The self_test part lists each atomics
path the self-test tried (runs). A device that fails the self-test is
still measured under the watchdog, forced with XWG_SELF_TEST=report onto
the path that read the most wrong values (the file's `forced`); the file
says refused. The whole run ends within --time-limit (default 300 s; a
tool that runs past its share is stopped and its step marked timed_out,
the pilot's figures kept), so the command never hangs.

Exit status: 0 when the file was written (whatever the verdict), 1 when
no device was found or the file could not be written, 2 for bad
arguments. Python 3 standard library only.
"""
import argparse
import csv
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SCHEMA = "xwg-study/1"
LOCAL_SIZES = (64, 256, 1024)
# barrier_driver's CSV rows (it writes no header line).
STRESS_COLUMNS = ["label", "device", "path", "test", "variant", "local_size",
                  "groups", "episodes", "errors", "seconds", "result", "note"]
# Each step's share of the time limit; what a step leaves unused passes to
# the next ones.
SHARES = (("discover", 0.25), ("bench", 0.25), ("vendor", 0.05),
          ("stress", 0.25), ("litmus", 0.20))


def say(text):
    print("xwg-study: " + text, file=sys.stderr, flush=True)


def find_tool(name, dirs):
    """The path of one of xwg's tools: in DIRS (the --tools folder, this
    script's own folder, ../libexec/xwg beside it), then on the PATH."""
    for d in dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def run_bounded(argv, timeout, env):
    """(returncode or None if stopped at TIMEOUT, stdout, stderr) of ARGV,
    run in a session of its own, so that a timeout, an interrupt or a
    SIGTERM of xwg-study stops the tool and anything a runner started for
    it, not only the first process."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, errors="replace", env=env,
                         start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
        return p.returncode, stdout, stderr
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        stdout, stderr = p.communicate()
        return None, stdout, stderr
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise


class Study:
    def __init__(self, args):
        self.args = args
        self.start = time.monotonic()
        here = os.path.dirname(os.path.realpath(__file__))
        self.dirs = [d for d in (args.tools, here,
                                 os.path.join(here, "..", "libexec", "xwg"))
                     if d]
        self.env = dict(os.environ)
        self.steps = []
        self.scratch = tempfile.mkdtemp(prefix="xwg-study-")

    def left(self):
        return self.args.time_limit - (time.monotonic() - self.start)

    def budget(self, step):
        """This step's seconds: its share of what is left, shares of the
        steps already run taken out."""
        names = [n for n, _ in SHARES]
        rest = sum(s for n, s in SHARES[names.index(step):])
        share = dict(SHARES)[step] / rest
        return max(0.0, self.left() * share)

    def run(self, step, tool, argv, again=False):
        """Runs one tool within the step's budget. Returns its stdout, or
        None (the step is recorded as failed, timed_out or skipped).
        AGAIN: the step's second run (sized from a pilot, see sized()),
        recorded in the step's one record: its seconds add up, and its
        status is the step's (a stress cut short proves no more than one
        that hung: the verdict cannot say safe)."""
        path = find_tool(tool, self.dirs)
        if again:
            record = self.steps[-1]
        else:
            record = {"name": step, "tool": tool, "status": "ok",
                      "seconds": 0.0, "message": ""}
            self.steps.append(record)
        limit = self.budget(step)
        if path is None:
            record.update(status="skipped", message="%s not found" % tool)
            say("%s: skipped (%s not found)" % (step, tool))
            return None
        if limit < 1.0:
            if not again:
                record.update(status="skipped", message="no time left")
            say("%s: skipped (no time left)" % step)
            return None
        say("%s: %s, at most %.0f s" % (step, tool, limit))
        t0 = time.monotonic()
        code, stdout, stderr = run_bounded(
            self.args.runner.split() + [path] + argv, limit, self.env)
        record["seconds"] = round(record["seconds"] + time.monotonic() - t0,
                                  3)
        if code is None:
            record.update(status="timed_out", message="%sstopped after %.0f s"
                          % ("the sized run, " if again else "", limit))
            say("%s: timed out after %.0f s" % (step, limit))
        elif code != 0:
            last = (stderr.strip().splitlines() or ["(no message)"])[-1]
            record.update(status="failed", message="exit %d: %s"
                          % (code, last))
            say("%s: failed (%s)" % (step, record["message"]))
        return stdout

    def sized(self, step, tool, argv_for, pilot, full, unit_seconds,
              growth=(1, 1)):
        """Runs TOOL for a pilot of size PILOT (argv_for(PILOT, csv,
        True)), then, if it passed, once more (argv_for(n, csv, False)) at
        the size n that fits into half of what is left of the step's
        budget, at most FULL: a slow device (a simulator) still gets a
        measurement, a fast one the full run. unit_seconds(csv) is what
        one unit of size took in the pilot, from its own figures; the rest
        of the pilot's time (start-up, builds, discovery) is taken to
        recur. GROWTH: how many times the sized run repeats that fixed
        part, and what one unit costs there against the pilot's (a run of
        more configurations than the pilot's). Returns the CSV files
        written, the pilot's first."""
        t0 = time.monotonic()
        self.run(step, tool, argv_for(pilot, step + "-pilot.csv", True))
        took = time.monotonic() - t0
        files = [step + "-pilot.csv"]
        unit = unit_seconds(files[0])
        if not unit > 0:
            unit = took / pilot
        fixed = max(0.0, took - pilot * unit)
        n = min(full, int((self.budget(step) * 0.5 - fixed * growth[0]) /
                          (unit * growth[1])))
        if self.steps[-1]["status"] == "ok" and n >= 2 * pilot:
            self.run(step, tool, argv_for(n, step + ".csv", False),
                     again=True)
            files.append(step + ".csv")
        return files

    def json_output(self, out, valid):
        """OUT, the last step's stdout, parsed as JSON, or None where it does
        not parse or VALID(value) is false; the step is then marked failed,
        unless it had failed or timed out already."""
        try:
            value = json.loads(out or "[]")
        except ValueError:
            value = None
        if value is not None and valid(value):
            return value
        if self.steps[-1]["status"] == "ok":
            self.steps[-1].update(status="failed",
                                  message="its JSON did not parse")
        return None

    def csv_rows(self, name, fields=None):
        """The rows a tool wrote to NAME in the scratch folder (FIELDS: its
        columns, for a tool that writes no header line)."""
        path = os.path.join(self.scratch, name)
        if not os.path.exists(path):
            return []
        with open(path, newline="") as f:
            return list(csv.DictReader(f, fieldnames=fields))


def discover(s, platform):
    argv = ["--json", "--repeat", "3" if s.args.quick else "5",
            "--local-size", ",".join(map(str, LOCAL_SIZES)),
            "--local-mem", "0,max"]
    if platform:
        argv += ["--platform-name", platform]
    devices = s.json_output(
        s.run("discover", "xwg-discover", argv),
        lambda v: isinstance(v, list) and all(isinstance(d, dict) for d in v))
    return devices[0] if devices else None


def xwg_version(s):
    """What xwg-discover --version says, e.g. "xwg-discover 0.2.0"; within
    a twentieth of the time left (1 to 10 s), taken from the limit."""
    path = find_tool("xwg-discover", s.dirs)
    if path is None:
        return "unknown"
    code, out, _ = run_bounded(s.args.runner.split() + [path, "--version"],
                               min(10.0, max(1.0, s.left() / 20)), s.env)
    return out.strip() if code == 0 and out.strip() else "unknown"


def device_part(d):
    keys = ("platform", "platform_version", "device", "device_version",
            "driver_version", "device_type",
            "opencl_c", "opencl_c_max", "compute_units",
            "max_work_group_size", "local_mem_size",
            "atomic_memory_capabilities", "atomic_fence_capabilities")
    return {k: d.get(k) for k in keys}


def self_test_part(d):
    result = d.get("barrier_self_test")
    return {"verdict": self_test_verdict(result, d.get("self_test_errors")),
            "result": result,
            "wrong_reads": d.get("self_test_errors"),
            "groups": d.get("self_test_groups"),
            "episodes": d.get("self_test_episodes"),
            "detail": d.get("self_test_detail"),
            "runs": d.get("self_test_runs", [])}


def forced_path(runs):
    """The atomics path a refused device's later steps are forced onto:
    the path whose self-test returned (status XWG_SUCCESS, whatever its
    result) with the most wrong values read (rusticl on Zink: cl20, whose
    plain loads read stale data, rather than cl12, whose discovery never
    completes), so that the stress shows what a user forcing the device
    would get. None when no run returned."""
    done = [r for r in runs if r.get("status") == "XWG_SUCCESS"]
    if not done:
        return None
    return max(done, key=lambda r: r.get("wrong_reads", 0))["path"]


def bench(s, platform):
    """xwg-bench's barrier and relaunch rows at full occupancy: a pilot of
    few episodes, then as many as the budget fits (at most 1064; the
    figure is the difference of runs of e1 and e2 episodes); the pilot
    at the smallest size only, as a simulator takes minutes for even a
    few episodes of 1024 work-items. A configuration the sized run
    measured replaces the pilot's."""
    sizes = LOCAL_SIZES[:2] if s.args.quick else LOCAL_SIZES
    full = 216 if s.args.quick else 1064

    def argv(e2, name, pilot):
        return ["--platform-name", platform, "--local-sizes",
                ",".join(map(str, sizes[:1] if pilot else sizes)),
                "--algos", "xf,counter,tree",
                "--e1", str(max(2, e2 // 16)), "--e2", str(e2),
                "--csv", os.path.join(s.scratch, name), "--label", "study"]

    def full_rows(name):
        """(variant, row) of each full-occupancy line of NAME."""
        for r in s.csv_rows(name):
            if r.get("occupancy") != "full":
                continue
            # A difference of two timed runs: on a busy CPU device the
            # noise can outweigh it, even below zero. Such a figure is no
            # measurement: null.
            try:
                us = float(r["us"])
                yield r["variant"], {"local_size": int(r["local_size"]),
                                     "groups": int(r["groups"]),
                                     "us": us if us > 0 else None}
            except (TypeError, ValueError):
                continue                # a line cut short by a timeout

    def unit_seconds(name):
        # Each configuration runs e1 + e2 episodes, e1 = e2 / 16.
        return sum(1.07e-6 * row["us"] for _, row in full_rows(name)
                   if row["us"] is not None)

    # The sized run repeats the builds and discovery at every size, and its
    # larger groups are taken to cost in proportion to their work-items,
    # as on a CPU or a simulator (a GPU's cost hardly grows, and its full
    # run fits anyway).
    growth = (len(sizes), sum(size / sizes[0] for size in sizes))

    rows = {}
    for name in s.sized("bench", "xwg-bench", argv, 10, full, unit_seconds,
                        growth):
        for variant, row in full_rows(name):
            rows[(variant, row["local_size"])] = row
    barrier, relaunch = [], []
    for (v, _), row in sorted(rows.items(), key=lambda kv: kv[0][1]):
        if v.startswith("barrier/"):
            barrier.append(dict(row, algo=v.split("/", 1)[1]))
        elif v == "relaunch/readback":
            relaunch.append(row)
    return barrier, relaunch


def vendor_barrier(s, discovery):
    """The vendor's own device barrier on the groups that discovery found
    (the same kernel shape as xwg's barrier rows), where the device has
    one: Intel's intel_device_barrier() through xwg-intel-barrier. Rows
    {local_size, groups, us} at full occupancy; [] where the vendor has no
    count (the step is then skipped). The vendor's own count is in the
    discovery part (vendor_max_groups)."""
    groups = {o["local_size"]: o["groups_median"] for o in discovery
              if o.get("vendor_max_groups") and o["local_mem"] == 0}
    if not groups:
        s.steps.append({"name": "vendor", "tool": "xwg-intel-barrier",
                        "status": "skipped", "seconds": 0.0,
                        "message": "the device has no vendor barrier"})
        return []
    rows = []
    for size in LOCAL_SIZES:
        if size not in groups:
            continue
        name = "vendor-%d.csv" % size
        s.run("vendor", "xwg-intel-barrier",
              ["--local-sizes", str(size), "--groups", str(groups[size]),
               "--vendor-max", "0", "--e1", "64", "--e2", "2112",
               "--csv", os.path.join(s.scratch, name)],
              again=size != min(groups))
        for r in s.csv_rows(name):
            if r.get("variant") == "barrier/intel_device_barrier" and \
                    r.get("occupancy") == "full":
                try:
                    us = float(r["us"])
                except (TypeError, ValueError):
                    continue
                rows.append({"local_size": size, "groups": int(r["groups"]),
                             "us": us if us > 0 else None})
    return rows


def stress(s, platform, one_group):
    """barrier_driver's data-checked stress of each algorithm, in two
    launches: a pilot of 200 episodes, then as many as the budget fits
    (at most 20,000); each algorithm's figures are the two runs'
    together. A run of one group synchronises with nobody, so it fails
    (fewer groups than --min-groups) unless ONE_GROUP: the self-test
    found that one group is all the device ever holds."""
    full = 500 if s.args.quick else 20000

    def argv(episodes, name, pilot):
        return ["--platform-name", platform, "--local-size", "64",
                "--episodes", str(episodes), "--launches", "2", "--only",
                "stress", "--min-groups", "1" if one_group else "2",
                "--csv", os.path.join(s.scratch, name), "--label", "study"]

    def unit_seconds(name):
        rows = [r for r in s.csv_rows(name, STRESS_COLUMNS)
                if r.get("test") == "stress"]
        try:   # a row's episodes are both launches'
            return sum(2 * float(r["seconds"]) / int(r["episodes"])
                       for r in rows)
        except (ValueError, ZeroDivisionError):
            return 0.0

    algos = {}
    for name in s.sized("stress", "barrier_driver", argv, 200, full,
                        unit_seconds):
        for r in s.csv_rows(name, STRESS_COLUMNS):
            if r.get("test") != "stress":
                continue
            a = algos.setdefault(r["variant"], {
                "algo": r["variant"], "local_size": int(r["local_size"]),
                "groups": 0, "episodes": 0, "wrong_values": 0,
                "result": "pass"})
            a["groups"] = max(a["groups"], int(r["groups"]))
            a["episodes"] += int(r["episodes"])
            a["wrong_values"] += int(r["errors"])
            if r["result"] != "pass":
                a["result"] = r["result"]
    return list(algos.values())


def litmus(s, platform):
    keys = ("weak", "weak_is", "test", "placement", "fence")
    rows = s.json_output(
        s.run("litmus", "xwg-litmus", [
            "--platform-name", platform, "--json", "--local-size", "64",
            "--iterations", "5" if s.args.quick else "50"]),
        lambda v: isinstance(v, list) and all(
            isinstance(r, dict) and all(k in r for k in keys) for r in v)
    ) or []
    forbidden = [r for r in rows if r.get("weak_is") == "forbidden"]
    return {"rows": [{k: r.get(k) for k in keys + ("runs", "iterations")}
                     for r in rows],
            "variants": len(rows),
            "weak_allowed": sum(r["weak"] for r in rows
                                if r.get("weak_is") != "forbidden"),
            "weak_forbidden": sum(r["weak"] for r in forbidden),
            "forbidden_seen": sorted({"%s/%s/%s" % (r["test"], r["placement"],
                                                    r["fence"])
                                      for r in forbidden if r["weak"]})}


def self_test_verdict(result, wrong_reads):
    """passed: the self-test passed (or only one group can ever be
    resident, where a barrier is trivially safe) and read nothing wrong;
    refused: it failed, as xwg_context_create() then refuses the device
    with XWG_ERROR_UNSUPPORTED_DEVICE; untested: it could not decide, or
    did not run."""
    if result == "failed":
        return "refused"
    if result in ("passed", "one group") and wrong_reads == 0:
        return "passed"
    return "untested"


def verdict(doc):
    """refused: the self-test refused the device, or a check since read a
    wrong value or saw a forbidden litmus outcome; safe: the self-test
    passed and the stress and the litmus tests ran, every stress run
    passing; untested otherwise (a step failed, timed out or was
    skipped, or a stress run failed without a wrong value, as a hang
    stopped by the watchdog does). Recomputed from the file's own
    figures by results/study_files.py, so a file can never claim more."""
    t = self_test_verdict(doc["self_test"]["result"],
                          doc["self_test"]["wrong_reads"])
    stress, litmus = doc["stress"], doc["litmus"]
    if t == "refused" or any(r["wrong_values"] for r in stress) or \
            litmus["weak_forbidden"] > 0:
        return "refused"
    steps = {s["name"]: s["status"] for s in doc["steps"]}
    ran = (stress and all(r["result"] == "pass" for r in stress) and
           litmus["variants"] > 0 and steps.get("stress") == "ok" and
           steps.get("litmus") == "ok")
    return "safe" if t == "passed" and ran else "untested"


def summary(doc):
    d = doc["device"]
    lines = ["%s (%s, %s): %s" % (d["device"], d["platform"],
                                 d["driver_version"], doc["verdict"].upper())]
    t = doc["self_test"]
    lines.append("  self-test %s: %s" % (t["verdict"], t["detail"]))
    if len(t.get("runs", [])) > 1:
        lines.append("  paths tried: " + "; ".join(
            "%s %s, %d wrong reads of %d groups%s" % (
                r["path"], r["result"], r["wrong_reads"], r["groups"],
                "" if r["status"] == "XWG_SUCCESS" else " (%s)" % r["status"])
            for r in t["runs"]))
    if doc.get("forced"):
        lines.append("  measured forced: XWG_SELF_TEST=report%s" % (
            ", XWG_ATOMICS=" + doc["forced"]["atomics"]
            if doc["forced"]["atomics"] else ""))
    if doc["verdict"] == "refused":
        lines.append("  xwg refuses this device: xwg_context_create() "
                     "returns XWG_ERROR_UNSUPPORTED_DEVICE")
    relaunch = {r["local_size"]: r["us"] for r in doc["relaunch"]}
    vendor = {r["local_size"]: r["us"] for r in doc.get("vendor_barrier", [])}
    for size in LOCAL_SIZES:
        rows = [r for r in doc["barrier"]
                if r["local_size"] == size and r["us"] is not None]
        if not rows:
            continue
        best = min(rows, key=lambda r: r["us"])
        vs = ""
        if relaunch.get(size):
            ratio = relaunch[size] / best["us"]
            vs = ", %.1f x %s than a relaunch with a read back (%.2f us)" \
                % (ratio if ratio >= 1 else 1 / ratio,
                   "faster" if ratio >= 1 else "slower", relaunch[size])
        if vendor.get(size):
            vs += "; %.2f x the vendor's own barrier (%.2f us)" % (
                best["us"] / vendor[size], vendor[size])
        lines.append("  %4d work-items, %d groups: barrier %.2f us (%s)%s"
                     % (size, best["groups"], best["us"], best["algo"], vs))
    bad = [s for s in doc["steps"] if s["status"] != "ok"]
    for s in bad:
        lines.append("  step %s: %s %s" % (s["name"], s["status"],
                                           s["message"]))
    return "\n".join(lines)


def parse(argv):
    p = argparse.ArgumentParser(prog="xwg-study",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--platform-name", default="")
    p.add_argument("--time-limit", type=float, default=300.0)
    p.add_argument("--out", default="xwg-study.json")
    p.add_argument("--tools", default="")
    p.add_argument("--runner", default="")
    p.add_argument("--quick", action="store_true",
                   help="fewer repeats and episodes (for tests)")
    a = p.parse_args(argv)
    if not a.time_limit > 0:
        p.error("--time-limit must be positive")
    return a


def stop(signum, frame):
    raise SystemExit(128 + signum)


def main(argv):
    args = parse(argv)
    # A SIGTERM ends the run as an interrupt does: the running tool's
    # session is killed on the way out (run_bounded).
    signal.signal(signal.SIGTERM, stop)
    s = Study(args)
    try:
        d = discover(s, args.platform_name)
        if d is None:
            step = s.steps[-1]
            say("no OpenCL device found%s%s" % (
                " on a platform named like %r" % args.platform_name
                if args.platform_name else "",
                "" if step["status"] == "ok" else ": xwg-discover %s (%s)"
                % (step["status"].replace("_", " "), step["message"])))
            return 1
        doc = {"schema": SCHEMA,
               "date": datetime.datetime.now(datetime.timezone.utc)
               .strftime("%Y-%m-%dT%H:%M:%SZ"),
               "command": " ".join(["xwg-study"] + argv),
               "xwg_version": xwg_version(s),
               "time_limit_s": args.time_limit,
               "device": device_part(d),
               "atomics": {"path": d.get("atomics_path"),
                           "reason": d.get("atomics_reason")},
               "self_test": self_test_part(d),
               "discovery": [dict({k: o[k] for k in (
                   "local_size", "local_mem", "groups_min", "groups_median",
                   "groups_max", "time_ms")},
                   vendor_max_groups=o.get("vendor_max_groups"))
                   for o in d.get("occupancy", [])]}
        doc["forced"] = None
        if doc["self_test"]["verdict"] == "refused":
            path = s.env.get("XWG_ATOMICS") or \
                forced_path(doc["self_test"]["runs"])
            say("the self-test failed: the rest runs forced "
                "(XWG_SELF_TEST=report%s), under the watchdog"
                % (", XWG_ATOMICS=" + path if path else ""))
            s.env["XWG_SELF_TEST"] = "report"
            if path:
                s.env["XWG_ATOMICS"] = path
            doc["forced"] = {"atomics": path, "self_test": "report"}
        platform = d["platform"]
        doc["barrier"], doc["relaunch"] = bench(s, platform)
        doc["vendor_barrier"] = vendor_barrier(s, doc["discovery"])
        doc["stress"] = stress(s, platform,
                               doc["self_test"]["result"] == "one group")
        doc["litmus"] = litmus(s, platform)
        doc["steps"] = s.steps
        doc["elapsed_s"] = round(time.monotonic() - s.start, 3)
        doc["verdict"] = verdict(doc)
        try:
            with open(args.out, "w") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
        except OSError as e:
            say("cannot write %s: %s" % (args.out, e))
            return 1
        print(summary(doc))
        say("wrote %s in %.0f s" % (args.out, doc["elapsed_s"]))
        return 0
    finally:
        shutil.rmtree(s.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
