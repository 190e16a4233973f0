#!/usr/bin/env python3
"""Runs xwg-racecheck on the seeded bugs of tests/racecheck and checks,
for each, that it reports exactly the pair of lines the file marks (two
lines ending in `// RACE`, or `// ATOMICS` for a pair ordered only by the
kernel's own atomics) or the divergent call (`// DIVERGENT`), and that
the file's corrected twin (-DXWG_FIXED) gets no report at all.

    check_racecheck.py XWG_RACECHECK DRIVER THREADS FILE.cl...

A file that says `racecheck: groups>=K` races only when K groups or more
run: with fewer it must get no report. Exit status 0 when every check held.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def marks(path):
    """The lines marked RACE, ATOMICS and DIVERGENT, and the group count
    the race needs."""
    race, atomics, divergent, need = [], [], [], 1
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.rstrip().endswith("// RACE"):
                race.append(number)
            if line.rstrip().endswith("// ATOMICS"):
                atomics.append(number)
            if line.rstrip().endswith("// DIVERGENT"):
                divergent.append(number)
            m = re.search(r"racecheck: groups>=(\d+)", line)
            if m:
                need = int(m.group(1))
    return race, atomics, divergent, need


def run(racecheck, driver, threads, path, options):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "findings.jsonl")
        cmd = [racecheck, "--threads", str(threads), "--json", raw, driver,
               path, "4", "64", "3"] + ([options] if options else [])
        done = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=600)
        findings = []
        if os.path.exists(raw):
            with open(raw, encoding="utf-8") as f:
                findings = [json.loads(l) for l in f if l.strip()]
    groups = re.search(r"(\d+) groups of", done.stdout)
    return done, findings, int(groups.group(1)) if groups else 0


def main(racecheck, driver, threads, files):
    failures = 0

    def expect(ok, what):
        nonlocal failures
        print(("ok    " if ok else "FAIL  ") + what)
        failures += not ok

    for path in files:
        name = os.path.basename(path)
        race, atomics, divergent, need = marks(path)
        done, findings, groups = run(racecheck, driver, threads, path, None)

        def pairs_of(kind):
            return {tuple(sorted((f["first"]["line"], f["second"]["line"])))
                    for f in findings if f["kind"] == kind}
        pairs, atomic_pairs = pairs_of("race"), pairs_of("atomics-only")
        calls = {int(m.group(1)) for f in findings
                 if f["kind"] == "divergent"
                 for m in [re.search(r"called at line (\d+)", f["detail"])]
                 if m}
        exposed = groups >= need
        want_pairs = {tuple(race)} if race and exposed else set()
        want_atomics = {tuple(atomics)} if atomics else set()
        want_calls = set(divergent)
        found = bool(want_pairs or want_atomics or want_calls)
        expect(groups >= 2, f"{name}: ran on {groups} groups")
        expect(done.returncode == (1 if found else 0),
               f"{name}: exit status {done.returncode}, want "
               f"{1 if found else 0}")
        expect(pairs == want_pairs,
               f"{name}: racing lines {sorted(pairs)}, want "
               f"{sorted(want_pairs)}")
        expect(atomic_pairs == want_atomics,
               f"{name}: atomics-only lines {sorted(atomic_pairs)}, want "
               f"{sorted(want_atomics)}")
        expect(calls == want_calls,
               f"{name}: divergent calls at {sorted(calls)}, want "
               f"{sorted(want_calls)}")
        if done.returncode not in (0, 1):
            print(done.stdout + done.stderr)
        done, findings, groups = run(racecheck, driver, threads, path,
                                     "-DXWG_FIXED")
        expect(done.returncode == 0 and not any(
            f["kind"] in ("race", "atomics-only", "divergent")
            for f in findings),
            f"{name} -DXWG_FIXED: exit status {done.returncode}, "
            f"{sum(f['kind'] != 'checked' for f in findings)} findings, "
            "want none")
        if done.returncode != 0:
            print(done.stderr[-3000:])
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]))
