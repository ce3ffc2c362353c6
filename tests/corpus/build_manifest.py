#!/usr/bin/env python3
"""Build manifest.json from the capture records written by regen.sh and the
hand-picked needles in needles.json; check that every needle really occurs in
its (ANSI-stripped) sample.

Each entry also names the filter it is meant to reach ("filter": the built-in filter
whose match.outputTypes claims the sample's output type, generic-output when none does),
and, for the few outputs that are ambiguous without their command (routing.json, with a
reason each), where it goes without it.

Records of this run (.captures.tsv) replace the manifest entries of the same
name, so a partial `regen.sh 'git-*'` keeps the other entries.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

FIELDS = ["name", "family", "tool", "outputType", "cwd", "command", "exit", "colored", "tty"]


def strip_ansi(text):
    return ANSI.sub("", text)


def plain_text(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("utf-8", errors="replace")
    return strip_ansi(text).replace("\r\n", "\n")


def filters_by_type():
    """output type -> id of the built-in filter that claims it (highest priority first)."""
    claims = {}
    for path in sorted(glob.glob(os.path.join(HERE, "..", "..", "filters", "*.json"))):
        with open(path) as fh:
            doc = json.load(fh)
        for f in doc if isinstance(doc, list) else [doc]:
            for t in f.get("match", {}).get("outputTypes", []):
                claims.setdefault(t, []).append((-f.get("priority", 0), f["id"]))
    return {t: sorted(c)[0][1] for t, c in claims.items()}


def main():
    manifest_path = os.path.join(HERE, "manifest.json")
    old = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as fh:
            old = {e["name"]: e for e in json.load(fh)}
    with open(os.path.join(HERE, "needles.json")) as fh:
        needles = json.load(fh)

    with open(os.path.join(HERE, "routing.json")) as fh:
        routing = {k: v for k, v in json.load(fh).items() if not k.startswith("_")}
    claims = filters_by_type()

    entries = dict(old)
    rec_path = os.path.join(HERE, ".captures.tsv")
    if os.path.exists(rec_path):
        with open(rec_path) as fh:
            for line in fh:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != len(FIELDS):
                    print("bad record:", line, file=sys.stderr)
                    continue
                rec = dict(zip(FIELDS, parts))
                entries[rec["name"]] = {
                    "name": rec["name"],
                    "family": rec["family"],
                    "tool": rec["tool"],
                    "command": rec["command"],
                    "cwd": "projects" if rec["cwd"] == "." else "projects/" + rec["cwd"],
                    "exit": int(rec["exit"]),
                    "file": "samples/%s.txt" % rec["name"],
                    "colored": rec["colored"] == "true",
                    "tty": rec["tty"] == "true",
                    "outputType": rec["outputType"],
                }

    problems = 0
    out = []
    for name in sorted(entries):
        e = entries[name]
        path = os.path.join(HERE, e["file"])
        if not os.path.exists(path):
            print("missing sample file:", e["file"], file=sys.stderr)
            problems += 1
            continue
        text = plain_text(path)
        e["lines"] = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        e["bytes"] = os.path.getsize(path)
        if name not in needles:
            print("no needles entry for", name, file=sys.stderr)
            problems += 1
        e["needles"] = needles.get(name, [])
        for n in e["needles"]:
            if n not in text:
                print("needle not found in %s: %r" % (name, n), file=sys.stderr)
                problems += 1
        e["filter"] = claims.get(e["outputType"], "generic-output")
        order = ["name", "family", "tool", "command", "cwd", "exit", "file", "colored", "tty",
                 "outputType", "filter", "lines", "bytes", "needles"]
        entry = {k: e[k] for k in order}
        if name in routing:
            entry["routeWithoutCommand"] = routing[name]["routeWithoutCommand"]
            entry["routeReason"] = routing[name]["reason"]
        out.append(entry)
    for name in sorted(set(routing) - set(entries)):
        print("routing.json names an unknown sample:", name, file=sys.stderr)
        problems += 1

    with open(manifest_path, "w") as fh:
        json.dump(out, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print("manifest.json: %d samples, %d problem(s)" % (len(out), problems), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
