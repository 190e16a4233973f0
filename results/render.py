#!/usr/bin/env python3
"""Draw every table and plot of the results from the recorded CSVs.

usage: python3 results/render.py [--check]

What to draw is data, not code: results/tables.toml lists each table (a
CSV, the rows it selects, and its columns) and each plot (a table's
columns against its rows). This script writes no prose. It writes

  results/tables/NAME.md   one file per table: the table, then the runs
                           its figures come from (ids of results/runs.csv);
  results/plots/NAME.png   one file per plot (needs matplotlib; without it
                           the plots are left as they are, and it says so),
                           written only where its bytes change;
  and the block between `<!-- table: NAME -->` and `<!-- end table -->` in
  each document that tables.toml names, replaced by that table.

It prints what it wrote and removed, or "up to date" where it did
neither. --check writes nothing: it renders the tables in memory and exits 1 if a
table file or a document's block differs from what the data gives (the
plots are not compared: PNG bytes vary with the matplotlib version).

Contract, checked on every run (exit 2, naming the problem, otherwise):
  - every row of every CSV under results/ (raw/, the converters' inputs,
    aside) names a run of runs.csv, and every run has rows in some CSV;
  - every table selects at least one row, and every column of a pivot
    table has at least one value (a typo in a filter cannot hide as '-');
  - every table named in a document's block exists.

Table kinds (tables.toml):
  list   one line per selected CSV row; `fields` names the columns.
  pivot  one line per distinct value of the `rows` fields; each column
         takes `value` from the selected rows that match its `where`,
         reduced by `agg` (median unless given), times `scale`; a column
         with `ratio = [A, B]` is column A over column B of the same line.
  A plot with `skip = { FIELD = "TEXT" }` leaves out the table's lines
  any of whose rows has FIELD beginning with TEXT (the study's plot:
  verdict "refused").
  A table reads `study = "FOLDER"` instead of `csv`: one row per file
  that xwg-study wrote in results/FOLDER (study_files.py; a file that
  breaks results/study/schema.json stops the render, naming it). With
  `each = "PART"` (or a list of parts), one row per entry of that part
  of each file instead ("discovery", "litmus.rows"), with the file's
  name, device, platform and verdict beside the entry's fields, so a
  new device's file adds its rows with no code change; a file without
  entries keeps one row of '-'. A table that reads `not_run = "FILE"`
  lists the implementations of that TOML file, each marked not run
  (study_files.not_run).
"""
import csv
import glob
import io
import math
import os
import re
import statistics
import sys
import tomllib

import study_files

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BLOCK = re.compile(r"(<!-- table: ([\w.-]+) -->\n)(.*?)(<!-- end table -->)",
                   re.S)
AGG = {"median": statistics.median, "mean": statistics.fmean, "min": min,
       "max": max, "sum": sum, "count": len, "first": lambda v: v[0], "distinct": None}


class DataError(Exception):
    """A contract of the data or of tables.toml is broken."""


