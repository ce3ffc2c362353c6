/* winnow-adapter-json.c — JSON documents: minified losslessly, elided when allowed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A JSON object or array (RFC 8259) is first rewritten without insignificant whitespace: keys
 * keep their order and every string and number keeps its exact text, so nothing is lost. Only
 * with the options' `lossy` flag do two lossy steps follow:
 *
 *  - An array of 8 items or more keeps its first 3 and last 2 items; a string stands in for the
 *    rest, `"… 995 items omitted …"`, in the style of the RTK markers. It keeps the document
 *    valid JSON (a comment would not), at the price of a string among, say, objects; the
 *    marker's shape makes it hard to mistake for data. An array is elided only when the items
 *    it drops take more bytes than the marker, so `[1,2,3,4,5,6,7,8]` stays as it is.
 *  - A string value (never a key) longer than 400 bytes that reads as prose goes through the
 *    summariser and ends with ` […]`; one longer than 1000 bytes that does not (base64, a
 *    minified blob) keeps its first 96 characters and ends with `… [N chars omitted]`.
 *
 * Detection parses the whole text, so it is exact. Both passes are iterative — a stack of
 * frames on the heap, no recursion — so 100 000 levels of nesting cost memory, not the C stack
 * (json-glib's parser recurses, which is why it is not used here). The first pass validates
 * and measures every array (items, and the minified bytes of the stretch elision would drop);
 * the second writes, knowing all that as each array opens.
 */

#define G_LOG_DOMAIN "winnow-adapter"

#include "config.h"

#include <string.h>

#include "winnow-adapter-private.h"

#define ARRAY_HEAD        3
#define ARRAY_TAIL        2
#define ARRAY_ELIDE_MIN   8      /* so that at least 3 items are omitted */
#define PROSE_STRING_MIN  400    /* bytes between the quotes */
#define BLOB_STRING_MIN   1000
#define BLOB_KEEP_CHARS   96

typedef enum
{
  TOKEN_ERROR,
  TOKEN_END,
  TOKEN_BEGIN_OBJECT,
  TOKEN_END_OBJECT,
  TOKEN_BEGIN_ARRAY,
  TOKEN_END_ARRAY,
  TOKEN_COLON,
  TOKEN_COMMA,
  TOKEN_STRING,
  TOKEN_NUMBER,
  TOKEN_LITERAL,
} TokenType;

typedef struct
{
  const char *p;
  const char *end;
} Scanner;

typedef struct
{
  TokenType   type;
  const char *start;
  gsize       length;
} Token;

static const char *
scan_string (const char *p,
             const char *end)
{
  p++;   /* the opening quote */
  while (p < end)
    {
      guchar c = *p;

      if (c == '"')
        return p + 1;
      if (c < 0x20)
        return NULL;
      if (c != '\\')
        {
          p++;
          continue;
        }
      if (++p >= end)
        return NULL;
      switch (*p)
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          p++;
          break;
        case 'u':
          if (end - p < 5 || !g_ascii_isxdigit (p[1]) || !g_ascii_isxdigit (p[2]) ||
              !g_ascii_isxdigit (p[3]) || !g_ascii_isxdigit (p[4]))
            return NULL;
          p += 5;
          break;
        default:
          return NULL;
        }
    }
  return NULL;
}

static const char *
scan_digits (const char *p,
             const char *end)
{
  const char *start = p;

  while (p < end && g_ascii_isdigit (*p))
    p++;
  return p > start ? p : NULL;
}

static const char *
scan_number (const char *p,
             const char *end)
{
  if (p < end && *p == '-')
    p++;
  if (p >= end)
    return NULL;
  if (*p == '0')
    p++;
  else if ((p = scan_digits (p, end)) == NULL)
    return NULL;
  if (p < end && *p == '.' && (p = scan_digits (p + 1, end)) == NULL)
    return NULL;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if ((p = scan_digits (p, end)) == NULL)
        return NULL;
    }
  return p;
}

