#!/usr/bin/env python3
"""check_spec_refs.py - docs/spec.md points at lines of kernels/ as
`kernels/FILE:LINE`, followed by the code it means in backticks. This
checks that each such line still holds that code, so the specification
cannot silently drift from the kernels it describes.

Usage: check_spec_refs.py [--fix] [ROOT]   (exit 1 on any stale reference)
  --fix  moves each stale reference to the one line that now holds its
         code and rewrites docs/spec.md; where several lines hold it, the
         reference stays stale, to be moved by hand
"""
import os
import re
import sys

REF = re.compile(r"`(kernels/[\w.]+):(\d+)`,\s*`([^`]+)`")


def fix(spec_path, root):
    """Moves each stale reference whose code sits on exactly one line."""
    raw = open(spec_path, encoding="utf-8").read()
    files = {}

    def move(m):
        path, line, code = m.group(1), int(m.group(2)), m.group(3)
        code = re.sub(r"\s+", " ", code).strip()
        lines = files.setdefault(path, open(
            os.path.join(root, path), encoding="utf-8").read().splitlines())
        if 0 < line <= len(lines) and code in lines[line - 1]:
            return m.group(0)
        hits = [i + 1 for i, l in enumerate(lines) if code in l]
        if len(hits) != 1:
            return m.group(0)
        return m.group(0).replace(":%d`" % line, ":%d`" % hits[0], 1)
    wrapped = re.compile(r"`(kernels/[\w.]+):(\d+)`,\s*`([^`]+)`")
    open(spec_path, "w", encoding="utf-8").write(wrapped.sub(move, raw))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--fix":
        args = args[1:]
        do_fix = True
    else:
        do_fix = False
    root = args[0] if args else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    if do_fix:
        fix(os.path.join(root, "docs", "spec.md"), root)
    text = open(os.path.join(root, "docs", "spec.md"), encoding="utf-8").read()
    text = re.sub(r"\s*\n\s*", " ", text)  # references may wrap
    checked, stale = 0, 0
    for path, line, code in REF.findall(text):
        lines = open(os.path.join(root, path), encoding="utf-8").read().splitlines()
        n = int(line)
        have = lines[n - 1] if 0 < n <= len(lines) else ""
        checked += 1
        if code.strip() not in have:
            stale += 1
            print("stale: %s:%s should hold `%s` but holds `%s`"
                  % (path, line, code, have.strip()))
    print("%d passed, %d failed" % (checked - stale, stale))
    return 1 if stale or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
