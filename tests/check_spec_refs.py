#!/usr/bin/env python3
"""check_spec_refs.py - docs/spec.md points at lines of kernels/ as
`kernels/FILE:LINE`, followed by the code it means in backticks. This
checks that each such line still holds that code, so the specification
cannot silently drift from the kernels it describes.

Usage: check_spec_refs.py [ROOT]   (exit 1 on any stale reference)
"""
import os
import re
import sys

REF = re.compile(r"`(kernels/[\w.]+):(\d+)`,\s*`([^`]+)`")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
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
