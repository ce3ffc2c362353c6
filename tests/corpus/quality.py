#!/usr/bin/env python3
"""Needle recall and savings of `winnow compress` over the real-output corpus.

    tests/corpus/quality.py [--winnow PATH] [--no-command] [--family F] [--verbose] [NAME-GLOB…]

For every sample in manifest.json: compress it (with its command unless --no-command), strip
ANSI escapes from the result, and check that every needle is still there. Prints one line per
sample and per family, then a summary line; exits 1 if a needle is lost, an output grew or came
back empty. Token figures come from `winnow compress --json`, i.e. from Winnow's own counter,
whose name is printed.
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def plain(text):
    return ANSI.sub("", text).replace("\r\n", "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--winnow", default=os.path.join(ROOT, "_build", "app", "winnow"))
    ap.add_argument("--no-command", action="store_true")
    ap.add_argument("--family")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    with open(os.path.join(HERE, "manifest.json")) as fh:
        manifest = json.load(fh)

    families = collections.defaultdict(lambda: [0, 0, 0, 0])  # in, out, needles, lost
    lost_total = needles_total = grew = empty = 0
    tokens_in = tokens_out = 0
    counter = None

    for sample in manifest:
        if args.family and sample["family"] != args.family:
            continue
        if args.names and not any(fnmatch.fnmatch(sample["name"], g) for g in args.names):
            continue
        path = os.path.join(HERE, sample["file"])
        cmd = [args.winnow, "compress", "--json", "--no-project"]
        if not args.no_command:
            cmd += ["--command", sample["command"]]
        cmd.append(path)
        proc = subprocess.run(cmd, capture_output=True)
        if proc.returncode != 0:
            print(f"ERROR {sample['name']}: {proc.stderr.decode(errors='replace')}")
            lost_total += len(sample["needles"])
            continue
        result = json.loads(proc.stdout)
        counter = result["tokens"]["counter"]
        out = plain(result["text"])
        lost = [n for n in sample["needles"] if n not in out]
        t_in, t_out = result["tokens"]["before"], result["tokens"]["after"]
        if result["bytes"]["after"] > result["bytes"]["before"]:
            grew += 1
        if result["bytes"]["before"] > 0 and not out.strip():
            empty += 1
        fam = families[sample["family"]]
        fam[0] += t_in
        fam[1] += t_out
        fam[2] += len(sample["needles"])
        fam[3] += len(lost)
        tokens_in += t_in
        tokens_out += t_out
        needles_total += len(sample["needles"])
        lost_total += len(lost)
        saved = 1 - t_out / t_in if t_in else 0
        if args.verbose or lost:
            print(f"{sample['name']:40} {result['filter']['id'] or '-':22} {t_in:7} -> {t_out:6} "
                  f"{saved:6.1%}  lost {len(lost)}/{len(sample['needles'])}")
            for n in lost:
                print(f"      LOST: {n!r}")

    print()
    print(f"{'family':10} {'tokens in':>10} {'out':>8} {'saved':>7} {'recall':>8}")
    for name in sorted(families):
        t_in, t_out, n, l = families[name]
        print(f"{name:10} {t_in:10} {t_out:8} {1 - t_out / t_in if t_in else 0:7.1%} "
              f"{(n - l) / n if n else 1:8.1%}")
    recall = (needles_total - lost_total) / needles_total if needles_total else 1
    print(f"\ntokens {tokens_in} -> {tokens_out}, saved "
          f"{1 - tokens_out / tokens_in if tokens_in else 0:.1%}; needle recall {recall:.1%} "
          f"({lost_total} lost of {needles_total}); grew {grew}; empty {empty}; counter: {counter}")
    return 1 if lost_total or grew or empty else 0


if __name__ == "__main__":
    sys.exit(main())