static void
next_token (Scanner *s,
            Token   *token)
{
  const char *p = s->p;
  const char *q = NULL;

  while (p < s->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  token->start = p;
  token->length = 0;

  if (p >= s->end)
    {
      token->type = TOKEN_END;
      s->p = p;
      return;
    }

  token->type = TOKEN_ERROR;
  switch (*p)
    {
    case '{': token->type = TOKEN_BEGIN_OBJECT; q = p + 1; break;
    case '}': token->type = TOKEN_END_OBJECT; q = p + 1; break;
    case '[': token->type = TOKEN_BEGIN_ARRAY; q = p + 1; break;
    case ']': token->type = TOKEN_END_ARRAY; q = p + 1; break;
    case ':': token->type = TOKEN_COLON; q = p + 1; break;
    case ',': token->type = TOKEN_COMMA; q = p + 1; break;
    case '"':
      q = scan_string (p, s->end);
      token->type = TOKEN_STRING;
      break;
    case 't':
      if (s->end - p >= 4 && memcmp (p, "true", 4) == 0)
        q = p + 4;
      token->type = TOKEN_LITERAL;
      break;
    case 'f':
      if (s->end - p >= 5 && memcmp (p, "false", 5) == 0)
        q = p + 5;
      token->type = TOKEN_LITERAL;
      break;
    case 'n':
      if (s->end - p >= 4 && memcmp (p, "null", 4) == 0)
        q = p + 4;
      token->type = TOKEN_LITERAL;
      break;
    default:
      if (*p == '-' || g_ascii_isdigit (*p))
        {
          q = scan_number (p, s->end);
          token->type = TOKEN_NUMBER;
        }
      break;
    }

  if (q == NULL)
    {
      token->type = TOKEN_ERROR;
      s->p = s->end;
      return;
    }
  /* true, false, null and numbers must not run into letters: "nullx", "1true" */
  if ((token->type == TOKEN_LITERAL || token->type == TOKEN_NUMBER) && q < s->end &&
      (g_ascii_isalnum (*q) || *q == '.' || *q == '-' || *q == '+' || *q == '_'))
    {
      token->type = TOKEN_ERROR;
      s->p = s->end;
      return;
    }

  token->length = q - p;
  s->p = q;
}

/* ---- pass 1: validate and count --------------------------------------------------------- */

typedef enum
{
  EXPECT_VALUE,              /* at the top, after a colon or after a comma in an array */
  EXPECT_VALUE_OR_CLOSE,     /* after [ */
  EXPECT_KEY,                /* after a comma in an object */
  EXPECT_KEY_OR_CLOSE,       /* after { */
  EXPECT_COLON,
  EXPECT_COMMA_OR_CLOSE,
  EXPECT_END,
} Expect;

/* What the writer needs to know about an array before it writes it. */
typedef struct
{
  guint count;      /* items */
  gsize omitted;    /* minified bytes from item ARRAY_HEAD to item count - ARRAY_TAIL */
} ArrayInfo;

typedef struct
{
  gboolean is_array;
  guint    ordinal;     /* arrays: which array this is, in document order */
  gsize    head;        /* arrays: minified offset where item ARRAY_HEAD starts */
  gsize    recent[ARRAY_TAIL];   /* arrays: where the last items started, newest last */
} CheckFrame;

/* An item starts at minified offset @at in the array of @frame. */
static void
count_item (CheckFrame *frame,
            GArray     *arrays,
            gsize       at)
{
  ArrayInfo *info;

  if (!frame->is_array || arrays == NULL)
    return;

  info = &g_array_index (arrays, ArrayInfo, frame->ordinal);
  if (info->count == ARRAY_HEAD)
    frame->head = at;
  memmove (frame->recent, frame->recent + 1, sizeof frame->recent - sizeof frame->recent[0]);
  frame->recent[ARRAY_TAIL - 1] = at;
  info->count++;
}

/* Validates one JSON object or array filling the whole text (whitespace around it allowed);
 * when @arrays is given, it gets an ArrayInfo for each array, in the order they open. */
static gboolean
validate (const char *text,
          gsize       length,
          GArray     *arrays)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (CheckFrame));
  Scanner s = { text, text + length };
  Expect expect = EXPECT_VALUE;
  guint n_arrays = 0;
  gsize written = 0;   /* bytes of the minified document so far */
  Token token;

  for (;;)
    {
      CheckFrame *top = stack->len > 0
                        ? &g_array_index (stack, CheckFrame, stack->len - 1) : NULL;
      gboolean value = FALSE;
      gsize at = written;

      next_token (&s, &token);
      written += token.length;

      switch (token.type)
        {
        case TOKEN_END:
          return expect == EXPECT_END;

        case TOKEN_ERROR:
          return FALSE;

        case TOKEN_BEGIN_OBJECT:
        case TOKEN_BEGIN_ARRAY:
          if (expect != EXPECT_VALUE && expect != EXPECT_VALUE_OR_CLOSE)
            return FALSE;
          if (top != NULL)
            count_item (top, arrays, at);
          {
            CheckFrame frame = { token.type == TOKEN_BEGIN_ARRAY, 0, 0, { 0, } };

            if (frame.is_array)
              {
                ArrayInfo info = { 0, 0 };

                frame.ordinal = n_arrays++;
                if (arrays != NULL)
                  g_array_append_val (arrays, info);
              }
            g_array_append_val (stack, frame);
            expect = frame.is_array ? EXPECT_VALUE_OR_CLOSE : EXPECT_KEY_OR_CLOSE;
          }
          continue;

        case TOKEN_END_OBJECT:
        case TOKEN_END_ARRAY:
          if (top == NULL || top->is_array != (token.type == TOKEN_END_ARRAY))
            return FALSE;
          if (expect != EXPECT_COMMA_OR_CLOSE &&
              expect != (top->is_array ? EXPECT_VALUE_OR_CLOSE : EXPECT_KEY_OR_CLOSE))
            return FALSE;
          if (top->is_array && arrays != NULL)
            {
              ArrayInfo *info = &g_array_index (arrays, ArrayInfo, top->ordinal);

              /* recent[0] is where item count - ARRAY_TAIL starts */
              if (info->count >= ARRAY_ELIDE_MIN)
                info->omitted = top->recent[0] - top->head;
            }
          g_array_set_size (stack, stack->len - 1);
          expect = stack->len > 0 ? EXPECT_COMMA_OR_CLOSE : EXPECT_END;
          continue;

        case TOKEN_COLON:
          if (expect != EXPECT_COLON)
            return FALSE;
          expect = EXPECT_VALUE;
          continue;

        case TOKEN_COMMA:
          if (expect != EXPECT_COMMA_OR_CLOSE)
            return FALSE;
          expect = top->is_array ? EXPECT_VALUE : EXPECT_KEY;
          continue;

        case TOKEN_STRING:
          if (expect == EXPECT_KEY || expect == EXPECT_KEY_OR_CLOSE)
            {
              expect = EXPECT_COLON;
              continue;
            }
          value = TRUE;
          break;

        case TOKEN_NUMBER:
        case TOKEN_LITERAL:
          value = TRUE;
          break;

        default:
          return FALSE;
        }

      /* a scalar value: never the whole document (we only take objects and arrays) */
      if (!value || top == NULL || (expect != EXPECT_VALUE && expect != EXPECT_VALUE_OR_CLOSE))
        return FALSE;
      count_item (top, arrays, at);
      expect = EXPECT_COMMA_OR_CLOSE;
    }
}

