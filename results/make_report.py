#!/usr/bin/env python3
"""Regenerate results/README.md (and results/plots/*.png) from the CSVs.

usage: python3 results/make_report.py

The README is the concatenation of SECTIONS: each is a function taking the
Report context and returning markdown, or None to leave itself out (for
example when its CSV is missing). To add a section (barrier latency, study,
litmus, ...): write a function `section_xxx(rep)` that reads its CSV with
rep.read_csv("name.csv"), returns None when that is None, and otherwise
returns markdown (plots go through rep.save_plot); then add it to SECTIONS
and its CSV to DATASETS so the introduction names the command behind it.

Every measured figure of the current runs is read from the CSVs. The text
names a few figures of earlier runs whose rows are no longer recorded
(each says so: "in earlier runs", "before ..."), and facts of the
platforms that no CSV holds.
Plots need matplotlib (Agg backend); without it the README is still written
and says that the plots were left out.
"""
import csv
import os
import re
import sys


def _import_matplotlib():
    """matplotlib.pyplot, or None. If this interpreter lacks matplotlib and
    the system one (/usr/bin/python3, where python3-matplotlib installs it)
    differs, re-run the script with the system interpreter once."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        system = "/usr/bin/python3"
        if (os.environ.get("XWG_REPORT_REEXEC") != "1"
                and os.path.exists(system)
                and os.path.realpath(sys.executable)
                != os.path.realpath(system)):
            os.environ["XWG_REPORT_REEXEC"] = "1"
            os.execv(system, [system] + sys.argv)
        return None


plt = _import_matplotlib()

HERE = os.path.dirname(os.path.abspath(__file__))

# CSV file -> (what it holds, the command that produced it).
DATASETS = {
    "discovery-local.csv": (
        "occupancy discovery on the local OpenCL implementations "
        "(PoCL, Mesa rusticl, Oclgrind)",
        "scripts/run_discovery_study.sh"),
    "discovery-h200.csv": (
        "occupancy discovery on an NVIDIA H200",
        "scripts/run_h200.sh, then scripts/h200_to_csv.py"),
    "barrier-stress-local.csv": (
        "barrier stress, stencil and watchdog runs on the local "
        "implementations",
        "scripts/run_barrier_study.sh"),
    "barrier-h200.csv": (
        "barrier latency: xwg-bench and the CUDA comparator on an NVIDIA H200",
        "scripts/run_h200_bench.sh (on the GPU machine)"),
    "barrier-pocl.csv": (
        "barrier latency on PoCL beside host-thread barriers",
        "scripts/run_bench_local.sh"),
    "study.csv": (
        "graph applications, barrier against multi-kernel",
        "scripts/run_apps_study.sh (+ scripts/run_h200_apps.sh)"),
    "litmus.csv": (
        "litmus tests (xwg-litmus) per implementation",
        "scripts/run_litmus_study.sh (+ scripts/run_h200_litmus.sh)"),
    "model-check.csv": (
        "Spin model checking of the protocols and barriers",
        "scripts/model_check.sh --csv results/model-check.csv"),
    "barrier-stress-h200.csv": (
        "barrier stress (10^6 episodes per size), stencil and watchdog "
        "runs on an NVIDIA H200",
        "scripts/run_h200_barrier.sh (on the GPU machine)"),
}

# Files of results/plots/ written by this script (so stale ones can go).
OWN_PLOTS = ("discovery-recall.png", "discovery-groups.png",
             "barrier-h200.png", "study-speedup.png")


class Report:
    """What the sections share: the results folder, CSV reading, plots."""

    def __init__(self, results_dir):
        self.results_dir = results_dir
        self.plots_dir = os.path.join(results_dir, "plots")
        self.plots_enabled = plt is not None
        self.plots_skipped = []

    def read_csv(self, name):
        """The rows of results/NAME as dicts, or None if it is missing or
        holds no row."""
        path = os.path.join(self.results_dir, name)
        if not os.path.exists(path):
            return None
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        return rows or None

    def save_plot(self, fig, name):
        """Saves a matplotlib figure as plots/NAME; returns the markdown
        link relative to the README."""
        os.makedirs(self.plots_dir, exist_ok=True)
        fig.savefig(os.path.join(self.plots_dir, name), dpi=120,
                    bbox_inches="tight")
        plt.close(fig)
        return "![%s](plots/%s)" % (name, name)


# ---------------------------------------------------------------- helpers

def md_table(header, rows, align=None):
    """A markdown table; align is a string of 'l'/'r' per column."""
    align = align or "l" * len(header)
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(":---" if a == "l" else "---:" for a in align)
           + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r)
                   + " |")
    return "\n".join(out)


def fmt_pct(x):
    return "—" if x is None else "%.0f%%" % x


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def fmt_bytes(n):
    return "%d" % n


def group_by(rows, key):
    """{key value: rows} in order of first appearance."""
    out = {}
    for r in rows:
        out.setdefault(r[key], []).append(r)
    return out


# ------------------------------------------------- occupancy discovery

DISCOVERY_CSVS = ("discovery-local.csv", "discovery-h200.csv")


def load_discovery(rep):
    """Rows of every discovery CSV present, with numeric fields parsed and
    the source file noted; None if none is present."""
    rows = []
    for name in DISCOVERY_CSVS:
        for r in rep.read_csv(name) or []:
            ref = r["reference_groups"].strip()
            rows.append({
                "file": name,
                "implementation": r["implementation"],
                "device": r["device"],
                "local_size": int(r["local_size"]),
                "local_mem": int(r["local_mem"]),
                "min": int(r["groups_min"]),
                "median": int(r["groups_median"]),
                "max": int(r["groups_max"]),
                "cu": int(r["compute_units"]),
                "time_ms": float(r["time_ms"]),
                "time_text": r["time_ms"],
                "ref": int(ref) if ref else None,
                "ref_source": r["reference_source"].strip(),
            })
    for r in rows:
        r["recall"] = (100.0 * r["median"] / r["ref"]) if r["ref"] else None
    return rows or None


def discovery_summary(impl, rs):
    known = [r for r in rs if r["ref"] is not None]
    exact = sum(1 for r in known if r["median"] == r["ref"])
    return {
        "impl": impl,
        "device": rs[0]["device"],
        "configs": len(rs),
        "known": len(known),
        "min_recall": min((r["recall"] for r in known), default=None),
        "max_recall": max((r["recall"] for r in known), default=None),
        "exact": exact,
        "sources": sorted({r["ref_source"] for r in known}),
    }


def discovery_plots(rep, rows, by_impl):
    """Two plots: recall per configuration (only where the reference is
    known), and groups found (min..max, median) with the reference."""
    if not rep.plots_enabled:
        rep.plots_skipped += list(OWN_PLOTS)
        return []
    import matplotlib.cm as cm
    links = []
    impls = list(by_impl)
    colors = {impl: cm.tab10(i % 10) for i, impl in enumerate(impls)}

    def label(r):
        return "%s  ls=%d mem=%d" % (r["implementation"], r["local_size"],
                                     r["local_mem"])

    # 1. Recall per configuration.
    known = [r for r in rows if r["recall"] is not None]
    if known:
        n = len(known)
        fig, ax = plt.subplots(figsize=(8, 1.0 + 0.32 * n))
        ys = list(range(n))[::-1]
        ax.barh(ys, [r["recall"] for r in known],
                color=[colors[r["implementation"]] for r in known])
        ax.axvline(100, color="black", linestyle="--", linewidth=1)
        ax.set_yticks(ys)
        ax.set_yticklabels([label(r) for r in known], fontsize=8)
        for y, r in zip(ys, known):
            ax.text(r["recall"], y, " %d/%d" % (r["median"], r["ref"]),
                    va="center", fontsize=7)
        ax.set_xlim(0, max(110, max(r["recall"] for r in known) * 1.15))
        ax.set_xlabel("recall = median groups found / reference (%)")
        ax.set_title("Occupancy discovery: recall per configuration")
        links.append(rep.save_plot(fig, "discovery-recall.png"))

    # 2. Groups found (min..max with the median) and the reference.
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8, 1.0 + 0.32 * n))
    ys = list(range(n))[::-1]
    for y, r in zip(ys, rows):
        c = colors[r["implementation"]]
        ax.plot([r["min"], r["max"]], [y, y], color=c, linewidth=3,
                alpha=0.5, solid_capstyle="butt")
        ax.plot([r["median"]], [y], "o", color=c)
        if r["ref"] is not None:
            ax.plot([r["ref"]], [y], "|", color="black", markersize=14,
                    markeredgewidth=2)
    ax.set_yticks(ys)
    ax.set_yticklabels([label(r) for r in rows], fontsize=8)
    top = max(max(r["max"] for r in rows),
              max((r["ref"] or 0) for r in rows))
    if top >= 64:
        ax.set_xscale("log")
    else:
        ax.set_xlim(0, top + 1)
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("co-resident work-groups (dot: median, bar: min..max, "
                  "black tick: reference)")
    ax.set_title("Occupancy discovery: groups found vs reference")
    links.append(rep.save_plot(fig, "discovery-groups.png"))
    return links


def section_discovery(rep):
    rows = load_discovery(rep)
    if rows is None:
        return None
    by_impl = group_by(rows, "implementation")
    for rs in by_impl.values():
        rs.sort(key=lambda r: (r["local_size"], r["local_mem"]))
    rows = [r for rs in by_impl.values() for r in rs]

    out = ["## Occupancy discovery", ""]
    out.append(
        "`xwg-discover` runs xwg's occupancy discovery `--repeat` times per "
        "configuration (work-group size, bytes of dynamic local memory per "
        "group) and reports the number of work-groups it found co-resident: "
        "min, median and max over the repeats, and the median discovery "
        "time. *Local size* is the size actually used (xwg-discover caps "
        "the requested size at the kernel's maximum on the device). The "
        "*reference* is the number of groups the implementation is known to "
        "run at once, where one is known, and *recall* is median / "
        "reference. Sources of the reference:")
    out.append("")
    notes = {
        "worker threads": "PoCL's pthread device runs one work-group per "
                          "worker thread; the count is set with "
                          "`POCL_MAX_PTHREAD_COUNT`.",
        "oclgrind --num-threads": "Oclgrind simulates one work-group per "
                                  "worker thread, set with "
                                  "`oclgrind --num-threads`.",
        "CUDA occupancy calculator": "resident blocks per SM (from the CUDA "
                                     "occupancy calculator) times the "
                                     "number of SMs.",
    }
    sources = []
    for r in rows:
        s = r["ref_source"] or "(none)"
        if s not in sources:
            sources.append(s)
    for s in sources:
        impls = [i for i, rs in by_impl.items()
                 if (rs[0]["ref_source"] or "(none)") == s]
        if s == "(none)":
            text = "no reference: the number of groups the implementation " \
                   "runs at once is not known; recall is not computed."
        else:
            text = notes.get(s, "as recorded in the CSV.")
        out.append("- **%s** (%s): %s" % (s, ", ".join(impls), text))
    out.append("")

    # Summary.
    out += ["### Summary", ""]
    summ = [discovery_summary(i, rs) for i, rs in by_impl.items()]
    table = []
    for s in summ:
        if s["known"]:
            exact = "%d/%d (%.0f%%)" % (s["exact"], s["known"],
                                       100.0 * s["exact"] / s["known"])
        else:
            exact = "—"
        table.append([s["impl"], s["device"], by_impl[s["impl"]][0]["cu"],
                      s["configs"], fmt_pct(s["min_recall"]),
                      fmt_pct(s["max_recall"]), exact])
    out.append(md_table(
        ["implementation", "device", "compute units", "configurations",
         "min recall", "max recall", "median == reference"],
        table, "llrrrrr"))
    out.append("")

    # Observations computed from the data.
    obs = []
    for impl, rs in by_impl.items():
        unstable = [r for r in rs if r["min"] != r["max"]]
        if unstable:
            obs.append(
                "%s: the count varied between repeats in %d of %d "
                "configurations (%s)." % (
                    impl, len(unstable), len(rs), "; ".join(
                        "ls=%d mem=%d: %d..%d" % (r["local_size"],
                                                  r["local_mem"], r["min"],
                                                  r["max"])
                        for r in unstable)))
        over = [r for r in rs if r["ref"] is not None and r["max"] > r["ref"]]
        if over:
            obs.append("%s: more groups than the reference were reported in "
                       "%d configurations." % (impl, len(over)))
        cus = {r["cu"] for r in rs}
        meds = {r["median"] for r in rs}
        if len(cus) == 1 and len(meds) == 1 and meds != cus:
            obs.append("%s: the median is %d in every configuration, while "
                       "the device reports %s." % (
                           impl, meds.pop(), plural(cus.pop(), "compute unit")))
    if obs:
        out += ["Observations (derived from the data):", ""]
        out += ["- " + o for o in obs]
        out.append("")

    links = discovery_plots(rep, rows, by_impl)
    if links:
        out += ["### Plots", ""]
        for l in links:
            out += [l, ""]
    elif not rep.plots_enabled:
        out += ["*(Plots left out: matplotlib is not available.)*", ""]

    # One table per implementation.
    out += ["### Per implementation", ""]
    for impl, rs in by_impl.items():
        out.append("#### %s" % impl)
        out.append("")
        out.append("Device: %s; %s reported; data: `%s`." % (
            rs[0]["device"], plural(rs[0]["cu"], "compute unit"),
            rs[0]["file"]))
        out.append("")
        out.append(md_table(
            ["local size", "local mem (B)", "groups min", "groups median",
             "groups max", "reference", "recall", "time (ms, median)"],
            [[r["local_size"], fmt_bytes(r["local_mem"]), r["min"],
              r["median"], r["max"],
              "—" if r["ref"] is None else r["ref"], fmt_pct(r["recall"]),
              r["time_text"]] for r in rs],
            "rrrrrrrr"))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- intro

def section_intro(rep):
    out = ["# xwg results", "",
           "This file is generated by `python3 results/make_report.py`; do "
           "not edit it by hand. The raw data are the CSV files in "
           "`results/`; every number below is read from them. Plots are in "
           "`results/plots/`.", ""]
    present = sorted(f for f in os.listdir(rep.results_dir)
                     if f.endswith(".csv"))
    if not present:
        out.append("No CSV file is present yet.")
        return "\n".join(out) + "\n"
    table = []
    for f in present:
        what, cmd = DATASETS.get(f, ("—", None))
        rows = rep.read_csv(f)
        table.append(["`%s`" % f, what, len(rows or []),
                      "`%s`" % cmd if cmd else "not recorded"])
    out.append(md_table(["data", "what", "rows", "produced by"], table,
                        "llrl"))
    return "\n".join(out) + "\n"


# ------------------------------------------------------ discovery goals

# The paper's own ticket-lock code on the same H200, as the project's design
# brief (shared/design.md, November 2026) records it: kernel time in ms per
# work-group size. Quoted, not measured by this repository's scripts.
PAPER_TICKET_MS = {64: 39.0, 256: 3.98, 1024: 1.08}
GOAL_RECALL = 99.0
GOAL_TIME_MS_256 = 1.0


def section_discovery_goals(rep):
    rows = [r for r in (load_discovery(rep) or [])
            if r["file"] == "discovery-h200.csv"]
    default = [r for r in rows if "default" in r["implementation"]]
    if not default:
        return None
    ticket = {r["local_size"]: r for r in rows
              if "ticket" in r["implementation"] and r["local_mem"] == 0}
    worst = min(r["recall"] for r in default if r["recall"] is not None)
    at256 = [r for r in default if r["local_size"] == 256 and r["local_mem"] == 0]
    out = ["## Discovery on the H200 against its goals", "",
           "Goals: recall of at least %.0f%% in every configuration, and "
           "discovery in at most %.0f ms at 256 work-items per group." % (
               GOAL_RECALL, GOAL_TIME_MS_256), "",
           "- Lowest recall of the default protocol over %d configurations: "
           "**%.0f%%** (goal %s)." % (len(default), worst,
                                      "met" if worst >= GOAL_RECALL else "missed")]
    if at256:
        t = at256[0]["time_ms"]
        out.append("- Discovery time at 256 work-items, no local memory: "
                   "**%s ms** (goal %s)." % (
                       at256[0]["time_text"],
                       "met" if t <= GOAL_TIME_MS_256 else "missed"))
    out += ["", "Time against the ticket lock. *Paper's code* is quoted from "
            "the design brief (kernel time of the original code on this "
            "H200); *ticket lock here* is xwg's reimplementation of it, "
            "measured in the same run as the default (wall time of "
            "`xwg_discover`, median of 5).", ""]
    table = []
    for size in sorted(PAPER_TICKET_MS):
        d = [r for r in default if r["local_size"] == size and r["local_mem"] == 0]
        if not d:
            continue
        tk = ticket.get(size)
        table.append([size, d[0]["time_text"],
                      tk["time_text"] if tk else "—",
                      "%.2f" % PAPER_TICKET_MS[size],
                      "%.0fx" % (PAPER_TICKET_MS[size] / d[0]["time_ms"])])
    out.append(md_table(["local size", "xwg default (ms)",
                         "ticket lock here (ms)", "paper's code (ms)",
                         "paper / xwg"], table, "rrrrr"))
    return "\n".join(out) + "\n"


# -------------------------------------------------------------- barrier

BARRIER_CSVS = ["barrier-stress-local.csv", "barrier-stress-h200.csv"]
# The brief's OpenCL empty-kernel relaunch at 256 work-items on the H200
# (../shared/design.md, another harness), and the goal's factor against it.
DESIGN_RELAUNCH_US = 13.9
RELAUNCH_GOAL = 10.0


def load_barrier(rep):
    rows = []
    for name in BARRIER_CSVS:
        for r in rep.read_csv(name) or []:
            r = dict(r)
            r["file"] = name
            rows.append(r)
    return rows or None


def section_barrier(rep):
    rows = load_barrier(rep)
    if rows is None:
        return None
    out = ["## The global barrier: stress evidence", "",
           "Every row is one run of `tests/barrier_driver.c` "
           "(`scripts/run_barrier_study.sh` locally, "
           "`scripts/run_h200_barrier.sh` on the H200). *stress*: each "
           "work-item stores a value per episode with a plain store and, "
           "after the barrier, reads the value of the same work-item in "
           "another group (a different one each episode); *errors* counts "
           "wrong values (at most 1000 per work-item and launch). *jacobi*: "
           "a 1D stencil, all sweeps in one kernel, compared bit for bit with "
           "a C loop; *errors* counts points that differ. *misuse*: the "
           "watchdog cases, which pass when the launch ends in "
           "`XWG_ERROR_BARRIER_TIMEOUT`. Labels ending in *known-bad* or "
           "*forced* are controls that are meant to fail.", ""]
    stress = [r for r in rows if r["test"] in ("stress", "jacobi", "context")]
    table = []
    for r in stress:
        eps = int(r["episodes"] or 0)
        per = ("%.2f" % (1e6 * float(r["seconds"]) / eps)
               if r["test"] == "stress" and eps else "")
        table.append([r["label"], r["device"], r["path"] or "—", r["test"],
                      r["variant"], r["local_size"], r["groups"], r["episodes"],
                      r["errors"], per, r["result"] + (
                          " (%s)" % r["note"] if r["note"] else "")])
    out.append(md_table(["label", "device", "path", "test", "barrier",
                         "local size", "groups", "episodes", "errors",
                         "us / episode", "result"], table, "lllllrrrrrl"))
    out += ["", "*us / episode* is the stress run's wall time divided by "
            "its episodes: two barriers plus the stores, loads and checks "
            "of one episode, and launch costs. It is not the barrier's "
            "latency, which the benchmark measures.", ""]
    misuse = [r for r in rows if r["test"] == "misuse"]
    if misuse:
        by = group_by(misuse, "label")
        table = []
        for label, rs in by.items():
            device = rs[0]["device"]
            ok = sum(1 for r in rs if r["result"] == "pass")
            worst = max(float(r["seconds"]) for r in rs)
            table.append([label, device, "%d / %d" % (ok, len(rs)),
                          "%.2f" % worst])
        out += ["Watchdog cases (a group that returns early, a barrier in a "
                "divergent branch, a launch past the occupancy with discovery "
                "skipped; each barrier algorithm; the default one-second "
                "bound):", "",
                md_table(["label", "device", "ended in the timeout error",
                          "slowest (s)"], table, "llrr")]
    h200 = [r for r in rows if r["file"] == "barrier-stress-h200.csv"
            and r["label"] == "nvidia" and r["test"] == "stress"]
    if h200:
        total = sum(int(r["episodes"]) for r in h200)
        bad = sum(int(r["errors"]) for r in h200)
        sizes = sorted({int(r["local_size"]) for r in h200})
        out += ["", "On the H200: %s checked episodes over local sizes %s at "
                "full occupancy, %s wrong values." % (
                    "{:,}".format(total), ", ".join(map(str, sizes)), bad)]
    fanin96 = [r for r in rows if r["file"] == "barrier-stress-h200.csv"
               and r["label"] == "nvidia-fanin96" and r["test"] == "stress"]
    if fanin96:
        out += ["", "The tree with clusters of 96 groups when they first "
                "shipped (label *nvidia-fanin96*, on the code of that day): "
                "%s checked episodes, %s wrong values." % (
                    "{:,}".format(sum(int(r["episodes"]) for r in fanin96)),
                    sum(int(r["errors"]) for r in fanin96))]
    helper = [r for r in rows if r["file"] == "barrier-stress-h200.csv"
              and r["label"] == "nvidia-helper" and r["test"] == "stress"]
    if helper:
        out += ["", "The stress kernel with its second barrier called "
                "through a helper that takes `xwg_self` by value (label "
                "*nvidia-helper*: `barrier_driver --only stress`, 10^6 "
                "episodes a size, on commit 4bcb157, where that helper "
                "came in): %s checked episodes, %s wrong values." % (
                    "{:,}".format(sum(int(r["episodes"]) for r in helper)),
                    sum(int(r["errors"]) for r in helper))]
    copyq = [r for r in rows if r["file"] == "barrier-stress-h200.csv"
             and r["label"] == "nvidia-copyq"]
    if copyq:
        def failed_runs(label):
            runs = [r for r in rows if r["label"] == label]
            return sum(r["result"] == "fail" for r in runs), len(runs)
        stress = [r for r in copyq if r["test"] == "stress"]
        misuse = [r for r in copyq if r["test"] == "misuse"]
        out += ["", "Once launches read their status through xwg's queue "
                "without profiling (label *nvidia-copyq*, commit a56d122: "
                "the first loop of `scripts/run_h200_barrier.sh`, then "
                "known-bad 3 and 4): %s checked episodes, %s wrong values; "
                "%d of %d watchdog cases ended in the timeout error; "
                "known-bad 4 failed %d of %d runs, and known-bad 3 %d of "
                "%d, as before (the labels without *-copyq*)." % (
                    "{:,}".format(sum(int(r["episodes"]) for r in stress)),
                    sum(int(r["errors"]) for r in stress),
                    sum(r["note"] == "XWG_ERROR_BARRIER_TIMEOUT"
                        for r in misuse), len(misuse),
                    *failed_runs("nvidia-copyq-known-bad-4"),
                    *failed_runs("nvidia-copyq-known-bad-3"))]
    variants = [r for r in rows if "variant-" in r["label"] and
                r["test"] == "stress"]
    if variants:
        by = group_by(variants, "file")
        out += ["", "The benchmark's variants that xwg does not ship by "
                "default (labels *variant-TAG*, "
                "`scripts/run_variant_stress.sh`), each with every algorithm "
                "(*only-ALGO*: that one, compiled alone): " + "; ".join(
                    "%s: %d variants, %s checked episodes, %d wrong values, "
                    "%d of %d runs passed" % (
                        "H200" if f.endswith("h200.csv") else "PoCL",
                        len({r["label"] for r in rs}),
                        "{:,}".format(sum(int(r["episodes"]) for r in rs)),
                        sum(int(r["errors"]) for r in rs),
                        sum(r["result"] == "pass" for r in rs), len(rs))
                    for f, rs in by.items()) + "."]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- model

def model_check_markdown(rows):
    """The whole of results/model-check.md, from model-check.csv."""
    out = ["# Model checking", "",
           "Generated by `python3 results/make_report.py` from "
           "`results/model-check.csv`, which `bash scripts/model_check.sh "
           "--csv results/model-check.csv` records: Spin over "
           "`model/xwg.pml` (see `model/README.md` and `docs/spec.md`). "
           "*safety*: assertions (participants at most K, distinct dense "
           "ids, nobody past barrier instance i before all reached it, "
           "stores before it visible after it) and invalid end states "
           "(deadlock); *liveness*: non-progress cycles under weak fairness. "
           "*expect* is the outcome the configuration must have: known-bad "
           "models must fail.", ""]
    mismatched = [r for r in rows if r["expect"] != r["outcome"]]
    states = sum(int(r["states"] or 0) for r in rows)
    seconds = sum(float(r["seconds"] or 0) for r in rows)
    out.append("%d runs, %d with the expected outcome; %s states stored in "
               "all; %.0f s in all (most of it compiling each verifier)." % (
                   len(rows), len(rows) - len(mismatched),
                   "{:,}".format(states), seconds))
    out.append("")
    table = []
    for r in rows:
        name = "%s / %s" % (r["protocol"], r["barrier"])
        extra = []
        if r["relaxed"] == "1":
            extra.append("relaxed arrivals")
        if r["watchdog"] == "1":
            extra.append("watchdog")
        table.append([name + (" (%s)" % ", ".join(extra) if extra else ""),
                      r["n"], r["k"], r["episodes"], r["check"], r["expect"],
                      r["outcome"], r["states"], r["seconds"]])
    out.append(md_table(["protocol / barrier", "N", "K", "episodes", "check",
                         "expect", "outcome", "states", "seconds"], table,
                        "lrrrllllr"))
    return "\n".join(out) + "\n"


def section_model(rep):
    rows = rep.read_csv("model-check.csv")
    if rows is None:
        return None
    with open(os.path.join(rep.results_dir, "model-check.md"), "w",
              encoding="utf-8") as f:
        f.write(model_check_markdown(rows))
    ok = sum(1 for r in rows if r["expect"] == r["outcome"])
    bad = [r for r in rows if r["expect"] == "fail"]
    caught = sum(1 for r in bad if r["outcome"] == "fail")
    biggest = max(rows, key=lambda r: int(r["states"] or 0))
    return "\n".join([
        "## Model checking", "",
        "Spin over `model/xwg.pml`: %d configurations, %d with the expected "
        "outcome; %d of %d known-bad models produced their counterexample. "
        "The largest run stored %s states (%s / %s, N = %s, K = %s). The "
        "whole table is in `results/model-check.md`." % (
            len(rows), ok, caught, len(bad),
            "{:,}".format(int(biggest["states"] or 0)), biggest["protocol"],
            biggest["barrier"], biggest["n"], biggest["k"])]) + "\n"


# ---------------------------------------------------------- performance

def section_performance(rep):
    rows = rep.read_csv("barrier-h200.csv")
    pocl = rep.read_csv("barrier-pocl.csv") or []
    if rows is None and not pocl:
        return None
    out = ["## Barrier performance", "",
           "Per-barrier latency from `xwg-bench` (`bench/xwg_bench.c`): a "
           "kernel runs E1 = 256 and E2 = 10,256 barriers, and the latency is "
           "the difference of their device times over E2 - E1, so launch and "
           "discovery cancel (median of 5); the watchdog is on. *default* is "
           "what a launch without a barrier option runs (the tree above 4 "
           "groups per compute unit, else the counter; the tree wakes flat "
           "up to 2048 groups, by cluster above). *relaunch* is the "
           "multi-kernel alternative: one launch of an empty kernel of the "
           "same shape per step, enqueued back to back on an in-order queue; "
           "*relaunch + read-back* waits for each with a blocking read of "
           "4 bytes, as a host loop that checks a convergence flag does "
           "(a column where the recorded run has that row). In the "
           "recorded run both relaunch columns were timed on xwg-bench's "
           "profiling queue, which slows the read-back; the runs on a "
           "queue without profiling are compared below the table. "
           "CUDA's `grid.sync()`, relaunch and ping-pong come from "
           "`bench/cuda/gridsync.cu` on the same GPU in the same script "
           "(`scripts/run_h200_bench.sh`). *pingpong* is the floor (`bench/floor.c`): a flag "
           "handed between two groups and back through memory, with a "
           "release store and an acquire as xwg's waits do it, and "
           "(*pingpong/relaxed*) with every access relaxed.", ""]
    if rows:
        def get(label, variant, size, occ="full"):
            for r in rows:
                if (r["label"] == label and r["variant"] == variant and
                        r["local_size"] == str(size) and r["occupancy"] == occ):
                    return float(r["us"])
            return None

        def fmt(v):
            return "%.2f" % v if v is not None else "-"

        def places(label, variant):
            """N where `variant` was measured at N places in memory (rows
            VARIANT@min/median/max-of-N, `--placements`), or None."""
            for r in rows:
                if (r["label"] == label and
                        r["variant"].startswith(variant + "@min-of-")):
                    return r["variant"].rsplit("-", 1)[1]
            return None

        def at_places(label, variant, which, size, occ="full"):
            """The min, median or max (`which`) of those N places."""
            n = places(label, variant)
            return (get(label, "%s@%s-of-%s" % (variant, which, n), size, occ)
                    if n else None)
        algos = ("xf", "counter", "tree", "default")
        table, ratios = [], []
        # Runs before the read-back row was measured have no such column.
        readback = any(r["variant"] == "relaunch/readback" for r in rows)
        def default_algo(size):
            """The algorithm the default ran at full occupancy: the one
            of counter and tree with the default's figure."""
            d = get("xwg-nvidia", "barrier/default", size)
            if d is None:
                return "counter"
            return min(("counter", "tree"), key=lambda a: abs(
                (get("xwg-nvidia", "barrier/" + a, size) or 1e9) - d))
        for size in (64, 256, 1024):
            g = get("cuda", "grid.sync", size)
            vals = {a: get("xwg-nvidia", "barrier/" + a, size) for a in algos}
            d = vals["default"]
            # The same algorithm compiled alone (a context that fixes it).
            alone = get("xwg-nvidia", "barrier/%s+only" % default_algo(size),
                        size)
            ocl = get("xwg-nvidia", "relaunch", size)
            ratios.append((size, d / g if d and g else None,
                           ocl / d if d and ocl else None,
                           alone / g if alone and g else None))
            rb = get("xwg-nvidia", "relaunch/readback", size)
            table.append([size] + [fmt(vals[a]) for a in algos] +
                         ["%s (%s)" % (fmt(alone), default_algo(size)),
                          fmt(g), fmt(d / g if d and g else None),
                          fmt(alone / g if alone and g else None), fmt(ocl),
                          "%.1f" % (ocl / d) if d and ocl else "-"] +
                         ([fmt(rb), "%.1f" % (rb / d) if d and rb else "-"]
                          if readback else []) +
                         [fmt(get("cuda", "relaunch", size))])
        out += ["H200, full occupancy (4224, 1056 and 264 groups), "
                "microseconds per barrier, atomics path `ptx` (the one xwg "
                "chooses there):", "",
                md_table(["local size", "xwg xf", "xwg counter", "xwg tree",
                          "xwg default", "xwg default's algorithm alone",
                          "CUDA grid.sync", "default / grid.sync",
                          "alone / grid.sync", "OpenCL relaunch",
                          "relaunch / default"] +
                         (["relaunch + read-back", "read-back / default"]
                          if readback else []) + ["CUDA relaunch"], table,
                         "r" * len(table[0]))]
        floors = [(name, get(label, variant, 64, "2 groups")) for
                  name, label, variant in (
                      ("OpenCL, `ptx` path (release store, relaxed polls, "
                       "acquire load)", "xwg-nvidia", "pingpong"),
                      ("OpenCL, every access relaxed", "xwg-nvidia",
                       "pingpong/relaxed"),
                      ("CUDA, release store, acquire loads (`cuda::atomic_ref`)",
                       "cuda", "pingpong"),
                      ("CUDA, every access relaxed", "cuda",
                       "pingpong/relaxed"),
                      ("OpenCL, a plain kernel (no xwg state, discovery or "
                       "local memory), as the `ptx` path", "xwg-nvidia",
                       "pingpong/bare"),
                      ("OpenCL, a plain kernel, every access relaxed",
                       "xwg-nvidia", "pingpong/bare-relaxed"))]
        acq_polls = get("xwg-nvidia-atom", "pingpong", 64, "2 groups")

        def tuning_spread():
            """The largest change that +flag4096 made to a shipped
            barrier's latency in the same run, in us and in per cent."""
            worst = (0.0, 0.0)
            for label, tag in (("xwg-nvidia", "flag4096"),):
                for a in ("counter", "tree"):
                    for sz in (64, 256, 1024):
                        base = get("xwg-nvidia", "barrier/" + a, sz)
                        var = get(label, "barrier/%s+%s" % (a, tag), sz)
                        if base and var:
                            d = abs(var - base)
                            worst = max(worst, (d, 100 * d / base))
            return "%.2f us (%.0f %%)" % worst
        out += ["", "The floor, microseconds per round trip between two "
                "groups:", "",
                md_table(["hand-off", "us"],
                         [[n, fmt(v)] for n, v in floors if v is not None],
                         "lr")]
        spread = []
        for label, who in (("xwg-nvidia", "OpenCL (xwg, `ptx` path)"),
                           ("cuda", "CUDA")):
            for order in ("", "/relaxed"):
                n = places(label, "pingpong" + order)
                if not n:
                    continue
                spread.append([who, "release/acquire" if not order else
                               "relaxed", n] + [
                    fmt(at_places(label, "pingpong" + order, w, 64,
                                  "2 groups"))
                    for w in ("min", "median", "max")])
        if spread:
            out += ["", "The floor with its two flags at N places in memory "
                    "(64 KiB + 128 B apart; `--placements`), microseconds:",
                    "", md_table(["code", "hand-off", "N", "fastest",
                                  "median", "slowest"], spread, "llrrrr")]
        if acq_polls is not None:
            out += ["", "xwg's ping-pong waits as its barriers do (relaxed "
                    "polls, then one acquire load: `XWG_TUNE_COLLECT=1`); "
                    "CUDA's acquires on every poll. Like for like, with "
                    "every poll an acquire (`XWG_TUNE_COLLECT=0`, the run "
                    "before `red`), xwg's took %s us." % fmt(acq_polls)]
        # Every variant at full occupancy, the shipped one last.
        variants = []
        for r in rows:
            if (r["variant"].startswith("barrier/") and
                    r["occupancy"] == "full" and
                    r["label"].startswith("xwg-nvidia")):
                key = (r["label"], r["variant"])
                if key not in variants:
                    variants.append(key)
        names = {"xwg-nvidia-v1": "xwg 0.1 (commit 918b3a7): cl20 path, "
                 "three work-group barriers, everyone polls one word",
                 "xwg-nvidia-atom": "before `red` (an earlier run of the "
                 "same script): arrivals wait for the add's old value, and "
                 "every poll acquires unless tagged",
                 "xwg-nvidia-5bfff81": "commit 5bfff81, with the "
                 "`XWG_TUNE_PTX_GENERIC` knob (removed since)",
                 "xwg-nvidia-explore": "exploration run: commit 6cb76e6 "
                 "with `results/raw/h200/explore-kernel.patch`",
                 "xwg-nvidia-explore2": "exploration run 2: "
                 "`bench/placed.c` of commit 5bfaae4 (words moved; "
                 "the striped and monotree prototypes)",
                 "xwg-nvidia-d10551a": "commit d10551a: the striped "
                 "barrier and the tree's flat wake on two words per "
                 "cluster, in the library (taken out again)",
                 "xwg-nvidia-8657fbd": "commit 8657fbd (clusters of 64), "
                 "the tree compiled alone, with other cluster sizes",
                 "xwg-nvidia-edd99f5": "commit edd99f5: the run before "
                 "the last (all three algorithms in every program)",
                 "xwg-nvidia-f24d72f": "commit f24d72f (the episode count "
                 "in local memory): its full run, and the tree's cluster "
                 "size at 1056 groups",
                 "xwg-nvidia-explore3": "exploration run 3: commits "
                 "0cfcb59 (broadcast wake, prototypes) and the shipped "
                 "code (private episode count, sweep)",
                 "xwg-nvidia-explore4": "exploration run 4: each "
                 "algorithm compiled alone, as shipped (`fences-only`) and "
                 "with every release relaxed, the acq_rel arrivals too "
                 "(`fences-norelease`, known-bad 3: not a barrier, a "
                 "measurement)",
                 "xwg-nvidia-repeat1": "commit f24d72f's code, repeat 1",
                 "xwg-nvidia-repeat2": "commit f24d72f's code, repeat 2",
                 "xwg-nvidia-repeat3": "commit f24d72f's code, repeat 3",
                 "xwg-nvidia": "shipped code"}
        vrows = []
        for label in ("xwg-nvidia-v1", "xwg-nvidia-atom",
                      "xwg-nvidia-5bfff81", "xwg-nvidia-explore",
                      "xwg-nvidia-explore2", "xwg-nvidia-d10551a",
                      "xwg-nvidia-8657fbd", "xwg-nvidia-edd99f5",
                      "xwg-nvidia-f24d72f", "xwg-nvidia-repeat1",
                      "xwg-nvidia-repeat2", "xwg-nvidia-repeat3",
                      "xwg-nvidia-explore3", "xwg-nvidia-explore4",
                      "xwg-nvidia"):
            for lab, variant in variants:
                if lab != label:
                    continue
                vrows.append([names[label], variant] + [
                    fmt(get(lab, variant, sz)) for sz in (64, 256, 1024)])
        out += ["", "Every variant tried, full occupancy (microseconds; "
                "`+cl20`: the C11 atomics as NVIDIA's compiler builds them; "
                "`+collectN`: `XWG_TUNE_COLLECT=N`, how a wait acquires, 1 "
                "ships; `+faninN`: the tree's clusters, 96 ships (64 before "
                "this run, 32 before that); `+only`: the algorithm compiled "
                "alone, as on a context that fixes the barrier; `+all`: "
                "the three compiled together (what every program held "
                "before; a default context's programs now hold the counter "
                "and the tree); "
                "`@min/median/max-of-16`: the barrier with its words moved "
                "to 16 places (`--placements`, `bench/placed.c`); "
                "`striped-K`, `monotree-F`: exploration run 2's prototypes "
                "(K counters, every group polling all; the flat wake "
                "without its reset, clusters of F); `+generic`: "
                "the PTX instructions without `.global` (commit 5bfff81; "
                "removed since, as it changed nothing); `+flag4096`: the "
                "failed flag read every 4096 polls, 64 ships; `+red`: the "
                "arrival at the grid counter as a `red` that nothing waits "
                "for (`XWG_TUNE_ARRIVE_RETURN=0`; the add that returns "
                "ships); `+cluster`, `+flat`: the tree woken always by "
                "cluster, always flat (`XWG_TUNE_TREE_FLAT_MAX` 0 or "
                "10^6; flat up to 2048 groups ships). The exploration run's "
                "tags, on the code before this run (red arrivals, cluster "
                "wake, clusters of 32): `ret`, the returning arrival; "
                "`flat`, the flat wake; `sleepN`, a `nanosleep` of N ns "
                "after each failed poll (lost everywhere, not kept); and "
                "their combinations. Exploration run 3's: `bcast`, the "
                "broadcast wake; `wakelines`, the broadcast on wake words of their "
                "own (`wl-base`: the shipped tree in that run); `flatonly`, the tree with its cluster "
                "wake compiled out; `proto_*`, the flat-wake prototypes "
                "(`mono`: counts that grow, `reset`: reset as shipped; "
                "`localep`: the episode count in local memory, else in a "
                "register); `@...-of-1`, the library's tree in the "
                "prototypes' buffer; `privep`, the episode count in a "
                "private variable, as shipped since; `sweep-*`, the knobs "
                "on that code):", "",
                md_table(["code", "variant", "64", "256", "1024"], vrows,
                         "llrrr")]
        occ_rows = []
        for size in (64, 256, 1024):
            for occ in ("full", "half", "quarter"):
                occ_rows.append([size, occ, get("xwg-nvidia", "barrier/xf",
                                                size, occ) and
                                 int(next(r["groups"] for r in rows if
                                          r["label"] == "xwg-nvidia" and
                                          r["local_size"] == str(size) and
                                          r["occupancy"] == occ))] +
                                [fmt(get("xwg-nvidia", "barrier/" + a, size,
                                         occ)) for a in algos] +
                                [fmt(get("cuda", "grid.sync", size, occ))])
        out += ["", "By occupancy (microseconds per barrier):", "",
                md_table(["local size", "occupancy", "groups", "xwg xf",
                          "xwg counter", "xwg tree", "xwg default",
                          "CUDA grid.sync"], occ_rows, "rlrrrrrr")]
        if rep.plots_enabled:
            fig, ax = plt.subplots(figsize=(7, 3.5))
            sizes = [64, 256, 1024]
            bars = [("xwg-nvidia-v1", "barrier/counter", "xwg 0.1 counter"),
                    ("xwg-nvidia", "barrier/default", "xwg default"),
                    ("cuda", "grid.sync", "CUDA grid.sync()"),
                    ("xwg-nvidia", "relaunch", "OpenCL relaunch")]
            width = 0.2
            for i, (label, variant, name) in enumerate(bars):
                ax.bar([j + (i - 1.5) * width for j in range(3)],
                       [get(label, variant, sz) or 0 for sz in sizes], width,
                       label=name)
            ax.set_xticks(range(3))
            ax.set_xticklabels(["%d x %d" % (sz, n) for sz, n in
                                zip(sizes, (4224, 1056, 264))])
            ax.set_xlabel("work-items per group x groups (full occupancy)")
            ax.set_ylabel("us per barrier")
            ax.set_title("Barrier latency on the H200")
            ax.legend(fontsize=8)
            fig.tight_layout()
            out += ["", rep.save_plot(fig, "barrier-h200.png")]
        goals = []
        for size, r, rel, ra in ratios:
            limit = 1.0 if size == 1024 else 0.8
            def fmt3(v):
                return "%.3f" % v if v is not None else "-"
            goals.append("%d work-items: %s x `grid.sync()` by default "
                         "(%s), %s x with the barrier fixed (%s; goal <= "
                         "%.1f)" % (size, fmt3(r),
                                    "met" if r is not None and r <= limit
                                    else "missed", fmt3(ra),
                                    "met" if ra is not None and ra <= limit
                                    else "missed", limit))
        rel256 = next((rel for size, r, rel, ra in ratios if size == 256),
                      None)
        d256 = get("xwg-nvidia", "barrier/default", 256)
        rb256 = get("xwg-nvidia", "relaunch/readback", 256)
        rbx = rb256 / d256 if rb256 and d256 else None
        # Two more runs of the shipped code, in one run of the exploration
        # script (tags privep1 and privep2), against that run's one
        # grid.sync().
        g_other = get("cuda-explore3-privep", "grid.sync", 256)
        others = [d / g_other for d in (
            get("xwg-nvidia-explore3", "barrier/default+" + tag, 256)
            for tag in ("privep1", "privep2")) if d and g_other]
        if others:
            goals.append("the same code twice more in one other run "
                         "(exploration run 3, `+privep1`, `+privep2`, "
                         "against that run's `grid.sync()`, %s us): %s x "
                         "at 256" % (fmt(g_other),
                                     " and ".join("%.3f" % r
                                                  for r in others)))
        # Repeats of the default before its episode count moved to a
        # register (labels xwg-nvidia-repeatN, the code of f24d72f).
        reps = []
        for i in range(1, 10):
            for size in (256, 1024):
                d = get("xwg-nvidia-repeat%d" % i, "barrier/default", size)
                g = get("cuda-repeat%d" % i, "grid.sync", size)
                if d and g:
                    reps.append((size, d / g))
        spans = []
        for size in (256, 1024):
            rs = [r for sz, r in reps if sz == size]
            if rs:
                spans.append("%.3f to %.3f x at %d" % (min(rs), max(rs),
                                                       size))
        if spans:
            goals.append("before that (the episode count in local memory, "
                         "%d repeats): %s" % (len(reps) // len(spans),
                                              " and ".join(spans)))
        relaunch256 = get("xwg-nvidia", "relaunch", 256)
        # The relaunch followed by clFinish: from the shipped run where it
        # has the row (xwg-bench measures it since commit 12fb123), else
        # from the run that first measured it.
        fin_label = ("xwg-nvidia" if get("xwg-nvidia", "relaunch/finish",
                                         256) else "xwg-nvidia-relaunch")
        fin256 = get(fin_label, "relaunch/finish", 256)
        fin_d256 = get(fin_label, "barrier/default", 256)
        floor_min = at_places("xwg-nvidia", "pingpong", "min", 64,
                              "2 groups")
        out += ["", "Against the goals: " + "; ".join(goals) + ". Against "
                "the OpenCL relaunch at 256 (goal >= 10 x): %s x faster than "
                "a relaunch that waits for each launch's result, timed on "
                "xwg-bench's profiling queue (%s there), %s x "
                "faster than relaunches enqueued back to back (missed: 10 x "
                "against those needs a barrier under %s us, while the "
                "fastest release/acquire round trip between two groups in "
                "this run took %s us, and a barrier needs at least one). "
                "A relaunch followed by `clFinish` (`relaunch/finish`, "
                "label `%s`: %s us, with the default at %s in that run) is "
                "%s x slower than the barrier (%s), "
                "and against the brief's own figure for an OpenCL "
                "empty-kernel relaunch (%s us, `../shared/design.md`, "
                "another harness) the default is %s x faster (%g x would "
                "need %s us; exploration run 4, below, shows why the "
                "tree stops at two device-scope fences above that)."
                % ("%.2f" % rbx if rbx else "-",
                   "met" if rbx and rbx >= RELAUNCH_GOAL else "missed",
                   "%.1f" % rel256 if rel256 else "-",
                   fmt(relaunch256 / RELAUNCH_GOAL) if relaunch256 else "-",
                   fmt(floor_min), fin_label, fmt(fin256), fmt(fin_d256),
                   "%.1f" % (fin256 / fin_d256) if fin256 and fin_d256
                   else "-",
                   "met" if fin256 and fin_d256 and
                   fin256 / fin_d256 >= RELAUNCH_GOAL else "missed",
                   "%.1f" % DESIGN_RELAUNCH_US,
                   "%.1f" % (DESIGN_RELAUNCH_US / d256) if d256 else "-",
                   RELAUNCH_GOAL, fmt(DESIGN_RELAUNCH_US / RELAUNCH_GOAL))]
        def clcost(name):
            """{what: mean us} of a one-off output of results/raw/h200/
            clcost.c (lines "WHAT ... US us"; "waits" repeats each line
            once per pass)."""
            path = os.path.join(rep.results_dir, "raw", "h200", name)
            seen = {}
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    for line in f:
                        m = re.match(r"\s*(.*?)\s+([0-9.]+) us", line)
                        if m:
                            seen.setdefault(m.group(1), []).append(
                                float(m.group(2)))
            return {k: sum(v) / len(v) for k, v in seen.items()}
        cost = clcost("clcost-h200.txt")
        waits = clcost("clcost-waits-h200.txt")
        waits_old = clcost("clcost-waits-h200-old.txt")
        def runs_of(prefix, variant):
            """The two runs' values (labels PREFIX1, PREFIX2) at 256."""
            xs = [get("%s%d" % (prefix, i), variant, 256) for i in (1, 2)]
            return xs if None not in xs else None

        def mean(xs):
            return sum(xs) / len(xs)

        def span(xs):
            return "%s-%s" % (fmt(min(xs)), fmt(max(xs)))

        def wdiff(a, b):
            return waits[a] - waits[b] if a in waits and b in waits \
                else None

        # What a read through a profiling queue adds to a launch.
        profiling_read = wdiff("kernel (ev); wait; read on a profiling q3",
                               "kernel; clWaitForEvents; read on q2")

        # The relaunch loops again on a queue without profiling (xwg-bench
        # ran them on its profiling queue before commit 49ae7d4).
        plain_default = runs_of("xwg-nvidia-plainq", "barrier/default")
        plain = {v: runs_of("xwg-nvidia-plainq", v)
                 for v in ("relaunch/readback", "relaunch/finish", "relaunch")}
        if plain_default and all(plain.values()):
            def against(variant):
                """The relaunch's span (us), and the barrier's speedup over
                it run by run, with the goal met or missed."""
                xs = [r / d for r, d in zip(plain[variant], plain_default)]
                return (span(plain[variant]),
                        "%.1f-%.1f x" % (min(xs), max(xs)),
                        "met" if min(xs) >= RELAUNCH_GOAL else "missed")
            out += ["", "Those relaunch loops ran on xwg-bench's profiling "
                    "queue, where on the H200 a launch waited for and read "
                    "back costs %s us more (`clcost-waits-h200.txt`, "
                    "below). xwg-bench now runs "
                    "them on a queue without profiling, as a multi-kernel "
                    "program would. There (labels `xwg-nvidia-plainq1` and "
                    "`-plainq2`, two runs of the whole benchmark, the "
                    "default at %s us) the relaunch that reads a result "
                    "back takes %s us, so the barrier is %s faster (%s); "
                    "the relaunch followed by `clFinish` %s us, %s (%s); "
                    "relaunches back to back %s us, %s (%s). So against "
                    "every relaunch measured in the same run, and against "
                    "the brief's figure, the 10 x goal at 256 is missed; "
                    "exploration run 4 (below) shows that a barrier which "
                    "the PTX memory model allows does not come near the "
                    "%s us it would need." % (
                        fmt(profiling_read),
                        span(plain_default), *against("relaunch/readback"),
                        *against("relaunch/finish"), *against("relaunch"),
                        fmt(DESIGN_RELAUNCH_US / RELAUNCH_GOAL))]

        xl = get("xwg-nvidia-xwglaunch", "relaunch/xwg", 256)
        w_rb = get("xwg-nvidia-write", "relaunch/readback", 256)
        w_wrb = get("xwg-nvidia-write", "relaunch/write-readback", 256)

        launch_old = runs_of("xwg-nvidia-old-launch", "relaunch/xwg")
        launch_new = runs_of("xwg-nvidia-launch", "relaunch/xwg")
        disc_old = runs_of("xwg-nvidia-old-launch", "discovery")
        disc_new = runs_of("xwg-nvidia-launch", "discovery")
        if xl and launch_old and launch_new and waits and waits_old:
            read = "kernel; read 4 B"
            out += ["", "What a launch through xwg costs (`relaunch/xwg`: "
                    "`xwg_launch_ex()` of a kernel with no barrier to run, "
                    "discovery skipped, the discovered groups, its status "
                    "read back). In its first run (label "
                    "`xwg-nvidia-xwglaunch`) that was %s us at 256 "
                    "work-items, against %s for a plain launch followed "
                    "by a 4-byte read and %s for one followed by "
                    "`clFinish`. About %s us of the difference was the "
                    "queue the status was read through: xwg's own queue "
                    "has profiling on, for discovery's kernel times, and "
                    "on the H200 a launch of 1056 groups of 256, waited "
                    "for and followed by a 4-byte read, takes %s us when "
                    "the read goes through a profiling queue and %s "
                    "through a plain one (`results/raw/h200/clcost.c "
                    "waits`: whole launches, means of every pass; output "
                    "in `clcost-waits-h200.txt`). xwg now reads state "
                    "back through a second queue of its own, without "
                    "profiling. After discovery it also reads the status "
                    "in one read instead of two, which saves %s us more "
                    "there (a second read); the rows here skip discovery, "
                    "so they show the queue alone. Against the commit "
                    "before (`scripts/run_h200_launch.sh OLD_TREE`, the "
                    "two builds run alternately, labels "
                    "`xwg-nvidia-old-launch1/2` and "
                    "`xwg-nvidia-launch1/2`), a launch through xwg went "
                    "from %s to %s us (means of two runs). Discovery at "
                    "256 took %s us before and %s after, within the runs' "
                    "spread (its kernel's header write stays on the "
                    "profiling queue). In the one-off program, run "
                    "alternately with the two builds, "
                    "`xwg_launch_finish()` went from %s to %s us, while "
                    "`xwg_launch_async()`, whose code did not change, "
                    "took %s and %s (`clcost-waits-h200-old.txt` beside "
                    "the other). Those bench runs used xwg-bench's "
                    "profiling queue for the caller's commands; on a plain "
                    "one (`xwg-nvidia-plainq1/2`) a launch through xwg "
                    "takes %s us against %s for a plain launch and "
                    "read-back." % (
                        fmt(xl),
                        fmt(get("xwg-nvidia-xwglaunch", "relaunch/readback",
                                256)),
                        fmt(get("xwg-nvidia-xwglaunch", "relaunch/finish",
                                256)),
                        fmt(profiling_read),
                        fmt(waits.get("kernel (ev); wait; read on a "
                                      "profiling q3")),
                        fmt(waits.get("kernel; clWaitForEvents; read on "
                                      "q2")),
                        fmt(wdiff("kernel; clWaitForEvents; 2 reads on q2",
                                  "kernel; clWaitForEvents; read on q2")),
                        fmt(mean(launch_old)), fmt(mean(launch_new)),
                        span(disc_old), span(disc_new),
                        fmt(waits_old.get("of which xwg_launch_finish")),
                        fmt(waits.get("of which xwg_launch_finish")),
                        fmt(waits_old.get("of which xwg_launch_async")),
                        fmt(waits.get("of which xwg_launch_async")),
                        span(runs_of("xwg-nvidia-plainq", "relaunch/xwg")),
                        span(runs_of("xwg-nvidia-plainq",
                                     "relaunch/readback")))]
            left = [("the write of the state before the kernel",
                     wdiff("write 1 KiB (ev); kernel after it; read 4 B",
                           read)),
                    ("reading on a queue other than the kernel's",
                     wdiff("kernel; read on q2 after its event", read)),
                    ("waiting for the kernel's event and then reading, "
                     "where the read could wait for the event itself",
                     wdiff("kernel; clWaitForEvents; read on q2",
                           "kernel; read on q2 after its event")),
                    ("the kernel itself, whose groups read the launch's "
                     "header", wdiff("xwg's kernel bare; read 4 B", read))]
            whole = wdiff("xwg_launch_ex, discovery skipped", read)
            out += ["", "What is left of a launch through xwg above a plain "
                    "launch and read-back (%s against %s us in that "
                    "program, %s more): %s; together %s us. The rest is on "
                    "the host: `xwg_launch_async()` takes %s us there, "
                    "and enqueuing a 1 KiB write and a kernel that waits "
                    "for it, with their events, took %s in the same "
                    "program (%s without the events; 8 groups of 64). "
                    "xwg does not let the read wait for the kernel's "
                    "event: on its one copy queue such a read would hold "
                    "up every other launch's read until that kernel "
                    "ended. In xwg-bench's loop, whose queue has profiling "
                    "on, the write costs more: 80 bytes took the "
                    "read-back loop from %s to %s us (label "
                    "`xwg-nvidia-write`). The queries that "
                    "`xwg_launch_async()` makes of the kernel and the "
                    "program (the state argument, the build options that "
                    "say which barriers are compiled, the local memory) "
                    "cost %s us a call at most (`clcost-h200.txt`), so "
                    "caching them would save nothing. Two other ways "
                    "lost, before the copy queue: one non-blocking read "
                    "on the caller's queue, waited for with "
                    "`clWaitForEvents`, %s us (`xwg-nvidia-onewait`), and "
                    "one blocking read on xwg's profiling queue that waits "
                    "for the kernel's event, %s us against %s for the "
                    "plain launch and read-back in its run "
                    "(`xwg-nvidia-oneread`, patch "
                    "`results/raw/h200/launch-oneread.patch`). Nor did, "
                    "after it, `xwg_launch_ex()` reading the status on the "
                    "caller's queue right behind the kernel where that "
                    "queue runs in order without profiling, with no setup "
                    "event there (patch "
                    "`results/raw/h200/launch-callerread.patch`): "
                    "xwg-bench, on its queue without profiling, took %s "
                    "us a launch that way (`relaunch/xwg-ex`, labels "
                    "`xwg-nvidia-ex1/2`) against %s for the code before "
                    "it in the same runs (`xwg-nvidia-old-ex1/2`), and "
                    "%s with the setup event kept (`xwg-nvidia-old-evt1/"
                    "2`, against %s without, `xwg-nvidia-evt1/2`): within "
                    "the runs' spread of about 2 us, so it was taken back "
                    "(the one-off program's output in those runs: "
                    "`clcost-waits-h200-ex*.txt`, `-evt*.txt`). "
                    "A barrier is %s x cheaper than a launch through xwg." % (
                        fmt(waits.get("xwg_launch_ex, discovery skipped")),
                        fmt(waits.get(read)), fmt(whole),
                        "; ".join("%s (%s us)" % (what, fmt(us))
                                  for what, us in left),
                        fmt(sum(us for _, us in left if us is not None)),
                        fmt(waits.get("of which xwg_launch_async")),
                        fmt(waits.get("write 1 KiB + kernel waiting on it "
                                      "(events)")),
                        fmt(waits.get("write 1 KiB + kernel, no events")),
                        fmt(w_rb), fmt(w_wrb),
                        "%.3f" % max(v for k, v in cost.items()
                                     if k.startswith("clGet"))
                        if cost else "-",
                        fmt(get("xwg-nvidia-onewait", "relaunch/xwg", 256)),
                        fmt(get("xwg-nvidia-oneread", "relaunch/xwg", 256)),
                        fmt(get("xwg-nvidia-oneread", "relaunch/readback",
                                256)),
                        span(runs_of("xwg-nvidia-ex", "relaunch/xwg-ex")),
                        span(runs_of("xwg-nvidia-old-ex", "relaunch/xwg")),
                        span(runs_of("xwg-nvidia-old-evt", "relaunch/xwg-ex")),
                        span(runs_of("xwg-nvidia-evt", "relaunch/xwg-ex")),
                        "%.0f" % (mean(launch_new) / d256) if d256 else "-")]

        def pl(label, order, which):
            return at_places(label, "pingpong" + order, which, 64,
                             "2 groups")
        med_x, med_c = pl("xwg-nvidia", "", "median"), pl("cuda", "", "median")
        c1024 = get("xwg-nvidia", "barrier/counter", 1024)
        g1024 = get("cuda", "grid.sync", 1024)

        def v(label, variant, size):
            return fmt(get(label, variant, size))
        relaunches = [float(r["us"]) for r in rows
                      if r["label"] == "xwg-nvidia" and
                      r["variant"] == "relaunch"]
        out += ["", "What limits the fastest variant. Two things: contention "
                "at the words that every group touches, and the hand-off "
                "floor. *Contention*: with hundreds to thousands of groups, "
                "every arrival and every poll is a request to the one L2 "
                "slice that holds the word, and in a loop of barriers the "
                "group that arrives last is on the critical path. An earlier "
                "run shortened that path twice. An arrival now reads the add's "
                "old value, as `grid.sync()`'s `atomicAdd` does, so the "
                "arrival that flips the bit knows it is the last and leaves "
                "at once, where before it polled and then acquired, two "
                "more requests queued behind everyone's polls at that "
                "slice: the counter went from %s to %s us at 264 groups, "
                "from %s to %s at 1056 and from %s to %s at 4224 (`+red` is "
                "the old arrival, a `red` that nothing waits for). Waiting "
                "for the old value alone does not do it: the run before "
                "`red` waited for it and still polled, and took %s us at "
                "264 groups. And up to 2048 "
                "groups the tree's members poll the grid counter themselves "
                "(flat wake) instead of waiting for the last of their "
                "cluster to wake them, one hand-off fewer: %s us against %s "
                "at 1056 groups; at 4224 groups, 4224 pollers on one word "
                "cost more than the hand-off (%s against %s us), so there "
                "the tree still wakes by cluster. Thinning the polls with a "
                "`nanosleep` (`xwg-nvidia-explore`, `+sleepN`, on that "
                "run's code) lost for the counter and the cluster-woken "
                "tree at every size; only the flat wake gained, most at "
                "4224 groups (from %s us to %s with 250 ns), where xwg "
                "wakes by cluster instead (exploration run 4 measures "
                "sleeps again on today's tree). *The floor*: a barrier needs at least an "
                "arrival and a poll that sees the last one, one round trip. "
                "A round trip depends on where its flags sit and on which "
                "compute units the two groups run: over 16 places xwg's "
                "took %s to %s us (median %s) and CUDA's %s to %s (median "
                "%s). CUDA's figure at its one usual place (%s us in this "
                "run, and 0.54 and 0.75 us in earlier ones) lies below its "
                "own 16-place "
                "range, so its earlier lead over xwg's ping-pong (%s) came "
                "from where its flags happened to sit, not from its code; "
                "a plain OpenCL kernel without xwg's state or discovery "
                "(*pingpong/bare*) takes the same as xwg's. Against the "
                "median floor, the counter at 264 groups (%s us) sits %s x "
                "above it and `grid.sync()` (%s us) %s x: both are one round "
                "trip plus little. The instructions agree too: "
                "`grid.sync()` compiles to `barrier.sync`, "
                "`atom.add.release.gpu`, a loop of `ld.acquire.gpu` and "
                "`barrier.sync` (`results/raw/h200/cuda-gridsync.sass`), "
                "and the PTX that NVIDIA's OpenCL hands back for xwg, built "
                "by the toolkit's `ptxas`, gives the SASS of CUDA's "
                "ping-pong instruction for instruction "
                "(`results/raw/h200/xwg-ptx-path.sass`, "
                "`scripts/run_h200_sass.sh`). Generic addresses "
                "(`+generic`) moved no barrier by more than 0.11 us (1 %%) "
                "against the shipped code of their day, and the failed flag "
                "read 64 times less often (`+flag4096`) moves none by more "
                "than %s. "
                "The `cl20` path pays more: NVIDIA's OpenCL compiler turns "
                "each C11 acquire or release into a `membar.gl` full fence "
                "(`results/raw/h200/bench-cl20-path.ptx`), which is why xwg "
                "writes them in PTX on NVIDIA (`ptx` path). The OpenCL "
                "relaunch enqueued back to back costs %s-%s us (%s at 256), "
                "so 10 x against it needs a barrier under %s us; a "
                "host loop that reads a convergence flag after each launch "
                "pays a read-back, which is what the graph applications' "
                "multi-kernel versions pay (on their queue without "
                "profiling, the `xwg-nvidia-plainq` runs' figure)." % (
                    v("xwg-nvidia", "barrier/counter+red", 1024),
                    v("xwg-nvidia", "barrier/counter", 1024),
                    v("xwg-nvidia", "barrier/counter+red", 256),
                    v("xwg-nvidia", "barrier/counter", 256),
                    v("xwg-nvidia", "barrier/counter+red", 64),
                    v("xwg-nvidia", "barrier/counter", 64),
                    v("xwg-nvidia-atom", "barrier/counter", 1024),
                    v("xwg-nvidia", "barrier/tree", 256),
                    v("xwg-nvidia", "barrier/tree+cluster", 256),
                    v("xwg-nvidia", "barrier/tree+flat", 64),
                    v("xwg-nvidia", "barrier/tree", 64),
                    v("xwg-nvidia-explore", "barrier/tree+flat", 64),
                    v("xwg-nvidia-explore", "barrier/tree+flat-sleep250", 64),
                    fmt(pl("xwg-nvidia", "", "min")),
                    fmt(pl("xwg-nvidia", "", "max")), fmt(med_x),
                    fmt(pl("cuda", "", "min")), fmt(pl("cuda", "", "max")),
                    fmt(med_c), fmt(floors[2][1]), fmt(floors[0][1]),
                    fmt(c1024),
                    "%.2f" % (c1024 / med_x) if c1024 and med_x else "-",
                    fmt(g1024),
                    "%.2f" % (g1024 / med_c) if g1024 and med_c else "-",
                    tuning_spread(), fmt(min(relaunches)),
                    fmt(max(relaunches)),
                    fmt(get("xwg-nvidia", "relaunch", 256)),
                    fmt(get("xwg-nvidia", "relaunch", 256) / RELAUNCH_GOAL))]

        def fan_spread():
            """The spread of the tree at 1056 groups over clusters of 88
            to 176 (the f24d72f sweep)."""
            vals = [get("xwg-nvidia-f24d72f", "barrier/tree+fanin%d" % f,
                        256) for f in (88, 96, 132, 176)]
            vals = [x for x in vals if x is not None]
            return "%.2f" % (max(vals) - min(vals)) if vals else "-"

        def spread_of(label, algo, size):
            """fastest-slowest of the barrier with its words at N places."""
            lo = at_places(label, "barrier/" + algo, "min", size)
            hi = at_places(label, "barrier/" + algo, "max", size)
            return "%s-%s" % (fmt(lo), fmt(hi)) if lo is not None else "-"
        out += ["", "What was tried next against the two goals that the "
                "default still missed (`xwg-nvidia-explore2`, "
                "`xwg-nvidia-d10551a`, and the `+only` and `+faninN` rows). "
                "*Placement*: moved to 16 places, the counter barrier at "
                "264 groups took %s us and the tree at 1056 %s: a few per "
                "cent, where the two-group floor spread 30 %%, since a "
                "barrier of every compute unit averages over their "
                "distances to the word; so where the words sit is no lever. "
                "*Prototypes*, written as separate kernels in the bench: "
                "four counters with every group polling all (`striped-4`, "
                "%s us at 264 groups against the counter's %s) and the flat "
                "wake without the reset of its cluster's count on the "
                "arrival path (`monotree-64`, %s us at 1056 groups against "
                "%s). Built into the library (commit d10551a) they lost "
                "their gain and slowed the others too: striped %s, counter "
                "%s at 264 groups; tree %s at 1056. The counter's own code "
                "hardly changed there (its episode count moved after the "
                "exit barrier), so most of that is the code beside the "
                "algorithm that runs; and indeed, compiled alone "
                "(`+only`), each algorithm is faster than in the kernel "
                "that holds all three (counter %s against %s at 264 "
                "groups, tree %s against %s at 1056). So a context that "
                "fixes the barrier now builds its programs for that one "
                "alone (`XWG__BARRIERS`), and both prototypes are taken "
                "out (their code: `bench/placed.c` of 5bfaae4, and "
                "d10551a). Most of the cost was XF's: with the counter and "
                "the tree alone compiled together, as a default context's "
                "programs now are, the default took %s us at 1056 groups "
                "and %s at 264, against %s and %s with all three (`+all`). "
                "*Clusters*: 96 groups per cluster make 11 even "
                "clusters of 1056 groups. The tree compiled alone took %s "
                "us there with 96, %s with 64 and %s with 128, and %s, %s "
                "and %s at 4224 groups (`xwg-nvidia-8657fbd`), so 96 now "
                "ships; a later sweep at 1056 groups (`xwg-nvidia-f24d72f`) "
                "put 88 to 176 within %s us of each other, run-to-run "
                "noise against the goal's margin." % (
                    spread_of("xwg-nvidia", "counter", 1024),
                    spread_of("xwg-nvidia", "tree", 256),
                    v("xwg-nvidia-explore2", "barrier/striped-4", 1024),
                    v("xwg-nvidia-explore2", "barrier/counter", 1024),
                    v("xwg-nvidia-explore2", "barrier/monotree-64", 256),
                    v("xwg-nvidia-explore2", "barrier/tree", 256),
                    v("xwg-nvidia-d10551a", "barrier/striped", 1024),
                    v("xwg-nvidia-d10551a", "barrier/counter", 1024),
                    v("xwg-nvidia-d10551a", "barrier/tree", 256),
                    v("xwg-nvidia", "barrier/counter+only", 1024),
                    v("xwg-nvidia", "barrier/counter+all", 1024),
                    v("xwg-nvidia", "barrier/tree+only", 256),
                    v("xwg-nvidia", "barrier/tree+all", 256),
                    v("xwg-nvidia", "barrier/default", 256),
                    v("xwg-nvidia", "barrier/default", 1024),
                    v("xwg-nvidia", "barrier/default+all", 256),
                    v("xwg-nvidia", "barrier/default+all", 1024),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only-fanin96", 256),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only", 256),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only-fanin128",
                      256),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only-fanin96", 64),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only", 64),
                    v("xwg-nvidia-8657fbd", "barrier/tree+only-fanin128",
                      64),
                    fan_spread())]

        def e3(variant, size=256):
            return v("xwg-nvidia-explore3", variant, size)

        def e3_range(variants, size=256):
            vals = [get("xwg-nvidia-explore3", x, size) for x in variants]
            vals = [x for x in vals if x is not None]
            return ("%s-%s" % (fmt(min(vals)), fmt(max(vals)))
                    if vals else "-")
        out += ["", "What took the default at 256 work-items clear of its "
                "goal (exploration run 3, `xwg-nvidia-explore3`, "
                "`scripts/run_h200_explore.sh STEP`). *A broadcast wake* "
                "(`+bcast`; commit 0cfcb59, taken out again): nobody polls "
                "the grid counter; the last arrival there wakes every "
                "cluster through its cluster word, so 1056 pollers no "
                "longer queue at one L2 slice. It lost: %s us at 1056 "
                "groups against %s for the tree of the time in the same "
                "run, and "
                "%s over clusters of 32 to 192, since polls then meet their "
                "cluster's arrivals at one word, which the flat wake "
                "avoids, or so it seemed: on wake words of their own, one "
                "line per cluster (`+wakelines`, `XWG_TUNE_TREE_WAKE_LINES`, "
                "also taken out), it took %s against %s, no better: the "
                "cost lies in the broadcast itself (a release fence and an add per cluster "
                "by one work-item, then a poll and an acquire at each "
                "cluster), not in sharing a word with arrivals. *What the monotree prototype had that the library "
                "lacked*: four prototype kernels of the flat wake "
                "(`bench/placed.c`, `--prototypes`, clusters of 96) split "
                "the gap between the prototype and the library's tree "
                "(%s against %s us at 1056 groups, in one run). Counts that grow instead of being reset "
                "(`proto_mono`) against the library's reset "
                "(`proto_reset`): %s against %s us at 1056 groups, no "
                "difference. The episode count in local memory, as the "
                "library kept it, against a register: %s against %s "
                "(`proto_mono_localep`, `proto_mono`). So the episode count "
                "now lives in a private variable that `XWG_DISCOVER()` "
                "declares and `xwg_self` points to, which the compiler "
                "keeps in a register once it has inlined the barrier: the "
                "tree compiled alone went from %s to %s us at 1056 groups "
                "(`+protos1` and `+privep-only`, each in a run of its own "
                "step), and the default from %s to %s (`+protos-default`, "
                "`+privep1`) there and from %s to %s at 264 groups, where "
                "it runs the counter. "
                "The cluster wake's code beside the flat wake costs "
                "nothing (`+flatonly`, compiled out: %s against %s). The "
                "knobs, swept again on the new code (`+sweep-*`), keep "
                "their shipped values: at 1056 groups the tree took %s with "
                "clusters of 96 and %s with 48 to 192; polls that each "
                "acquire (`collect0`) %s and an acquire fence "
                "(`collect2`) %s, against %s." % (
                    e3("barrier/tree+bcast"), e3("barrier/tree+only"),
                    e3_range(["barrier/tree+bcast-fanin%d" % f
                              for f in (32, 64, 128, 192)]),
                    e3("barrier/tree+wakelines"), e3("barrier/tree+wl-base"),
                    e3("barrier/proto_mono+protos1"),
                    e3("barrier/tree+protos1"),
                    e3("barrier/proto_mono+protos1"),
                    e3("barrier/proto_reset+protos1"),
                    e3("barrier/proto_mono_localep+protos1"),
                    e3("barrier/proto_mono+protos1"),
                    e3("barrier/tree+protos1"),
                    e3("barrier/tree+privep-only"),
                    e3("barrier/default+protos-default"),
                    e3("barrier/default+privep1"),
                    e3("barrier/default+protos-default", 1024),
                    e3("barrier/default+privep1", 1024),
                    e3("barrier/tree+flatonly"), e3("barrier/tree+only"),
                    e3("barrier/tree+sweep-fanin96"),
                    e3_range(["barrier/tree+sweep-fanin%d" % f
                              for f in (48, 64, 128, 192)]),
                    e3("barrier/tree+sweep-collect0"),
                    e3("barrier/tree+sweep-collect2"),
                    e3("barrier/tree+privep1"))]

        def f4(variant, size=256):
            """Exploration run 4 (label cuda-fences): the mean of its runs
            of a variant of bench/cuda/fences.cu."""
            us = [float(r["us"]) for r in rows
                  if r["label"] == "cuda-fences" and
                  r["variant"] == "fences/" + variant and
                  r["local_size"] == str(size)]
            return sum(us) / len(us) if us else None
        def e4(variant, size=256):
            return v("xwg-nvidia-explore4", "barrier/" + variant, size)
        fence_kinds = [
            ("shipped", "the tree's flat wake as xwg ships it (above 2048 "
             "groups, at 64 work-items, xwg wakes by cluster instead)"),
            ("broken/top-relaxed", "BROKEN: the cluster's last arrives at the grid "
             "counter without its release"),
            ("broken/all-relaxed", "BROKEN: no release and no acquire anywhere"),
            ("broken/no-collect", "BROKEN: no acquire load after the wait"),
            ("broken/sub-release", "BROKEN: the cluster's add a release only"),
            ("cluster-acq", "waiters acquire every cluster word; the grid "
             "counter only says go (clusters of 96)"),
            ("cluster-acq-264", "the same, clusters of 264"),
            ("cluster-acq-528", "the same, clusters of 528"),
            ("counter-go", "one counter that nobody polls, and a relaxed go "
             "flag"),
            ("counter", "the counter barrier as xwg ships it"),
            ("broken/counter-relaxed", "BROKEN: the counter's add relaxed"),
            ("grid.sync", "CUDA's `grid.sync()`"),
            ("shipped+sleep32", "the tree, 32 ns nanosleep after each "
             "failed poll"),
            ("shipped+sleep100", "the same, 100 ns"),
            ("counter+sleep32", "the counter, 32 ns"),
            ("counter+sleep100", "the same, 100 ns"),
            ("oneway", "the tree with PTX's one-way fences "
             "(`fence.release.gpu`, `fence.acquire.gpu`) around relaxed "
             "adds and polls"),
            ("oneway-ldacq", "the same, the wait ending in an acquire "
             "load"),
            ("counter-oneway", "the counter with one-way fences")]
        ftable = [[name, what] + [fmt(f4(name, sz)) for sz in (64, 256, 1024)]
                  for name, what in fence_kinds if f4(name) is not None]
        if ftable:
            def d(a, b, size=256):
                x, y = f4(a, size), f4(b, size)
                return fmt(x - y) if x is not None and y is not None else "-"
            out += ["", "Where the tree's time goes (exploration run 4, "
                    "`bench/cuda/fences.cu`, `scripts/run_h200_explore.sh "
                    "fences`, label `cuda-fences`: the mean of two runs, "
                    "microseconds per barrier at full occupancy; the "
                    "fences and atomics each kernel compiles to are in "
                    "`results/raw/h200/fences-sass.txt`):", "",
                    md_table(["variant", "what", "64", "256", "1024"],
                             ftable, "llrrr"), "",
                    "xwg's own kernels tell the same: compiled alone "
                    "with every release relaxed, the acq_rel arrivals "
                    "too, so that only the waits' acquire loads are left "
                    "(known-bad 3, `+fences-norelease`), the tree took %s us "
                    "at 1056 groups against %s as shipped, %s against %s at "
                    "4224 (the cluster wake: three releases on the path), "
                    "and the counter %s against %s at 264. "
                    "The tree written in CUDA with the PTX instructions of "
                    "xwg's `ptx` path takes what xwg's does (%s us at 1056 "
                    "groups, against %s for xwg's tree compiled alone), so "
                    "its variants speak for xwg's. Every device-scope "
                    "release compiles to a `MEMBAR.ALL.GPU`, and the "
                    "tree's critical path holds two: the arrival at the "
                    "cluster, and the cluster's last arrival at the grid "
                    "counter. Without the second (`broken/top-relaxed`) the tree "
                    "takes %s us at 1056 groups, %s less; without any "
                    "release or acquire (`broken/all-relaxed`), %s, the cost of "
                    "the hand-offs themselves. The acquires cost nothing: "
                    "without the acquire load after the wait "
                    "(`broken/no-collect`), or with the cluster's add a release "
                    "only (`broken/sub-release`), the tree moves by %s and %s us. "
                    "The counter's release and acquire cost %s us at 264 "
                    "groups "
                    "and %s at 1056 (`broken/counter-relaxed`), more where more "
                    "groups queue at its word. The variants marked BROKEN "
                    "are not barriers under the PTX memory model: the "
                    "second release is what passes the cluster's arrivals "
                    "on (the waiters' acquire of the grid counter "
                    "synchronises with the cluster's last arrival, which "
                    "has acquired its members; a release sequence runs "
                    "through one word only, so without that release nothing "
                    "orders a member's writes before another cluster's "
                    "reads). The valid ways tried to keep one fence off the "
                    "path all lost. The waiters acquiring every cluster "
                    "word themselves once the grid counter flips "
                    "(`cluster-acq`): %s us at 1056 groups with clusters of "
                    "96, %s with 264 and %s with 528, since every group "
                    "then reads each cluster word at once. One counter that "
                    "every group adds to with a release and nobody polls, "
                    "the last arrival raising a relaxed go flag after which "
                    "each waiter acquires the counter (`counter-go`): %s. "
                    "Polling less often helps a little: a 32 ns "
                    "`nanosleep` after each failed poll took the tree from "
                    "%s to %s us at 1056 groups (and gained at 4224 and "
                    "264 groups too), and the counter from %s to %s at "
                    "1056, where the default runs the tree, but lost at "
                    "264 (%s against %s), where the default runs the "
                    "counter; longer sleeps gained nothing at 1056 groups. "
                    "For the default that is %s us at 256 work-items, not "
                    "worth a PTX-only knob, so xwg does not sleep. At 4224 "
                    "groups longer sleeps kept gaining on the flat wake "
                    "(%s us with 400 ns), which xwg does not run there. "
                    "Nor is there a "
                    "lighter release: PTX's one-way `fence.release.gpu` "
                    "compiles to the same `MEMBAR.ALL.GPU` and "
                    "`fence.acquire.gpu` to the same `CCTL.IVALL` "
                    "(`oneway`: %s us at 1056 groups). So %g x against "
                    "the brief's relaunch figure (%s us, so a barrier of "
                    "%s us) is what the tree would take without its "
                    "second release (%s us), and none of the arrangements "
                    "that the PTX memory model allows came near it: the "
                    "tree pays in fences what the counter pays in "
                    "contention." % (
                        e4("tree+fences-norelease"), e4("tree+fences-only"),
                        e4("tree+fences-norelease", 64),
                        e4("tree+fences-only", 64),
                        e4("counter+fences-norelease", 1024),
                        e4("counter+fences-only", 1024),
                        fmt(f4("shipped")),
                        fmt(get("xwg-nvidia", "barrier/tree+only", 256)),
                        fmt(f4("broken/top-relaxed")),
                        d("shipped", "broken/top-relaxed"), fmt(f4("broken/all-relaxed")),
                        d("shipped", "broken/no-collect"),
                        d("shipped", "broken/sub-release"),
                        d("counter", "broken/counter-relaxed", 1024),
                        d("counter", "broken/counter-relaxed"),
                        fmt(f4("cluster-acq")), fmt(f4("cluster-acq-264")),
                        fmt(f4("cluster-acq-528")), fmt(f4("counter-go")),
                        fmt(f4("shipped")), fmt(f4("shipped+sleep32")),
                        fmt(f4("counter")), fmt(f4("counter+sleep32")),
                        fmt(f4("counter+sleep32", 1024)),
                        fmt(f4("counter", 1024)),
                        d("shipped", "shipped+sleep32"),
                        fmt(f4("shipped+sleep400", 64)),
                        fmt(f4("oneway")), RELAUNCH_GOAL,
                        "%.1f" % DESIGN_RELAUNCH_US,
                        fmt(DESIGN_RELAUNCH_US / RELAUNCH_GOAL),
                        fmt(f4("broken/top-relaxed")))]
    if pocl:
        def pget(variant):
            for r in pocl:
                if r["variant"] == variant and r["occupancy"] in (
                        "full", "2 threads"):
                    return float(r["us"])
            return None
        spin, pth = pget("cpu/spin"), pget("cpu/pthread")
        table = [[v, "%.3f" % pget(v)] for v in (
            "barrier/xf", "barrier/counter", "barrier/tree",
            "barrier/default", "relaunch", "cpu/pthread", "cpu/spin")
            if pget(v) is not None]
        best = min(pget(v) for v in ("barrier/xf", "barrier/counter",
                                     "barrier/tree"))
        out += ["", "PoCL, 2 worker threads, 64 work-items per group, beside "
                "two barriers among 2 host threads measured in the same run "
                "(`scripts/run_bench_local.sh`), microseconds per barrier:", "",
                md_table(["variant", "us"], table, "lr"), "",
                "Best xwg barrier / spin barrier: %.2f x (goal: at most 2 x)."
                % (best / spin)]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------- litmus

