#!/usr/bin/env python3
"""check_orders.py - the memory orders that docs/spec.md relies on, checked
in the compiled kernel-side library.

The proofs in docs/spec.md (clauses D and B) assume that each
synchronising access has at least a certain order, at device scope: the
grid arrival is acq_rel, a wait ends in an acquire, a flag is raised with
a release. The stress tests cannot notice a weakened one: no device in CI
reorders (PoCL's x86 and Oclgrind keep plain stores in order), and the
H200 catches only some. So this compiles the library with clang (the
compiler PoCL ships with) to LLVM IR without inlining, and checks each
rule of RULES below against the atomic accesses that a function reaches
through its calls:
  cl20  spir64, where each access is a call of an OpenCL C 2.0 builtin
        whose order and scope are constant arguments;
  ptx   nvptx64, where each is inline PTX (`atom.acq_rel.gpu...`).
The cl12 path has no memory model to check against (docs/spec.md): its
orders come from fences whose meaning is the implementation's.

Usage: check_orders.py [--clang CLANG] [--path cl20|ptx]... [--dump]
                       [-D NAME[=VALUE]]... [ROOT]
  -D      passed to the compiler (a known-bad build:
          -D XWG_TEST_BROKEN_RELAXED_RELEASE must fail)
  --dump  prints each function's accesses instead of checking
Exit 0 when every rule holds on every path, 1 when one does not (each
broken rule is printed), 2 when the library does not compile.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# The library, in the order program.c embeds it (CMakeLists.txt).
SOURCES = ["xwg_tuning.h", "xwg_state_layout.h", "xwg_atomics.cl",
           "xwg_discovery.cl", "xwg_barrier.cl", "xwg_collectives.cl"]

# A kernel that reaches every entry point, so that every function that
# the library's kernels can call is compiled.
PROBE = r"""
__kernel void xwg_orders_probe(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    xwg_barrier();
    uint token = xwg_barrier_arrive();
    xwg_barrier_wait(token);
    uint total;
    xwg_reduce_token r = xwg_reduce_add_uint_arrive(4u);
    uint nonblocking = xwg_reduce_add_uint_wait(r);
    out[0] = xwg_reduce_add_uint(1u) + xwg_broadcast_uint(2u, 0u) +
             xwg_scan_exclusive_add_uint(3u, &total) +
             xwg_scan_groups_exclusive_add_uint(5u, &total) + nonblocking +
             xwg_failed();
}
"""

TARGETS = {
    "cl20": ["-target", "spir64", "-DXWG_PATH_CL20=1"],
    # clang spells the keyword `__asm__` in OpenCL C; NVIDIA's compiler
    # takes `asm` as the library writes it.
    "ptx": ["-target", "nvptx64-nvidia-nvcl", "-DXWG_PATH_CL20=1",
            "-DXWG_PATH_PTX=1", "-Dasm=__asm__"],
}

# OpenCL C's memory_order and memory_scope values, as clang passes them.
CL_ORDERS = {0: "relaxed", 2: "acquire", 3: "release", 4: "acq_rel",
             5: "seq_cst"}
CL_SCOPES = {0: "work_item", 1: "work_group", 2: "device",
             3: "all_svm_devices", 4: "sub_group"}
ACQUIRES = {"acquire", "acq_rel", "seq_cst"}
RELEASES = {"release", "acq_rel", "seq_cst"}
WIDE_SCOPES = {"device", "all_svm_devices", "gpu", "sys"}


class Access:
    """One atomic access or fence: its kind (load, store, rmw, fence),
    order and scope, and the function that makes it."""

    def __init__(self, kind, order, scope, where):
        self.kind, self.order, self.scope, self.where = (kind, order, scope,
                                                         where)

    def __repr__(self):
        return "%s %s %s (in %s)" % (self.kind, self.order, self.scope,
                                     self.where)


CL_BUILTIN = re.compile(
    r"@_Z\d+atomic_(load|store|fetch_\w+?|work_item_fence)(?:_explicit)?"
    r"\w*\((.*)\)")
PTX_ASM = re.compile(r'asm sideeffect "(ld|st|atom|red|fence)\.([a-z_.0-9]*)')
CALL = re.compile(r"call [^@]*@(xwg\w+)\(")
DEFINE = re.compile(r"^define [^@]*@(\w+)\(")


def constant_args(args):
    """The trailing integer constants of a call's argument list."""
    return [int(x) for x in re.findall(r"i32 (?:noundef )?(-?\d+)(?=,|$)",
                                       args)]


