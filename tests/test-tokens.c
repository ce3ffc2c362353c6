/* test-tokens.c — the o200k_base counter against tiktoken's own ids and PCRE2's own matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/tokens/ground-truth.json holds ids produced by tiktoken (make-ground-truth.mjs beside
 * it regenerates them); this program needs no node. The pre-tokenizer is also checked piece by
 * piece against PCRE2 running o200k_base's pattern, on real and random text.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <json-glib/json-glib.h>
#include <pcre2.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"
#include "winnow-tokens-private.h"

#define O200K_PATTERN \
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?" \
  "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?" \
  "|\\p{N}{1,3}" \
  "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*" \
  "|\\s*[\\r\\n]+" \
  "|\\s+(?!\\S)" \
  "|\\s+"

static JsonObject *fixture;

static JsonObject *
load_fixture (void)
{
  static JsonParser *parser;

  if (parser == NULL)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "tokens", "ground-truth.json", NULL);
      g_autoptr(GError) error = NULL;

      parser = json_parser_new ();
      if (!json_parser_load_from_file (parser, path, &error))
        g_error ("%s: %s", path, error->message);
    }
  return json_node_get_object (json_parser_get_root (parser));
}

/* A case's text; the caller frees it. */
static char *
case_text (JsonObject *c,
           gsize      *length)
{
  if (json_object_has_member (c, "text_b64"))
    return (char *) g_base64_decode (json_object_get_string_member (c, "text_b64"), length);
  *length = strlen (json_object_get_string_member (c, "text"));
  return g_strdup (json_object_get_string_member (c, "text"));
}

static GArray *
ids_of_json (JsonArray *array)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      guint32 id = json_array_get_int_element (array, i);

      g_array_append_val (ids, id);
    }
  return ids;
}

static char *
ids_to_string (GArray *ids,
               guint   from,
               guint   to)
{
  GString *s = g_string_new ("[");

  for (guint i = from; i < MIN (to, ids->len); i++)
    g_string_append_printf (s, "%s%u", i > from ? "," : "", g_array_index (ids, guint32, i));
  g_string_append (s, "]");
  return g_string_free (s, FALSE);
}

/* Fails with the first difference and some context around it. */
static void
assert_ids_equal (const char *what,
                  GArray     *got,
                  GArray     *want)
{
  guint i = 0;

  while (i < got->len && i < want->len
         && g_array_index (got, guint32, i) == g_array_index (want, guint32, i))
    i++;
  if (i == got->len && i == want->len)
    return;

  {
    guint from = i > 5 ? i - 5 : 0;
    g_autofree char *g = ids_to_string (got, from, i + 8);
    g_autofree char *w = ids_to_string (want, from, i + 8);

    g_test_message ("%s: ids differ at %u (%u vs %u tokens): got …%s, want …%s",
                    what, i, got->len, want->len, g, w);
    g_test_fail ();
  }
}

static void
assert_round_trip (const char *what,
                   const char *text,
                   gsize       length,
                   GArray     *ids)
{
  g_autoptr(GBytes) back = winnow_tokens_decode ((const guint32 *) (gpointer) ids->data, ids->len);
  gsize back_len = 0;
  const char *data = g_bytes_get_data (back, &back_len);

  if (back_len != length || (length > 0 && memcmp (data, text, length) != 0))
    {
      g_test_message ("%s: decoding the ids does not give the text back", what);
      g_test_fail ();
    }
}

/* ---- the fixture ---- */

static void
test_counter_name (void)
{
  g_assert_cmpstr (winnow_tokens_counter_name (), ==, "o200k_base");
}

