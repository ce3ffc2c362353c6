#!/usr/bin/env python3
"""Check that Winnow's translations are complete and match the sources.

The template (winnow.pot) is not kept in git: it is generated, and with strings changing on
several branches at once a committed copy would conflict on every merge while saying nothing the
sources do not. The reference is therefore the sources themselves. This script extracts a fresh
template into a temporary directory, with xgettext, POTFILES.in and the flags `ninja winnow-pot`
uses, and then checks, printing TAP:

  - every file under app/ and ui/ with a marked string (_(), N_(), C_(), NC_(), ngettext(),
    translatable="yes") is listed in POTFILES.in, and every listed file exists, so no marked
    string is left out of the template;
  - xgettext extracts without a warning (a printf macro such as G_GUINT64_FORMAT inside _()
    cuts the msgid short, so the string could never be translated);
  - every language in LINGUAS has a .po file and every .po file is in LINGUAS;
  - each .po has exactly the template's messages (none missing, none stale), none fuzzy, none
    untranslated, and `msgfmt --check` accepts it once merged with the fresh template (so the
    format flags of the current sources are the ones checked).

Messages are compared by (msgctxt, msgid, msgid_plural), so header dates and source
references never matter.

With --run, it checks instead that the catalogues work at run time: `winnow` started under each
language of LINGUAS, with WINNOW_LOCALEDIR at the compiled catalogues, prints the translations of a
few strings from different places (the command list, an option's help, a usage error, a figure
printed with PRIu64), which also proves that the msgids the program looks up are the ones
extracted.

Usage: check-po.py SOURCE_ROOT
       check-po.py SOURCE_ROOT --run WINNOW --localedir BUILD/po
"""

import os
import re
import subprocess
import sys
import tempfile

# The flags meson's `preset: 'glib'` gives xgettext (meson 1.0, i18n module). po/meson.build
# keeps the preset, as GNOME projects do; these only have to extract the same messages.
GLIB_PRESET_ARGS = [
    '--from-code=UTF-8', '--add-comments',
    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format', '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format', '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format', '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]

MARKED_C = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|ngettext|g_dngettext|g_dpgettext2)\s*\(')
MARKED_UI = re.compile(r'translatable\s*=\s*"yes"')
# a string literal inside _() glued to a macro other than <inttypes.h>'s PRI…, which xgettext
# does not expand
MACRO_IN_MSGID = re.compile(r'(?<![A-Za-z0-9_])N?_\s*\(\s*"(?:[^"\\\n]|\\.)*"\s*'
                            r'(?!PRI)[A-Z][A-Z0-9_]*')


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, name, problems=()):
        self.n += 1
        if not ok:
            self.failed += 1
        print(f'{"ok" if ok else "not ok"} {self.n} - {name}')
        for p in ([] if ok else problems[:40]):
            print(f'# {p}')
        if not ok and len(problems) > 40:
            print(f'# … and {len(problems) - 40} more')
        sys.stdout.flush()


def unquote(s):
    body = s[s.index('"') + 1:s.rindex('"')]
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t', '"': '"', '\\': '\\'}.get(
        m.group(1), '\\' + m.group(1)), body)


def parse_po(path):
    """Entries of a PO file as dicts: ctxt, id, id_plural, strs (list), fuzzy, obsolete."""
    entries = []
    cur = None
    field = None

    def finish():
        nonlocal cur
        if cur is not None and 'id' in cur:
            entries.append(cur)
        cur = None

    with open(path, encoding='utf-8') as f:
        for raw in f:
            line = raw.rstrip('\n')
            obsolete = line.startswith('#~')
            if obsolete:
                line = line[2:].lstrip()
                if line.startswith('|'):  # the previous msgid of an obsolete entry
                    continue
            if not line.strip():
                finish()
                field = None
                continue
            if line.startswith('#'):
                if cur is not None and 'id' in cur and 'strs' in cur:
                    finish()
                if cur is None:
                    cur = {'fuzzy': False, 'obsolete': False}
                if line.startswith('#,') and 'fuzzy' in [f.strip() for f in line[2:].split(',')]:
                    cur['fuzzy'] = True
                continue
            if cur is None or ('strs' in cur and not line.startswith(('msgstr', '"'))):
                finish()
                cur = {'fuzzy': False, 'obsolete': False}
            cur['obsolete'] = cur['obsolete'] or obsolete
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
            if m:
                key, value = m.group(1), unquote(m.group(3))
                if key == 'msgctxt':
                    field = ('ctxt', None)
                elif key == 'msgid':
                    field = ('id', None)
                elif key == 'msgid_plural':
                    field = ('id_plural', None)
                else:
                    cur.setdefault('strs', [])
                    field = ('strs', len(cur['strs']))
                    cur['strs'].append('')
                if field[0] == 'strs':
                    cur['strs'][field[1]] = value
                else:
                    cur[field[0]] = value
            elif line.startswith('"') and field is not None:
                if field[0] == 'strs':
                    cur['strs'][field[1]] += unquote(line)
                else:
                    cur[field[0]] += unquote(line)
            else:
                raise ValueError(f'{path}: cannot read line: {raw!r}')
    finish()
    return entries


