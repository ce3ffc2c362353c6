/* winnow-learn-private.h — what the files of the filter learner share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * winnow-learn.c has the public API and runs the steps, winnow-learn-shape.c the roles and
 * shapes of lines, winnow-learn-propose.c the learner that proposes patterns,
 * winnow-learn-write.c the draft's name, JSON and tests. Nothing here is public API.
 */

#pragma once

#include "winnow-diagnostic.h"
#include "winnow-learn.h"
#include "winnow-regex.h"
#include "winnow-rtk.h"

G_BEGIN_DECLS

/* ---- winnow-learn-shape.c ---------------------------------------------------------------- */

typedef struct
{
  const char *pattern;
  const char *reason;
} Known;

/* In the order they are tried: the first that matches names the kind in the proposal. */
typedef enum
{
  KIND_BANNER,
  KIND_STEP,
  KIND_PASS,
  KIND_FETCH,
  KIND_BUILD,
  KIND_TIME,
  KIND_PROGRESS,
  N_KINDS
} Kind;

typedef enum
{
  ROLE_OTHER,
  ROLE_BLANK,
  ROLE_ERROR,
  ROLE_SUMMARY,
  ROLE_NOISE,
} Role;

/* One set of known patterns: a combined regex that says whether any matches, and the single
 * ones that say which (only consulted after a combined hit, which keeps big samples cheap). */
typedef struct
{
  const Known  *known;
  guint         n;
  WinnowRegex  *any;
  WinnowRegex **each;
  guint        *hits;
  char        **example;
} KnownSet;

typedef enum
{
  FRAG_FIXED,  /* punctuation, spaces, brackets: the same in every line of a group */
  FRAG_CLASS,  /* a number, hash, path or quoted name, already general */
  FRAG_WORD,   /* a word: literal, unless the lines of its group disagree */
} FragKind;

/* A line's shape while it is being built: fragments of regex source, one after another in
 * @text, each ended by a nul. Reused from line to line, so shaping allocates nothing. */
typedef struct
{
  GString *text;
  GArray  *offsets; /* guint */
  GArray  *kinds;   /* guint8 FragKind */
  GString *key;
} Shaper;

typedef struct
{
  char      **frags;        /* the first line's fragments */
  guint8     *kinds;
  gboolean   *varies;       /* per fragment: the lines disagree on this word */
  guint       n_frags;
  guint       count;
  guint       n_noise;
  guint       noise_kinds[N_KINDS];
  guint      *per_sample;
  guint       n_samples_with;
  GHashTable *distinct;     /* hashes of the trimmed lines */
  char       *example;
  guint       order;        /* when it was first seen: keeps the draft deterministic */
} Group;

/* Errors, summaries and kinds of noise: the tables of winnow-learn-shape.c, where their
 * order is explained. */
extern const Known _winnow_learn_error_shapes[];
extern const guint _winnow_learn_n_error_shapes;
extern const Known _winnow_learn_summary_shapes[];
extern const guint _winnow_learn_n_summary_shapes;
extern const Known _winnow_learn_noise_kinds[N_KINDS];

static inline const char *
frag_at (Shaper *s,
         guint   index)
{
  return s->text->str + g_array_index (s->offsets, guint, index);
}

void  _winnow_learn_known_set_init      (KnownSet    *set,
                                         const Known *known,
                                         guint        n,
                                         const char  *flags);
void  _winnow_learn_known_set_clear     (KnownSet *set);
int   _winnow_learn_known_set_match     (KnownSet   *set,
                                         const char *line,
                                         gsize       len);
void  _winnow_learn_known_set_count     (KnownSet   *set,
                                         int         index,
                                         const char *line,
                                         gsize       len);
void  _winnow_learn_shape_line          (Shaper     *s,
                                         const char *line,
                                         gsize       len);
char *_winnow_learn_shaper_dup_regex    (Shaper *s);
void  _winnow_learn_append_escaped_char (GString *out,
                                         char     c);
void  _winnow_learn_group_free          (Group *g);
char *_winnow_learn_group_dup_regex     (Group *g);
guint _winnow_learn_trimmed_hash        (const char *line,
                                         gsize       len);

/* ---- winnow-learn-propose.c -------------------------------------------------------------- */

typedef struct
{
  const char *text;
  guint32     len;
  guint8      role;
  gint8       index;  /* which known pattern gave the role */
  guint       summary; /* ROLE_SUMMARY: index into Learner.summaries */
} LineInfo;

