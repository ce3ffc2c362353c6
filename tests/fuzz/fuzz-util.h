/* fuzz-util.h — what the fuzz targets share
 *
 * Every target defines LLVMFuzzerTestOneInput and nothing else public: built with
 * -Dfuzzing=true (clang) it links libFuzzer's main; in the normal build it links fuzz-replay.c,
 * whose main feeds it the crashers kept in tests/fuzz/regressions/<target>/, so each one found
 * stays a test under gcc, ASan or valgrind alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* A cursor over the fuzz bytes, to derive small structured inputs (a filter, a route, a
 * language) from them; past the end every read gives zero, so any input is usable. */
typedef struct
{
  const uint8_t *data;
  size_t         size;
  size_t         pos;
} FuzzReader;

static inline void
fuzz_reader_init (FuzzReader    *reader,
                  const uint8_t *data,
                  size_t         size)
{
  reader->data = data;
  reader->size = size;
  reader->pos = 0;
}

static inline guint8
fuzz_reader_byte (FuzzReader *reader)
{
  return reader->pos < reader->size ? reader->data[reader->pos++] : 0;
}

/* the bytes up to @sep (not included) or the end, at most @max of them; NUL-terminated copy */
static inline char *
fuzz_reader_string (FuzzReader *reader,
                    char        sep,
                    gsize       max)
{
  gsize start = reader->pos;
  gsize end = start;

  while (end < reader->size && reader->data[end] != (guint8) sep && end - start < max)
    end++;
  reader->pos = end < reader->size && reader->data[end] == (guint8) sep ? end + 1 : end;

  return g_strndup ((const char *) reader->data + start, end - start);
}

/* the rest of the input, not terminated: (pointer, length) */
static inline const char *
fuzz_reader_rest (FuzzReader *reader,
                  gsize      *length)
{
  *length = reader->size - reader->pos;
  return (const char *) reader->data + reader->pos;
}

G_END_DECLS