static gboolean
json_detect (const char *text,
             gsize       length)
{
  gsize first = 0;
  gsize last = length;

  while (first < length && g_ascii_isspace (text[first]))
    first++;
  while (last > first && g_ascii_isspace (text[last - 1]))
    last--;
  if (last - first < 2)
    return FALSE;
  if (!((text[first] == '{' && text[last - 1] == '}') ||
        (text[first] == '[' && text[last - 1] == ']')))
    return FALSE;

  return validate (text, length, NULL);
}

/* ---- strings ------------------------------------------------------------------------------ */

static guint
hex4 (const char *p)
{
  guint v = 0;

  for (guint i = 0; i < 4; i++)
    v = v * 16 + g_ascii_xdigit_value (p[i]);
  return v;
}

/* Decodes a validated string token (with its quotes) to UTF-8. */
static GString *
decode_string (const char *token,
               gsize       length)
{
  const char *p = token + 1;
  const char *end = token + length - 1;
  GString *out = g_string_sized_new (length);

  while (p < end)
    {
      gunichar c;

      if (*p != '\\')
        {
          const char *q = p;

          while (q < end && *q != '\\')
            q++;
          g_string_append_len (out, p, q - p);
          p = q;
          continue;
        }

      p++;
      switch (*p)
        {
        case 'b': g_string_append_c (out, '\b'); p++; continue;
        case 'f': g_string_append_c (out, '\f'); p++; continue;
        case 'n': g_string_append_c (out, '\n'); p++; continue;
        case 'r': g_string_append_c (out, '\r'); p++; continue;
        case 't': g_string_append_c (out, '\t'); p++; continue;
        case 'u':
          c = hex4 (p + 1);
          p += 5;
          if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u')
            {
              gunichar low = hex4 (p + 2);

              if (low >= 0xDC00 && low < 0xE000)
                {
                  c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                  p += 6;
                }
            }
          if (c >= 0xD800 && c < 0xE000)
            c = 0xFFFD;   /* a lone surrogate */
          if (c == 0)
            c = 0xFFFD;   /* keep the text a C string */
          g_string_append_unichar (out, c);
          continue;
        default:
          g_string_append_c (out, *p);   /* " \ / */
          p++;
          continue;
        }
    }
  return out;
}