typedef struct
{
  WinnowLearnSample *sample;
  char              *clean;
  gsize              clean_len;
  GArray            *lines; /* LineInfo */
} SampleData;

typedef struct
{
  const char *pattern;      /* borrowed from a table, or owned in Learner.learned */
  const char *reason;
  guint       lines;
  char       *example;
  gboolean    builtin;
} SummaryPattern;

typedef struct
{
  const WinnowLearnOptions *options;
  GPtrArray  *diagnostics;
  const char *filter_id;
  GArray     *samples;      /* SampleData */
  KnownSet    errors;
  KnownSet    summary_set;
  KnownSet    kinds;
  GHashTable *groups;       /* key → Group */
  GPtrArray  *summaries;    /* SummaryPattern*, in the order they are proposed */
  GPtrArray  *learned;      /* owned learned summary regexes */
  GHashTable *summary_lines; /* distinct summary line text → GUINT summary index + 1 */
  guint       n_blank;
  char       *blank_example;
  guint       n_error_lines;
} Learner;

typedef struct
{
  GPtrArray *drop;      /* char* */
  GPtrArray *collapse;  /* char* */
} Proposed;

void          _winnow_learn_sample_data_clear     (SampleData *data);
void          _winnow_learn_summary_pattern_free  (SummaryPattern *sp);
void          _winnow_learn_learner_diagnostic    (Learner               *learner,
                                                   WinnowDiagnosticLevel  level,
                                                   const char            *file,
                                                   const char            *json_path,
                                                   const char            *message);
char         *_winnow_learn_clean_sample          (WinnowFilter *cleaner,
                                                   const char   *data,
                                                   gsize         len,
                                                   gsize        *out_len);
WinnowFilter *_winnow_learn_parse_filter          (JsonNode   *node,
                                                   GPtrArray  *diagnostics,
                                                   GError    **error);
gboolean      _winnow_learn_check_sample          (Learner            *learner,
                                                   WinnowLearnSample  *sample,
                                                   GError            **error);
void          _winnow_learn_split_sample          (SampleData *data);
gboolean      _winnow_learn_is_blank_line         (const char *text,
                                                   gsize       len);
void          _winnow_learn_classify              (Learner *learner);
void          _winnow_learn_build_groups          (Learner *learner);
void          _winnow_learn_propose_line_patterns (Learner   *learner,
                                                   Proposed  *proposed,
                                                   GPtrArray *proposals);

/* ---- winnow-learn-write.c ---------------------------------------------------------------- */

typedef struct
{
  const char *id;
  const char *label;
  const char *description;
  const char *category;
  GPtrArray  *output_types;
  GPtrArray  *commands;
  GPtrArray  *drop;
  GPtrArray  *collapse;
  GPtrArray  *errors;
  GPtrArray  *summaries;
  const char *shortcut_pattern;  /* nullable */
  const char *shortcut_message;
  const char *shortcut_unless;
  const char *command;
  GPtrArray  *test_names;        /* nullable: no tests yet */
  GPtrArray  *test_inputs;
  GPtrArray  *test_expected;
} Draft;

GPtrArray       *_winnow_learn_command_words      (const char *command);
char            *_winnow_learn_command_regex      (GPtrArray *words);
char            *_winnow_learn_slug               (GPtrArray *words);
gboolean         _winnow_learn_is_known_category  (const char *category);
void             _winnow_learn_add_member         (JsonBuilder *builder,
                                                   const char  *name,
                                                   const char  *value);
JsonNode        *_winnow_learn_draft_to_node      (const Draft *d);
guint            _winnow_learn_count_lines        (const char *text,
                                                   gsize       len);
WinnowRtkResult *_winnow_learn_run_as_verify      (WinnowFilter *filter,
                                                   const char   *text,
                                                   gsize         len);
char            *_winnow_learn_test_input         (const char *data,
                                                   gsize       len,
                                                   gsize       limit,
                                                   gboolean   *cut);
char            *_winnow_learn_literal_line_regex (const char *line);

/* ---- winnow-learn.c ---------------------------------------------------------------------- */

void _winnow_learn_add_proposal (GPtrArray  *proposals,
                                 const char *field,
                                 const char *value,
                                 const char *reason,
                                 guint       lines,
                                 const char *example);

G_END_DECLS
