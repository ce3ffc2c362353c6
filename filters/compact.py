#!/usr/bin/env python3
"""Build the runtime index of the built-in filters: every pack without its tests[].

    compact.py OUTPUT FILE.json…

libwinnow parses this one small document at start-up instead of every filter file with its
test samples (most of their bytes); a filter's tests are read from its own file in the
resource when somebody asks for them (the verify gate, the editor).
"""
import json
import os
import sys


def strip(node):
    if isinstance(node, list):
        return [strip(n) for n in node]
    if isinstance(node, dict):
        return {k: v for k, v in node.items() if k != "tests"}
    return node


def main():
    out, files = sys.argv[1], sys.argv[2:]
    index = []
    for path in sorted(files, key=os.path.basename):
        with open(path, encoding="utf-8") as fh:
            index.append({"file": os.path.basename(path), "pack": strip(json.load(fh))})
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(index, fh, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