static void
test_every_token_looks_up (void)
{
  guint32 n = _winnow_tokens_vocab_size ();

  g_assert_cmpuint (n, ==, 199998);
  for (guint32 r = 0; r < n; r++)
    {
      g_autoptr(GBytes) bytes = winnow_tokens_decode (&r, 1);
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);

      if (_winnow_tokens_rank (data, len) != (gint32) r)
        {
          g_test_message ("token %u does not look up to itself", r);
          g_test_fail ();
          return;
        }
    }
  for (guint a = 0; a < 256; a++)
    {
      char byte = a;

      g_assert_cmpint (_winnow_tokens_byte_rank (a), ==, _winnow_tokens_rank (&byte, 1));
    }
  for (guint a = 0; a < 256; a++)
    for (guint b = 0; b < 256; b++)
      {
        char pair[2] = { a, b };

        if (_winnow_tokens_pair_rank (a, b) != _winnow_tokens_rank (pair, 2))
          {
            g_test_message ("the pair table is wrong for %02x %02x", a, b);
            g_test_fail ();
            return;
          }
      }
  g_assert_null (winnow_tokens_decode (&n, 1));
  g_assert_cmpint (_winnow_tokens_rank ("", 0), ==, -1);
  g_assert_cmpint (_winnow_tokens_rank ("xqzjxqzjxqzj", 12), ==, -1);
}

static void
test_cases (void)
{
  JsonArray *cases = json_object_get_array_member (fixture, "cases");
  guint checked = 0;

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *name = json_object_get_string_member (c, "name");
      g_autofree char *text = NULL;
      g_autoptr(GArray) want = NULL;
      g_autoptr(GArray) got = NULL;
      gsize length;

      if (!json_object_has_member (c, "ids"))
        continue;
      text = case_text (c, &length);
      want = ids_of_json (json_object_get_array_member (c, "ids"));
      got = winnow_tokens_encode (text, length);
      assert_ids_equal (name, got, want);
      g_assert_cmpuint (winnow_tokens_count (text, length), ==, want->len);
      assert_round_trip (name, text, length, got);
      checked++;
    }
  g_test_message ("%u cases", checked);
  g_assert_cmpuint (checked, >, 100);
}

/* About a megabyte of one character, ids run-length encoded in the fixture. */
static void
test_long_cases (void)
{
  JsonArray *cases = json_object_get_array_member (fixture, "cases");
  guint checked = 0;

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *name = json_object_get_string_member (c, "name");
      const char *unit;
      gsize times, unit_len;
      g_autoptr(GString) text = NULL;
      g_autoptr(GArray) want = NULL;
      g_autoptr(GArray) got = NULL;
      JsonArray *rle;
      gint64 start;

      if (!json_object_has_member (c, "ids_rle"))
        continue;
      unit = json_object_get_string_member (c, "repeat");
      unit_len = strlen (unit);
      times = json_object_get_int_member (c, "times");
      text = g_string_sized_new (unit_len * times);
      for (gsize k = 0; k < times; k++)
        g_string_append_len (text, unit, unit_len);

      want = g_array_new (FALSE, FALSE, sizeof (guint32));
      rle = json_object_get_array_member (c, "ids_rle");
      for (guint k = 0; k < json_array_get_length (rle); k++)
        {
          JsonArray *run = json_array_get_array_element (rle, k);
          guint32 id = json_array_get_int_element (run, 0);

          for (gint64 m = json_array_get_int_element (run, 1); m > 0; m--)
            g_array_append_val (want, id);
        }

      start = g_get_monotonic_time ();
      got = winnow_tokens_encode (text->str, text->len);
      g_test_message ("%s: %u tokens in %.1f ms", name, got->len,
                      (g_get_monotonic_time () - start) / 1000.0);
      assert_ids_equal (name, got, want);
      g_assert_cmpuint (winnow_tokens_count (text->str, text->len), ==, want->len);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 5);
}

/* Every valid UTF-8 sample of the real-output corpus: its count and the SHA-256 of its ids.
 * A sample added or recaptured since the fixture was made is only mentioned (other work on the
 * corpus must not need node): make-ground-truth.mjs brings the fixture up to date. */
