#!/usr/bin/env python3
"""Writes the seed inputs of one fuzz target into a folder (./dev fuzz calls it once per
corpus): each target reads its bytes in its own layout (see the comment atop fuzz-TARGET.c),
so the seeds are the project's own filters, rule packs, samples and prose put in that layout.

    make-seeds.py TARGET OUTDIR
"""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.normpath(os.path.join(here, "..", ".."))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def filter_patterns():
    out = []
    for path in sorted(glob.glob(os.path.join(top, "filters", "*.json"))):
        doc = json.loads(read(path))
        for f in doc if isinstance(doc, list) else [doc]:
            for section in ("match", "rules", "preserve"):
                for value in (f.get(section) or {}).values():
                    if isinstance(value, list):
                        for item in value:
                            if isinstance(item, str):
                                out.append(item)
                            elif isinstance(item, dict) and "pattern" in item:
                                out.append(item["pattern"])
    return out


def samples(limit=4096):
    paths = sorted(glob.glob(os.path.join(top, "tests", "corpus", "samples", "*")))
    paths += sorted(glob.glob(os.path.join(top, "tests", "adapters", "*.*")))
    return [read(p)[:limit] for p in paths if os.path.isfile(p)]


def prose(limit=4096):
    out = []
    for path in sorted(glob.glob(os.path.join(top, "tests", "prose", "messages", "*.json"))):
        doc = json.loads(read(path))
        if isinstance(doc, dict) and isinstance(doc.get("text"), str):
            out.append(doc["text"].encode()[:limit])
    return out


def seeds(target):
    if target == "filter-pack":
        for path in sorted(glob.glob(os.path.join(top, "filters", "*.json"))):
            yield read(path)
    elif target == "rule-pack":
        for path in sorted(glob.glob(os.path.join(top, "rules", "*", "*.json"))):
            yield read(path)
    elif target == "settings":
        for path in sorted(glob.glob(os.path.join(here, "seeds", "settings", "*.json"))):
            yield read(path)
    elif target == "regex":
        lines = [s.split(b"\n")[0][:200] for s in samples()]
        for i, pattern in enumerate(filter_patterns()[:400]):
            flags = [b"", b"g", b"i", b"gm", b"y", b"s"][i % 6]
            yield flags + b"\n" + pattern.encode() + b"\0" + lines[i % len(lines)] + b"\0$1<$&>"
    elif target == "rtk":
        patterns = [p.encode() for p in filter_patterns()]
        for i, text in enumerate(samples()):
            p = lambda k: patterns[(i * 7 + k) % len(patterns)] + b"\x01"
            header = bytes([0xFF, 0x53, 40, 120]) + b"nothing\x01"
            header += bytes([1]) + p(0) + b"\x01"      # replace: one, deleting
            header += bytes([1]) + p(1) + b"m\x01\x01"  # matchOutput: one
            header += bytes([1]) + p(2)                 # dropPatterns
            header += bytes([0]) + bytes([1]) + p(3)    # includePatterns, collapsePatterns
            header += bytes([1]) + p(4) + bytes([1]) + p(5)
            yield header + text
            yield bytes([i & 0x0F, 0]) + bytes(7) + text
    elif target == "caveman":
        for i, text in enumerate(prose()):
            yield bytes([i % 16, 1 + i % 3]) + text
    elif target == "adapters":
        for i, text in enumerate(samples(16384)):
            yield bytes([0x10 | (i % 8), 90]) + text
    elif target == "server":
        bodies = [
            (0, {"messages": [{"role": "user", "content": "Could you please just check the build log?"}],
                 "mode": "stacked"}),
            (0, {"messages": [{"role": "tool", "content": "error: boom\n" * 20, "command": "make"}]}),
            (1, {"text": "ok 1\nok 2\nnot ok 3 - boom\n", "command": "prove -v"}),
            (1, {"text": "x", "config": {"intensity": "aggressive", "maxLinesPerResult": 5}}),
            (2, {"defaultMode": "rtk", "autoTriggerTokens": 1000, "rawOutputRetention": "failures"}),
            (2, {"stackedPipeline": [{"engine": "caveman", "intensity": "full"}]}),
            (3, {"intensity": "aggressive", "maxLinesPerResult": 50, "enabled": True}),
        ]
        for route, body in bodies:
            yield bytes([route]) + json.dumps(body).encode()
        yield bytes([4]) + b"0123456789abcdef"
        yield bytes([5]) + b"since=2026-01-01T00:00:00Z&group=day"
        for route in (6, 7, 8):
            yield bytes([route])
    else:
        sys.exit(f"make-seeds.py: no target {target}")


def main():
    target, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for n, data in enumerate(seeds(target), 1):
        with open(os.path.join(outdir, f"seed-{n:04d}"), "wb") as f:
            f.write(data)
    print(f"{n} seeds for {target}")


if __name__ == "__main__":
    main()