def parse_cl(line, where):
    m = CL_BUILTIN.search(line)
    if not m:
        return None
    name, args = m.group(1), constant_args(m.group(2))
    if name == "work_item_fence":  # (flags, order, scope)
        kind, order, scope = "fence", args[-2], args[-1]
    else:
        kind = {"load": "load", "store": "store"}.get(name, "rmw")
        order, scope = args[-2], args[-1]
    return Access(kind, CL_ORDERS.get(order, str(order)),
                  CL_SCOPES.get(scope, str(scope)), where)


def parse_ptx(line, where):
    m = PTX_ASM.search(line)
    if not m:
        return None
    op, qualifiers = m.group(1), m.group(2).split(".")
    kind = {"ld": "load", "st": "store", "fence": "fence"}.get(op, "rmw")
    order = next((q for q in qualifiers if q in CL_ORDERS.values()),
                 "relaxed")
    scope = next((q for q in qualifiers if q in ("cta", "gpu", "sys")), "?")
    return Access(kind, order, scope, where)


def functions(ir):
    """{name: (its own accesses, the xwg functions it calls)}."""
    found, name = {}, None
    for line in ir.splitlines():
        m = DEFINE.match(line)
        if m:
            name = m.group(1)
            found[name] = ([], set())
        elif line.startswith("}"):
            name = None
        elif name is not None:
            access = parse_cl(line, name) or parse_ptx(line, name)
            if access:
                found[name][0].append(access)
            else:
                found[name][1].update(CALL.findall(line))
    return found


def reached(funcs, name, seen=None):
    """Every access that `name` makes itself or through its calls."""
    seen = set() if seen is None else seen
    if name in seen or name not in funcs:
        return []
    seen.add(name)
    own, calls = funcs[name]
    out = list(own)
    for callee in sorted(calls):
        out += reached(funcs, callee, seen)
    return out


def acquires(a):
    return a.order in ACQUIRES


def releases(a):
    return a.order in RELEASES


def acq_rel(a):
    return acquires(a) and releases(a)


class Rule:
    """In `function` (through its calls), every access of `kind` (or, with
    some=True, at least one) satisfies `need`; `why` is the clause of
    docs/spec.md that relies on it."""

    def __init__(self, function, kind, need, why, some=False):
        self.function, self.kind, self.need = function, kind, need
        self.why, self.some = why, some

    def broken(self, funcs):
        """A sentence for each way the rule fails, or []."""
        if self.function not in funcs:
            return ["%s is not in the compiled library" % self.function]
        kinds = self.kind.split("|")
        mine = [a for a in reached(funcs, self.function) if a.kind in kinds]
        good = [a for a in mine if self.need(a)]
        what = "%s of %s" % (self.need.__name__, self.kind)
        if self.some:
            return [] if good else [
                "%s: no %s access %s (it has %s)" % (
                    self.function, self.kind, self.need.__name__, mine)]
        if not mine:
            return ["%s makes no %s access" % (self.function, self.kind)]
        return ["%s: %r breaks 'every %s'" % (self.function, a, what)
                for a in mine if not self.need(a)]


