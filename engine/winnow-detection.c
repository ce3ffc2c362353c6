/* winnow-detection.c — what kind of output something is, and how sure we are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "winnow-detector"

#include "config.h"

#include "winnow-detection.h"

struct _WinnowDetection
{
  GObject   parent_instance;
  char     *output_type;
  char     *category;
  double    confidence;
  char     *command;
  char     *evidence;
  guint     command_matched : 1;
  guint     has_errors : 1;
  guint     passthrough : 1;
};

G_DEFINE_FINAL_TYPE (WinnowDetection, winnow_detection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_OUTPUT_TYPE,
  PROP_CATEGORY,
  PROP_CONFIDENCE,
  PROP_COMMAND,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
winnow_detection_finalize (GObject *object)
{
  WinnowDetection *self = (WinnowDetection *)object;

  g_clear_pointer (&self->output_type, g_free);
  g_clear_pointer (&self->category, g_free);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->evidence, g_free);

  G_OBJECT_CLASS (winnow_detection_parent_class)->finalize (object);
}

static void
winnow_detection_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowDetection *self = WINNOW_DETECTION (object);

  switch (prop_id)
    {
    case PROP_OUTPUT_TYPE:
      g_value_set_string (value, self->output_type);
      break;
    case PROP_CATEGORY:
      g_value_set_string (value, self->category);
      break;
    case PROP_CONFIDENCE:
      g_value_set_double (value, self->confidence);
      break;
    case PROP_COMMAND:
      g_value_set_string (value, self->command);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_detection_class_init (WinnowDetectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = winnow_detection_finalize;
  object_class->get_property = winnow_detection_get_property;

  properties [PROP_OUTPUT_TYPE] =
    g_param_spec_string ("output-type", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_CATEGORY] =
    g_param_spec_string ("category", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_CONFIDENCE] =
    g_param_spec_double ("confidence", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties [PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_detection_init (WinnowDetection *self)
{
}

WinnowDetection *
_winnow_detection_new (const char *output_type,
                       const char *category,
                       double      confidence,
                       const char *command,
                       gboolean    command_matched,
                       const char *evidence,
                       gboolean    has_errors,
                       gboolean    passthrough)
{
  WinnowDetection *self = g_object_new (WINNOW_TYPE_DETECTION, NULL);

  self->output_type = g_strdup (output_type);
  self->category = g_strdup (category);
  self->confidence = CLAMP (confidence, 0.0, 1.0);
  self->command = g_strdup (command);
  self->command_matched = !!command_matched;
  self->evidence = g_strdup (evidence);
  self->has_errors = !!has_errors;
  self->passthrough = !!passthrough;

  return self;
}

/**
 * winnow_detection_get_output_type:
 * @self: a #WinnowDetection
 *
 * Returns: the output type id, such as "git-status" or "generic-output"
 */
const char *
winnow_detection_get_output_type (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), NULL);
  return self->output_type;
}

const char *
winnow_detection_get_category (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), NULL);
  return self->category;
}

/**
 * winnow_detection_get_confidence:
 * @self: a #WinnowDetection
 *
 * Returns: 0.55 for a command that names the tool (0.3 for a generic runner), plus 0.25 for
 *   each content pattern seen, capped at 1
 */
double
winnow_detection_get_confidence (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), 0.0);
  return self->confidence;
}

/**
 * winnow_detection_get_command:
 * @self: a #WinnowDetection
 *
 * Returns: (nullable): the normalised command, given or found in a prompt line
 */
const char *
winnow_detection_get_command (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), NULL);
  return self->command;
}

/**
 * winnow_detection_get_command_matched:
 * @self: a #WinnowDetection
 *
 * Returns: %TRUE if the type was chosen on the strength of the command naming its tool
 */
gboolean
winnow_detection_get_command_matched (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), FALSE);
  return self->command_matched;
}

/**
 * winnow_detection_get_evidence:
 * @self: a #WinnowDetection
 *
 * Returns: what the decision rests on, in words
 */
const char *
winnow_detection_get_evidence (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), NULL);
  return self->evidence;
}

gboolean
winnow_detection_get_has_errors (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), FALSE);
  return self->has_errors;
}

/**
 * winnow_detection_get_passthrough:
 * @self: a #WinnowDetection
 *
 * Returns: %TRUE for a file read or prose without error markers, which Winnow leaves alone
 */
gboolean
winnow_detection_get_passthrough (WinnowDetection *self)
{
  g_return_val_if_fail (WINNOW_IS_DETECTION (self), FALSE);
  return self->passthrough;
}
