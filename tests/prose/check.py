#!/usr/bin/env python3
"""Validate the prose corpus and print a summary.

    tests/prose/check.py [MESSAGES-DIR]

Checks every messages/*.json: it is UTF-8 JSON, pretty-printed as `json.dumps(indent=2,
ensure_ascii=False)` writes it, with exactly the fields id, lang, role, style, scenario, text,
needles, meaning; the id is unique, equals the file name stem and reads NNN-slug; lang, role and
style are known, and the style agrees with the slug (`verbose` in the slug iff style verbose,
`terse` in the slug iff style terse); the text is 60-600 words long, 150-600 for the verbose
style (see count_words); there are 5-30 needles (each at least 3 characters, so that finding it
is evidence) and 1-5 meaning strings, none blank or repeated, each an exact substring of the
text; and every language has its minimum number of messages in each stratum (mixed and terse
together; verbose). Prints a table of messages per language and role, words (min and max per
message), needles and meaning strings, a table of messages and words per language and style,
then the problems; exits 1 if there is any.
"""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# minimum messages per language: realistic mixed + terse stratum, verbose stratum
LANGS = {"en": 48, "pt-BR": 6, "es": 6, "de": 6, "fr": 6, "ja": 6, "id": 6, "zh": 6}
VERBOSE = {"en": 36, "pt-BR": 4, "es": 4, "de": 4, "fr": 4, "ja": 4, "id": 4, "zh": 4}
MIN_TOTAL = 160
ROLES = ("user", "assistant", "system")
STYLES = ("verbose", "mixed", "terse")
FIELDS = ("id", "lang", "role", "style", "scenario", "text", "needles", "meaning")
ID_RE = re.compile(r"^[0-9]{3}-[a-z0-9]+(?:-[a-z0-9]+)*$")
WORDS = (60, 600)
VERBOSE_WORDS = (150, 600)
NEEDLES = (5, 30)
MEANING = (1, 5)
MIN_NEEDLE = 3
# Han ideographs, kana, and the CJK punctuation/fullwidth forms that go with them
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def count_words(text):
    """Whitespace-separated tokens; in Japanese and Chinese, which put no spaces between
    words, every two CJK characters (kana, kanji/hanzi, CJK punctuation) count as one word."""
    cjk = len(CJK.findall(text))
    rest = len(CJK.sub(" ", text).split())
    return rest + (cjk + 1) // 2


