/* winnow-config.h — the compression settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-rtk.h"
#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowPipelineStep:
 * @engine: "rtk" or "caveman"
 * @intensity: the engine's intensity ("standard", "full" …)
 */
typedef struct
{
  char *engine;
  char *intensity;
} WinnowPipelineStep;

#define WINNOW_TYPE_CONFIG (winnow_config_get_type ())

G_DECLARE_FINAL_TYPE (WinnowConfig, winnow_config, WINNOW, CONFIG, GObject)

WinnowConfig       *winnow_config_new                      (void);
WinnowConfig       *winnow_config_new_from_json            (const char       *text,
                                                            gssize            length,
                                                            const char       *file,
                                                            GPtrArray        *diagnostics);
WinnowConfig       *winnow_config_load_file                (const char       *path,
                                                            GPtrArray        *diagnostics);
char               *winnow_config_to_json                  (WinnowConfig     *self);

const char         *winnow_config_get_default_mode         (WinnowConfig     *self);
const char         *winnow_config_get_auto_trigger_mode    (WinnowConfig     *self);
guint               winnow_config_get_auto_trigger_tokens  (WinnowConfig     *self);
guint               winnow_config_get_n_pipeline_steps     (WinnowConfig     *self);
const WinnowPipelineStep *winnow_config_get_pipeline_step  (WinnowConfig     *self,
                                                            guint             index);

gboolean            winnow_config_get_rtk_enabled          (WinnowConfig     *self);
WinnowRtkIntensity  winnow_config_get_rtk_intensity        (WinnowConfig     *self);
gboolean            winnow_config_get_apply_to_tool_results (WinnowConfig    *self);
gboolean            winnow_config_get_apply_to_code_blocks (WinnowConfig     *self);
gboolean            winnow_config_get_apply_to_assistant_messages (WinnowConfig *self);
const char * const *winnow_config_get_enabled_filters      (WinnowConfig     *self);
const char * const *winnow_config_get_disabled_filters     (WinnowConfig     *self);
gboolean            winnow_config_is_filter_enabled        (WinnowConfig     *self,
                                                            const char       *filter_id);
guint               winnow_config_get_max_lines_per_result (WinnowConfig     *self);
guint               winnow_config_get_max_chars_per_result (WinnowConfig     *self);
guint               winnow_config_get_dedup_threshold      (WinnowConfig     *self);
gboolean            winnow_config_get_custom_filters_enabled (WinnowConfig   *self);
gboolean            winnow_config_get_trust_project_filters (WinnowConfig    *self);
const char         *winnow_config_get_raw_output_retention (WinnowConfig     *self);
guint               winnow_config_get_raw_output_max_bytes (WinnowConfig     *self);
guint               winnow_config_get_retention_days       (WinnowConfig     *self);
const char         *winnow_config_get_caveman_intensity    (WinnowConfig     *self);
const char         *winnow_config_get_caveman_language     (WinnowConfig     *self);
void                winnow_config_get_rtk_options          (WinnowConfig     *self,
                                                            WinnowRtkOptions *options);

G_END_DECLS