RULES = [
    # Discovery (clause D).
    Rule("xwg__poll_stable_window", "rmw", acq_rel,
         "D: an arrival's add and the closer's or are acq_rel"),
    Rule("xwg__poll_stable_window", "store", releases,
         "D: the closer publishes the count with a release", some=True),
    Rule("xwg__poll_stable_window", "load", acquires,
         "D: a late arrival acquires the published count", some=True),
    Rule("xwg__ticket_lock", "load|fence", acquires,
         "D: taking the lock acquires the last holder's writes", some=True),
    Rule("xwg__ticket_unlock", "store", releases,
         "D: the holder releases the lock with a release"),
    # The barrier's arrivals (clause B2) and waits (B3, B4).
    Rule("xwg__grid_arrive", "rmw", acq_rel,
         "B2: the grid arrival publishes, and the last one acquires"),
    Rule("xwg__counter_arrive", "rmw", releases,
         "B2: every arrival at the counter publishes"),
    Rule("xwg__tree_arrive", "rmw", releases,
         "B2: every arrival at a cluster or the grid publishes"),
    Rule("xwg__tree_arrive", "rmw", acq_rel,
         "B2: the cluster's last arrival acquires its members'", some=True),
    Rule("xwg__episode_wait", "rmw", releases,
         "B4: the tree's wake publishes what its waker acquired"),
    Rule("xwg__collected", "load|fence", acquires,
         "B3: a wait ends in an acquire (every polling mode)", some=True),
    Rule("xwg__xf_arrive_or_collect", "store", releases,
         "XF: a slave raises its flag with a release", some=True),
    Rule("xwg__xf_arrive_or_collect", "load|fence", acquires,
         "XF: the master's collection acquires", some=True),
    Rule("xwg__xf_release", "store", releases,
         "XF: the master lowers the flags with a release"),
]

# Every access the barrier, discovery and the collectives make is at
# device scope or wider: another group is another work-group.
SCOPED = ["xwg__discover", "xwg_barrier_of", "xwg_barrier_arrive_of",
          "xwg_barrier_wait_of", "xwg_reduce_add_uint_of",
          "xwg_broadcast_uint_of", "xwg_scan_exclusive_add_uint_of",
          "xwg_scan_groups_exclusive_add_uint_of",
          "xwg_reduce_add_uint_arrive_of", "xwg_reduce_add_uint_wait_of"]


def compile_ir(clang, root, path, defines):
    library = "".join(open(os.path.join(root, "kernels", f),
                           encoding="utf-8").read() + "\n" for f in SOURCES)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "orders.cl")
        with open(src, "w", encoding="utf-8") as f:
            f.write("#define XWG__SCRATCH_WORDS 64u\n" + library + PROBE)
        # gnu89 inline: each `inline` function gets a body of its own,
        # which -O0 keeps, so each access stays in the function that
        # makes it.
        cmd = ([clang, "-x", "cl", "-cl-std=CL2.0", "-Xclang",
                "-finclude-default-header", "-O0", "-fgnu89-inline",
                "-emit-llvm", "-S", "-o", "-"] + TARGETS[path] +
               ["-D" + d for d in defines] + [src])
        run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write("check_orders: %s does not compile the %s path:\n%s"
                         % (clang, path, run.stderr[-4000:]))
        sys.exit(2)
    return run.stdout


def check(funcs):
    problems = []
    for rule in RULES:
        problems += ["%s  [%s]" % (p, rule.why) for p in rule.broken(funcs)]
    for entry in SCOPED:
        for a in reached(funcs, entry):
            if a.scope not in WIDE_SCOPES and a.kind != "fence":
                problems.append("%s: %r is narrower than device scope"
                                % (entry, a))
    return sorted(set(problems))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clang", default="clang")
    ap.add_argument("--path", action="append", choices=sorted(TARGETS))
    ap.add_argument("--dump", action="store_true")
    ap.add_argument("-D", dest="defines", action="append", default=[])
    ap.add_argument("root", nargs="?",
                    default=os.path.dirname(os.path.dirname(
                        os.path.abspath(__file__))))
    args = ap.parse_args()
    failed = 0
    for path in args.path or sorted(TARGETS):
        funcs = functions(compile_ir(args.clang, args.root, path,
                                     args.defines))
        if args.dump:
            for name in sorted(funcs):
                accesses = reached(funcs, name)
                if accesses and name.startswith("xwg"):
                    print("%s %s:\n  %s" % (path, name, "\n  ".join(
                        map(repr, accesses))))
            continue
        problems = check(funcs)
        for p in problems:
            print("%s: %s" % (path, p))
        print("check_orders: %s path: %d rules, %s" % (
            path, len(RULES) + 1,
            "all hold" if not problems else "%d broken" % len(problems)))
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