def check_message(path, seen, problems):
    name = os.path.basename(path)
    stem = name[: -len(".json")]

    def bad(why):
        problems.append(f"{name}: {why}")

    try:
        raw = open(path, "rb").read().decode("utf-8")
    except UnicodeDecodeError as e:
        bad(f"not UTF-8 ({e})")
        return None
    try:
        msg = json.loads(raw)
    except json.JSONDecodeError as e:
        bad(f"not JSON ({e})")
        return None
    if not isinstance(msg, dict):
        bad("not a JSON object")
        return None
    if tuple(msg) != FIELDS:
        bad(f"fields are {list(msg)}, want {list(FIELDS)} in that order")
        if not all(k in msg for k in FIELDS):
            return None
    if raw != json.dumps(msg, ensure_ascii=False, indent=2) + "\n":
        bad("not pretty-printed as json.dumps(indent=2, ensure_ascii=False) plus a newline")
    for key in ("id", "lang", "role", "style", "scenario", "text"):
        if not isinstance(msg[key], str) or not msg[key].strip():
            bad(f"{key} must be a non-empty string")
            return None
    if msg["id"] != stem:
        bad(f"id {msg['id']!r} differs from the file name stem {stem!r}")
    if not ID_RE.match(stem):
        bad("file name is not NNN-slug (three digits, lower-case kebab-case slug)")
    if msg["id"] in seen:
        bad(f"id also used by {seen[msg['id']]}")
    seen[msg["id"]] = name
    number = stem[:3]
    if number in seen:
        bad(f"number {number} also used by {seen[number]}")
    seen[number] = name
    if msg["lang"] not in LANGS:
        bad(f"lang {msg['lang']!r} is not one of {', '.join(LANGS)}")
    if msg["role"] not in ROLES:
        bad(f"role {msg['role']!r} is not one of {', '.join(ROLES)}")
    if msg["style"] not in STYLES:
        bad(f"style {msg['style']!r} is not one of {', '.join(STYLES)}")
    for style in ("verbose", "terse"):
        if (style in stem.split("-")) != (msg["style"] == style):
            bad(f"style {msg['style']!r} but {style!r} {'not ' * (style not in stem.split('-'))}in the slug")
    if "\n" in msg["scenario"]:
        bad("scenario must be one line")
    text = msg["text"]
    words = count_words(text)
    lo, hi = VERBOSE_WORDS if msg["style"] == "verbose" else WORDS
    if not lo <= words <= hi:
        bad(f"{words} words, want {lo}-{hi} for style {msg['style']}")
    for key, (lo, hi) in (("needles", NEEDLES), ("meaning", MEANING)):
        what = {"needles": "needle", "meaning": "meaning string"}[key]
        items = msg[key]
        if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
            bad(f"{key} must be a list of strings")
            continue
        if not lo <= len(items) <= hi:
            bad(f"{len(items)} {key}, want {lo}-{hi}")
        for s in items:
            if not s.strip():
                bad(f"blank {what}")
            elif key == "needles" and len(s) < MIN_NEEDLE:
                bad(f"needle shorter than {MIN_NEEDLE} characters: {s!r}")
            elif s not in text:
                bad(f"{what} not in text: {s!r}")
        for s, n in collections.Counter(items).items():
            if n > 1:
                bad(f"{what} listed {n} times: {s!r}")
    return msg, words


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(
        str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows[:-1]:
        print(line(r))
    print("  ".join("-" * w for w in widths))
    print(line(rows[-1]))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "messages")
    problems, seen, msgs = [], {}, []
    paths = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    for path in paths:
        if not path.endswith(".json"):
            problems.append(f"{os.path.basename(path)}: not a .json file")
            continue
        got = check_message(path, seen, problems)
        if got:
            msgs.append(got)

    stats = collections.defaultdict(collections.Counter)
    by_style = collections.defaultdict(collections.Counter)
    for msg, words in msgs:
        for key in (msg["lang"], "total"):
            by_style[key][msg["style"]] += 1
            by_style[key][msg["style"] + " words"] += words
        for key in (msg["lang"], "total"):
            s = stats[key]
            s["messages"] += 1
            s[msg["role"]] += 1
            s["words"] += words
            s["needles"] += len(msg["needles"])
            s["meaning"] += len(msg["meaning"])
            s["min"] = min(s["min"] or words, words)
            s["max"] = max(s["max"], words)
    for lang, want in LANGS.items():
        have = by_style[lang]["mixed"] + by_style[lang]["terse"]
        if have < want:
            problems.append(f"{lang}: {have} mixed and terse messages, want at least {want}")
        if by_style[lang]["verbose"] < VERBOSE[lang]:
            problems.append(f"{lang}: {by_style[lang]['verbose']} verbose messages, "
                            f"want at least {VERBOSE[lang]}")
    if stats["total"]["messages"] < MIN_TOTAL:
        problems.append(f"{stats['total']['messages']} messages, want at least {MIN_TOTAL}")

    cols = ("messages",) + ROLES + ("words", "min", "max", "needles", "meaning")
    table(("lang",) + cols,
          [[lang] + [stats[lang][c] for c in cols] for lang in list(LANGS) + ["total"]])
    print()
    cols = [c for s in STYLES for c in (s, s + " words")]
    table(("lang",) + tuple(cols),
          [[lang] + [by_style[lang][c] for c in cols] for lang in list(LANGS) + ["total"]])
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print(f"\nOK: {stats['total']['messages']} messages in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
