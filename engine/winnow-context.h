/* winnow-context.h — settings, catalog and detector for one place and project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "winnow-catalog.h"
#include "winnow-compression.h"
#include "winnow-config.h"
#include "winnow-detector.h"
#include "winnow-rule-set.h"
#include "winnow-trust.h"

G_BEGIN_DECLS

/**
 * WinnowCompressOptions:
 * @intensity: the RTK intensity to use instead of the configured one, or -1
 * @filter_id: (nullable): run this filter instead of selecting one
 * @engine_limits: apply the engine caps (the normal case); %FALSE runs the filter alone
 */
typedef struct
{
  int         intensity;
  const char *filter_id;
  gboolean    engine_limits;
} WinnowCompressOptions;

void winnow_compress_options_init (WinnowCompressOptions *options);

#define WINNOW_TYPE_CONTEXT (winnow_context_get_type ())

G_DECLARE_FINAL_TYPE (WinnowContext, winnow_context, WINNOW, CONTEXT, GObject)

WinnowContext     *winnow_context_new                (const char                  *data_dir,
                                                      const char                  *project_dir);
char              *winnow_context_default_data_dir   (void);
const char        *winnow_context_get_data_dir       (WinnowContext               *self);
const char        *winnow_context_get_project_dir    (WinnowContext               *self);
WinnowConfig      *winnow_context_get_config         (WinnowContext               *self);
WinnowCatalog     *winnow_context_get_catalog        (WinnowContext               *self);
WinnowDetector    *winnow_context_get_detector       (WinnowContext               *self);
WinnowTrustStatus *winnow_context_get_project_trust  (WinnowContext               *self);
GPtrArray         *winnow_context_dup_diagnostics    (WinnowContext               *self);
char              *winnow_context_get_global_filters_path (WinnowContext          *self);
char              *winnow_context_get_global_rules_path (WinnowContext            *self);
WinnowRuleSet     *winnow_context_get_rule_set       (WinnowContext               *self);
WinnowCompression *winnow_context_compress           (WinnowContext               *self,
                                                      const char                  *text,
                                                      gssize                       length,
                                                      const char                  *command,
                                                      const WinnowCompressOptions *options,
                                                      GError                     **error);

gboolean           winnow_context_set_filter_enabled (WinnowContext              *self,
                                                      const char                 *filter_id,
                                                      gboolean                    enabled,
                                                      GError                    **error);
gboolean           winnow_context_set_raw_output_retention (WinnowContext        *self,
                                                      const char                 *retention,
                                                      guint                       max_bytes,
                                                      GError                    **error);
gboolean           winnow_context_update_settings    (WinnowContext              *self,
                                                      JsonObject                 *patch,
                                                      GError                    **error);
gboolean           winnow_context_reload_settings    (WinnowContext              *self);

G_END_DECLS