static void
test_corpus_samples (void)
{
  JsonArray *samples = json_object_get_array_member (fixture, "samples");
  g_autofree char *dir = test_util_corpus_path ("samples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  const char *file;
  guint checked = 0, unchecked = 0;

  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *s = json_array_get_object_element (samples, i);
      const char *name = json_object_get_string_member (s, "file");
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *file_sha = NULL;
      g_autoptr(GArray) ids = NULL;
      g_autoptr(GString) joined = g_string_new (NULL);
      g_autofree char *sha = NULL;
      gsize length;

      g_hash_table_add (listed, (gpointer) name);
      if (!g_file_get_contents (path, &contents, &length, NULL))
        {
          g_test_message ("%s: in the fixture, no longer in the corpus", name);
          unchecked++;
          continue;
        }
      file_sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
      if (g_strcmp0 (file_sha, json_object_get_string_member (s, "sha256")) != 0)
        {
          g_test_message ("%s: changed since tests/tokens/ground-truth.json was made", name);
          unchecked++;
          continue;
        }

      ids = winnow_tokens_encode (contents, length);
      for (guint k = 0; k < ids->len; k++)
        g_string_append_printf (joined, "%s%u", k ? "," : "", g_array_index (ids, guint32, k));
      sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, joined->str, joined->len);

      if (ids->len != (guint) json_object_get_int_member (s, "count")
          || g_strcmp0 (sha, json_object_get_string_member (s, "ids_sha256")) != 0)
        {
          g_test_message ("%s: %u tokens, tiktoken has %" G_GINT64_FORMAT "%s", name, ids->len,
                          json_object_get_int_member (s, "count"),
                          ids->len == json_object_get_int_member (s, "count") ? " (other ids)" : "");
          g_test_fail ();
        }
      g_assert_cmpuint (winnow_tokens_count (contents, length), ==, ids->len);
      assert_round_trip (name, contents, length, ids);
      checked++;
    }

  while (d != NULL && (file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL)
          && g_utf8_validate_len (contents, length, NULL) && !g_hash_table_contains (listed, file))
        {
          g_test_message ("%s: not in tests/tokens/ground-truth.json yet", file);
          unchecked++;
        }
    }
  g_test_message ("%u samples checked against tiktoken, %u unchecked%s", checked, unchecked,
                  unchecked ? " (run tests/tokens/make-ground-truth.mjs)" : "");
  g_assert_cmpuint (checked, >, 100);
}

/* ---- the pre-tokenizer against PCRE2 ---- */

typedef struct
{
  pcre2_code       *code;
  pcre2_match_data *match;
} Pattern;

static Pattern *
pattern_get (void)
{
  static Pattern pattern;

  if (pattern.code == NULL)
    {
      int error;
      PCRE2_SIZE at;

      pattern.code = pcre2_compile ((PCRE2_SPTR) O200K_PATTERN, PCRE2_ZERO_TERMINATED,
                                    PCRE2_UTF | PCRE2_UCP, &error, &at, NULL);
      g_assert_nonnull (pattern.code);
      pcre2_jit_compile (pattern.code, PCRE2_JIT_COMPLETE);  /* when JIT is there: faster */
      pattern.match = pcre2_match_data_create_from_pattern (pattern.code, NULL);
    }
  return &pattern;
}

/* Compares the pieces of @text (valid UTF-8) with PCRE2's successive matches. */
static gboolean
pieces_match_pcre2 (const char *what,
                    const char *text,
                    gsize       length)
{
  Pattern *pattern = pattern_get ();
  gsize offset = 0;

  while (offset < length)
    {
      int rc = pcre2_match (pattern->code, (PCRE2_SPTR) text, length, offset,
                            PCRE2_NO_UTF_CHECK, pattern->match, NULL);
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer (pattern->match);
      gsize ours = _winnow_tokens_piece_end (text, length, offset);

      if (rc < 0 || ov[0] != offset || ov[1] != ours)
        {
          g_autofree char *at = g_strndup (text + offset, MIN (40, length - offset));
          g_autofree char *prior = g_strndup (text + (offset > 20 ? offset - 20 : 0), MIN (20, offset));
          g_autofree char *context = g_strescape (at, NULL);
          g_autofree char *before = g_strescape (prior, NULL);

          g_test_message ("%s: at byte %" G_GSIZE_FORMAT " (after \"%s\", at \"%s\"): PCRE2 %s "
                          "%d…%d, ours ends at %" G_GSIZE_FORMAT,
                          what, offset, before, context, rc < 0 ? "fails" : "matches",
                          rc < 0 ? -1 : (int) ov[0], rc < 0 ? -1 : (int) ov[1], ours);
          g_test_fail ();
          return FALSE;
        }
      offset = ours;
    }
  return TRUE;
}

