// make-ground-truth.mjs — regenerate tests/tokens/ground-truth.json with the real tiktoken
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
// test-tokens checks Winnow's o200k_base encoder against the token ids written here; the test
// itself never needs node. To regenerate (any folder will do for the npm install):
//
//   mkdir -p /tmp/tiktoken && (cd /tmp/tiktoken && npm install tiktoken@1.0.22)
//   TIKTOKEN=/tmp/tiktoken/node_modules/tiktoken node tests/tokens/make-ground-truth.mjs
//
// tiktoken's merge loop is quadratic in the length of one pre-tokenizer piece, so the ~1 MB
// runs of one character take about 15 minutes each. `--long-only FILE [NAME…]` computes only
// those (or the named ones) and writes them to FILE; `--long-from FILE…` reuses such files
// instead of computing them again.
//
// tiktoken cannot encode a single piece of about 999 998 characters or more: its regex engine
// (fancy-regex, backtrack limit 1 000 000) fails and the wasm build traps ("unreachable"). So
// the runs of one letter, space, newline or '=' are 990 000 characters long; the digit run,
// which splits into pieces of three, is a full MiB. test-tokens checks 1 MiB and longer runs
// on its own (round trip, time).
//
// The fixture holds:
//   cases   — {name, text, ids} (with text_b64 too when the text holds a NUL) and, for the long runs, {name, repeat, times, ids_rle} where
//             ids_rle is [[id, count], …] (the ids of repeat×times, run-length encoded);
//   samples — for every tests/corpus/samples/* file that is valid UTF-8:
//             {file, sha256 (of the file), count, ids_sha256 (of the ids written in decimal,
//             comma-separated)}. test-tokens checks the samples that are still the same and
//             only mentions new or changed ones: rerun this script when the corpus changes.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const tiktokenPath = process.env.TIKTOKEN || 'tiktoken';
const { get_encoding } = require(tiktokenPath);
const tiktokenVersion = require(join(dirname(require.resolve(tiktokenPath)), 'package.json')).version;
const enc = get_encoding('o200k_base');

const encode = (text) => Array.from(enc.encode_ordinary(text));

function rle (ids)
{
  const out = [];
  for (const id of ids)
    {
      if (out.length && out[out.length - 1][0] === id)
        out[out.length - 1][1]++;
      else
        out.push([id, 1]);
    }
  return out;
}

// About 1 MB of one character: each is a single piece, but for the digits (pieces of three).
const LONG = 990000;
const longCases = [
  { name: 'one MiB of 7', repeat: '7', times: 1 << 20 },
  { name: '990 000 a', repeat: 'a', times: LONG },
  { name: '990 000 spaces', repeat: ' ', times: LONG },
  { name: '990 000 newlines', repeat: '\n', times: LONG },
  { name: '990 000 =', repeat: '=', times: LONG },
];

function computeLong (names)
{
  const wanted = names && names.length ? longCases.filter((c) => names.includes(c.name)) : longCases;
  return wanted.map((c) => {
    const start = Date.now();
    const ids = encode(c.repeat.repeat(c.times));
    process.stderr.write(`${c.name}: ${ids.length} tokens in ${(Date.now() - start) / 1000} s\n`);
    return { ...c, ids_rle: rle(ids) };
  });
}

const args = process.argv.slice(2);
if (args[0] === '--long-only')
  {
    writeFileSync(args[1], JSON.stringify(computeLong(args.slice(2))) + '\n');
    process.exit(0);
  }

let longResults;
if (args[0] === '--no-long')
  longResults = [];   // quick runs while editing the cases; never commit a fixture made so
else if (args[0] === '--long-from')
  {
    const byName = new Map();
    for (const file of args.slice(1))
      for (const c of JSON.parse(readFileSync(file, 'utf8')))
        byName.set(c.name, c);
    longResults = longCases.map((c) => {
      if (!byName.has(c.name))
        throw new Error(`${c.name}: not in ${args.slice(1).join(', ')}`);
      return byName.get(c.name);
    });
  }
else
  longResults = computeLong();

const { cases } = await import('./ground-truth-cases.mjs');

const out = {
  encoding: 'o200k_base',
  generator: `tiktoken@${tiktokenVersion} encode_ordinary (tests/tokens/make-ground-truth.mjs)`,
  cases: [],
  samples: [],
};

for (const [name, text] of cases)
  {
    const c = { name, text, ids: encode(text) };
    if (text.includes('\u0000'))
      c.text_b64 = Buffer.from(text, 'utf8').toString('base64');  // for JSON readers that stop at NUL
    out.cases.push(c);
  }
out.cases.push(...longResults);

const samplesDir = join(here, '..', 'corpus', 'samples');
const decoder = new TextDecoder('utf-8', { fatal: true });
for (const file of readdirSync(samplesDir).sort())
  {
    let text;
    const bytes = readFileSync(join(samplesDir, file));
    try
      {
        text = decoder.decode(bytes);
      }
    catch
      {
        continue;  // not valid UTF-8: Winnow's own rule for it is tested on its own
      }
    const ids = encode(text);
    out.samples.push({
      file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      count: ids.length,
      ids_sha256: createHash('sha256').update(ids.join(',')).digest('hex'),
    });
  }

// one case per line keeps diffs of the fixture readable
const lines = [
  '{',
  `"encoding": ${JSON.stringify(out.encoding)},`,
  `"generator": ${JSON.stringify(out.generator)},`,
  '"cases": [',
  out.cases.map((c) => JSON.stringify(c)).join(',\n'),
  '],',
  '"samples": [',
  out.samples.map((s) => JSON.stringify(s)).join(',\n'),
  ']',
  '}',
];
writeFileSync(join(here, 'ground-truth.json'), lines.join('\n') + '\n');
process.stderr.write(`${out.cases.length} cases, ${out.samples.length} samples\n`);
