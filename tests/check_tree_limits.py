#!/usr/bin/env python3
"""check_tree_limits.py ROOT [--self-test] - the sizes that keep the tree a
library a reader can take in: README.md at most 200 lines, the
performance reference (docs/performance.md) at most 400, the public
header at most 350, and scripts/ at most 12 files (every experiment is
one script under experiments/, run through scripts/run).

Prints each limit that a file or folder passes, and exits 1 if any does.
--self-test also checks that each limit can fail: a copy of the tree with
one line (or one script) too many must be refused.
"""
import os
import shutil
import sys
import tempfile

LINE_LIMITS = {
    "README.md": 200,
    "docs/performance.md": 400,
    "include/xwg_barrier.h": 350,
}
SCRIPTS_LIMIT = 12


def lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def over_limits(root):
    """Each limit that the tree at ROOT passes, as a sentence."""
    found = []
    for rel, limit in LINE_LIMITS.items():
        n = lines(os.path.join(root, rel))
        if n > limit:
            found.append("%s has %d lines, over its %d" % (rel, n, limit))
    scripts = [e for e in os.listdir(os.path.join(root, "scripts"))
               if not e.startswith(".")]
    if len(scripts) > SCRIPTS_LIMIT:
        found.append("scripts/ has %d files, over its %d"
                     % (len(scripts), SCRIPTS_LIMIT))
    return found


def self_test(root):
    """Each limit refuses a copy of the tree that is one over it."""
    failures = []
    work = tempfile.mkdtemp(prefix="check-tree-limits-")
    try:
        for rel, limit in LINE_LIMITS.items():
            os.makedirs(os.path.join(work, os.path.dirname(rel)),
                        exist_ok=True)
        os.makedirs(os.path.join(work, "scripts"))
        for rel, limit in LINE_LIMITS.items():
            with open(os.path.join(work, rel), "w") as f:
                f.write("x\n" * limit)
        for i in range(SCRIPTS_LIMIT):
            open(os.path.join(work, "scripts", "s%d" % i), "w").close()
        if over_limits(work):
            failures.append("a tree at every limit was refused: %s"
                            % over_limits(work))
        for rel, limit in LINE_LIMITS.items():
            with open(os.path.join(work, rel), "a") as f:
                f.write("x\n")
            if not any(s.startswith(rel) for s in over_limits(work)):
                failures.append("%s at %d lines was not refused"
                                % (rel, limit + 1))
            with open(os.path.join(work, rel), "w") as f:
                f.write("x\n" * limit)
        open(os.path.join(work, "scripts", "one-more"), "w").close()
        if not any(s.startswith("scripts/") for s in over_limits(work)):
            failures.append("scripts/ with %d files was not refused"
                            % (SCRIPTS_LIMIT + 1))
    finally:
        shutil.rmtree(work)
    return failures


def main():
    root = os.path.abspath(sys.argv[1])
    found = over_limits(root)
    if "--self-test" in sys.argv[2:]:
        found += ["self-test: " + s for s in self_test(root)]
    for s in found:
        print("check_tree_limits: %s" % s)
    if not found:
        print("check_tree_limits: README, performance.md, the header and "
              "scripts/ within their limits")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