# Which implementations promise device-scope acquire/release (their
# CL_DEVICE_ATOMIC_*_CAPABILITIES; docs/design facts): where one does not,
# a weak outcome under a device or system fence is one its advertised
# capabilities allow.
PROMISES_DEVICE_SCOPE = {"pocl": True, "rusticl": False, "nvidia": False,
                         "oclgrind": False}


def promises(impl):
    for prefix, value in PROMISES_DEVICE_SCOPE.items():
        if impl.startswith(prefix):
            return value
    return None


def section_litmus(rep):
    rows = rep.read_csv("litmus.csv")
    if rows is None:
        return None
    out = ["## Litmus tests", "",
           "`xwg-litmus` (`src/litmus/`), by `scripts/run_litmus_study.sh`: "
           "the classic tests with two testing threads in different groups "
           "(*inter*) or one group (*intra*), no fence or one of xwg's fence "
           "helpers between each thread's two accesses, thousands of "
           "instances per launch at random placements with every thread "
           "hammering scratch memory first. All test accesses are relaxed "
           "atomics. The table gives the weak outcome per million runs. "
           "*forbidden*: the fence's scope holds both threads (CoRR's weak "
           "outcome is forbidden by coherence alone).", ""]
    table, notes = [], []
    for r in rows:
        runs, weak = int(r["runs"]), int(r["weak"])
        per_m = 1e6 * weak / runs if runs else float("nan")
        status = r["weak_is"]
        mark = ""
        if weak and status == "forbidden":
            if (r["fence"] in ("device", "system") and
                    promises(r["implementation"]) is False):
                mark = "seen; its capabilities allow it"
                notes.append("%s: %s %s with the %s fence: %d per million, "
                             "which the device's advertised capabilities "
                             "(no device scope) allow." % (
                                 r["implementation"], r["test"],
                                 r["placement"], r["fence"], per_m))
            else:
                mark = "SEEN although forbidden"
                notes.append("%s: %s %s with the %s fence: %d per million "
                             "although forbidden." % (
                                 r["implementation"], r["test"],
                                 r["placement"], r["fence"], per_m))
        table.append([r["implementation"], r["path"], r["test"],
                      r["placement"], r["fence"], runs, "%.0f" % per_m,
                      status + ("; " + mark if mark else "")])
    out.append(md_table(["implementation", "path", "test", "placement",
                         "fence", "runs", "weak per million", "weak outcome"],
                        table, "llllllrl"))
    out += ["", "Observations (derived from the data):", ""]
    if notes:
        out += ["- " + n for n in notes]
    else:
        out.append("- No forbidden weak outcome was seen on any "
                   "implementation.")
    for impl in sorted({r["implementation"] for r in rows}):
        allowed_seen = [r for r in rows if r["implementation"] == impl and
                        r["weak_is"] == "allowed" and int(r["weak"]) > 0]
        out.append("- %s: weak outcomes seen where allowed: %s." % (
            impl, ", ".join("%s %s %s" % (r["test"], r["placement"],
                                          r["fence"]) for r in allowed_seen)
            or "none"))
    for impl in sorted({r["implementation"] for r in rows}):
        if promises(impl) is not False:
            continue
        scoped = [r for r in rows if r["implementation"] == impl and
                  r["fence"] in ("device", "system") and
                  r["placement"] == "inter"]
        runs = sum(int(r["runs"]) for r in scoped)
        weak = sum(int(r["weak"]) for r in scoped)
        if runs == 0:
            continue
        out.append("- %s advertises no device scope, so by its capabilities "
                   "the device and system fences forbid nothing between "
                   "groups; between groups and under them it showed %d weak "
                   "outcomes in %s runs." % (
                       impl, weak, "{:,}".format(runs)))
    if not any(r["implementation"].startswith("nvidia") for r in rows):
        out.append("- The H200 has no rows yet: `scripts/run_h200_litmus.sh` "
                   "runs there.")
    else:
        out.append("- The H200 rows ran on the `ptx` path, the one xwg "
                   "picks there (`scripts/run_h200_litmus.sh`).")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- study

