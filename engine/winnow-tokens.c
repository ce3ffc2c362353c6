/* winnow-tokens.c — the one token counter behind every receipt and chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Savings are counted in tokens the way a model sees them: this is OpenAI's o200k_base encoding,
 * token for token the ids of tiktoken's encode_ordinary (tests/test-tokens.c holds it to ids
 * produced by tiktoken itself).
 *
 * Two steps, as in tiktoken:
 *
 * 1. The pre-tokenizer cuts the text into pieces with o200k_base's pattern
 *
 *      [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *     |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *     |\p{N}{1,3}
 *     | ?[^\s\p{L}\p{N}]+[\r\n/]*
 *     |\s*[\r\n]+
 *     |\s+(?!\S)
 *     |\s+
 *
 *    Here it is a hand-written scanner (piece_end) that gives the same pieces as a backtracking
 *    engine does; test-tokens checks it against PCRE2 on that very pattern.
 *
 * 2. Each piece that is not itself a token is merged byte pair by byte pair: the adjacent pair
 *    whose concatenation has the lowest rank first (the leftmost of equal ones), until no pair
 *    is a token. Short pieces rescan their pairs after each merge as tiktoken does; long ones
 *    (a run of one character, a base64 blob) keep their pairs in a heap, O(n log n).
 *
 * The vocabulary is data: engine/tokenizer/o200k_base.tiktoken, turned at build time by
 * engine/tokenizer/make-blob.py into a blob with a ready hash table (bytes → rank), a
 * rank → bytes index and tables of the one- and two-byte tokens, embedded uncompressed in a
 * GResource and read in place: a process builds no table.
 *
 * Receipts count every compression and the API counts every request, so speed matters
 * (tests/bench-tokens.c): ASCII pieces are cut by a byte table without decoding
 * (piece_end_ascii; piece_end takes over wherever a letter, mark or digit outside ASCII has a
 * say), a piece of two bytes is looked up in the table of pairs, one of up to eight bytes is
 * hashed and compared as a single 64-bit word, a piece's hash slot is fetched from memory while
 * the next piece is found, and each thread caches the merges of recent pieces that are not
 * tokens (command output repeats its paths, identifiers and separator lines), compared byte
 * for byte so a hit is exact.
 */

#define G_LOG_DOMAIN "winnow-tokens"

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "winnow-tokens.h"
#include "winnow-tokens-private.h"

#define VOCAB_RESOURCE "/io/github/winnow/Winnow/tokenizer/o200k_base.bin"
#define VOCAB_MAGIC    "WNTOKv2"
#define VOCAB_HEADER   80

/* One hash table slot (see make-blob.py): rank + 1, pool offset, length, hash tag. */
#define RANK_BITS   18
#define OFFSET_BITS 21
#define LENGTH_BITS 8
#define RANK_MASK   ((G_GUINT64_CONSTANT (1) << RANK_BITS) - 1)
#define OFFSET_MASK ((G_GUINT64_CONSTANT (1) << OFFSET_BITS) - 1)
#define KEY_SHIFT   (RANK_BITS + OFFSET_BITS)                /* length and tag: what a probe compares */
#define TAG_SHIFT   (RANK_BITS + OFFSET_BITS + LENGTH_BITS)

#define NONE G_MAXUINT32   /* no rank: the pair is not a token */

#if defined(__GNUC__)
#define PREFETCH(addr) __builtin_prefetch (addr)
#else
#define PREFETCH(addr) ((void) (addr))
#endif

/* Pieces up to this many bytes merge by rescanning their pairs; longer ones use the heap. */
#define SCAN_MAX 96

typedef struct
{
  const guint8  *pool;
  const guint32 *offsets;    /* n_tokens + 1, little-endian */
  const guint64 *table;      /* little-endian */
  const guint32 *pairs;      /* the rank of two bytes b0 b1 at [b0 | b1 << 8], little-endian */
  guint64        mask;
  guint32        n_tokens;
  guint32        max_len;
  const guint32 *bytes;      /* the rank of each single byte, little-endian */
} Vocab;

/* ---- the hash, identical to hash_bytes() in make-blob.py ---- */

#define HASH_SEED G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)
#define HASH_M1   G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD)
#define HASH_M2   G_GUINT64_CONSTANT (0xC4CEB9FE1A85EC53)

static inline guint64
load64 (const guint8 *p)
{
  guint64 w;

  memcpy (&w, p, sizeof w);
  return GUINT64_FROM_LE (w);
}

static inline guint64
load32 (const guint8 *p)
{
  guint32 w;

  memcpy (&w, p, sizeof w);
  return GUINT32_FROM_LE (w);
}

/* The @r bytes at @p (1 ≤ r ≤ 8) as a little-endian number, zero-padded; never reads past them. */
static inline guint64
load_tail (const guint8 *p,
           gsize         r)
{
  if (r >= 4)
    return load32 (p) | (load32 (p + r - 4) << (8 * (r - 4)));
  return (guint64) p[0] | ((guint64) p[r / 2] << (8 * (r / 2))) | ((guint64) p[r - 1] << (8 * (r - 1)));
}

static inline guint64
hash_bytes (const guint8 *p,
            gsize         n)
{
  guint64 h = HASH_SEED ^ ((guint64) n * HASH_M2);
  gsize i = 0;

  while (n - i > 8)
    {
      h = (h ^ load64 (p + i)) * HASH_M1;
      h ^= h >> 29;
      i += 8;
    }
  h = (h ^ (n > 0 ? load_tail (p + i, n - i) : 0)) * HASH_M1;
  h ^= h >> 29;

  h ^= h >> 32;
  h *= HASH_M2;
  h ^= h >> 29;
  return h;
}

/* The @n bytes at @p (1 ≤ n ≤ 8) as load_tail() gives them, with a single load when eight bytes
 * may be read there (the text goes on to @end). */
static inline guint64
load_short (const guint8 *p,
            gsize         n,
            const guint8 *end)
{
  if (G_LIKELY (end - p >= 8))
    return load64 (p) & (G_MAXUINT64 >> (64 - 8 * n));
  return load_tail (p, n);
}

/* hash_bytes() of the @n ≤ 8 bytes whose load_tail() is @w: one round instead of the loop. */
static inline guint64
hash_short (guint64 w,
            gsize   n)
{
  guint64 h = HASH_SEED ^ ((guint64) n * HASH_M2);

  h = (h ^ w) * HASH_M1;
  h ^= h >> 29;

  h ^= h >> 32;
  h *= HASH_M2;
  h ^= h >> 29;
  return h;
}

