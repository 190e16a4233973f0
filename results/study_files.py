"""The portability study's files: what xwg-study writes, checked and made
into table rows.

  load_folder(folder)  every *.json under results/FOLDER, each checked
                       against results/study/schema.json and its verdicts
                       recomputed from its own figures by xwg-study's
                       rules (src/study/xwg_study.py); a file that fails
                       raises StudyError naming the file and the problem;
  row(doc)             one line of the study table, flat, as text;
  expand(doc, each)    the lines of a table that takes one row per
                       entry of a part of the file (each = "discovery",
                       "litmus.rows", or a list of such parts), flat,
                       as text, each with the file's identity
                       (ident(doc));
  not_run(path)        the rows of results/PATH, a TOML list of the
                       implementations that cannot be reached here
                       ([[vendor]]: what public sources say each promises),
                       each marked not run, its sources as numbered links.

Python 3 standard library only. The schema check understands the parts of
JSON Schema that schema.json uses: type (one or a list, "null" among
them), required, properties, items, enum
and minimum.
"""
import functools
import glob
import importlib.util
import json
import os
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_PATH = os.path.join(HERE, "study", "schema.json")
TYPES = {"object": dict, "array": list, "string": str, "number": (int, float),
         "integer": int}


class StudyError(Exception):
    pass