def section_study(rep):
    rows = rep.read_csv("study.csv")
    if rows is None:
        return None
    out = ["## Graph applications: barrier against multi-kernel", "",
           "`xwg-apps` (`apps/`): BFS, SSSP (Bellman-Ford), maximal "
           "independent set and colouring (both in synchronous rounds with "
           "fixed priorities, two phases each), each in two versions sharing "
           "its kernel code: a persistent kernel with `xwg_barrier()` "
           "between iterations (convergence checked on the device), and one "
           "launch per iteration with the convergence flag read back by the "
           "host. Every run is checked against a plain C reference "
           "(*verified*): BFS by a queue, SSSP by Dijkstra with buckets, "
           "MIS and colouring by one pass in falling priority order, which "
           "is what the rounds compute. Times are medians of the timed runs (a first, "
           "untimed run compiles); speedup = multi-kernel time / barrier "
           "time. Produced by `scripts/run_apps_study.sh` (PoCL, Oclgrind, "
           "rusticl, and the H200's rows that `scripts/run_h200_apps.sh` "
           "recorded in `results/raw/h200/study-h200.csv`).", ""]
    refused = [r for r in rows if r["variant"] == "refused"]
    runs = [r for r in rows if r["variant"] in ("barrier", "multi")]

    def by_case(rows_):
        """{(implementation, app, graph): {variant: [rows]}} of the cases
        measured in both versions, in the order the rows first name them."""
        cases = {}
        for r in rows_:
            if r["variant"] in ("barrier", "multi"):
                cases.setdefault((r["implementation"], r["app"], r["graph"]),
                                 {}).setdefault(r["variant"], []).append(r)
        return {k: by for k, by in cases.items() if len(by) == 2}

    def medians_of(by):
        """{variant: median time (ms)} of one case's runs."""
        med = {}
        for v, rs in by.items():
            ts = sorted(float(x["time_ms"]) for x in rs)
            med[v] = ts[len(ts) // 2]
        return med
    cases = by_case(runs)
    table, speedups, by_graph = [], {}, {}
    for (impl, app, g), by in cases.items():
        med = medians_of(by)
        ok = all(x["verified"] == "1" for v in by.values() for x in v)
        sp = med["multi"] / med["barrier"]
        if not impl.startswith("oclgrind"):  # a simulator's times
            speedups.setdefault(impl, []).append(sp)
            by_graph.setdefault((impl, g), {})[app] = sp
        table.append([impl, app, g, by["barrier"][0]["iterations"],
                      by["barrier"][0]["groups"], "%.3f" % med["barrier"],
                      "%.3f" % med["multi"], "%.2f" % sp,
                      "yes" if ok else "NO"])
    out.append(md_table(["implementation", "app", "graph", "iterations",
                         "groups", "barrier (ms)", "multi-kernel (ms)",
                         "speedup", "verified"], table, "lllrrrrrl"))
    out += [""]
    def geomean(xs):
        prod = 1.0
        for x in xs:
            prod *= x
        return prod ** (1.0 / len(xs))
    for impl, sps in speedups.items():
        out.append("- %s: geometric-mean speedup of the barrier version over "
                   "%d runs: %.2f x." % (impl, len(sps), geomean(sps)))
    apps = ("bfs", "sssp", "mis", "colour")
    gtable = [[impl, g] + ["%.2f" % sp[a] if a in sp else "-" for a in apps] +
              ["%.2f" % geomean(list(sp.values()))]
              for (impl, g), sp in by_graph.items()]
    out += ["", "Speedup per graph, with the geometric mean over the four "
            "apps:", "", md_table(["implementation", "graph"] + list(apps) +
                                  ["geomean"], gtable, "llrrrrr"), ""]
    grids = [(g, geomean(list(sp.values()))) for (impl, g), sp in
             by_graph.items() if impl.startswith("nvidia") and
             g.startswith("grid") and len(sp) == 4]
    if grids:
        out.append("- Goal on the H200: a geometric mean of at least 2 x over "
                   "the four apps on the grid graph: %s." % "; ".join(
                       "%s %.2f x (%s)" % (g, m, "met" if m >= 2 else
                                           "missed") for g, m in grids))
        def iters(kind, apps_):
            """The fewest and most iterations of apps_ on the H200's graphs
            of a kind."""
            its = [int(r["iterations"]) for r in runs
                   if r["implementation"].startswith("nvidia") and
                   r["graph"].startswith(kind) and r["app"] in apps_]
            return (min(its), max(its)) if its else ("-", "-")
        rmat = sorted(((int(g[4:]), geomean(list(sp.values())))
                       for (impl, g), sp in by_graph.items()
                       if impl.startswith("nvidia") and g.startswith("rmat")
                       and len(sp) == 4))
        bars = rep.read_csv("barrier-h200.csv") or []

        def bar(variant):
            """xwg-bench's figure for the apps' shape, 256 x 1056, from a
            run whose relaunch loops used a queue without profiling, as
            the apps' multi-kernel versions do."""
            return next(("%.1f" % float(r["us"]) for r in bars
                         if r["label"] == "xwg-nvidia-plainq1" and
                         r["variant"] == variant and
                         r["local_size"] == "256" and
                         r["occupancy"] == "full"), "-")
        def small_range():
            """The barrier version's speedups for BFS, SSSP and MIS on the
            small Kronecker graphs (scales 10 and 14)."""
            sps = [sp[a] for (impl, g), sp in by_graph.items()
                   if impl.startswith("nvidia") and g in ("rmat10", "rmat14")
                   for a in ("bfs", "sssp", "mis") if a in sp]
            return ("%.2f to %.2f" % (min(sps), max(sps)) if sps
                    else "-")

        def app_ms(app, graph):
            """The barrier version's median time (ms) on the H200."""
            return next((medians_of(by)["barrier"]
                         for (impl, a, g), by in cases.items()
                         if impl.startswith("nvidia") and a == app and
                         g == graph), None)
        out.append("- On the H200 a barrier costs %s us at the 1056 "
                   "groups of 256 work-items the apps run, a launch %s us, "
                   "and %s us with "
                   "the read-back of the convergence flag (Barrier "
                   "performance, label `xwg-nvidia-plainq1`). The "
                   "barrier wins where iterations are many and cheap: BFS and "
                   "SSSP on the grids (hundreds to thousands of iterations), "
                   "and colouring on the small Kronecker graphs. MIS and "
                   "colouring converge in %s to %s rounds on a grid, and on "
                   "the Kronecker graphs BFS, SSSP and MIS take %s to %s "
                   "iterations: there the persistent kernel's fixed cost (the "
                   "in-kernel discovery at each launch, about 0.1 ms) is not "
                   "won back, and the small graphs lose (%s x at "
                   "scales 10 and 14). "
                   "Colouring takes thousands of rounds on the large Kronecker "
                   "graphs, but at scales 20 to 26 each round does 0.26 to "
                   "5.1 ms of latency-bound work, against which a launch is "
                   "noise."
                   % ((bar("barrier/default"), bar("relaunch"),
                       bar("relaunch/readback")) +
                      iters("grid", ("mis", "colour")) +
                      iters("rmat", ("bfs", "sssp", "mis")) +
                      (small_range(),)))
        if rmat:
            out.append("- Kronecker graphs on the H200, geometric mean over "
                       "the four apps per scale: %s. Scale %d is the largest "
                       "the generator takes (2^26 = 67 M vertices and 2.15 G "
                       "directed edges, as far as the CSR's 32-bit offsets "
                       "go); it fits the H200 (about 19 GB of graph). Each "
                       "scale costs the GPU machine's host 4 to 6 times the "
                       "one below: at scale 26 the graph took 48 s and the "
                       "four C references 153 s "
                       "(`results/raw/h200/apps-log.txt`), so it ran with "
                       "one timed run per version, all in one 10-minute "
                       "device command (402 s by the shell's `time`)." % (
                           ", ".join("%d: %.2f x" % x for x in rmat),
                           rmat[-1][0]))
        # The run before this one (results/raw/h200/study-h200-previous.csv,
        # no header), measured at several dates.
        prev = []
        prev_path = os.path.join(rep.results_dir, "raw", "h200",
                                 "study-h200-previous.csv")
        if os.path.exists(prev_path):
            with open(prev_path, newline="", encoding="utf-8") as f:
                prev = list(csv.DictReader(f, fieldnames=list(rows[0])))

        def graph_means(rows_):
            """{graph: geometric-mean speedup over the four apps} of the
            H200's rows."""
            sps = {}
            for (impl, app, g), by in by_case(rows_).items():
                if impl.startswith("nvidia"):
                    med = medians_of(by)
                    sps.setdefault(g, []).append(med["multi"] / med["barrier"])
            return {g: geomean(x) for g, x in sps.items() if len(x) == 4}

        def spread(app, graph):
            """Fastest to slowest run of the barrier version (ms)."""
            ts = [float(r["time_ms"]) for r in runs
                  if r["implementation"].startswith("nvidia") and
                  r["app"] == app and r["graph"] == graph and
                  r["variant"] == "barrier"]
            return "%.1f to %.1f" % (min(ts), max(ts)) if ts else "-"
        before, after = graph_means(prev), graph_means(runs)
        moves = sorted(((after[g] - before[g], g) for g in after
                        if g in before), key=lambda m: abs(m[0]))
        if moves:
            big = moves[-1]
            out.append("- Every H200 row above was measured again on the "
                       "code whose barrier figures this report gives (the "
                       "run before is kept in "
                       "`results/raw/h200/study-h200-previous.csv`; its "
                       "rows were measured at several dates, before some of "
                       "the barrier's speed-ups). Per graph the geometric "
                       "mean moved "
                       "by %.2f x at most (%s: %.2f to %.2f x; %s). That is "
                       "the runs' own noise: colouring's barrier version on "
                       "scale 14 took %s ms over three runs. A barrier costs "
                       "a microsecond or two and these graphs take tens to "
                       "thousands of them, so the barrier's speed-ups since "
                       "then do not show here."
                       % (abs(big[0]), big[1], before[big[1]],
                          after[big[1]],
                          ", ".join("%s %.2f to %.2f x" % (g, before[g],
                                                            after[g])
                                    for g in sorted(after)
                                    if g.startswith("grid") and
                                    g in before),
                          spread("colour", "rmat14")))
        b20, c20 = app_ms("bfs", "rmat20"), app_ms("colour", "rmat20")
        out.append("- Work is spread by segments of at most 32 edges of one "
                   "vertex (`apps/graph.h`), not by vertex: an R-MAT hub "
                   "(largest degree 737,913 at scale 24) then spreads over "
                   "thousands of work-items. The first version of the study "
                   "gave each work-item whole vertices, and its Kronecker "
                   "times were those of the hubs: BFS on scale 20 took 94 ms "
                   "(now %s ms), colouring 2.3 s (now %s s)."
                   % ("%.1f" % b20 if b20 else "-",
                      "%.2f" % (c20 / 1000) if c20 else "-"))
    if rep.plots_enabled and by_graph:
        fig, ax = plt.subplots(figsize=(8, 3.5))
        keys = sorted(by_graph)
        width = 0.2
        for i, a in enumerate(apps):
            ax.bar([j + (i - 1.5) * width for j in range(len(keys))],
                   [by_graph[k].get(a, 0) for k in keys], width, label=a)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(["%s\n%s" % (k[0].split("-")[0], k[1])
                            for k in keys], fontsize=7)
        ax.set_ylabel("multi-kernel time / barrier time")
        ax.set_title("Barrier against multi-kernel, per app and graph")
        ax.legend(fontsize=8)
        fig.tight_layout()
        out += ["", rep.save_plot(fig, "study-speedup.png"), ""]
    for impl in sorted({t[0] for t in table if t[0].startswith("oclgrind")}):
        out.append("- %s: a simulator, whose times say nothing of a device "
                   "(left out of the speedups); every answer verified, and "
                   "its race and uninitialised-value checkers found no "
                   "report that the barrier cannot explain "
                   "(`tests/oclgrind_reports.py`)." % impl)
    for r in refused:
        out.append("- %s: refused by xwg's barrier self-test "
                   "(`XWG_ERROR_UNSUPPORTED_DEVICE`); no runs." %
                   r["implementation"])
    wins = [t for t in table if float(t[7]) > 1.0 and
            not t[0].startswith("oclgrind")]
    out.append("- The barrier version won in %d of %d runs%s. Its fixed "
               "cost on PoCL is higher: the persistent kernel runs the in-kernel "
               "discovery, which on a CPU device waits up to its 5 ms window "
               "when a worker thread starts late, while an OpenCL launch on "
               "PoCL costs microseconds; only a run with many iterations can "
               "win that back. PoCL timings also swing with whatever else the "
               "two cores are doing." % (
                   len(wins), sum(len(v) for v in speedups.values()),
                   (": " + ", ".join("%s %s on %s (%s iterations, %s x)" % (
                       t[0], t[1], t[2], t[3], t[7]) for t in wins))
                   if wins else ""))
    return "\n".join(out) + "\n"


# Add later sections (barrier latency, study, litmus) here, in order.
SECTIONS = [
    section_intro,
    section_discovery_goals,
    section_discovery,
    section_barrier,
    section_performance,
    section_model,
    section_litmus,
    section_study,
]

def main():
    rep = Report(HERE)
    for name in OWN_PLOTS:
        p = os.path.join(rep.plots_dir, name)
        if os.path.exists(p):
            os.remove(p)
    parts = []
    for fn in SECTIONS:
        try:
            md = fn(rep)
        except Exception as e:  # one broken section must not hide the rest
            md = "## %s\n\n*(section failed: %s: %s)*\n" % (
                fn.__name__, type(e).__name__, e)
            print("make_report: %s failed: %r" % (fn.__name__, e),
                  file=sys.stderr)
        if md:
            parts.append(md.rstrip() + "\n")
    path = os.path.join(HERE, "README.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    print("make_report: wrote %s (%d sections)%s" % (
        path, len(parts),
        "; plots left out (no matplotlib)" if rep.plots_skipped else ""),
        file=sys.stderr)


if __name__ == "__main__":
    main()