static void
test_pieces_real_text (void)
{
  JsonArray *cases = json_object_get_array_member (fixture, "cases");
  g_autofree char *dir = test_util_corpus_path ("samples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *file;
  guint texts = 0;

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      g_autofree char *text = NULL;
      gsize length;

      if (!json_object_has_member (c, "ids"))
        continue;
      text = case_text (c, &length);
      /* U+180E: PCRE2's \s has it (its \h), Unicode's White_Space no longer does */
      if (strstr (json_object_get_string_member (c, "text"), "\xE1\xA0\x8E") != NULL)
        continue;
      pieces_match_pcre2 (json_object_get_string_member (c, "name"), text, length);
      texts++;
    }

  g_assert_nonnull (d);
  while ((file = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_get_contents (path, &contents, &length, NULL) && g_utf8_validate_len (contents, length, NULL))
        {
          pieces_match_pcre2 (file, contents, length);
          texts++;
        }
    }
  g_test_message ("%u texts", texts);
}

/* Whether PCRE2's Unicode tables put @c in the same classes as GLib's: the two libraries may
 * follow different Unicode versions, and random text keeps to what both agree on. */
static gboolean
classes_agree (gunichar c)
{
  static pcre2_code *classes[7];
  static const char *const patterns[7] = {
    "\\p{L}", "\\p{N}", "\\p{M}", "[\\p{Lu}\\p{Lt}]", "\\p{Ll}", "[\\p{Lm}\\p{Lo}]", "\\s",
  };
  static pcre2_match_data *md;
  char buf[8];
  int len = g_unichar_to_utf8 (c, buf);
  GUnicodeType type = g_unichar_type (c);
  gboolean space = (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
                   || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F
                   || c == 0x205F || c == 0x3000;
  gboolean want[7] = {
    type == G_UNICODE_UPPERCASE_LETTER || type == G_UNICODE_LOWERCASE_LETTER
      || type == G_UNICODE_TITLECASE_LETTER || type == G_UNICODE_MODIFIER_LETTER
      || type == G_UNICODE_OTHER_LETTER,
    type == G_UNICODE_DECIMAL_NUMBER || type == G_UNICODE_LETTER_NUMBER || type == G_UNICODE_OTHER_NUMBER,
    type == G_UNICODE_NON_SPACING_MARK || type == G_UNICODE_SPACING_MARK || type == G_UNICODE_ENCLOSING_MARK,
    type == G_UNICODE_UPPERCASE_LETTER || type == G_UNICODE_TITLECASE_LETTER,
    type == G_UNICODE_LOWERCASE_LETTER,
    type == G_UNICODE_MODIFIER_LETTER || type == G_UNICODE_OTHER_LETTER,
    space,
  };

  if (md == NULL)
    {
      for (guint k = 0; k < G_N_ELEMENTS (classes); k++)
        {
          int error;
          PCRE2_SIZE at;

          classes[k] = pcre2_compile ((PCRE2_SPTR) patterns[k], PCRE2_ZERO_TERMINATED,
                                      PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED, &error, &at, NULL);
          g_assert_nonnull (classes[k]);
        }
      md = pcre2_match_data_create (4, NULL);
    }

  for (guint k = 0; k < G_N_ELEMENTS (classes); k++)
    if ((pcre2_match (classes[k], (PCRE2_SPTR) buf, len, 0, 0, md, NULL) >= 0) != want[k])
      return FALSE;
  return TRUE;
}

/* Characters random text is made of: what makes the pattern branch, and code points at random. */
static const gunichar interesting[] = {
  'a', 'e', 's', 't', 'l', 'r', 'v', 'd', 'm', 'z', 'A', 'S', 'T', 'L', 'D', 'Z', '\'', '\'', '\'',
  ' ', ' ', ' ', ' ', '\t', '\n', '\n', '\r', 0x0B, 0x0C, '0', '5', '9', '.', ',', '!', '/', '/', '-',
  '_', '(', '"', ':', '=', '#', 0x00, 0x07, 0x1B, 0x7F,
  0xE9, 0xDF, 0x17F, 0x3A9, 0x3C9, 0x4E2D, 0x30FC, 0x3042, 0x30A2, 0xAC00, 0x2B0, 0x2BC, 0x1C5,
  0x301, 0x308, 0x93E, 0x94D, 0x20E3, 0xFE0F, 0x200D, 0x200B, 0x1F600, 0x1F44D, 0x1F3FD, 0x1F1F5,
  0xA0, 0x3000, 0x2003, 0x202F, 0x85, 0x2028, 0x2029, 0xBD, 0x663, 0x216B, 0xB2, 0x2460,
  0x5D0, 0x627, 0xE01, 0xE31, 0x10D3, 0x1E9E, 0xFF76, 0xFF9E, 0xE000,
};

static gunichar
random_char (GRand *rand)
{
  for (;;)
    {
      gunichar c;

      switch (g_rand_int_range (rand, 0, 10))
        {
        case 0:
          c = g_rand_int_range (rand, 0x80, 0x3000);
          break;
        case 1:
          c = g_rand_int_range (rand, 0x3000, 0x10000);
          break;
        case 2:
          c = g_rand_int_range (rand, 0x10000, 0x30000);
          break;
        default:
          c = interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))];
          break;
        }
      if (c == 0x180E || (c >= 0xD800 && c <= 0xDFFF) || !classes_agree (c))
        continue;
      return c;
    }
}

