#!/usr/bin/env python3
"""check_spec_refs.py - docs/spec.md points at lines of kernels/ as
`kernels/FILE:LINE`, followed by the code it means in backticks. This
checks that each such line still holds that code, so the specification
cannot silently drift from the kernels it describes.

Usage: check_spec_refs.py [--fix] [ROOT]   (exit 1 on any stale reference)
  --fix  moves each stale reference to where its line went since the
         last commit (the kernel diffed against git's HEAD), or else to
         the one line that now holds its code, and rewrites docs/spec.md;
         a reference that neither places stays stale, to be moved by hand
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

REF = re.compile(r"`(kernels/[\w.]+):(\d+)`,\s*`([^`]+)`")


def unwrap(text):
    """The spec's text with line breaks (and the spaces around them) as
    single spaces: references and the code they quote may wrap."""
    return re.sub(r"\s*\n\s*", " ", text)


def moved_lines(root, path, now):
    """{line at HEAD: line now} for the lines of `path` that the diff from
    git's HEAD keeps; empty where git cannot show HEAD's version."""
    try:
        was = subprocess.run(["git", "-C", root, "show", "HEAD:" + path],
                             capture_output=True, text=True,
                             check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {}
    where = {}
    matcher = difflib.SequenceMatcher(None, was, now, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            where[block.a + k + 1] = block.b + k + 1
    return where


def fix(spec_path, root):
    """Moves each stale reference to its line's new place, or to the one
    line that holds its code."""
    raw = open(spec_path, encoding="utf-8").read()
    files, moves = {}, {}

    def move(m):
        path, line, code = m.group(1), int(m.group(2)), m.group(3)
        code = unwrap(code).strip()
        if path not in files:
            files[path] = open(os.path.join(root, path),
                               encoding="utf-8").read().splitlines()
        lines = files[path]
        if 0 < line <= len(lines) and code in lines[line - 1]:
            return m.group(0)
        if path not in moves:
            moves[path] = moved_lines(root, path, lines)
        to = moves[path].get(line)
        if to is None or code not in lines[to - 1]:
            hits = [i + 1 for i, l in enumerate(lines) if code in l]
            if len(hits) != 1:
                return m.group(0)
            to = hits[0]
        print("moved: %s:%d -> %d `%s`" % (path, line, to, code))
        return m.group(0).replace(":%d`" % line, ":%d`" % to, 1)
    open(spec_path, "w", encoding="utf-8").write(REF.sub(move, raw))


def main():
    parser = argparse.ArgumentParser(
        description="Checks docs/spec.md's references into kernels/.")
    parser.add_argument("--fix", action="store_true",
                        help="move references that an edit shifted")
    parser.add_argument("root", nargs="?", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    root = args.root
    if args.fix:
        fix(os.path.join(root, "docs", "spec.md"), root)
    text = open(os.path.join(root, "docs", "spec.md"), encoding="utf-8").read()
    text = unwrap(text)
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
