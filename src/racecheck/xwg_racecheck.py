#!/usr/bin/env python3
"""xwg-racecheck: finds the missing global barrier in a persistent kernel.

    xwg-racecheck [--threads N] [--json FILE] [--oclgrind-option OPT]...
                  PROGRAM [ARGS...]

Runs PROGRAM (a C program, or `python3 script.py` through PyOpenCL) under
Oclgrind with xwg's plugin (racecheck_plugin.cpp, which says what is
checked), then prints every pair of source lines whose global-memory
accesses no barrier orders, grouped by pair with a count, and every group
whose work-items made different xwg synchronisations.

Exit status: 0 nothing found, 1 something found, 2 the program could not
be checked (Oclgrind or the plugin missing, no kernel of the program's
ran, or the program failed and nothing was found), with a message saying
why. PROGRAM's own output passes through; the findings go to stderr after
it. Oclgrind's other checks stay as Oclgrind's defaults; pass
--oclgrind-option --data-races and the like to ask for more.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

# Where the build or the installation put the plugin (CMake fills it in:
# installed, a path relative to this script's folder).
PLUGIN = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                      "@XWG_RACECHECK_PLUGIN@")


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="xwg-racecheck",
        description="Runs PROGRAM under Oclgrind and reports the accesses "
        "to global memory that no barrier orders.")
    p.add_argument("--threads", type=int, default=2,
                   help="Oclgrind worker threads, so co-resident groups "
                   "(default 2)")
    p.add_argument("--json", metavar="FILE",
                   help="also write the plugin's raw findings to FILE")
    p.add_argument("--plugin", default=os.environ.get(
        "XWG_RACECHECK_PLUGIN", PLUGIN), help=argparse.SUPPRESS)
    p.add_argument("--oclgrind-option", action="append", default=[],
                   metavar="OPT", help="passed to oclgrind as it is")
    p.add_argument("program", nargs=argparse.REMAINDER,
                   help="PROGRAM [ARGS...]")
    args = p.parse_args(argv)
    if not args.program:
        p.error("no PROGRAM to check")
    if args.threads < 1:
        p.error("--threads must be at least 1")
    return args


def cannot_check(why):
    print(f"xwg-racecheck: cannot check: {why}", file=sys.stderr)
    return 2


def read_findings(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def side_text(side):
    return (f"line {side['line']} ({side['op']}, group {side['group']} "
            f"work-item {side['item']})")


def interval_text(side):
    lo, hi = side["interval"]
    start = (f"from the synchronisation at line {side['after_line']}"
             if side["after_line"] else "from the kernel's start")
    end = (f"to the next, at line {side['before_line']}"
           if side.get("before_line") else "to the kernel's end")
    both = ", between an arrive and its wait" if hi != lo else ""
    return f"{start} {end} (interval {lo}{both})"


def group_races(races):
    """One entry per kernel and unordered pair of lines: the findings in
    it, summed."""
    pairs = {}
    for r in races:
        a, b = sorted((r["first"], r["second"]), key=lambda s: s["line"])
        key = (r["kernel"], a["file"], a["line"], b["line"])
        entry = pairs.setdefault(key, {"count": 0, "buffers": {},
                                       "cross": None, "within": None,
                                       "sides": (a, b)})
        entry["count"] += r["count"]
        lo, hi = r["bytes"]
        old = entry["buffers"].get(r["buffer"], (lo, hi))
        entry["buffers"][r["buffer"]] = (min(old[0], lo), max(old[1], hi))
        kind = "within" if a["group"] == b["group"] else "cross"
        if entry[kind] is None:
            entry[kind] = (a, b)
    return pairs


def print_pairs(pairs, what, out):
    for (kernel, file, la, lb), e in sorted(pairs.items()):
        print(f"xwg-racecheck: {what} in kernel {kernel}: lines {la} and "
              f"{lb} of {file}, {e['count']} conflicting accesses", file=out)
        for kind, what in (("cross", "between groups"),
                           ("within", "within a group")):
            if e[kind] is None:
                continue
            a, b = e[kind]
            print(f"  {what}: {side_text(a)} and {side_text(b)}", file=out)
            print(f"    {interval_text(b)}", file=out)
        for name, (lo, hi) in sorted(e["buffers"].items()):
            print(f"  buffer {name}, bytes {lo} to {hi}", file=out)
        a, b = e["sides"]
        for s in (a, b):
            print(f"  {s['line']:5d} | {s['text']}", file=out)


def print_report(findings, out):
    """Prints the findings; returns how many there were (pairs of lines
    of each class, and divergent groups)."""
    pairs = group_races(f for f in findings if f["kind"] == "race")
    atomics_only = group_races(f for f in findings
                               if f["kind"] == "atomics-only")
    divergent = [f for f in findings if f["kind"] == "divergent"]
    print_pairs(pairs, "race", out)
    # Ordered, if at all, by the kernel's own atomics: the plugin cannot
    # tell a release from a relaxed access (racecheck_plugin.cpp).
    print_pairs(atomics_only, "race unless your atomics order it "
                "(atomics-only)", out)
    seen = set()
    for d in divergent:
        key = (d["kernel"], d["detail"])
        if key in seen:
            continue
        seen.add(key)
        print(f"xwg-racecheck: divergent synchronisation in kernel "
              f"{d['kernel']}, group {d['group']} (and maybe others): "
              f"{d['detail']}", file=out)
    checked = sorted({f["kernel"] for f in findings if f["kind"] == "checked"})
    # One group can race only with itself: say so, or a clean report of
    # a kernel that discovery gave one group would claim too much. (A
    # kernel's first launches are discovery's, on one group or with
    # groups turned away: the most groups of any launch is what counts.)
    most = {}
    for f in findings:
        if f["kind"] == "checked":
            most[f["kernel"]] = max(most.get(f["kernel"], 0),
                                    f.get("groups", 0))
    alone = sorted(k for k, groups in most.items() if groups == 1)
    if alone:
        print(f"xwg-racecheck: warning: kernel(s) {', '.join(alone)} ran on "
              "one group, so races between groups could not show: run "
              "where the machine has 2 idle cores, or more --threads",
              file=out)
    print(f"xwg-racecheck: {len(pairs)} racing pair(s) of lines, "
          f"{len(atomics_only)} ordered only by atomics, "
          f"{len(seen)} divergent synchronisation(s), in kernel(s) "
          f"{', '.join(checked) or '(none)'}", file=out)
    return len(pairs) + len(atomics_only) + len(seen)


def main(argv):
    args = parse_args(argv)
    oclgrind = shutil.which("oclgrind")
    if oclgrind is None:
        return cannot_check("oclgrind is not on PATH (Debian: oclgrind)")
    if not os.path.isfile(args.plugin):
        return cannot_check(f"the plugin {args.plugin} does not exist")
    if shutil.which(args.program[0]) is None and not os.path.isfile(
            args.program[0]):
        return cannot_check(f"no program {args.program[0]}")
    with tempfile.TemporaryDirectory(prefix="xwg-racecheck-") as tmp:
        report = os.path.join(tmp, "findings.jsonl")
        env = dict(os.environ, XWG_RACECHECK_REPORT=report)
        cmd = [oclgrind, "--num-threads", str(args.threads), "--plugins",
               args.plugin, *args.oclgrind_option, *args.program]
        status = subprocess.call(cmd, env=env)
        findings = read_findings(report) if os.path.exists(report) else []
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            for item in findings:
                f.write(json.dumps(item) + "\n")
    sys.stdout.flush()
    if not any(f["kind"] == "checked" for f in findings):
        return cannot_check(f"no kernel of {args.program[0]} ran under "
                            f"Oclgrind (the program exited with {status})")
    found = print_report(findings, sys.stderr)
    if found:
        return 1
    if status != 0:
        return cannot_check(f"{args.program[0]} exited with {status}, and "
                            "nothing was found in the kernels that ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