static void
test_pieces_random_text (void)
{
  static const char *const words[] = {
    "'s", "'S", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'LL", "'Ll", "'d", "'ſ", "the", "The", "THE",
    "HTTPServer", "iPhone", "\r\n", "\n\n", "  ", "    ", " \n ", "\t\n", "123456", "...", "//",
    "\xCC\x81", "A\xCC\x81", "\xCA\xB0", "\xE4\xB8\xAD\xE6\x96\x87", "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (0x0200CBA5);
  g_autoptr(GString) text = g_string_new (NULL);
  gsize total = 0;
  guint rounds = g_test_thorough () ? 200000 : 30000;

  for (guint round = 0; round < rounds; round++)
    {
      guint n = g_rand_int_range (rand, 1, 48);

      g_string_truncate (text, 0);
      for (guint i = 0; i < n; i++)
        {
          if (g_rand_int_range (rand, 0, 4) == 0)
            g_string_append (text, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
          else
            g_string_append_unichar (text, random_char (rand));
        }
      total += text->len;
      if (!pieces_match_pcre2 ("random text", text->str, text->len))
        break;
    }
  g_test_message ("%u random texts, %" G_GSIZE_FORMAT " bytes", rounds, total);
}

/* ASCII pieces are cut by a byte table and handed to the Unicode scanner the moment a byte
 * outside ASCII could change them: every ASCII construct of the pattern, with characters of
 * every class that matters right before, inside and after it. */
static void
test_pieces_ascii_boundaries (void)
{
  static const char *const ascii[] = {
    "a", "Z", "word", "Word", "WORD", "camelCase", "HTTPServer", "iPhone", "ABc", "aB",
    "don't", "DON'T", "it's", "we'll", "they've", "you're", "I'm", "she'd", "x's", "'s", "'",
    "''", "'ll", "'LL", "'Re", "rock'n'roll", "O'Reilly",
    "1", "12", "123", "1234", "12345", "3.14", "1,000", "v2", "a1b2",
    " ", "  ", "   ", "\t", "\n", "\r\n", " \n", "\n ", "\n\n  ", "\t \t", " \r", "\x0B\x0C",
    ".", "...", "->", "//", "/*", "</", "\"", "!?", "#", "$", "a.b", " .", " ..", ". ", "./", ".\n",
    "\n/", "./\r\n", "--x", "- x", "(a)", "[1]", "{}", "\x01", "\x7F", "\x1B[31m", "x_y", "_",
  };
  static const char *const wide[] = {
    "",
    "\xC3\xA9",           /* é  Ll */
    "\xC3\x89",           /* É  Lu */
    "\xC7\x85",           /* ǅ  Lt */
    "\xCA\xB0",           /* ʰ  Lm */
    "\xE4\xB8\xAD",       /* 中 Lo */
    "\xEA\xB0\x80",       /* 가 Lo */
    "\xCC\x81",           /* combining acute: Mn */
    "\xE0\xA4\xBE",       /* Devanagari aa: Mc */
    "\xD9\xA3",           /* Arabic-Indic three: Nd */
    "\xE2\x85\xAB",       /* Roman twelve: Nl */
    "\xC2\xBD",           /* ½  No */
    "\xC2\xA0",           /* no-break space */
    "\xE3\x80\x80",       /* ideographic space */
    "\xC2\x85",           /* next line: white space, not [\r\n] */
    "\xE2\x80\xA8",       /* line separator */
    "\xE2\x80\x94",       /* em dash: Pd */
    "\xE2\x80\x99",       /* right single quote: Pf */
    "\xC5\xBF",           /* ſ, which 's folds with */
    "\xE2\x80\x8B",       /* zero width space: Cf */
    "\xF0\x9F\x98\x80",   /* emoji: So */
  };
  g_autoptr(GString) text = g_string_new (NULL);
  guint checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (ascii); i++)
    for (guint b = 0; b < G_N_ELEMENTS (wide); b++)
      for (guint a = 0; a < G_N_ELEMENTS (wide); a++)
        for (guint middle = 0; middle < 2; middle++)
          {
            gsize half = middle ? strlen (ascii[i]) / 2 : strlen (ascii[i]);
            g_autoptr(GArray) ids = NULL;

            /* wide[b] ASCII wide[a], or wide[b] AS wide[a] CII */
            g_string_assign (text, wide[b]);
            g_string_append_len (text, ascii[i], half);
            g_string_append (text, wide[a]);
            g_string_append (text, ascii[i] + half);
            if (!pieces_match_pcre2 ("ASCII next to other characters", text->str, text->len))
              return;
            ids = winnow_tokens_encode (text->str, text->len);
            g_assert_cmpuint (winnow_tokens_count (text->str, text->len), ==, ids->len);
            checked++;
          }
  /* box drawing, block elements and geometric shapes are classified without GLib's tables:
   * each of them, alone and in runs, next to letters, spaces and punctuation */
  for (gunichar c = 0x2500; c <= 0x25FF; c++)
    {
      char ch[8];

      ch[g_unichar_to_utf8 (c, ch)] = '\0';
      g_assert_true (g_unichar_type (c) >= G_UNICODE_CONNECT_PUNCTUATION
                     && g_unichar_type (c) <= G_UNICODE_OTHER_SYMBOL);
      g_string_printf (text, "a%sb %s%s  %s\n-%s.%s1%s\xC3\xA9", ch, ch, ch, ch, ch, ch, ch);
      if (!pieces_match_pcre2 ("box drawing", text->str, text->len))
        return;
      checked++;
    }
  g_test_message ("%u texts", checked);
}

/* ---- the merges ---- */

/* tiktoken's rescanning loop and the heap give the same merges, on pieces of all kinds. */
static void
test_bpe_methods_agree (void)
{
  static const char alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=-_ .:;'\"()[]{}<>!?@#$%^&*";
  g_autoptr(GRand) rand = g_rand_new_with_seed (77);
  g_autoptr(GString) piece = g_string_new (NULL);

  for (guint round = 0; round < 3000; round++)
    {
      g_autoptr(GArray) scan = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (guint32));
      guint len = g_rand_int_range (rand, 1, round < 2500 ? 200 : 3000);
      guint kind = g_rand_int_range (rand, 0, 4);

      g_string_truncate (piece, 0);
      for (guint i = 0; i < len; i++)
        {
          switch (kind)
            {
            case 0:   /* any byte */
              g_string_append_c (piece, (char) g_rand_int_range (rand, 0, 256));
              break;
            case 1:   /* printable ASCII */
              g_string_append_c (piece, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
              break;
            case 2:   /* few letters, many repeats */
              g_string_append_c (piece, "aab"[g_rand_int_range (rand, 0, 3)]);
              break;
            default:  /* non-ASCII */
              g_string_append_unichar (piece, g_rand_int_range (rand, 0x4E00, 0x4E40));
              break;
            }
        }
      _winnow_tokens_bpe (piece->str, piece->len, WINNOW_TOKENS_BPE_SCAN, scan);
      _winnow_tokens_bpe (piece->str, piece->len, WINNOW_TOKENS_BPE_HEAP, heap);
      assert_ids_equal ("scan vs heap", heap, scan);
      assert_round_trip ("heap", piece->str, piece->len, heap);
      if (g_test_failed ())
        return;
    }
}

/* A megabyte of one character stays fast: the heap keeps long pieces O(n log n) (tiktoken's
 * own loop, quadratic, takes minutes on such a piece). */
static void
test_long_runs (void)
{
  static const char *const units[] = { "a", " ", "\n", "=", "\xE4\xB8\xAD", "ab", "\t " };
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      gsize unit_len = strlen (units[i]);
      gsize size = 1 << 20;
      g_autoptr(GString) text = g_string_sized_new (size);
      g_autoptr(GArray) ids = NULL;
      gint64 start;
      double ms;
      g_autofree char *shown = g_strescape (units[i], NULL);

      while (text->len + unit_len <= size)
        g_string_append_len (text, units[i], unit_len);
      start = g_get_monotonic_time ();
      ids = winnow_tokens_encode (text->str, text->len);
      ms = (g_get_monotonic_time () - start) / 1000.0;
      g_test_message ("1 MiB of \"%s\": %u tokens in %.0f ms", shown, ids->len, ms);
      g_assert_cmpfloat (ms, <, 10000);
      assert_round_trip ("long run", text->str, text->len, ids);
    }

  /* 4 MiB of base64 on one line */
  {
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    g_autoptr(GString) text = g_string_sized_new (4 << 20);
    g_autoptr(GArray) ids = NULL;
    gint64 start;

    while (text->len < (4 << 20))
      g_string_append_c (text, b64[g_rand_int_range (rand, 0, 64)]);
    start = g_get_monotonic_time ();
    ids = winnow_tokens_encode (text->str, text->len);
    g_test_message ("4 MiB of base64: %u tokens in %.0f ms", ids->len,
                    (g_get_monotonic_time () - start) / 1000.0);
    assert_round_trip ("base64", text->str, text->len, ids);
  }
}