/* ---- the vocabulary ---- */

static inline guint32
le32_at (const guint8 *blob,
         gsize         at)
{
  return (guint32) load32 (blob + at);
}

static inline guint32
token_offset (const Vocab *v,
              guint32      rank)
{
  return GUINT32_FROM_LE (v->offsets[rank]);
}

/* Whether the @n bytes at @a and @b are the same; short keys without a call to memcmp. */
static inline gboolean
bytes_equal (const guint8 *a,
             const guint8 *b,
             gsize         n)
{
  if (n <= 8)
    return load_tail (a, n) == load_tail (b, n);
  if (n <= 16)
    return load64 (a) == load64 (b) && load64 (a + n - 8) == load64 (b + n - 8);
  return memcmp (a, b, n) == 0;
}

/* The rank of the token whose bytes are @p[0 … n) (1 ≤ n ≤ max_len) and hash @h, or NONE. */
static inline guint32
vocab_find (const Vocab  *v,
            const guint8 *p,
            gsize         n,
            guint64       h)
{
  guint64 want = ((h >> TAG_SHIFT) << TAG_SHIFT) | ((guint64) n << KEY_SHIFT);

  for (guint64 i = h & v->mask;; i = (i + 1) & v->mask)
    {
      guint64 slot = GUINT64_FROM_LE (v->table[i]);

      if (slot == 0)
        return NONE;
      if ((slot >> KEY_SHIFT << KEY_SHIFT) == want
          && bytes_equal (v->pool + ((slot >> RANK_BITS) & OFFSET_MASK), p, n))
        return (guint32) (slot & RANK_MASK) - 1;
    }
}

/* vocab_find() for a key of @n ≤ 8 bytes whose load_tail() is @w: a token of up to 8 bytes is
 * compared as one word (the pool is followed by 8 zero bytes, so reading 8 is always safe). */
static inline guint32
vocab_find_short (const Vocab *v,
                  guint64      w,
                  gsize        n,
                  guint64      h)
{
  guint64 want = ((h >> TAG_SHIFT) << TAG_SHIFT) | ((guint64) n << KEY_SHIFT);
  guint64 mask = G_MAXUINT64 >> (64 - 8 * n);

  for (guint64 i = h & v->mask;; i = (i + 1) & v->mask)
    {
      guint64 slot = GUINT64_FROM_LE (v->table[i]);

      if (slot == 0)
        return NONE;
      if ((slot >> KEY_SHIFT << KEY_SHIFT) == want
          && (load64 (v->pool + ((slot >> RANK_BITS) & OFFSET_MASK)) & mask) == w)
        return (guint32) (slot & RANK_MASK) - 1;
    }
}

/* The rank of the byte @b as a token (every byte is one). */
static inline guint32
byte_rank (const Vocab *v,
           guint8       b)
{
  return GUINT32_FROM_LE (v->bytes[b]);
}

/* The rank of the two bytes at @p as one token, or NONE. */
static inline guint32
vocab_pair (const Vocab  *v,
            const guint8 *p)
{
  return GUINT32_FROM_LE (v->pairs[p[0] | (p[1] << 8)]);
}

/* The rank of the token whose bytes are @p[0 … n), or NONE. */
static inline guint32
vocab_lookup (const Vocab  *v,
              const guint8 *p,
              gsize         n)
{
  if (G_UNLIKELY (n > v->max_len || n == 0))
    return NONE;
  return vocab_find (v, p, n, hash_bytes (p, n));
}

static void
vocab_load (Vocab *v)
{
  static GBytes *bytes;   /* kept for the life of the process: everything points into it */
  g_autoptr(GError) error = NULL;
  const guint8 *blob;
  gsize size;
  guint32 table_bits, pool_size, offsets_at, table_at, pool_at, pairs_at, bytes_at;

  bytes = g_resources_lookup_data (VOCAB_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    g_error ("the o200k_base vocabulary is not built in: %s", error->message);

  blob = g_bytes_get_data (bytes, &size);
  if (((guintptr) blob & 7) != 0)
    {
      /* the resource compiler aligns data to 8 bytes; should that ever change, copy once */
      GBytes *copy = g_bytes_new (blob, size);

      g_bytes_unref (bytes);
      bytes = copy;
      blob = g_bytes_get_data (bytes, &size);
    }

  if (size < VOCAB_HEADER || memcmp (blob, VOCAB_MAGIC, 8) != 0)
    g_error ("%s is not a vocabulary blob", VOCAB_RESOURCE);
  if (le32_at (blob, 36) != (guint32) hash_bytes ((const guint8 *) "winnow", 6))
    g_error ("%s was built with another hash than this code's", VOCAB_RESOURCE);

  v->n_tokens = le32_at (blob, 8);
  v->max_len = le32_at (blob, 12);
  table_bits = le32_at (blob, 16);
  pool_size = le32_at (blob, 20);
  offsets_at = le32_at (blob, 24);
  table_at = le32_at (blob, 28);
  pool_at = le32_at (blob, 32);
  pairs_at = le32_at (blob, 40);
  bytes_at = le32_at (blob, 44);

  if (table_bits > 30 || v->n_tokens >= RANK_MASK
      || offsets_at + 4 * ((gsize) v->n_tokens + 1) > table_at
      || table_at + (G_GUINT64_CONSTANT (8) << table_bits) > pairs_at
      || pairs_at + 4 * 65536 > bytes_at
      || bytes_at + 4 * 256 > pool_at
      || pool_at + (gsize) pool_size + 8 != size)
    g_error ("%s is damaged", VOCAB_RESOURCE);

  v->offsets = (const guint32 *) (gconstpointer) (blob + offsets_at);
  v->table = (const guint64 *) (gconstpointer) (blob + table_at);
  v->pairs = (const guint32 *) (gconstpointer) (blob + pairs_at);
  v->bytes = (const guint32 *) (gconstpointer) (blob + bytes_at);
  v->pool = blob + pool_at;
  v->mask = (G_GUINT64_CONSTANT (1) << table_bits) - 1;
}

static inline const Vocab *
vocab_get (void)
{
  static Vocab vocab;
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      vocab_load (&vocab);
      g_once_init_leave (&loaded, 1);
    }
  return &vocab;
}

/* ---- the pre-tokenizer ---- */