static void
encode_string (GString    *out,
               const char *text,
               gsize       length)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < length; i++)
    {
      guchar c = text[i];

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

/* Writes a long string value shortened, or returns FALSE to keep it as it is. */
static gboolean
shorten_string (GString                    *out,
                const Token                *token,
                const WinnowAdapterOptions *options)
{
  g_autoptr(GString) decoded = NULL;
  g_autoptr(GString) shorter = NULL;
  gsize inner = token->length - 2;

  if (inner <= PROSE_STRING_MIN)
    return FALSE;

  decoded = decode_string (token->start, token->length);
  shorter = g_string_new (NULL);

  if (_winnow_adapter_looks_like_prose (decoded->str, decoded->len))
    {
      g_autofree char *summary = _winnow_adapter_summarize (options, decoded->str, decoded->len);
      g_autoptr(GString) text = g_string_new (summary);

      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, WINNOW_ADAPTER_ELIDED);
      encode_string (shorter, text->str, text->len);
    }
  else if (inner > BLOB_STRING_MIN)
    {
      glong n_chars = g_utf8_strlen (decoded->str, decoded->len);
      const char *cut;
      g_autoptr(GString) text = NULL;

      if (n_chars <= BLOB_KEEP_CHARS)
        return FALSE;
      cut = g_utf8_offset_to_pointer (decoded->str, BLOB_KEEP_CHARS);
      text = g_string_new_len (decoded->str, cut - decoded->str);
      g_string_append_printf (text, "… [%ld chars omitted]", n_chars - BLOB_KEEP_CHARS);
      encode_string (shorter, text->str, text->len);
    }
  else
    return FALSE;

  if (shorter->len >= token->length)
    return FALSE;
  g_string_append_len (out, shorter->str, shorter->len);
  return TRUE;
}

/* ---- pass 2: write -------------------------------------------------------------------------- */

typedef struct
{
  gboolean is_array;
  gboolean expect_key;   /* objects */
  gboolean any;          /* something was written: the next item needs a comma */
  gboolean elide;        /* arrays: long enough, and the marker is shorter than the items */
  gboolean skipping;     /* arrays: inside the omitted stretch */
  guint    count;        /* arrays: items in all */
  guint    index;        /* arrays: items seen */
} Frame;

typedef struct
{
  GString                    *out;
  GArray                     *stack;
  const GArray               *arrays;
  guint                       next_array;
  guint                       n_skipping;   /* frames skipping: nothing is written while > 0 */
  const WinnowAdapterOptions *options;
} Writer;

static Frame *
writer_top (Writer *w)
{
  return w->stack->len > 0 ? &g_array_index (w->stack, Frame, w->stack->len - 1) : NULL;
}

/* A value (scalar or container) starts in the current frame. */
static void
writer_value_start (Writer *w)
{
  Frame *top = writer_top (w);

  if (top == NULL || !top->is_array)
    return;

  if (top->elide)
    {
      guint index = top->index;

      if (index == top->count - ARRAY_TAIL && top->skipping)
        {
          top->skipping = FALSE;
          w->n_skipping--;
        }
      if (index == ARRAY_HEAD)
        {
          if (w->n_skipping == 0)
            {
              g_string_append_printf (w->out, ",\"… %u items omitted …\"",
                                      top->count - ARRAY_HEAD - ARRAY_TAIL);
              top->any = TRUE;
            }
          top->skipping = TRUE;
          w->n_skipping++;
        }
    }
  top->index++;

  if (w->n_skipping == 0)
    {
      if (top->any)
        g_string_append_c (w->out, ',');
      top->any = TRUE;
    }
}