/* Merged pieces come back from a per-thread cache, short ones and long ones (separator lines,
 * runs of spaces) alike: what it gives is what merging gives, whatever came before. */
static void
test_cache_of_merges (void)
{
  static const char *const units[] = { "=", "-", "\xE2\x94\x80", " ", "^", "ab", "=-", "*" };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  /* pieces of every length around the cache's limits, each a few times in one text */
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    for (guint times = 1; times < 300; times += times < 70 ? 1 : 37)
      {
        g_string_truncate (text, 0);
        for (guint k = 0; k < 3; k++)
          {
            g_string_append (text, "x ");
            for (guint m = 0; m < times; m++)
              g_string_append (text, units[i]);
            g_string_append (text, k == 1 ? "\n" : " y\n");
          }
        g_ptr_array_add (texts, g_strdup (text->str));
      }

  _winnow_tokens_set_cache (FALSE);
  for (guint i = 0; i < texts->len; i++)
    g_ptr_array_add (fresh, winnow_tokens_encode (g_ptr_array_index (texts, i), -1));
  _winnow_tokens_set_cache (TRUE);

  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < texts->len; i++)
      {
        const char *t = g_ptr_array_index (texts, i);
        g_autoptr(GArray) ids = winnow_tokens_encode (t, -1);

        assert_ids_equal ("with the cache", ids, g_ptr_array_index (fresh, i));
        g_assert_cmpuint (winnow_tokens_count (t, -1), ==, ids->len);
        if (g_test_failed ())
          return;
      }
}

