#!/usr/bin/env python3
"""Needle recall and token savings of `winnow compress` over the real-output corpus.

    tests/corpus/quality.py [--winnow PATH] [--no-command | --both] [--family F] [--quiet]
                            [NAME-GLOB…]

For every sample in manifest.json: compress it as command output (mode rtk, standard
intensity, with its command unless --no-command), strip ANSI escapes from the result and check
that every needle is still there and that the sample reached the filter the manifest names.
Prints one line per sample, one per family, the samples that keep the most tokens, then a
closing summary line. --both runs the corpus with and then without the commands.

Tokens are counted by `winnow compress --json`, i.e. by the engine's own counter: OpenAI's
o200k_base byte-pair encoding, exact (the same token ids as tiktoken, held to them by
tests/test-tokens.c), with its vocabulary compiled into libwinnow, so no network is needed.

Exit status 1 if a needle is lost, an output grew or came back empty, or a sample reached
another filter than the manifest says.
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def plain(text):
    return ANSI.sub("", text).replace("\r\n", "\n")


def ratio(t_in, t_out):
    return 1 - t_out / t_in if t_in else 0.0


def run_corpus(args, manifest, with_command, env):
    """Compresses every selected sample; returns the totals and prints one line per sample."""
    families = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # in, out, needles, lost, n
    rows = []
    totals = collections.Counter()
    counter = None

    print(f"\n== {'with' if with_command else 'without'} the command ==")
    print(f"{'sample':34} {'family':8} {'filter':18} {'tokens in':>9} → {'out':>6} "
          f"{'saved':>7}  lost")
    for sample in manifest:
        if args.family and sample["family"] != args.family:
            continue
        if args.names and not any(fnmatch.fnmatch(sample["name"], g) for g in args.names):
            continue
        path = os.path.join(HERE, sample["file"])
        cmd = [args.winnow, "compress", "--json", "--no-project", "--mode", "rtk",
               "--intensity", "standard"]
        if with_command:
            cmd += ["--command", sample["command"]]
        cmd.append(path)
        proc = subprocess.run(cmd, capture_output=True, env=env)
        if proc.returncode != 0:
            print(f"ERROR {sample['name']}: {proc.stderr.decode(errors='replace')}")
            totals["lost"] += len(sample["needles"])
            totals["errors"] += 1
            continue
        result = json.loads(proc.stdout)
        counter = result["tokens"]["counter"]
        text = result["text"]
        out = plain(text)
        lost = [n for n in sample["needles"] if n not in out]
        t_in, t_out = result["tokens"]["before"], result["tokens"]["after"]
        raw_len = os.path.getsize(path)
        filt = (result.get("filter") or {}).get("id")
        wanted = sample["filter"]
        if not with_command and "routeWithoutCommand" in sample:
            wanted = sample["routeWithoutCommand"]
        if len(text.encode()) > raw_len:
            totals["grew"] += 1
        if raw_len > 0 and not out.strip():
            totals["empty"] += 1
        if filt != wanted:
            totals["misrouted"] += 1
        fam = families[sample["family"]]
        for k, v in enumerate((t_in, t_out, len(sample["needles"]), len(lost), 1)):
            fam[k] += v
        totals["in"] += t_in
        totals["out"] += t_out
        totals["needles"] += len(sample["needles"])
        totals["lost"] += len(lost)
        rows.append((t_out, sample["name"], t_in))
        if not args.quiet or lost or filt != wanted:
            note = "" if filt == wanted else f"  ROUTED to {filt or 'none'}, not {wanted or 'none'}"
            print(f"{sample['name']:34} {sample['family']:8} {filt or '-':18} {t_in:9} → "
                  f"{t_out:6} {ratio(t_in, t_out):7.1%}  {len(lost)}/{len(sample['needles'])}"
                  f"{note}")
            for n in lost:
                print(f"      LOST: {n!r}")

    print()
    print(f"{'family':10} {'samples':>7} {'tokens in':>10} → {'out':>8} {'saved':>7} "
          f"{'needles':>8} {'lost':>5} {'recall':>8}")
    for name in sorted(families):
        t_in, t_out, n, lost, count = families[name]
        print(f"{name:10} {count:7} {t_in:10} → {t_out:8} {ratio(t_in, t_out):7.1%} {n:8} "
              f"{lost:5} {(n - lost) / n if n else 1:8.1%}")

    if rows and totals["out"]:
        print("\nsamples keeping the most tokens (what holds the savings back):")
        for t_out, name, t_in in sorted(rows, reverse=True)[:8]:
            print(f"  {name:34} {t_in:7} → {t_out:6}  {t_out / totals['out']:6.1%} of all "
                  f"tokens left")
    totals["counter"] = counter
    return totals


def summary(label, totals):
    recall = ((totals["needles"] - totals["lost"]) / totals["needles"]
              if totals["needles"] else 1.0)
    return (f"{label}: tokens {totals['in']} → {totals['out']}, saved "
            f"{ratio(totals['in'], totals['out']):.1%}; needle recall {recall:.1%} "
            f"({totals['lost']} lost of {totals['needles']}); grew {totals['grew']}; "
            f"empty {totals['empty']}; misrouted {totals['misrouted']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--winnow", default=os.path.join(ROOT, "_build", "app", "winnow"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--no-command", action="store_true")
    mode.add_argument("--both", action="store_true")
    ap.add_argument("--family")
    ap.add_argument("--quiet", "-q", action="store_true", help="only samples with a problem")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    with open(os.path.join(HERE, "manifest.json")) as fh:
        manifest = json.load(fh)

    runs = [True, False] if args.both else [not args.no_command]
    failed = False
    lines = []
    with tempfile.TemporaryDirectory() as home:
        # the user's settings (default mode, disabled filters) must not change the figures
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(home, "config"),
                   XDG_DATA_HOME=os.path.join(home, "data"))
        env.pop("WINNOW_BUILTIN_FILTERS_DIR", None)
        counter = None
        for with_command in runs:
            totals = run_corpus(args, manifest, with_command, env)
            counter = totals["counter"] or counter
            lines.append(summary("with commands" if with_command else "without commands",
                                 totals))
            failed |= bool(totals["lost"] or totals["grew"] or totals["empty"] or
                           totals["misrouted"] or totals["errors"])

    print(f"\ntoken counter: {counter} (the engine's exact byte-pair encoding, as tiktoken)")
    for line in lines:
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