def problems(value, schema, where="$"):
    """What in VALUE breaks SCHEMA, as a list of messages."""
    out = []
    t = schema.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    if types and not any(value is None if k == "null" else
                         isinstance(value, TYPES[k]) and
                         not isinstance(value, bool) for k in types):
        return ["%s: not %s" % (where, " or ".join(types))]
    if "enum" in schema and value not in schema["enum"]:
        out.append("%s: %r is not one of %s" % (where, value, schema["enum"]))
    if "minimum" in schema and isinstance(value, (int, float)) \
            and value < schema["minimum"]:
        out.append("%s: %r is below %r" % (where, value, schema["minimum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append("%s: no %s" % (where, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                out += problems(value[key], sub, "%s.%s" % (where, key))
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += problems(item, schema["items"], "%s[%d]" % (where, i))
    return out


def study_command():
    """src/study/xwg_study.py as a module: its verdict rules are the ones
    a file is checked against, so that they live in one place."""
    path = os.path.join(os.path.dirname(HERE), "src", "study", "xwg_study.py")
    spec = importlib.util.spec_from_file_location("xwg_study", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verdict_problems(doc):
    """A file's verdicts are what its own figures give: a file can never
    call a device safe, or its self-test passed, against them."""
    rules = study_command()
    out = []
    t = doc["self_test"]
    want = rules.self_test_verdict(t["result"], t["wrong_reads"])
    if t["verdict"] != want:
        out.append("self-test verdict %s, but its result %r and %d wrong "
                   "reads make it %s" % (t["verdict"], t["result"],
                                         t["wrong_reads"], want))
    want = rules.verdict(doc)
    if doc["verdict"] != want:
        out.append("verdict %s, but the file's figures make it %s"
                   % (doc["verdict"], want))
    return out


def check(doc, schema=None):
    schema = schema or load_schema()
    found = problems(doc, schema)
    return found or verdict_problems(doc)


@functools.cache
def load_schema():
    """results/study/schema.json, read once (callers do not change it)."""
    with open(SCHEMA_PATH) as f:
        return json.load(f)


def load_folder(folder):
    schema = load_schema()
    paths = sorted(p for p in glob.glob(os.path.join(HERE, folder, "*.json"))
                   if os.path.abspath(p) != SCHEMA_PATH)
    docs = []
    for p in paths:
        name = os.path.relpath(p, HERE)
        try:
            doc = json.load(open(p))
        except ValueError as e:
            raise StudyError("%s: not JSON (%s)" % (name, e))
        found = check(doc, schema)
        if found:
            raise StudyError("%s: %s" % (name, "; ".join(found[:3])))
        doc["_file"] = os.path.basename(p)
        docs.append(doc)
    return docs


def ident(doc):
    """What names the file a row comes from: its file name, that name
    without .json (short and unique, where two files may share a
    device's name), the device, its platform and driver, and the file's
    verdict."""
    d = doc["device"]
    return {"file": doc["_file"],
            "name": os.path.splitext(doc["_file"])[0],
            "device": d["device"],
            "platform": "%s %s" % (d["platform"], d["driver_version"]),
            "verdict": doc["verdict"]}


def types_of(schema):
    t = schema.get("type", [])
    return t if isinstance(t, list) else [t]


def part_fields(schema, part):
    """The fields of an entry of PART ("litmus.rows": a dotted path into
    the file) that a table can show: its properties in SCHEMA that hold
    a value or a list of strings, not an object or a list of objects.
    StudyError if the schema has no such part, so that a typo in a
    table's `each` cannot pass as an empty list."""
    s = schema
    for key in part.split("."):
        if key not in s.get("properties", {}):
            raise StudyError("the schema has no part %r" % part)
        s = s["properties"][key]
    if "array" in types_of(s):
        s = s.get("items", {})
    if "object" not in types_of(s):
        raise StudyError("part %r holds no objects" % part)
    return [k for k, sub in s.get("properties", {}).items()
            if "object" not in types_of(sub) and not (
                "array" in types_of(sub) and
                "object" in types_of(sub.get("items", {})))]


def text(value):
    """A value of the file as a table's text: None for no value (the
    table shows '-'), a list of strings joined with commas."""
    if value is None or value == []:
        return None
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def expand(doc, each, schema=None):
    """One row per entry of each part that EACH names (a part that is
    one object gives one row; one the file lacks, or null, gives none),
    with every field of the part's entries (part_fields, None where an
    entry lacks it), `part` (which part it came from) and the file's
    identity (ident, which wins over an entry's field of the same
    name). A file with no entry at all still gives one row, its fields
    None, so that every file has a line in every table and a device
    without figures shows '-' rather than vanishing."""
    schema = schema or load_schema()
    parts = each if isinstance(each, list) else [each]
    fields = {p: part_fields(schema, p) for p in parts}
    every = list(dict.fromkeys(k for p in parts for k in fields[p]))
    base = dict.fromkeys(every + ["part"])
    rows = []
    for p in parts:
        value = doc
        for key in p.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        entries = value if isinstance(value, list) else \
            [value] if isinstance(value, dict) else []
        for e in entries:
            r = dict(base, part=p)
            r.update({k: text(e.get(k)) for k in fields[p]})
            rows.append(dict(r, **ident(doc)))
    return rows or [dict(base, **ident(doc))]


def self_test_cell(t):
    """The self-test's cell: for a refused device whose file names each
    atomics path the self-test tried (self_test.runs), what each read
    or why it stopped; otherwise the verdict, wrong reads and groups."""
    if t["verdict"] == "refused" and t.get("runs"):
        return "refused: " + "; ".join(
            "%s %d wrong reads of %d groups" % (r["path"], r["wrong_reads"],
                                                 r["groups"])
            if r["wrong_reads"] else "%s %s" % (
                r["path"], r["status"] if r["status"] != "XWG_SUCCESS"
                else r["result"])
            for r in t["runs"])
    return "%s: %d wrong reads%s, %d groups" % (
        t["verdict"], t["wrong_reads"],
        " in %d episodes" % t["episodes"] if t["episodes"] else "",
        t["groups"])


def path_cell(doc):
    """The atomics path xwg chose, and the one a refused device's figures
    were measured on where it was forced onto another."""
    chosen = doc["atomics"]["path"]
    forced = (doc.get("forced") or {}).get("atomics")
    if forced and forced != chosen:
        return "%s (measured forced on %s)" % (chosen, forced)
    return chosen


def row(doc, size=256):
    """The study table's line for one file, at SIZE work-items."""
    d, t = doc["device"], doc["self_test"]
    disc = [o for o in doc["discovery"]
            if o["local_size"] == size and o["local_mem"] == 0]
    bars = [b for b in doc["barrier"]
            if b["local_size"] == size and b["us"] is not None]
    best = min(bars, key=lambda b: b["us"]) if bars else None
    rel = [r["us"] for r in doc["relaunch"]
           if r["local_size"] == size and r["us"] is not None]
    stress = doc["stress"]
    wrong = sum(s["wrong_values"] for s in stress)

    def num(v, spec):
        return spec % v if v is not None else "-"
    verdict = doc["verdict"]
    if verdict == "refused":
        # The reason a reader can weigh: the most wrong reads of any path
        # the self-test tried (the last path's detail may only say that
        # it stopped), else the stress's wrong values, else the detail.
        reads = max([t["wrong_reads"] or 0] +
                    [r["wrong_reads"] for r in t.get("runs", [])])
        verdict = "refused (%s)" % (
            "%d wrong reads" % reads if reads else
            "%d wrong values in the stress" % wrong if wrong else
            t["detail"])
    return dict(ident(doc), **{
        "opencl": d.get("device_version") or "-",
        "opencl_c": d["opencl_c"],
        "path": path_cell(doc),
        "self_test": self_test_cell(t),
        "groups": num(disc[0]["groups_median"] if disc else None, "%d"),
        "discovery_ms": num(disc[0]["time_ms"] if disc else None, "%.2f"),
        "barrier_us": ("%.2f (%s)" % (best["us"], best["algo"])
                       if best else "-"),
        "relaunch_us": num(rel[0] if rel else None, "%.2f"),
        "relaunch_per_barrier": num(rel[0] / best["us"]
                                    if rel and best and best["us"] > 0
                                    else None, "%.1f"),
        "stress": ("%d of %d passed, %d wrong values" % (
            sum(s["result"] == "pass" for s in stress), len(stress), wrong)
                   if stress else "-"),
        "litmus_forbidden": "%d" % doc["litmus"]["weak_forbidden"],
        "verdict": verdict,
    })


NOT_RUN_KEYS = ("name", "implementation", "opencl", "opencl_c", "atomics",
                "concurrent_dispatch", "sources")


def not_run(path):
    try:
        with open(os.path.join(HERE, path), "rb") as f:
            vendors = tomllib.load(f).get("vendor", [])
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StudyError("%s: %s" % (path, e))
    rows = []
    for i, v in enumerate(vendors, 1):
        missing = [k for k in NOT_RUN_KEYS if not v.get(k)]
        if not missing and not (isinstance(v["sources"], list) and all(
                isinstance(u, str) for u in v["sources"])):
            missing = ["sources as a list of addresses"]
        if missing:
            raise StudyError("%s: vendor %d has no %s" % (path, i,
                                                         ", ".join(missing)))
        rows.append(dict({k: v[k] for k in NOT_RUN_KEYS[:-1]},
                         sources=" ".join("[%d](%s)" % (j, u) for j, u in
                                          enumerate(v["sources"], 1)),
                         notes=v.get("notes", ""), verdict="not run"))
    return rows
