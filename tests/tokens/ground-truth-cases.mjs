// ground-truth-cases.mjs — the texts make-ground-truth.mjs encodes with tiktoken
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
// [name, text] pairs. The random ones come from a fixed seed, so regenerating gives the same.

function prng (seed)
{
  // mulberry32
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const prose = [
  ['English prose', `It's a truth universally acknowledged that a build which can't fail loudly will fail quietly. We'll see: they've said they'd fix it, you're sure I'm wrong, and she'll check the logs. The report's summary wasn't useful; the test suite's output was 4,096 lines long.

Nevertheless, the team shipped version 2.3.1 on Tuesday, 14 March 2023 at 09:45.`],
  ['English contractions in capitals', "DON'T PANIC. IT'S FINE, WE'LL SEE. THEY'VE GONE; YOU'RE LATE, I'M HERE, SHE'D KNOW. Don'T, It'S, We'Ll, They'Ve, I'D, O'Reilly, McDonald's, rock 'n' roll, 'tis, the '90s, it'ſ, x'S'T"],
  ['Portuguese prose', `Não há nada mais difícil do que começar. A informação estará disponível às três horas, e o coração da cidade — a praça — fica cheio de gente. Você já ouviu falar da Conceição? Ela é professora de Matemática em São Paulo e adora pão de queijo.`],
  ['German prose', `Größere Übungen überfordern Fußgänger nicht: Die Donaudampfschifffahrtsgesellschaftskapitänswitwe wohnt in der Schloßstraße 12. „Äußerst bemerkenswert“, sagte Frau Müller, während sie den Öltank überprüfte. STRASSE, Maße, Bußgeldkatalog.`],
  ['French prose', `L'été dernier, nous étions à Paris ; c'est là qu'on s'est rencontrés. « Très bien ! » répondit-elle. Où est l'hôpital ? Il faut qu'il aille chez le médecin, n'est-ce pas ? Ça coûte 12,50 € — c'était prévu.`],
  ['Spanish prose', `¿Dónde está el niño? ¡Mañana será otro día! El pingüino comió ñoquis en la cigüeña del señor Muñoz. Según él, la situación económica mejorará en 2025; sin embargo, nadie lo creyó.`],
  ['Indonesian prose', `Saya sedang belajar bahasa Indonesia. Mereka tidak akan datang besok karena hujan deras di Jakarta. Pemerintah mengumumkan bahwa anggaran pendidikan naik menjadi Rp 612,2 triliun pada tahun depan.`],
  ['Japanese', `吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。コンピューターのソフトウェア、ｶﾀｶﾅ、ﾃﾞｰﾀ。東京都渋谷区1-2-3`],
  ['Chinese', `我们在北京大学学习中文，今天天气很好！他说：“这个问题很复杂，需要时间解决。”繁體中文：臺灣的歷史與文化。价格是¥3,200元。`],
  ['Korean', '안녕하세요, 세계! 한국어 텍스트를 토큰화합니다. 서울특별시 강남구 테헤란로 123'],
  ['Russian and Greek', 'Привет, мир! Съешь же ещё этих мягких французских булок, да выпей чаю. ЁЛКА ёлка. Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ΑΘΗΝΑ'],
  ['Arabic and Hebrew', 'مرحبا بالعالم! اللغة العربية جميلة. ٣٤٥ + ١٢ = ٣٥٧. שלום עולם, מה שלומך?'],
  ['Devanagari and Thai', 'नमस्ते दुनिया! हिन्दी भाषा में लिखा गया पाठ। क्षत्रिय। สวัสดีครับ ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ'],
  ['Vietnamese', 'Tiếng Việt có nhiều dấu: Hà Nội, Đà Nẵng, thành phố Hồ Chí Minh. Người ta nói rằng...'],
];

const emoji = [
  ['emoji', 'Great job 👍🏽! 🎉🎉🎉 ❤️ 🇵🇹🇩🇪🇯🇵 ✅ ❌ ⚠️ 🚀 1️⃣ #️⃣'],
  ['emoji ZWJ sequences', 'family: 👨‍👩‍👧‍👦, coder: 👩🏽‍💻, flag: 🏳️‍🌈, 🧑‍🤝‍🧑, 👁️‍🗨️, 🐻‍❄️'],
  ['emoji glued to words', 'deploy✅done🚀now👍🏽OK 😀😃😄😁 a😀b 😀A'],
];

const marks = [
  ['combining marks', 'e\u0301 cafe\u0301 na\u0308i\u0308ve a\u0308\u0304 Z̴̡̢̛a̸l̷g̶o̵ t̶e̷x̸t̵'],
  ['mark at start', '\u0301abc'],
  ['mark then capitals', '\u0301AB, \u0301Ab \u0308\u0308x'],
  ['mark after space', 'x \u0301y \u0301Y \u0301'],
  ['mark after punctuation', '(\u0301a) "\u0308"'],
  ['modifier and other letters', 'ʰello ABʰCD xʼs ǅungla ǅ ǈ ABCdef ABC ʰ ʰA Aʰ AʰB ABʰ aʰB 中A A中 A中b'],
  ['case changes', 'HELLOworld HTTPServer getHTTPResponseCode iPhone XMLHttpRequest ΑΘΗΝΑathens ABC123def'],
  ['variation selectors and joiners', 'a\uFE0Fb \u200Dx \u200B \u2060 A\uFE0F'],
];

const digits = [
  ['digit runs', '1 12 123 1234 12345 123456 1234567 1234567890123 3.14159 1,000,000 -42 +7 x2y3z v1.2.3-rc4'],
  ['numbers in the wild', '0x7fff5fbff8a0 2024-01-15T10:30:00Z 192.168.0.1:8080 $12.99 98.6°F 1e-10 ٣٤٥ Ⅻ ½ ² ³ ①②③ ⁴'],
];

const spaces = [
  ['CRLF', 'first line\r\nsecond line\r\n\r\nthird\r\n'],
  ['lone CR', 'a\rb\r\rc\r'],
  ['mixed whitespace runs', 'a \r\n b\n\n\n\nc \n \n x\t\tfoo    indented\n\t \n  \r\n\t\tz'],
  ['trailing spaces', 'x   '],
  ['only spaces', '     '],
  ['space before punctuation and digits', 'a ,b  ,c . 1  2   3 \t4'],
  ['unicode spaces', 'a\u00A0b\u3000c\u2003d\u202Fe\u0085f\u2028g\u2029h\u000Bi\u000Cj \u00A0 k\u00A0\u00A0l'],
  ['Mongolian vowel separator', 'a\u180Eb \u180E c\u180E'],
  ['long whitespace runs', ' '.repeat(200) + 'word' + '\n'.repeat(500) + '\t'.repeat(100) + 'x' + ' \t'.repeat(100) + '\n' + '   \r\n'.repeat(50) + 'end' + ' '.repeat(300)],
  ['newline then spaces then text', '\n    indented\n\n        more\n  \n'],
];

const punctuation = [
  ['punctuation runs', 'hello!!!\n\nfoo.bar/baz//qux <<>> // comment\n !?\r\n/x ... ---- ==== ** __init__ ->'],
  ['compiler diagnostic', "src/main.c:12:5: error: 'foo' undeclared (first use in this function)\n   12 |     foo = 1;\n      |     ^~~\n"],
  ['special token text', 'before <|endoftext|> after <|endofprompt|> <|fim_prefix|>'],
  ['control characters', 'bell\u0007 backspace\u0008 escape\u001B del\u007F'],
];

const code = [
  ['C code', `#include <stdio.h>

static int
add (int a, int b)
{
  return a + b;  /* sum */
}

int main(void) {
    printf("%d\\n", add(2, 3));
    for (int i = 0; i < 10; ++i) { if (i % 2 == 0) continue; }
    return 0;
}
`],
  ['Python code', `def fib(n: int) -> int:
    """Return the n-th Fibonacci number."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a

if __name__ == "__main__":
    print(f"{fib(30)=}")
`],
  ['Rust code', `use std::collections::HashMap;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for word in "a b a".split_whitespace() {
        *counts.entry(word).or_insert(0) += 1;
    }
    println!("{:?}", counts);
    Ok(())
}
`],
  ['Go code', `package main

import "fmt"

func main() {
\tch := make(chan int, 3)
\tgo func() { ch <- 42 }()
\tfmt.Println(<-ch)
}
`],
  ['JavaScript code', `const express = require('express');
const app = express();
app.get('/api/users/:id', async (req, res) => {
  const user = await db.users.findOne({ id: req.params.id });
  res.json(user ?? { error: \`not found: \${req.params.id}\` });
});
`],
  ['shell and SQL', `#!/usr/bin/env bash
set -euo pipefail
for f in *.log; do grep -c 'ERROR' "$f" || true; done | sort -n | tail -3
SELECT u.name, COUNT(*) AS n FROM users u JOIN orders o ON o.user_id = u.id WHERE o.total > 100 GROUP BY u.name;
`],
  ['HTML', '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Test &amp; more</title></head>\n<body><p class="note">Hello, <b>world</b>!</p></body></html>\n'],
];

const data = [
  ['JSON', JSON.stringify({ name: 'winnow', version: '0.1.0', nested: { a: [1, 2, 3], b: null, c: true }, text: 'line\nbreak "quoted" \\ back', unicode: 'café 中文 😀', n: -1.5e10 }, null, 2)],
  ['compact JSON', '{"id":123,"tags":["a","b"],"ok":false,"data":{"k":"v","arr":[{"x":1},{"y":2}]}}'],
  ['ANSI escapes', '\u001B[31merror\u001B[0m: \u001B[1mmismatched types\u001B[22m\n\u001B[1;32m   Compiling\u001B[0m winnow v0.1.0\n\u001B[2K\r\u001B[36m[====>    ]\u001B[39m 45%'],
  ['URL and path', 'https://example.com/path/to/page?query=value&other=123#fragment /usr/lib/x86_64-linux-gnu/libglib-2.0.so.0 C:\\Users\\me\\file.txt'],
  ['hash and base64', 'commit 8ef4fde356ae1e2de9f86de2b82df0484c08d525\nsha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU= aGVsbG8gd29ybGQ=\n'],
  ['long word', 'Pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilisticexpialidocious antidisestablishmentarianism'],
  ['NUL character', 'a\u0000b \u0000\u0000 c'],
  ['empty', ''],
  ['one space', ' '],
  ['one newline', '\n'],
  ['one letter', 'a'],
];

function randomCases ()
{
  const rand = prng(20240601);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const out = [];

  // long base64 and hex runs: long pieces for the merge loop
  const b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let b64 = '';
  for (let i = 0; i < 6000; i++)
    b64 += pick(b64chars);
  out.push(['random base64', b64]);
  let hex = '';
  for (let i = 0; i < 3000; i++)
    hex += pick('0123456789abcdef');
  out.push(['random hex', hex]);

  // medium runs of one character (long single pieces tiktoken still handles quickly)
  for (const ch of ['a', 'A', ' ', '\n', '=', '-', '中', 'é', '😀', '\u0301'])
    out.push([`5000 × ${JSON.stringify(ch)}`, ch.repeat(5000)]);
  out.push(['4096 × ab', 'ab'.repeat(4096)]);
  out.push(['3000 × " a"', ' a'.repeat(3000)]);

  // random ASCII, weighted towards what splits pieces
  const atoms = ['a', 'e', 's', 't', 'l', 'r', 'v', 'd', 'm', 'A', 'S', 'T', 'L', 'Z', "'", "'s", "'S", "'ll", "'LL",
                 "'re", "'ve", "'d", "'m", "'t", ' ', ' ', ' ', '  ', '\t', '\n', '\r', '\r\n', '\n\n', '0', '12', '345',
                 '.', ',', '!', '/', '//', '-', '_', '(', ')', '{', '}', '"', ':', ';', '=', '==', '#', '\u000B', '\u000C',
                 'the', 'The', 'THE', 'HTTP', 'Server', 'é', 'ſ', 'ß', 'Ω', '中', 'ー', 'ʰ', '\u0301', '😀', '👍🏽',
                 '\u00A0', '\u3000', '\u2028', '½', '٣', 'ǅ', '\u200D'];
  for (let k = 0; k < 60; k++)
    {
      let s = '';
      const n = 1 + Math.floor(rand() * 60);
      for (let i = 0; i < n; i++)
        s += pick(atoms);
      out.push([`random mix ${k}`, s]);
    }

  // random printable ASCII with whitespace
  for (let k = 0; k < 20; k++)
    {
      let s = '';
      const n = 1 + Math.floor(rand() * 300);
      for (let i = 0; i < n; i++)
        {
          const r = rand();
          s += r < 0.1 ? pick([' ', '\n', '\t', '\r\n', '  '])
               : String.fromCharCode(32 + Math.floor(rand() * 95));
        }
      out.push([`random ASCII ${k}`, s]);
    }
  return out;
}

export const cases = [
  ...prose, ...emoji, ...marks, ...digits, ...spaces, ...punctuation, ...code, ...data, ...randomCases(),
];