/* What a character is, in the terms of the pattern. */
enum
{
  F_L  = 1 << 0,   /* \p{L} */
  F_N  = 1 << 1,   /* \p{N} */
  F_U  = 1 << 2,   /* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
  F_W  = 1 << 3,   /* [\p{Ll}\p{Lm}\p{Lo}\p{M}]; with F_U: Lm, Lo or M */
  F_S  = 1 << 4,   /* \s: Unicode White_Space */
  F_NL = 1 << 5,   /* [\r\n] */
  F_Q  = 1 << 6,   /* [^\s\p{L}\p{N}] */
  F_P  = 1 << 7,   /* [^\r\n\p{L}\p{N}] */
};

#define C_Q (F_Q | F_P)          /* punctuation, symbols, controls */
#define C_S (F_S | F_P)          /* white space but \r \n */
#define C_R (F_S | F_NL)         /* \r \n */
#define C_D F_N
#define C_U (F_L | F_U)          /* Lu, Lt */
#define C_W (F_L | F_W)          /* Ll */
#define C_B (F_L | F_U | F_W)    /* Lm, Lo */
#define C_M (F_U | F_W | C_Q)    /* Mn, Mc, Me */

static const guint8 ascii_flags[128] = {
  C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_S, C_R, C_S, C_S, C_R, C_Q, C_Q,
  C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q,
  C_S, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q,
  C_D, C_D, C_D, C_D, C_D, C_D, C_D, C_D, C_D, C_D, C_Q, C_Q, C_Q, C_Q, C_Q, C_Q,
  C_Q, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U,
  C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_U, C_Q, C_Q, C_Q, C_Q, C_Q,
  C_Q, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W,
  C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_W, C_Q, C_Q, C_Q, C_Q, C_Q,
};

static guint
classify_wide (gunichar c)
{
  /* White_Space beyond ASCII (Rust's \s); GLib's g_unichar_isspace() is another set */
  switch (c)
    {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F:
    case 0x3000:
      return C_S;
    default:
      if (c >= 0x2000 && c <= 0x200A)
        return C_S;
      break;
    }

  switch (g_unichar_type (c))
    {
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
      return C_U;
    case G_UNICODE_LOWERCASE_LETTER:
      return C_W;
    case G_UNICODE_MODIFIER_LETTER:
    case G_UNICODE_OTHER_LETTER:
      return C_B;
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_NON_SPACING_MARK:
      return C_M;
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
      return C_D;
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_CONNECT_PUNCTUATION:
    case G_UNICODE_DASH_PUNCTUATION:
    case G_UNICODE_CLOSE_PUNCTUATION:
    case G_UNICODE_FINAL_PUNCTUATION:
    case G_UNICODE_INITIAL_PUNCTUATION:
    case G_UNICODE_OTHER_PUNCTUATION:
    case G_UNICODE_OPEN_PUNCTUATION:
    case G_UNICODE_CURRENCY_SYMBOL:
    case G_UNICODE_MODIFIER_SYMBOL:
    case G_UNICODE_MATH_SYMBOL:
    case G_UNICODE_OTHER_SYMBOL:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
    default:
      return C_Q;
    }
}

/* A character outside ASCII: its length if @p begins a valid UTF-8 sequence (shortest form, no
 * surrogate, at most U+10FFFF), else 0. */
