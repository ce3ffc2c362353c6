/* winnow-json-reader.h — reading user-written JSON documents with diagnostics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "winnow-diagnostic.h"

G_BEGIN_DECLS

typedef struct
{
  const char *source;        /* "built-in", "global", "project", "file" */
  const char *file;
  const char *base;          /* JSON path of the object being read, "" at the root */
  const char *subject_kind;  /* "filter", "rule"… */
  const char *subject;       /* filter id, rule name… once known */
  GPtrArray  *diagnostics;   /* nullable */
  gboolean    lazy_regex;    /* don't compile regexes (trusted built-in data) */
  gboolean    trusted;       /* built-in data, checked by the test suite: skip costly lints */
  gboolean    failed;        /* an error was reported */
} WinnowJsonReader;

void        _winnow_json_reader_report      (WinnowJsonReader       *r,
                                             WinnowDiagnosticLevel   level,
                                             const char             *rel_path,
                                             const char             *format,
                                             ...) G_GNUC_PRINTF (4, 5);
char       *_winnow_json_reader_path        (WinnowJsonReader       *r,
                                             const char             *rel_path);
const char *_winnow_json_node_type_name     (JsonNode               *node);
gboolean    _winnow_json_node_is_string     (JsonNode               *node);
char       *_winnow_json_reader_string      (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *key,
                                             const char             *path,
                                             gboolean                required);
gboolean    _winnow_json_reader_bool        (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *key,
                                             const char             *path);
gboolean    _winnow_json_reader_int         (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *key,
                                             const char             *path,
                                             gint64                  min,
                                             gint64                  max,
                                             gint64                 *out);
gboolean    _winnow_json_reader_regex       (WinnowJsonReader       *r,
                                             const char             *pattern,
                                             const char             *flags,
                                             const char             *path);
GStrv       _winnow_json_reader_string_list (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *key,
                                             const char             *path,
                                             const char             *regex_flags);
JsonArray  *_winnow_json_reader_array       (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *key,
                                             const char             *path,
                                             const char             *what);
void        _winnow_json_reader_unknown     (WinnowJsonReader       *r,
                                             JsonObject             *obj,
                                             const char             *path,
                                             const char * const     *known,
                                             JsonObject            **extra);

/* deeper than any real settings, pack or conversation, shallow enough for json-glib's
 * recursive parser */
#define WINNOW_JSON_MAX_DEPTH 512

const char *_winnow_json_check_document     (const char             *text,
                                             gsize                   length,
                                             guint                  *line,
                                             guint                  *column);
gboolean    _winnow_json_check_depth        (const char             *text,
                                             gsize                   length,
                                             guint                   max_depth,
                                             guint                  *line,
                                             guint                  *column);
JsonParser *_winnow_json_parse_document     (const char            **text,
                                             gsize                  *length,
                                             const char             *source,
                                             const char             *file,
                                             const char             *expected,
                                             GPtrArray              *diagnostics);
JsonParser *_winnow_json_parse_document_full (const char           **text,
                                              gsize                 *length,
                                              const char            *source,
                                              const char            *file,
                                              const char            *expected,
                                              gboolean               immutable,
                                              GPtrArray             *diagnostics);
void        _winnow_json_builder_add_members (JsonBuilder           *builder,
                                              JsonObject            *members);
char       *_winnow_json_to_document        (JsonNode               *node);
char       *_winnow_json_read_file          (const char             *path,
                                             const char             *source,
                                             const char             *expected,
                                             gsize                  *length,
                                             GPtrArray              *diagnostics);

G_END_DECLS
