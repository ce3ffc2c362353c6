/* winnow-diagnostic.c — one finding about a filter, pack or settings file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Immutable once created, so lists of diagnostics can be shared between the catalog, the
 * CLI and the dashboard without copying.
 */

#define G_LOG_DOMAIN "winnow-diagnostic"

#include "config.h"

#include "winnow-diagnostic.h"

struct _WinnowDiagnostic
{
  GObject                parent_instance;
  WinnowDiagnosticLevel  level;
  char                  *source;
  char                  *file;
  char                  *subject_kind;
  char                  *subject;
  char                  *json_path;
  guint                  line;
  guint                  column;
  char                  *message;
};

G_DEFINE_FINAL_TYPE (WinnowDiagnostic, winnow_diagnostic, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LEVEL,
  PROP_SOURCE,
  PROP_FILE,
  PROP_SUBJECT_KIND,
  PROP_SUBJECT,
  PROP_JSON_PATH,
  PROP_LINE,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
winnow_diagnostic_finalize (GObject *object)
{
  WinnowDiagnostic *self = (WinnowDiagnostic *)object;

  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->subject_kind, g_free);
  g_clear_pointer (&self->subject, g_free);
  g_clear_pointer (&self->json_path, g_free);
  g_clear_pointer (&self->message, g_free);

  G_OBJECT_CLASS (winnow_diagnostic_parent_class)->finalize (object);
}

static void
winnow_diagnostic_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WinnowDiagnostic *self = WINNOW_DIAGNOSTIC (object);

  switch (prop_id)
    {
    case PROP_LEVEL:
      g_value_set_uint (value, self->level);
      break;
    case PROP_SOURCE:
      g_value_set_string (value, self->source);
      break;
    case PROP_FILE:
      g_value_set_string (value, self->file);
      break;
    case PROP_SUBJECT_KIND:
      g_value_set_string (value, self->subject_kind);
      break;
    case PROP_SUBJECT:
      g_value_set_string (value, self->subject);
      break;
    case PROP_JSON_PATH:
      g_value_set_string (value, self->json_path);
      break;
    case PROP_LINE:
      g_value_set_uint (value, self->line);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_diagnostic_class_init (WinnowDiagnosticClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_diagnostic_finalize;
  object_class->get_property = winnow_diagnostic_get_property;

  properties [PROP_LEVEL] =
    g_param_spec_uint ("level", NULL, NULL, 0, WINNOW_DIAGNOSTIC_ERROR, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_SOURCE] =
    g_param_spec_string ("source", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_FILE] =
    g_param_spec_string ("file", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_SUBJECT_KIND] =
    g_param_spec_string ("subject-kind", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_SUBJECT] =
    g_param_spec_string ("subject", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_JSON_PATH] =
    g_param_spec_string ("json-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_LINE] =
    g_param_spec_uint ("line", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_diagnostic_init (WinnowDiagnostic *self)
{
}

/**
 * winnow_diagnostic_new_about:
 * @level: how bad it is
 * @source: (nullable): "built-in", "global", "project" or "file"
 * @file: (nullable): the file the finding is about
 * @subject_kind: (nullable): what @subject names: "filter", "rule", "pack", "setting"…
 * @subject: (nullable): the filter id, rule name… concerned
 * @json_path: (nullable): where in the document, e.g. `rules.dropPatterns[3]`
 * @line: 1-based line in @file, or 0 when unknown
 * @column: 1-based column, or 0 when unknown
 * @message: the reason, in words
 *
 * Returns: (transfer full): a new #WinnowDiagnostic
 */
WinnowDiagnostic *
winnow_diagnostic_new_about (WinnowDiagnosticLevel  level,
                             const char            *source,
                             const char            *file,
                             const char            *subject_kind,
                             const char            *subject,
                             const char            *json_path,
                             guint                  line,
                             guint                  column,
                             const char            *message)
{
  WinnowDiagnostic *self;

  g_return_val_if_fail (message != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_DIAGNOSTIC, NULL);
  self->level = level;
  self->source = g_strdup (source);
  self->file = g_strdup (file);
  self->subject_kind = g_strdup (subject != NULL ? subject_kind : NULL);
  self->subject = g_strdup (subject);
  self->json_path = g_strdup (json_path);
  self->line = line;
  self->column = column;
  self->message = g_strdup (message);

  return self;
}

/**
 * winnow_diagnostic_new:
 * @level: how bad it is
 * @source: (nullable): "built-in", "global", "project" or "file"
 * @file: (nullable): the file the finding is about
 * @filter_id: (nullable): the filter concerned
 * @json_path: (nullable): where in the document, e.g. `rules.dropPatterns[3]`
 * @line: 1-based line in @file, or 0 when unknown
 * @column: 1-based column, or 0 when unknown
 * @message: the reason, in words
 *
 * A finding about a filter: winnow_diagnostic_new_about() with the subject kind "filter".
 *
 * Returns: (transfer full): a new #WinnowDiagnostic
 */
WinnowDiagnostic *
winnow_diagnostic_new (WinnowDiagnosticLevel  level,
                       const char            *source,
                       const char            *file,
                       const char            *filter_id,
                       const char            *json_path,
                       guint                  line,
                       guint                  column,
                       const char            *message)
{
  return winnow_diagnostic_new_about (level, source, file, "filter", filter_id, json_path,
                                      line, column, message);
}

/* A copy of @self placed at @line and @column (the JSON locator fills positions in late). */
WinnowDiagnostic *
_winnow_diagnostic_copy_at (WinnowDiagnostic *self,
                            guint             line,
                            guint             column)
{
  return winnow_diagnostic_new_about (self->level, self->source, self->file, self->subject_kind,
                                      self->subject, self->json_path, line, column,
                                      self->message);
}

WinnowDiagnosticLevel
winnow_diagnostic_get_level (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), WINNOW_DIAGNOSTIC_ERROR);
  return self->level;
}

const char *
winnow_diagnostic_get_source (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->source;
}

const char *
winnow_diagnostic_get_file (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->file;
}

/**
 * winnow_diagnostic_get_filter_id:
 * @self: a #WinnowDiagnostic
 *
 * Returns: (nullable): the id of the filter concerned, or %NULL when the finding is not about
 *   a filter
 */
const char *
winnow_diagnostic_get_filter_id (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return g_strcmp0 (self->subject_kind, "filter") == 0 ? self->subject : NULL;
}

/**
 * winnow_diagnostic_get_subject_kind:
 * @self: a #WinnowDiagnostic
 *
 * Returns: (nullable): what winnow_diagnostic_get_subject() names: "filter", "rule"…
 */
const char *
winnow_diagnostic_get_subject_kind (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->subject_kind;
}

/**
 * winnow_diagnostic_get_subject:
 * @self: a #WinnowDiagnostic
 *
 * Returns: (nullable): the filter id, rule name… the finding is about
 */
const char *
winnow_diagnostic_get_subject (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->subject;
}

const char *
winnow_diagnostic_get_json_path (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->json_path;
}

guint
winnow_diagnostic_get_line (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), 0);
  return self->line;
}