def key(e):
    return (e.get('ctxt'), e['id'], e.get('id_plural'))


def show(k):
    ctxt, msgid, plural = k
    text = msgid if len(msgid) < 70 else msgid[:67] + '…'
    return (f'[{ctxt}] ' if ctxt else '') + repr(text)


def read_list(path):
    with open(path, encoding='utf-8') as f:
        return [l.strip() for l in f if l.strip() and not l.lstrip().startswith('#')]


# (arguments, stream, msgid, what replaces its conversions): strings `winnow` must print translated
RUNTIME_PROBES = [
    (['--help'], 'stdout', 'Commands:\n', None),
    (['--help'], 'stdout', 'Compress command output, prose or chat messages', None),
    (['compress', '--help'], 'stdout', 'Do not record the savings in the database', None),
    (['compress', '--mode', 'bogus'], 'stderr', 'unknown mode “%s” (off, rtk, caveman, stacked)',
     {'%s': 'bogus'}),
    (['gain'], 'stdout', '  events         %<PRIu64>\n', {'%<PRIu64>': '0'}),
    (['gain'], 'stdout', '  no events\n', None),
]


def check_runtime(srcroot, winnow, localedir):
    podir = os.path.join(srcroot, 'po')
    tap = Tap()
    linguas = []
    for l in read_list(os.path.join(podir, 'LINGUAS')):
        linguas += l.split()
    with tempfile.TemporaryDirectory(prefix='winnow-po-run-') as data_dir:
        for lang in linguas:
            catalogue = {e['id']: e['strs'][0] for e in parse_po(os.path.join(podir, lang + '.po'))
                         if e['id'] and not e['obsolete'] and e.get('strs')}
            env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE=lang, WINNOW_LOCALEDIR=localedir,
                       WINNOW_DATA_DIR=data_dir, NO_COLOR='1')
            env.pop('LANG', None)
            problems = []
            outputs = {}
            for args, stream, msgid, values in RUNTIME_PROBES:
                if tuple(args) not in outputs:
                    proc = subprocess.run([winnow] + args, env=env, capture_output=True,
                                          text=True, stdin=subprocess.DEVNULL, timeout=60)
                    outputs[tuple(args)] = {'stdout': proc.stdout, 'stderr': proc.stderr}
                text = catalogue.get(msgid)
                if not text:
                    problems.append(f'{lang}.po does not translate {msgid!r}')
                    continue
                for conversion, value in (values or {}).items():
                    text = text.replace(conversion, value)
                text = text.strip('\n')
                if text not in outputs[tuple(args)][stream]:
                    problems.append(f'winnow {" ".join(args)}: {stream} lacks {text!r}')
            tap.check(not problems, f'winnow speaks {lang} with the compiled catalogue', problems)
    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