def read_csv(name):
    """The rows of results/NAME as dicts; DataError if it is missing."""
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        raise DataError("%s: no such CSV" % name)
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def matches(row, where):
    """Whether ROW has every field of WHERE: a value, or a list of values
    any of which will do. Numbers in the TOML compare as text."""
    for field, want in (where or {}).items():
        if field not in row:
            raise DataError("no field %r (fields: %s)" %
                            (field, ", ".join(row)))
        wants = want if isinstance(want, list) else [want]
        if row[field] not in [str(w) for w in wants]:
            return False
    return True


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fmt(value, spec="%s"):
    """A cell: '-' for no value, else VALUE through the %-format SPEC."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, float) and spec == "%d":
        value = round(value)
    return spec % value


class Table:
    """One table of tables.toml, computed: a header, lines of cells (text)
    and, for plots, the numbers behind the cells."""

    def __init__(self, spec):
        self.spec = spec
        self.name = spec["name"]
        if "study" in spec:
            rows = self.study_rows(spec["study"])
        elif "not_run" in spec:
            try:
                rows = study_files.not_run(spec["not_run"])
            except study_files.StudyError as e:
                raise DataError("table %s: %s" % (self.name, e))
            self.csvs, self.runs = [spec["not_run"]], ["public sources"]
        else:
            self.csvs = (spec["csv"] if isinstance(spec["csv"], list)
                         else [spec["csv"]])
            rows = [r for name in self.csvs for r in read_csv(name)
                    if matches(r, spec.get("where"))]
            self.runs = sorted({r["run"] for r in rows})
        if not rows:
            raise DataError("table %s: no row of %s matches %r" %
                            (self.name, ", ".join(self.csvs), spec.get("where")))
        kind = spec.get("kind", "pivot")
        if kind == "list":
            self.list_table(rows)
        elif kind == "pivot":
            self.pivot_table(rows)
        else:
            raise DataError("table %s: unknown kind %r" % (self.name, kind))

    def study_rows(self, folder):
        """The rows of a study table: one per file xwg-study wrote in
        results/FOLDER, or with `each`, one per entry of those parts of
        each file (study_files.py checks and flattens them); each file
        is its own run, with its command and date inside."""
        each = self.spec.get("each")
        try:
            docs = study_files.load_folder(folder)
            rows = ([r for d in docs for r in study_files.expand(d, each)]
                    if each else list(map(study_files.row, docs)))
        except study_files.StudyError as e:
            raise DataError("table %s: %s" % (self.name, e))
        self.csvs = ["%s/*.json" % folder]
        rows = [r for r in rows if matches(r, self.spec.get("where"))]
        self.runs = list(dict.fromkeys(r["file"] for r in rows))
        return rows

    def list_table(self, rows):
        fields = self.spec["fields"]
        heads = self.spec.get("heads", fields)
        formats = self.spec.get("formats", {})
        for f in fields:
            if f not in rows[0]:
                raise DataError("table %s: %s has no field %r" %
                                (self.name, ", ".join(self.csvs), f))
        self.header = list(heads)
        self.keys = [[r[f] for f in fields] for r in rows]
        self.line_rows = [[r] for r in rows]
        self.cells = []
        for r in rows:
            line = []
            for f in fields:
                v = number(r[f]) if f in formats else None
                line.append(fmt(v, formats[f]) if v is not None else fmt(r[f]))
            self.cells.append(line)
        self.numbers = [[number(r[f]) for f in fields] for r in rows]

    def pivot_table(self, rows):
        spec = self.spec
        key_fields = spec["rows"]
        keys = []
        for r in rows:
            k = tuple(r[f] for f in key_fields)
            if k not in keys:
                keys.append(k)
        if "order" in spec:
            order = [tuple(str(x) for x in (o if isinstance(o, list) else [o]))
                     for o in spec["order"]]
            keys = [k for k in order if k in keys]
        columns = spec["columns"]
        values = {}                    # column head -> key -> number or None
        for col in columns:
            head = col["head"]
            if "ratio" in col:
                a, b = (values[h] for h in col["ratio"])
                if any(isinstance(v, str) for v in [*a.values(), *b.values()]):
                    raise DataError("table %s: ratio %r of text" %
                                    (self.name, head))
                values[head] = {k: a[k] / b[k] if a[k] and b[k] else None
                                for k in keys}
                continue
            field = col.get("value", spec.get("value"))
            agg = AGG[col.get("agg", spec.get("agg", "median"))]
            scale = col.get("scale", spec.get("scale", 1))
            got = {}
            for k in keys:
                raw = [r[field] for r in rows
                       if tuple(r[f] for f in key_fields) == k
                       and matches(r, col.get("where"))]
                if agg is None:                  # "distinct": text as it is
                    got[k] = "/".join(v for v in dict.fromkeys(raw)
                                      if v is not None) or None
                    continue
                vs = [v for v in map(number, raw) if v is not None]
                got[k] = agg(vs) * scale if vs else None
            if all(v is None for v in got.values()):
                raise DataError("table %s: column %r has no value" %
                                (self.name, head))
            values[head] = got
        self.header = spec.get("key_heads", key_fields) + [c["head"] for c in columns]
        self.keys = [list(k) for k in keys]
        self.line_rows = [[r for r in rows
                           if tuple(r[f] for f in key_fields) == k]
                          for k in keys]
        self.cells, self.numbers = [], []
        for k in keys:
            line, nums = [fmt(x) for x in k], [number(x) for x in k]
            for col in columns:
                v = values[col["head"]][k]
                spec_fmt = col.get("format", "%.2f" if "ratio" in col
                                   else spec.get("format", "%.2f"))
                line.append(fmt(v, spec_fmt))
                nums.append(v if not isinstance(v, str) else None)
            self.cells.append(line)
            self.numbers.append(nums)

    def markdown(self):
        """The table and its runs, as markdown."""
        out = []
        if self.spec.get("caption"):
            out += ["*%s*" % self.spec["caption"], ""]
        out.append("| " + " | ".join(self.header) + " |")
        out.append("| " + " | ".join("---" for _ in self.header) + " |")
        for line in self.cells:
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in line)
                       + " |")
        out += ["", "Table `%s`, from %s, %s%s %s." % (
            self.name, ", ".join("`results/%s`" % c for c in self.csvs),
            "file" if "study" in self.spec else
            "source" if "not_run" in self.spec else "run",
            "s" if len(self.runs) > 1 else "",
            ", ".join("`%s`" % r for r in self.runs))]
        return "\n".join(out) + "\n"

    def column(self, head, keep=None):
        """The numbers of column HEAD, of the lines KEEP (indices; all by
        default)."""
        i = self.header.index(head)
        return [self.numbers[j][i]
                for j in (range(len(self.numbers)) if keep is None else keep)]

    def lines_kept(self, skip):
        """The indices of the lines that no row of SKIP's kind is behind:
        SKIP maps a field to a text, and a line is left out where any of
        its rows has that field beginning with the text."""
        def skipped(rows):
            return any(str(r.get(field, "")).startswith(str(text))
                       for r in rows for field, text in (skip or {}).items())
        return [j for j, rows in enumerate(self.line_rows)
                if not skipped(rows)]


def check_runs(tables):
    """Every row of every results CSV names a run of runs.csv, and every
    run has rows somewhere."""
    runs = {r["run"] for r in read_csv("runs.csv")}
    used = set()
    names = sorted(os.path.relpath(p, HERE) for p in
                   glob.glob(os.path.join(HERE, "**", "*.csv"), recursive=True))
    for name in names:
        if name == "runs.csv" or name.startswith("raw" + os.sep):
            continue                 # raw/: a converter's input, not results
        for i, r in enumerate(read_csv(name), 2):
            if r.get("run") not in runs:
                raise DataError("%s line %d: run %r is not in runs.csv" %
                                (name, i, r.get("run")))
            used.add(r["run"])
    unused = runs - used
    if unused:
        raise DataError("runs.csv: no CSV has rows of %s" %
                        ", ".join(sorted(unused)))


def draw(plot, tables, plt):
    """The PNG of one [[plot]] of tables.toml, as bytes (render() writes
    it to results/plots/NAME.png only where those bytes differ)."""
    t = tables[plot["table"]]
    # `skip`: lines the table holds but the plot leaves out (a refused
    # device's figures, measured forced past its refusal, are no figures
    # to set beside a usable device's).
    keep = t.lines_kept(plot.get("skip"))
    if not keep:
        raise DataError("plot %s: skip %r leaves no line of table %s" %
                        (plot["name"], plot.get("skip"), t.name))
    xs = [t.keys[j][0] for j in keep]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    heads = plot["y"]
    if plot.get("kind", "line") == "bar":
        width = 0.8 / len(heads)
        for i, h in enumerate(heads):
            # A line without a value has no bar (a zero would break a
            # log scale).
            bars = [(j + i * width, v)
                    for j, v in enumerate(t.column(h, keep))
                    if v is not None]
            ax.bar([b[0] for b in bars], [b[1] for b in bars], width,
                   label=h)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(xs))])
        ax.set_xticklabels(xs, rotation=plot.get("rotate", 0),
                           ha="right" if plot.get("rotate") else "center")
    else:
        for h in heads:
            pts = [(x, v) for x, v in zip(xs, t.column(h, keep))
                   if v is not None]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    label=h)
    if plot.get("logy"):
        ax.set_yscale("log")
    if "hline" in plot:
        ax.axhline(plot["hline"], color="grey", linewidth=0.8)
    ax.set_xlabel(plot.get("xlabel", t.header[0]))
    ax.set_ylabel(plot.get("ylabel", ""))
    ax.set_title(plot.get("title", plot["name"]))
    ax.legend(fontsize="small")
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=110, bbox_inches="tight",
                metadata={"Software": None})
    plt.close(fig)
    return png.getvalue()


def matplotlib_or_none():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def write_if_changed(path, data, changed):
    """Writes DATA (bytes) to PATH unless the file holds it already, and
    then adds PATH to CHANGED: an unchanged output keeps its bytes and
    its time, and is not reported as written."""
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    changed.append(os.path.relpath(path, ROOT))


def render(check):
    """Renders everything; returns the files that are (or, with CHECK,
    would be) written, and those removed. Plots are drawn and compared
    only without CHECK (their bytes vary with matplotlib's version)."""
    with open(os.path.join(HERE, "tables.toml"), "rb") as f:
        spec = tomllib.load(f)
    tables = {}
    for t in spec["table"]:
        if t["name"] in tables:
            raise DataError("table %s: defined twice" % t["name"])
        tables[t["name"]] = Table(t)
    check_runs(tables)
    wanted = {}                                    # path -> its text
    for name, t in tables.items():
        wanted[os.path.join(HERE, "tables", name + ".md")] = t.markdown()
    for doc in spec.get("documents", []):
        path = os.path.join(ROOT, doc)
        if not os.path.exists(path):
            raise DataError("tables.toml: no document %s" % doc)
        with open(path, encoding="utf-8") as f:
            text = f.read()

        def fill(m, doc=doc):
            if m.group(2) not in tables:
                raise DataError("%s: no table %r" % (doc, m.group(2)))
            return m.group(1) + tables[m.group(2)].markdown() + m.group(4)
        wanted[path] = BLOCK.sub(fill, text)
    changed, removed = [], []
    for path, text in wanted.items():
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            changed.append(os.path.relpath(path, ROOT))
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    stale = (set(glob.glob(os.path.join(HERE, "tables", "*.md"))) -
             set(wanted))
    for path in sorted(stale):
        removed.append(os.path.relpath(path, ROOT))
        if not check:
            os.remove(path)
    if not check:
        plt = matplotlib_or_none()
        if plt is None:
            print("render: matplotlib is missing: plots left as they are",
                  file=sys.stderr)
        if plt is not None:
            drawn = set()
            for plot in spec.get("plot", []):
                path = os.path.join(HERE, "plots", plot["name"] + ".png")
                drawn.add(path)
                write_if_changed(path, draw(plot, tables, plt), changed)
            for path in sorted(glob.glob(os.path.join(HERE, "plots",
                                                      "*.png"))):
                if path not in drawn:    # a plot tables.toml no longer has
                    removed.append(os.path.relpath(path, ROOT))
                    os.remove(path)
    return changed, removed


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        changed, removed = render(check)
    except (DataError, KeyError) as e:
        print("render: %s" % (e.args[0] if e.args else e), file=sys.stderr)
        return 2
    if check and (changed or removed):
        print("render: out of date (run python3 results/render.py): %s" %
              ", ".join(changed + removed), file=sys.stderr)
        return 1
    # What was done, and only that: "up to date" where nothing was
    # written or removed.
    done = (["wrote " + ", ".join(changed)] if changed else []) + \
           (["removed " + ", ".join(removed)] if removed else [])
    print("render: %s" % ("; ".join(done) or "up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