guint
winnow_diagnostic_get_column (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), 0);
  return self->column;
}

const char *
winnow_diagnostic_get_message (WinnowDiagnostic *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);
  return self->message;
}

const char *
winnow_diagnostic_level_to_string (WinnowDiagnosticLevel level)
{
  switch (level)
    {
    case WINNOW_DIAGNOSTIC_INFO: return "info";
    case WINNOW_DIAGNOSTIC_WARNING: return "warning";
    case WINNOW_DIAGNOSTIC_ERROR: return "error";
    default: return "unknown";
    }
}

/**
 * winnow_diagnostic_to_string:
 * @self: a #WinnowDiagnostic
 *
 * Formats the diagnostic the way compilers do, so editors can jump to it:
 * `FILE:LINE:COL: LEVEL: filter 'ID': JSON.PATH: MESSAGE` (or `rule 'NAME'`…).
 *
 * Returns: (transfer full): the text
 */
char *
winnow_diagnostic_to_string (WinnowDiagnostic *self)
{
  GString *str;

  g_return_val_if_fail (WINNOW_IS_DIAGNOSTIC (self), NULL);

  str = g_string_new (NULL);

  if (self->file != NULL)
    {
      g_string_append (str, self->file);
      if (self->line > 0)
        g_string_append_printf (str, ":%u", self->line);
      if (self->line > 0 && self->column > 0)
        g_string_append_printf (str, ":%u", self->column);
      g_string_append (str, ": ");
    }

  g_string_append_printf (str, "%s: ", winnow_diagnostic_level_to_string (self->level));

  if (self->subject != NULL)
    g_string_append_printf (str, "%s '%s': ", self->subject_kind ? self->subject_kind : "item",
                            self->subject);
  if (self->json_path != NULL && self->json_path[0] != '\0')
    g_string_append_printf (str, "%s: ", self->json_path);

  g_string_append (str, self->message);

  return g_string_free (str, FALSE);
}

/**
 * winnow_diagnostics_count_level:
 * @diagnostics: (element-type WinnowDiagnostic): a list
 * @level: the level to count
 *
 * Returns: how many diagnostics in @diagnostics have @level
 */
guint
winnow_diagnostics_count_level (GPtrArray             *diagnostics,
                                WinnowDiagnosticLevel  level)
{
  guint count = 0;

  if (diagnostics == NULL)
    return 0;

  for (guint i = 0; i < diagnostics->len; i++)
    if (winnow_diagnostic_get_level (g_ptr_array_index (diagnostics, i)) == level)
      count++;

  return count;
}