def main():
    srcroot = os.path.abspath(sys.argv[1])
    if len(sys.argv) == 6 and sys.argv[2] == '--run' and sys.argv[4] == '--localedir':
        return check_runtime(srcroot, sys.argv[3], sys.argv[5])
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2:], file=sys.stderr)
        return 2
    podir = os.path.join(srcroot, 'po')
    tap = Tap()

    # 1. POTFILES.in against the tree
    potfiles = read_list(os.path.join(podir, 'POTFILES.in'))
    missing_files = [p for p in potfiles if not os.path.isfile(os.path.join(srcroot, p))]
    tap.check(not missing_files, 'every file in POTFILES.in exists',
              [f'{p} is listed but does not exist' for p in missing_files])

    unlisted = []
    glued = []
    for top in ('app', 'ui'):
        for dirpath, dirnames, filenames in os.walk(os.path.join(srcroot, top)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, srcroot)
                if name.endswith('.c'):
                    pattern = MARKED_C
                elif name.endswith('.ui'):
                    pattern = MARKED_UI
                else:
                    continue
                with open(path, encoding='utf-8') as f:
                    text = f.read()
                if name.endswith('.c'):
                    # comments may show _() as an example; they are not marked strings
                    code = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
                    for m in MACRO_IN_MSGID.finditer(code):
                        glued.append(f'{rel}: {m.group(0)!r}: xgettext cannot see past the macro')
                else:
                    code = text
                if pattern.search(code) and rel not in potfiles:
                    unlisted.append(f'{rel} has marked strings but is not in po/POTFILES.in')
    tap.check(not unlisted, 'every app/ and ui/ file with marked strings is in POTFILES.in',
              unlisted)
    tap.check(not glued, 'no translatable string is glued to a printf macro', glued)

    # 2. a fresh template
    with tempfile.TemporaryDirectory(prefix='winnow-po-') as tmp:
        pot = os.path.join(tmp, 'winnow.pot')
        proc = subprocess.run(['xgettext', '--package-name=winnow', '-p', tmp,
                               '-f', os.path.join(podir, 'POTFILES.in'), '-D', srcroot,
                               '-k_', '-o', pot] + GLIB_PRESET_ARGS,
                              capture_output=True, text=True)
        warnings = [l for l in proc.stderr.splitlines() if l.strip()]
        ok = proc.returncode == 0 and os.path.exists(pot)
        tap.check(ok and not warnings, 'xgettext extracts the template without warnings',
                  warnings or [f'xgettext exited with {proc.returncode}'])
        if not ok:
            print(f'1..{tap.n}')
            return 1
        template = [e for e in parse_po(pot) if e['id'] != '']
        wanted = {key(e): e for e in template}
        plural_ids = {k for k, e in wanted.items() if e.get('id_plural') is not None}

        # 3. LINGUAS against the .po files
        linguas = []
        for l in read_list(os.path.join(podir, 'LINGUAS')):
            linguas += l.split()
        po_files = sorted(n[:-3] for n in os.listdir(podir) if n.endswith('.po'))
        problems = [f'{l} is in LINGUAS but po/{l}.po does not exist'
                    for l in linguas if l not in po_files]
        problems += [f'po/{l}.po exists but {l} is not in LINGUAS'
                     for l in po_files if l not in linguas]
        if linguas != sorted(linguas):
            problems.append('LINGUAS is not sorted')
        if len(set(linguas)) != len(linguas):
            problems.append('LINGUAS names a language twice')
        tap.check(not problems, 'LINGUAS and the .po files agree', problems)

        # 4. each translation
        for lang in linguas:
            path = os.path.join(podir, lang + '.po')
            if not os.path.exists(path):
                continue
            try:
                entries = parse_po(path)
            except (ValueError, UnicodeDecodeError) as e:
                tap.check(False, f'{lang}.po can be read', [str(e)])
                continue
            live = [e for e in entries if not e['obsolete'] and e['id'] != '']
            header = [e for e in entries if e['id'] == '' and not e['obsolete']]
            have = {key(e): e for e in live}

            problems = [f'not in {lang}.po: {show(k)}' for k in wanted if k not in have]
            problems += [f'in {lang}.po but no longer in the sources: {show(k)}'
                         for k in have if k not in wanted]
            tap.check(not problems, f'{lang}.po has exactly the messages of the sources',
                      problems)

            fuzzy = [f'fuzzy in {lang}.po: {show(key(e))}' for e in live if e['fuzzy']]
            fuzzy += [f'header of {lang}.po is fuzzy' for e in header if e['fuzzy']]
            tap.check(not fuzzy, f'{lang}.po has no fuzzy entries', fuzzy)

            empty = [f'untranslated in {lang}.po: {show(key(e))}' for e in live
                     if not e.get('strs') or any(s == '' for s in e['strs'])]
            tap.check(not empty, f'{lang}.po has no untranslated entries', empty)

            problems = []
            hdr = header[0]['strs'][0] if header and header[0].get('strs') else ''
            if not re.search(rf'^Language: {re.escape(lang)}$', hdr, re.M):
                problems.append(f'the header has no "Language: {lang}"')
            if 'charset=UTF-8' not in hdr:
                problems.append('the header does not say charset=UTF-8')
            if plural_ids and not re.search(r'^Plural-Forms: nplurals=\d+; plural=.+;$', hdr,
                                            re.M):
                problems.append('the header has no Plural-Forms')
            obsolete = sum(1 for e in entries if e['obsolete'])
            if obsolete:
                problems.append(f'{obsolete} obsolete (#~) entries: drop them')
            tap.check(not problems, f'{lang}.po has a complete header', problems)

            merged = os.path.join(tmp, lang + '.po')
            steps = [
                ['msgfmt', '--check', '--statistics', '-o', os.devnull, path],
                ['msgmerge', '--quiet', '--no-fuzzy-matching', '-o', merged, path, pot],
                ['msgfmt', '--check', '--statistics', '-o', os.devnull, merged],
            ]
            problems = []
            for cmd in steps:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      env=dict(os.environ, LC_ALL='C'))
                if proc.returncode != 0:
                    problems += [l for l in proc.stderr.splitlines() if l.strip()] or \
                                [f'{cmd[0]} exited with {proc.returncode}']
                    break
                if cmd[0] == 'msgfmt' and not re.fullmatch(r'\d+ translated messages?\.',
                                                           proc.stderr.strip()):
                    problems.append(f'{os.path.basename(cmd[-1])}: {proc.stderr.strip()}')
            tap.check(not problems, f'msgfmt --check accepts {lang}.po against the sources',
                      problems)

    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