/* ---- text that is not UTF-8 ---- */

static GArray *
concat_encodings (const char *first,
                  gssize      first_len,
                  const char *bad,
                  gsize       bad_len,
                  const char *last)
{
  GArray *ids = winnow_tokens_encode (first, first_len);
  g_autoptr(GArray) tail = winnow_tokens_encode (last, -1);

  for (gsize i = 0; i < bad_len; i++)
    {
      guint32 r = _winnow_tokens_rank (bad + i, 1);

      g_array_append_val (ids, r);
    }
  g_array_append_vals (ids, tail->data, tail->len);
  return ids;
}

static void
test_invalid_utf8 (void)
{
  /* each: valid text, bytes that begin no valid character, valid text */
  static const struct { const char *first, *bad, *last; } cases[] = {
    { "ab", "\xFF", "cd" },
    { "hello  ", "\xFE\xFF", "  world" },                     /* the spaces end their own run */
    { "price: 12", "\x80", "34 ok" },                          /* a lone continuation byte */
    { "cut ", "\xE2\x82", "short" },                           /* a sequence cut short */
    { "over", "\xC0\xAF", "long" },                            /* an overlong '/' */
    { "sur", "\xED\xA0\x80", "rogate" },                       /* a UTF-16 surrogate */
    { "big", "\xF4\x90\x80\x80", "ger" },                      /* above U+10FFFF */
    { "latin-1 caf", "\xE9", " au lait" },
    { "", "\xC3", "" },
    { "it", "\x91", "'s" },
    { "\r\n", "\xFF", "\r\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (cases[i].first, cases[i].bad, cases[i].last, NULL);
      g_autoptr(GArray) got = winnow_tokens_encode (text, -1);
      g_autoptr(GArray) want = concat_encodings (cases[i].first, -1, cases[i].bad,
                                                 strlen (cases[i].bad), cases[i].last);
      g_autofree char *shown = g_strescape (text, NULL);

      assert_ids_equal (shown, got, want);
      g_assert_cmpuint (winnow_tokens_count (text, -1), ==, want->len);
      assert_round_trip ("invalid", text, strlen (text), got);
    }

  /* a valid sequence right after a bad byte is read as usual */
  {
    g_autoptr(GArray) got = winnow_tokens_encode ("\xFF\xC3\xA9t\xC3\xA9", -1);
    g_autoptr(GArray) want = concat_encodings ("", 0, "\xFF", 1, "\xC3\xA9t\xC3\xA9");

    assert_ids_equal ("bad byte then été", got, want);
  }

  /* NUL is a character, and a length says where the text ends */
  {
    g_autoptr(GArray) with_nul = winnow_tokens_encode ("a\0b", 3);

    g_assert_cmpuint (with_nul->len, >=, 2);
    g_assert_cmpuint (winnow_tokens_count ("abc", 2), ==, winnow_tokens_count ("ab", -1));
  }
}

static void
test_empty_and_null (void)
{
  g_autoptr(GArray) ids = winnow_tokens_encode ("", -1);
  g_autoptr(GArray) none = winnow_tokens_encode (NULL, -1);

  g_assert_cmpuint (ids->len, ==, 0);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (winnow_tokens_count ("", 0), ==, 0);
  g_assert_cmpuint (winnow_tokens_count (NULL, -1), ==, 0);
  g_assert_cmpuint (winnow_tokens_count ("whatever", 0), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  fixture = load_fixture ();

  g_test_add_func ("/tokens/counter-name", test_counter_name);
  g_test_add_func ("/tokens/vocabulary/every-token-looks-up", test_every_token_looks_up);
  g_test_add_func ("/tokens/tiktoken/cases", test_cases);
  g_test_add_func ("/tokens/tiktoken/long-runs", test_long_cases);
  g_test_add_func ("/tokens/tiktoken/corpus-samples", test_corpus_samples);
  g_test_add_func ("/tokens/pieces/pcre2-real-text", test_pieces_real_text);
  g_test_add_func ("/tokens/pieces/pcre2-random-text", test_pieces_random_text);
  g_test_add_func ("/tokens/pieces/pcre2-ascii-boundaries", test_pieces_ascii_boundaries);
  g_test_add_func ("/tokens/bpe/scan-and-heap-agree", test_bpe_methods_agree);
  g_test_add_func ("/tokens/bpe/megabyte-runs", test_long_runs);
  g_test_add_func ("/tokens/bpe/cache", test_cache_of_merges);
  g_test_add_func ("/tokens/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/tokens/empty", test_empty_and_null);

  return g_test_run ();
}
