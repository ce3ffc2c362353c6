#!/usr/bin/env python3
"""Turn a corpus sample into a filter test entry, with the filter's current output as expected.

    tests/corpus/make-test.py FILTER.json SAMPLE-NAME [TEST-NAME] [--lines A:B]

Prints the JSON object to paste into the filter's "tests" array. The expected output is what
the filter produces now (the filter alone, as the verify gate runs it): READ IT before keeping
it. --lines takes a contiguous excerpt of the sample (1-based, inclusive) for long outputs.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--lines")]
    lines = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--lines=")), None)
    if len(args) < 2:
        print(__doc__)
        return 2
    filter_path, sample_name = args[0], args[1]
    manifest = {s["name"]: s for s in json.load(open(os.path.join(HERE, "manifest.json")))}
    sample = manifest[sample_name]
    raw = open(os.path.join(HERE, sample["file"]), "rb").read().decode("utf-8")
    if lines:
        a, b = (int(x) for x in lines.split(":"))
        raw = "".join(raw.splitlines(keepends=True)[a - 1:b])
    filt = json.load(open(filter_path))
    filt = filt[0] if isinstance(filt, list) else filt
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "input.txt")
        open(src, "w").write(raw)
        fdir = os.path.join(tmp, "filters")
        os.mkdir(fdir)
        json.dump(filt, open(os.path.join(fdir, "f.json"), "w"))
        env = dict(os.environ, WINNOW_BUILTIN_FILTERS_DIR=fdir)
        out = subprocess.run([os.path.join(ROOT, "_build", "app", "winnow"), "compress", "--json",
                              "--no-project", "--filter-only", "--filter", filt["id"], src],
                             capture_output=True, env=env, check=True)
    result = json.loads(out.stdout)
    test = {"name": args[2] if len(args) > 2 else sample_name, "command": sample["command"],
            "input": raw, "expected": result["text"]}
    print(json.dumps(test, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