static void
writer_value_end (Writer *w)
{
  Frame *top = writer_top (w);

  if (top != NULL && !top->is_array)
    top->expect_key = TRUE;
}

static gboolean
worth_eliding (const ArrayInfo            *info,
               const WinnowAdapterOptions *options)
{
  g_autofree char *marker = NULL;

  if (!options->lossy || info->count < ARRAY_ELIDE_MIN)
    return FALSE;
  marker = g_strdup_printf (",\"… %u items omitted …\"", info->count - ARRAY_HEAD - ARRAY_TAIL);
  return info->omitted > strlen (marker);
}

static void
minify (const char                 *text,
        gsize                       length,
        const GArray               *arrays,
        const WinnowAdapterOptions *options,
        GString                    *out)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  Writer w = { out, stack, arrays, 0, 0, options };
  Scanner s = { text, text + length };
  Token token;

  for (next_token (&s, &token); token.type != TOKEN_END; next_token (&s, &token))
    {
      Frame *top = writer_top (&w);

      switch (token.type)
        {
        case TOKEN_BEGIN_OBJECT:
        case TOKEN_BEGIN_ARRAY:
          {
            Frame frame = { token.type == TOKEN_BEGIN_ARRAY, TRUE, FALSE, FALSE, FALSE, 0, 0 };

            writer_value_start (&w);
            if (w.n_skipping == 0)
              g_string_append_c (out, *token.start);
            if (frame.is_array)
              {
                const ArrayInfo *info = &g_array_index (arrays, ArrayInfo, w.next_array++);

                frame.count = info->count;
                frame.elide = worth_eliding (info, options);
              }
            g_array_append_val (stack, frame);
          }
          break;

        case TOKEN_END_OBJECT:
        case TOKEN_END_ARRAY:
          if (top->skipping)
            {
              top->skipping = FALSE;
              w.n_skipping--;
            }
          if (w.n_skipping == 0)
            g_string_append_c (out, *token.start);
          g_array_set_size (stack, stack->len - 1);
          writer_value_end (&w);
          break;

        case TOKEN_STRING:
          if (top != NULL && !top->is_array && top->expect_key)
            {
              if (w.n_skipping == 0)
                {
                  if (top->any)
                    g_string_append_c (out, ',');
                  g_string_append_len (out, token.start, token.length);
                  g_string_append_c (out, ':');
                  top->any = TRUE;
                }
              top->expect_key = FALSE;
              break;
            }
          writer_value_start (&w);
          if (w.n_skipping == 0 &&
              !(options->lossy && shorten_string (out, &token, options)))
            g_string_append_len (out, token.start, token.length);
          writer_value_end (&w);
          break;

        case TOKEN_NUMBER:
        case TOKEN_LITERAL:
          writer_value_start (&w);
          if (w.n_skipping == 0)
            g_string_append_len (out, token.start, token.length);
          writer_value_end (&w);
          break;

        case TOKEN_COLON:
        case TOKEN_COMMA:
          break;   /* written where needed */

        case TOKEN_END:
        case TOKEN_ERROR:
        default:
          g_assert_not_reached ();
        }
    }
}

static void
json_extract (const char                 *text,
              gsize                       length,
              const WinnowAdapterOptions *options,
              WinnowAdapterParts         *parts)
{
  g_autoptr(GArray) arrays = g_array_new (FALSE, FALSE, sizeof (ArrayInfo));
  g_autoptr(GString) out = g_string_sized_new (length);

  if (!validate (text, length, arrays))
    {
      /* cannot happen after detect(); keep the text rather than guess */
      _winnow_adapter_preserve (parts, text, length);
      return;
    }

  minify (text, length, arrays, options, out);
  /* only dropping whitespace around the document is not worth a rewrite */
  _winnow_adapter_trim (&text, &length);
  parts->rewritten = out->len != length || memcmp (out->str, text, length) != 0;
  _winnow_adapter_preserve_string (parts, out);
}

static void
json_reconstruct (const WinnowAdapterParts *parts,
                  const char               *summary,
                  GString                  *out)
{
  _winnow_adapter_join_preserved (parts, "", out);
}

const WinnowAdapter _winnow_adapter_json = {
  .name = "json",
  .lossless = TRUE,
  .detect = json_detect,
  .extract = json_extract,
  .summarize = NULL,
  .reconstruct = json_reconstruct,
};