static guint
peek_wide (const guint8 *p,
           const guint8 *end,
           guint        *flags)
{
  gsize left = end - p;
  guint8 b = p[0];
  gunichar c;

  if (b >= 0xC2 && b <= 0xDF)
    {
      if (left < 2 || (p[1] & 0xC0) != 0x80)
        return 0;
      c = ((gunichar) (b & 0x1F) << 6) | (p[1] & 0x3F);
      *flags = classify_wide (c);
      return 2;
    }
  if (b >= 0xE0 && b <= 0xEF)
    {
      if (left < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80
          || (b == 0xE0 && p[1] < 0xA0) || (b == 0xED && p[1] > 0x9F))
        return 0;
      if (b == 0xE2 && p[1] >= 0x94 && p[1] <= 0x97)
        {
          /* U+2500…U+25FF, box drawing, block elements and geometric shapes: all symbols (So,
           * Sm), and the most common characters beyond ASCII in command output (trees,
           * tables, rules) */
          *flags = C_Q;
          return 3;
        }
      c = ((gunichar) (b & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      *flags = classify_wide (c);
      return 3;
    }
  if (b >= 0xF0 && b <= 0xF4)
    {
      if (left < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80
          || (b == 0xF0 && p[1] < 0x90) || (b == 0xF4 && p[1] > 0x8F))
        return 0;
      c = ((gunichar) (b & 0x07) << 18) | ((gunichar) (p[1] & 0x3F) << 12)
          | ((gunichar) (p[2] & 0x3F) << 6) | (p[3] & 0x3F);
      *flags = classify_wide (c);
      return 4;
    }
  return 0;
}

/* The length of the character at @p and its flags; 0 at the end or at an invalid byte, which
 * ends a run of valid text just as the end does. */
static inline guint
peek (const guint8 *p,
      const guint8 *end,
      guint        *flags)
{
  if (G_UNLIKELY (p >= end))
    return 0;
  if (G_LIKELY (*p < 0x80))
    {
      *flags = ascii_flags[*p];
      return 1;
    }
  return peek_wide (p, end, flags);
}

/* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*; *last_both is set to the end of the last Lm, Lo or M in it. */
static inline const guint8 *
scan_upper (const guint8  *p,
            const guint8  *end,
            const guint8 **last_both)
{
  guint f = 0, n;

  while ((n = peek (p, end, &f)) && (f & F_U))
    {
      p += n;
      if (f & F_W)
        *last_both = p;
    }
  return p;
}

/* [\p{Ll}\p{Lm}\p{Lo}\p{M}]* */
static inline const guint8 *
scan_lower (const guint8 *p,
            const guint8 *end)
{
  guint f = 0, n;

  while ((n = peek (p, end, &f)) && (f & F_W))
    p += n;
  return p;
}

/* (?i:'s|'t|'re|'ve|'m|'ll|'d)? — case-insensitive as Unicode folds it: 's also takes 'ſ */
static inline const guint8 *
contraction (const guint8 *p,
             const guint8 *end)
{
  gsize left = end - p;

  if (left < 2 || p[0] != '\'')
    return p;

  switch (p[1] | 0x20)
    {
    case 's': case 't': case 'm': case 'd':
      return p + 2;
    case 'r': case 'v':
      return left >= 3 && (p[2] | 0x20) == 'e' ? p + 3 : p;
    case 'l':
      return left >= 3 && (p[2] | 0x20) == 'l' ? p + 3 : p;
    default:
      return left >= 3 && p[1] == 0xC5 && p[2] == 0xBF ? p + 3 : p;
    }
}

/* [^\s\p{L}\p{N}]+[\r\n/]* from @p, which is such a character */
static inline const guint8 *
punct_run (const guint8 *p,
           const guint8 *end)
{
  guint f = 0, n;

  while ((n = peek (p, end, &f)) && (f & F_Q))
    p += n;
  while (p < end && (*p == '\r' || *p == '\n' || *p == '/'))
    p++;
  return p;
}

/* The end of the piece that starts at @p, which begins a valid character. The alternatives are
 * tried in the pattern's order, each giving back what a backtracking engine would. */
static const guint8 *
piece_end (const guint8 *p,
           const guint8 *end)
{
  guint f0 = 0, f = 0, n;
  guint n0 = peek (p, end, &f0);
  const guint8 *q;

  if (f0 & (F_U | F_W | F_P))
    {
      /* [^\r\n\p{L}\p{N}]? takes the first character when it can (greedy), and gives it back
       * only when neither letter alternative matches after it. */
      const guint8 *j = (f0 & F_P) ? p + n0 : p;
      const guint8 *last_both = NULL;
      const guint8 *k = scan_upper (j, end, &last_both);

      /* 1st: U* W+. After U* stops, W+ can only go on with an Ll (all else in W is in U)… */
      if (peek (k, end, &f) && (f & F_W))
        return contraction (scan_lower (k, end), end);
      /* …else U* gives back down to its last Lm, Lo or M, and W+ takes that one alone (what
       * follows it in the run is Lu or Lt). */
      if (last_both != NULL)
        return contraction (last_both, end);
      /* without the prefix, when it was a mark (in P and in U and W): W+ takes just the mark */
      if (j != p && (f0 & F_U))
        return contraction (j, end);
      /* 2nd: U+ W*, W* empty as U* stopped before no Ll */
      if (k != j)
        return contraction (k, end);
    }

  /* \p{N}{1,3} */
  if (f0 & F_N)
    {
      q = p + n0;
      if ((n = peek (q, end, &f)) && (f & F_N))
        {
          q += n;
          if ((n = peek (q, end, &f)) && (f & F_N))
            q += n;
        }
      return q;
    }

  /*  ?[^\s\p{L}\p{N}]+[\r\n/]* */
  if (*p == ' ' && peek (p + 1, end, &f) && (f & F_Q))
    return punct_run (p + 1, end);
  if (f0 & F_Q)
    return punct_run (p, end);

  /* White space. \s*[\r\n]+ ends after the run's last \r or \n; else \s+(?!\S) takes the run
   * but its last character when a non-space follows (that one goes with the next piece), or
   * all of it at the end; else \s+ takes the single character. */
  {
    const guint8 *last_nl = NULL, *last = p;

    q = p;
    while ((n = peek (q, end, &f)) && (f & F_S))
      {
        last = q;
        q += n;
        if (f & F_NL)
          last_nl = q;
      }
    if (last_nl != NULL)
      return last_nl;
    if (n == 0 || last == p)
      return q;
    return last;
  }
}

/* ---- the pre-tokenizer's ASCII fast path ----
 *
 * Most of what Winnow counts is ASCII, and an ASCII piece is decided by a byte table alone.
 * piece_end_ascii() follows piece_end() step by step but classifies each byte with one load,
 * with no UTF-8 decoding and no end-of-character bookkeeping. A character outside ASCII that
 * can only end a run, or go on with punctuation, it classifies as piece_end() does; where one
 * could go on with letters, digits or white space (or follow a prefix as a letter or mark), it
 * gives up and piece_end() decides from the piece's start, so the pieces are the same by
 * construction (test-tokens holds both to PCRE2 running the pattern). */

enum
{
  A_UP    = 1 << 0,   /* A-Z */
  A_LOW   = 1 << 1,   /* a-z */
  A_DIGIT = 1 << 2,   /* 0-9 */
  A_SPACE = 1 << 3,   /* \t \v \f and space: \s but not [\r\n] */
  A_NL    = 1 << 4,   /* \r \n */
  A_PUNCT = 1 << 5,   /* every other ASCII byte: [^\s\p{L}\p{N}] */
  A_WIDE  = 1 << 6,   /* a byte ≥ 0x80: only the slow path knows */
};

#define A_LETTER (A_UP | A_LOW)
#define A_WS     (A_SPACE | A_NL)

#define A_U A_UP
#define A_L A_LOW
#define A_D A_DIGIT
#define A_S A_SPACE
#define A_R A_NL
#define A_P A_PUNCT
#define A_X A_WIDE

static const guint8 ascii_class[256] = {
  A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_S, A_R, A_S, A_S, A_R, A_P, A_P,
  A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P,
  A_S, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P, A_P,
  A_D, A_D, A_D, A_D, A_D, A_D, A_D, A_D, A_D, A_D, A_P, A_P, A_P, A_P, A_P, A_P,
  A_P, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U,
  A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_U, A_P, A_P, A_P, A_P, A_P,
  A_P, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L,
  A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_L, A_P, A_P, A_P, A_P, A_P,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
  A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X, A_X,
};

#undef A_U
#undef A_L
#undef A_D
#undef A_S
#undef A_R
#undef A_P
#undef A_X

/* The class of the byte at @p, or 0 at the end (which is in no class, so it stops every run). */
static inline guint
class_at (const guint8 *p,
          const guint8 *end)
{
  return G_LIKELY (p < end) ? ascii_class[*p] : 0;
}

/* The bytes from @p on whose class is in @mask. */
static inline const guint8 *
skip_class (const guint8 *p,
            const guint8 *end,
            guint         mask)
{
  while (p < end && (ascii_class[*p] & mask))
    p++;
  return p;
}

/* Whether the character at @p (outside ASCII) is valid and has one of @flags. */
static inline gboolean
wide_is (const guint8 *p,
         const guint8 *end,
         guint         flags)
{
  guint f = 0;

  return peek_wide (p, end, &f) != 0 && (f & flags) != 0;
}

/* [^\s\p{L}\p{N}]+ from @p: ASCII by the table, other characters by their flags. */
static inline const guint8 *
skip_punct (const guint8 *p,
            const guint8 *end)
{
  guint f = 0, n;

  for (;;)
    {
      p = skip_class (p, end, A_PUNCT);
      if (p < end && *p >= 0x80 && (n = peek_wide (p, end, &f)) != 0 && (f & F_Q))
        p += n;
      else
        return p;
    }
}

/* The end of the piece that starts at @p (an ASCII byte), or NULL when letters, marks or
 * digits outside ASCII have a say in it: then piece_end() decides. Characters outside ASCII
 * that can only end a run or go on with one of punctuation or white space are handled here. */
G_ALWAYS_INLINE static inline const guint8 *
piece_end_ascii (const guint8 *p,
                 const guint8 *end)
{
  guint c0 = ascii_class[*p];
  guint c1 = class_at (p + 1, end);
  guint f = 0, n;
  const guint8 *j, *k, *q;

  if ((c1 & A_WIDE) && (c0 & (A_PUNCT | A_SPACE)))
    {
      /* whether c0 is the prefix of letters; else whether punctuation follows ' ' (what else
       * follows, white space goes on with or ends, below) */
      n = peek_wide (p + 1, end, &f);
      if (n != 0 && (f & (F_U | F_W)))
        return NULL;
      c1 = n != 0 && (f & F_Q) ? A_PUNCT : 0;
    }

  /* [^\r\n\p{L}\p{N}]? then the letters: the prefix (punctuation or a space that is not \r \n)
   * is taken when a letter follows it */
  if (c0 & A_LETTER)
    j = p;
  else if ((c0 & (A_PUNCT | A_SPACE)) && (c1 & A_LETTER))
    j = p + 1;
  else
    j = NULL;
  if (j != NULL)
    {
      /* U* W+ when a lower-case letter follows the capitals, else U+ (the letters are
       * ASCII, so none is Lm, Lo or M) */
      k = skip_class (j, end, A_UP);
      if (class_at (k, end) & A_LOW)
        k = skip_class (k, end, A_LOW);
      if ((class_at (k, end) & A_WIDE) && wide_is (k, end, F_U | F_W))
        return NULL;
      return contraction (k, end);
    }

  /* \p{N}{1,3} */
  if (c0 & A_DIGIT)
    {
      guint c2;

      if (!(c1 & A_DIGIT))
        return (c1 & A_WIDE) && wide_is (p + 1, end, F_N) ? NULL : p + 1;
      c2 = class_at (p + 2, end);
      if (c2 & A_DIGIT)
        return p + 3;
      return (c2 & A_WIDE) && wide_is (p + 2, end, F_N) ? NULL : p + 2;
    }

  /*  ?[^\s\p{L}\p{N}]+[\r\n/]* */
  q = NULL;
  if (*p == ' ' && (c1 & A_PUNCT))
    q = p + 1;
  else if (c0 & A_PUNCT)
    q = p;
  if (q != NULL)
    {
      q = skip_punct (q, end);
      while (q < end && (*q == '\r' || *q == '\n' || *q == '/'))
        q++;
      return q;
    }

  /* white space, as in piece_end(); a byte that begins no valid character ends the run as the
   * end of the text does */
  {
    const guint8 *last_nl = NULL, *last = p;
    gboolean at_end;

    for (q = p; q < end && (ascii_class[*q] & A_WS); q++)
      {
        last = q;
        if (ascii_class[*q] & A_NL)
          last_nl = q + 1;
      }
    at_end = q == end;
    if (!at_end && *q >= 0x80)
      {
        n = peek_wide (q, end, &f);
        if (n != 0 && (f & F_S))
          return NULL;   /* white space outside ASCII goes on with the run */
        at_end = n == 0;
      }
    if (last_nl != NULL)
      return last_nl;
    if (at_end || last == p)
      return q;
    return last;
  }
}

/* The end of the piece that starts at @p, or NULL when @p begins no valid character. */
G_ALWAYS_INLINE static inline const guint8 *
next_piece (const guint8 *p,
            const guint8 *end)
{
  guint f;

  if (G_LIKELY (*p < 0x80))
    {
      const guint8 *q = piece_end_ascii (p, end);

      return G_LIKELY (q != NULL) ? q : piece_end (p, end);
    }
  return peek_wide (p, end, &f) != 0 ? piece_end (p, end) : NULL;
}

/* ---- byte-pair merging ---- */

/* Where the ids go: appended to an array, or only counted. */
typedef struct
{
  GArray *ids;     /* or NULL when only counting */
  gsize   count;
} Sink;

static inline void
sink_add (Sink    *sink,
          guint32  rank)
{
  sink->count++;
  if (sink->ids != NULL)
    g_array_append_val (sink->ids, rank);
}

static inline void
sink_add_all (Sink          *sink,
              const guint32 *ranks,
              gsize          n)
{
  sink->count += n;
  if (sink->ids != NULL)
    g_array_append_vals (sink->ids, ranks, n);
}

/* A part of a piece to look up: its bytes' hash, and for up to 8 bytes the bytes as one word.
 * key_start() asks for the hash slot, key_find() reads it: work in between hides the wait. */
typedef struct
{
  guint64 w;
  guint64 h;
  gsize   len;
} Key;

static inline void
key_start (const Vocab  *v,
           Key          *key,
           const guint8 *p,
           gsize         len,
           const guint8 *end)
{
  key->len = len;
  if (len <= 8)
    {
      key->w = load_short (p, len, end);
      key->h = hash_short (key->w, len);
    }
  else if (len <= v->max_len)
    key->h = hash_bytes (p, len);
  else
    return;
  PREFETCH (&v->table[key->h & v->mask]);
}

static inline guint32
key_find (const Vocab  *v,
          const Key    *key,
          const guint8 *p)
{
  if (key->len <= 8)
    return vocab_find_short (v, key->w, key->len, key->h);
  if (key->len <= v->max_len)
    return vocab_find (v, p, key->len, key->h);
  return NONE;
}

/* One part of a piece being merged. */
typedef struct
{
  guint32 start;   /* of the part in the piece */
  guint32 rank;    /* of the pair (this part, the next one) */
  guint32 token;   /* of this part */
} Part;

/* tiktoken's own loop: after each merge, rescan the pairs for the lowest rank. Writes the
 * tokens of @p[0 … n) to @out (room for @n) and returns how many; bytes up to @end may be read.
 *
 * The parts are moved down after each merge, so the rescan reads a short array that is
 * already in cache; the alternatives tried (parts left in place as a linked list, ranks and
 * starts packed into one number for a vectorised minimum) ran fewer instructions but took
 * longer: a rescan right after the merge's stores waits for them, and each merge then
 * followed a chain of dependent loads. */
static gsize
bpe_scan (const Vocab  *v,
          const guint8 *p,
          gsize         n,
          const guint8 *end,
          guint32      *out)
{
  Part buf[SCAN_MAX + 1];
  Part *parts = n <= SCAN_MAX ? buf : g_new (Part, n + 1);
  gsize m = n + 1;   /* parts, the last being the end */

  for (gsize i = 0; i < n; i++)
    {
      parts[i].start = i;
      parts[i].token = byte_rank (v, p[i]);
      parts[i].rank = i + 1 < n ? vocab_pair (v, p + i) : NONE;
    }
  parts[n].start = n;
  parts[n].rank = NONE;

  for (;;)
    {
      guint32 best = NONE;
      gsize i = 0;
      Key before = { 0, 0, 0 }, at = { 0, 0, 0 };

      for (gsize k = 0; k + 1 < m; k++)
        if (parts[k].rank < best)
          {
            best = parts[k].rank;
            i = k;
          }
      if (best == NONE)
        break;

      /* parts i and i + 1 become one, token best: the pairs around them change. Their slots
       * are asked for first, the parts moved while they come. */
      if (i > 0 && i + 2 < m)
        key_start (v, &before, p + parts[i - 1].start, parts[i + 2].start - parts[i - 1].start, end);
      if (i + 3 < m)
        key_start (v, &at, p + parts[i].start, parts[i + 3].start - parts[i].start, end);
      parts[i].token = best;
      memmove (parts + i + 1, parts + i + 2, (m - i - 2) * sizeof *parts);
      m--;
      if (i > 0)
        parts[i - 1].rank = before.len > 0 ? key_find (v, &before, p + parts[i - 1].start) : NONE;
      parts[i].rank = at.len > 0 ? key_find (v, &at, p + parts[i].start) : NONE;
    }

  for (gsize k = 0; k + 1 < m; k++)
    out[k] = parts[k].token;
  if (parts != buf)
    g_free (parts);
  return m - 1;
}

/* A binary min-heap of (rank << 32 | start): the lowest rank first, the leftmost on ties. */
typedef struct
{
  guint64 *keys;
  gsize    len;
  gsize    size;
} Heap;

static inline void
heap_sift_down (Heap    *heap,
                gsize    i,
                guint64  key)
{
  guint64 *h = heap->keys;

  for (;;)
    {
      gsize child = 2 * i + 1;

      if (child >= heap->len)
        break;
      if (child + 1 < heap->len && h[child + 1] < h[child])
        child++;
      if (key <= h[child])
        break;
      h[i] = h[child];
      i = child;
    }
  h[i] = key;
}

static inline void
heap_push (Heap    *heap,
           guint64  key)
{
  gsize i = heap->len++;

  if (G_UNLIKELY (heap->len > heap->size))
    {
      heap->size *= 2;
      heap->keys = g_renew (guint64, heap->keys, heap->size);
    }
  while (i > 0)
    {
      gsize up = (i - 1) / 2;

      if (heap->keys[up] <= key)
        break;
      heap->keys[i] = heap->keys[up];
      i = up;
    }
  heap->keys[i] = key;
}

static inline guint64
heap_pop (Heap *heap)
{
  guint64 top = heap->keys[0];

  heap->len--;
  if (heap->len > 0)
    heap_sift_down (heap, 0, heap->keys[heap->len]);
  return top;
}

/* The same merges in the same order, with the pairs in a heap: parts are a linked list of
 * their start offsets, and a heap entry is stale once its part's pair changed. */
static void
bpe_heap (const Vocab  *v,
          const guint8 *p,
          gsize         n,
          Sink         *sink)
{
  guint32 *next = g_new (guint32, n + 1);
  guint32 *prev = g_new (guint32, n + 1);
  guint32 *rank = g_new (guint32, n + 1);    /* of the pair (part, next part); NONE when gone */
  guint32 *token = g_new (guint32, n + 1);   /* of the part itself */
  Heap heap = { g_new (guint64, n + 1), 0, n + 1 };

  g_assert (n < G_MAXUINT32);

  /* all pairs at once, then heapify: O(n) */
  for (gsize i = 0; i < n; i++)
    {
      next[i] = i + 1;
      prev[i] = i > 0 ? i - 1 : NONE;
      token[i] = byte_rank (v, p[i]);
      rank[i] = i + 1 < n ? vocab_pair (v, p + i) : NONE;
      if (rank[i] != NONE)
        heap.keys[heap.len++] = ((guint64) rank[i] << 32) | i;
    }
  for (gsize k = heap.len / 2; k-- > 0;)
    heap_sift_down (&heap, k, heap.keys[k]);

  while (heap.len > 0)
    {
      guint64 key = heap_pop (&heap);
      guint32 r = key >> 32, s = key & G_MAXUINT32, t, u;

      if (rank[s] != r)
        continue;   /* stale: s was merged away or its pair grew */

      t = next[s];
      u = next[t];
      next[s] = u;
      if (u < n)
        prev[u] = s;
      rank[t] = NONE;
      token[s] = r;

      rank[s] = u < n ? vocab_lookup (v, p + s, next[u] - s) : NONE;
      if (rank[s] != NONE)
        heap_push (&heap, ((guint64) rank[s] << 32) | s);
      if (s > 0)
        {
          guint32 ps = prev[s];

          rank[ps] = vocab_lookup (v, p + ps, u - ps);
          if (rank[ps] != NONE)
            heap_push (&heap, ((guint64) rank[ps] << 32) | ps);
        }
    }

  for (gsize i = 0; i < n; i = next[i])
    sink_add (sink, token[i]);

  g_free (next);
  g_free (prev);
  g_free (rank);
  g_free (token);
  g_free (heap.keys);
}

static void
bpe (const Vocab     *v,
     const guint8    *p,
     gsize            n,
     WinnowTokensBpe  method,
     Sink            *sink)
{
  if (method == WINNOW_TOKENS_BPE_AUTO)
    method = n <= SCAN_MAX ? WINNOW_TOKENS_BPE_SCAN : WINNOW_TOKENS_BPE_HEAP;
  if (method == WINNOW_TOKENS_BPE_SCAN)
    {
      guint32 buf[SCAN_MAX];
      guint32 *out = n <= SCAN_MAX ? buf : g_new (guint32, n);

      sink_add_all (sink, out, bpe_scan (v, p, n, p + n, out));
      if (out != buf)
        g_free (out);
    }
  else
    bpe_heap (v, p, n, sink);
}

/* ---- a cache of merged pieces ----
 *
 * Command output repeats itself: the same paths, hashes and identifiers come back line after
 * line, and merging is what costs. Each thread keeps the last merged piece seen for each of
 * CACHE_SLOTS hash values, compared byte for byte: a hit gives exactly what merging gives.
 * Longer pieces (separator lines of '=' or '─', runs of spaces) are rarer but cost the most to
 * merge; a few LONG_SLOTS keep copies of them.
 *
 * The slots hold entry numbers and the entries grow as pieces are stored: a short process
 * (one `winnow compress` stores a few hundred pieces) touches a few pages of memory. A table
 * of all CACHE_SLOTS entries, 576 KiB, cost it some 280 page faults, two per page (the read
 * that probes a slot, then the write that fills it), about as long as counting the tokens. */

#define CACHE_SLOTS     4096
#define CACHE_PIECE_MAX 48
#define CACHE_IDS_MAX   20
#define LONG_SLOTS      64
#define LONG_PIECE_MAX  4096
#define CACHE_FIRST     64    /* entries allocated at first */

typedef struct
{
  guint64 hash;
  guint8  length;   /* 0: empty */
  guint8  n_ids;
  guint8  bytes[CACHE_PIECE_MAX];
  guint32 ids[CACHE_IDS_MAX];
} CacheEntry;

typedef struct
{
  guint64  hash;
  gsize    length;   /* 0: empty */
  guint8  *bytes;    /* a copy of the piece */
  gsize    n_ids;
  guint32  ids[CACHE_IDS_MAX];
} LongEntry;

typedef struct
{
  guint16     slots[CACHE_SLOTS];   /* entry number + 1; 0: empty */
  guint       n_entries;
  guint       n_allocated;
  CacheEntry *entries;
  LongEntry   long_pieces[LONG_SLOTS];
} Cache;

G_STATIC_ASSERT (CACHE_PIECE_MAX <= SCAN_MAX);
G_STATIC_ASSERT (CACHE_SLOTS <= G_MAXUINT16);

static void
cache_free (gpointer data)
{
  Cache *cache = data;

  for (guint i = 0; i < LONG_SLOTS; i++)
    g_free (cache->long_pieces[i].bytes);
  g_free (cache->entries);
  g_free (cache);
}

static GPrivate cache_key = G_PRIVATE_INIT (cache_free);
static gboolean cache_enabled = TRUE;

static Cache *
cache_get (void)
{
  Cache *cache = g_private_get (&cache_key);

  if (cache == NULL)
    {
      cache = g_new0 (Cache, 1);
      g_private_set (&cache_key, cache);
    }
  return cache;
}

/* The entry of the slot for @h: the piece last stored there, or %NULL */
static inline CacheEntry *
cache_lookup (Cache   *cache,
              guint64  h)
{
  guint n = cache->slots[(h >> 20) & (CACHE_SLOTS - 1)];

  return n != 0 ? &cache->entries[n - 1] : NULL;
}

/* The entry to store a piece with hash @h in: the slot's own, or a new one */
static CacheEntry *
cache_claim (Cache   *cache,
             guint64  h)
{
  guint16 *slot = &cache->slots[(h >> 20) & (CACHE_SLOTS - 1)];

  if (*slot == 0)
    {
      /* at most one entry per slot: the entries never outgrow CACHE_SLOTS */
      if (cache->n_entries == cache->n_allocated)
        {
          cache->n_allocated = MAX (CACHE_FIRST, 2 * cache->n_allocated);
          cache->entries = g_renew (CacheEntry, cache->entries, cache->n_allocated);
        }
      *slot = ++cache->n_entries;
    }
  return &cache->entries[*slot - 1];
}

/* A piece longer than CACHE_PIECE_MAX, from the cache or merged (and then kept). */
static void
merge_long_piece (const Vocab  *v,
                  Cache        *cache,
                  const guint8 *p,
                  gsize         n,
                  guint64       h,
                  Sink         *sink)
{
  LongEntry *e = &cache->long_pieces[(h >> 20) & (LONG_SLOTS - 1)];
  g_autoptr(GArray) ids = NULL;
  Sink merged;

  if (e->hash == h && e->length == n && memcmp (e->bytes, p, n) == 0)
    {
      sink_add_all (sink, e->ids, e->n_ids);
      return;
    }

  ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  merged.ids = ids;
  merged.count = 0;
  bpe (v, p, n, WINNOW_TOKENS_BPE_AUTO, &merged);
  if (ids->len <= CACHE_IDS_MAX)
    {
      g_free (e->bytes);
      e->bytes = g_memdup2 (p, n);
      e->hash = h;
      e->length = n;
      e->n_ids = ids->len;
      memcpy (e->ids, ids->data, ids->len * sizeof (guint32));
    }
  sink_add_all (sink, (const guint32 *) (gconstpointer) ids->data, ids->len);
}

/* A piece that is not a token: merged, or its merge taken from the cache; appends the tokens
 * to @ids (if not NULL) and returns how many. @h is the piece's hash when 2 ≤ n ≤ max_len; the
 * text goes on to @end. Kept out of line: encode_piece()'s common case stays small. */
static G_GNUC_NO_INLINE gsize
merge_piece (const Vocab  *v,
             Cache        *cache,
             const guint8 *p,
             gsize         n,
             guint64       h,
             const guint8 *end,
             GArray       *ids)
{
  Sink part = { ids, 0 };
  Sink *sink = &part;

  if (n <= CACHE_PIECE_MAX && cache != NULL)
    {
      CacheEntry *e = cache_lookup (cache, h);
      guint32 out[CACHE_PIECE_MAX];
      gsize k;

      if (e != NULL && e->hash == h && e->length == n && memcmp (e->bytes, p, n) == 0)
        {
          sink_add_all (sink, e->ids, e->n_ids);
          return part.count;
        }
      k = bpe_scan (v, p, n, end, out);
      if (k <= CACHE_IDS_MAX)
        {
          e = cache_claim (cache, h);
          e->hash = h;
          e->length = n;
          e->n_ids = k;
          memcpy (e->bytes, p, n);
          memcpy (e->ids, out, k * sizeof *out);
        }
      sink_add_all (sink, out, k);
      return part.count;
    }

  if (n <= LONG_PIECE_MAX && cache != NULL)
    merge_long_piece (v, cache, p, n, n <= v->max_len ? h : hash_bytes (p, n), sink);
  else
    bpe (v, p, n, WINNOW_TOKENS_BPE_AUTO, sink);
  return part.count;
}

/* A piece that is a token is that token; else it is merged. @w is the piece's load_tail() when
 * 3 ≤ n ≤ 8, @h its hash when 3 ≤ n ≤ max_len; the text goes on to @end. */
static inline void
encode_piece (const Vocab  *v,
              Cache        *cache,
              const guint8 *p,
              gsize         n,
              guint64       w,
              guint64       h,
              const guint8 *end,
              Sink         *sink)
{
  guint32 r;

  if (n == 1)
    r = byte_rank (v, *p);
  else if (n == 2)
    {
      /* two bytes: the table of pairs says, and when they are no token they are two */
      r = vocab_pair (v, p);
      if (r == NONE)
        {
          sink_add (sink, byte_rank (v, p[0]));
          r = byte_rank (v, p[1]);
        }
    }
  else if (G_LIKELY (n <= 8))
    r = vocab_find_short (v, w, n, h);
  else if (n <= v->max_len)
    r = vocab_find (v, p, n, h);
  else
    r = NONE;

  if (G_LIKELY (r != NONE))
    sink_add (sink, r);
  else
    sink->count += merge_piece (v, cache, p, n, h, end, sink->ids);
}

/* Inlined into both callers: when only counting, sink->ids is known to be NULL and no token
 * tests it (which is why merge_piece() is not handed the sink itself). */
G_ALWAYS_INLINE static inline void
encode (const char *text,
        gssize      length,
        Sink       *sink)
{
  const Vocab *v;
  Cache *cache;
  const guint8 *p = (const guint8 *) text;
  const guint8 *end;
  const guint8 *held = NULL;   /* the piece before, looked up once its slot is in cache */
  gsize held_len = 0;
  guint64 held_word = 0, held_hash = 0;

  if (text == NULL)
    return;
  end = p + (length < 0 ? strlen (text) : (gsize) length);
  if (p == end)
    return;

  v = vocab_get ();
  cache = cache_enabled ? cache_get () : NULL;
  while (p < end)
    {
      const guint8 *q;
      gsize n;
      guint64 w = 0, h = 0;

      q = next_piece (p, end);
      if (G_UNLIKELY (q == NULL))
        {
          /* a byte that begins no valid character is a token of its own */
          if (held != NULL)
            encode_piece (v, cache, held, held_len, held_word, held_hash, end, sink);
          held = NULL;
          sink_add (sink, byte_rank (v, *p));
          p++;
          continue;
        }

      /* The next piece is found; ask for its hash slot, then look the piece before up: the
       * slot's way from memory overlaps with work. */
      n = q - p;
      if (n == 2)
        PREFETCH (&v->pairs[p[0] | (p[1] << 8)]);
      else if (n >= 3 && n <= 8)
        {
          w = load_short (p, n, end);
          h = hash_short (w, n);
          PREFETCH (&v->table[h & v->mask]);
        }
      else if (n > 8 && n <= v->max_len)
        {
          h = hash_bytes (p, n);
          PREFETCH (&v->table[h & v->mask]);
        }
      if (held != NULL)
        encode_piece (v, cache, held, held_len, held_word, held_hash, end, sink);
      held = p;
      held_len = n;
      held_word = w;
      held_hash = h;
      p = q;
    }
  if (held != NULL)
    encode_piece (v, cache, held, held_len, held_word, held_hash, end, sink);
}

/**
 * winnow_tokens_count:
 * @text: UTF-8 text (see winnow-tokens.h for bytes that are not)
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * Returns: the number of o200k_base tokens in @text
 */
gsize
winnow_tokens_count (const char *text,
                     gssize      length)
{
  Sink sink = { NULL, 0 };

  encode (text, length, &sink);
  return sink.count;
}

/**
 * winnow_tokens_encode:
 * @text: UTF-8 text (see winnow-tokens.h for bytes that are not)
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * Returns: (transfer full) (element-type guint32): the o200k_base token ids of @text, the
 *   same as tiktoken's encode_ordinary
 */
GArray *
winnow_tokens_encode (const char *text,
                      gssize      length)
{
  Sink sink = { g_array_new (FALSE, FALSE, sizeof (guint32)), 0 };

  encode (text, length, &sink);
  return sink.ids;
}

/**
 * winnow_tokens_decode:
 * @ids: token ids
 * @n_ids: how many
 *
 * Returns: (transfer full) (nullable): the bytes of the tokens, or %NULL if an id is not in the
 *   vocabulary
 */
GBytes *
winnow_tokens_decode (const guint32 *ids,
                      gsize          n_ids)
{
  const Vocab *v = vocab_get ();
  GByteArray *out = g_byte_array_new ();

  for (gsize i = 0; i < n_ids; i++)
    {
      guint32 at, to;

      if (ids[i] >= v->n_tokens)
        {
          g_byte_array_unref (out);
          return NULL;
        }
      at = token_offset (v, ids[i]);
      to = token_offset (v, ids[i] + 1);
      g_byte_array_append (out, v->pool + at, to - at);
    }
  return g_byte_array_free_to_bytes (out);
}

/**
 * winnow_tokens_counter_name:
 *
 * Returns: the name of the counter, shown beside every figure it produced
 */
const char *
winnow_tokens_counter_name (void)
{
  return "o200k_base";
}

/* ---- for the tests ---- */

gsize
_winnow_tokens_piece_end (const char *text,
                          gsize       length,
                          gsize       offset)
{
  const guint8 *q = next_piece ((const guint8 *) text + offset, (const guint8 *) text + length);

  g_return_val_if_fail (q != NULL, offset);
  return q - (const guint8 *) text;
}

gint32
_winnow_tokens_rank (const char *bytes,
                     gsize       length)
{
  guint32 r = vocab_lookup (vocab_get (), (const guint8 *) bytes, length);

  return r == NONE ? -1 : (gint32) r;
}

void
_winnow_tokens_set_cache (gboolean enabled)
{
  cache_enabled = enabled;
}

guint32
_winnow_tokens_byte_rank (guint8 b)
{
  return byte_rank (vocab_get (), b);
}

gint32
_winnow_tokens_pair_rank (guint8 a,
                          guint8 b)
{
  guint8 pair[2] = { a, b };
  guint32 r = vocab_pair (vocab_get (), pair);

  return r == NONE ? -1 : (gint32) r;
}

guint32
_winnow_tokens_vocab_size (void)
{
  return vocab_get ()->n_tokens;
}

void
_winnow_tokens_bpe (const char      *piece,
                    gsize            length,
                    WinnowTokensBpe  method,
                    GArray          *ids)
{
  Sink sink = { ids, 0 };

  if (length > 0)
    bpe (vocab_get (), (const guint8 *) piece, length, method, &sink);
}
