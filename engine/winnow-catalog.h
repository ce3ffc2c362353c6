/* winnow-catalog.h — every filter Winnow may use, from all its sources
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-config.h"
#include "winnow-detection.h"
#include "winnow-filter.h"
#include "winnow-trust.h"

G_BEGIN_DECLS

/**
 * WinnowSelection:
 * @WINNOW_SELECTION_NONE: no filter applies (none is enabled, or no generic fallback exists)
 * @WINNOW_SELECTION_PASSTHROUGH: the output is a file read or prose and is left alone
 * @WINNOW_SELECTION_OUTPUT_TYPE: a filter for the detected output type
 * @WINNOW_SELECTION_COMMAND: a filter whose `match.commands` matches the command
 * @WINNOW_SELECTION_PATTERN: a filter whose `match.patterns` match the output
 * @WINNOW_SELECTION_FALLBACK: the generic-output filter
 * @WINNOW_SELECTION_FORCED: the caller named the filter
 */
typedef enum
{
  WINNOW_SELECTION_NONE,
  WINNOW_SELECTION_PASSTHROUGH,
  WINNOW_SELECTION_OUTPUT_TYPE,
  WINNOW_SELECTION_COMMAND,
  WINNOW_SELECTION_PATTERN,
  WINNOW_SELECTION_FALLBACK,
  WINNOW_SELECTION_FORCED,
} WinnowSelection;

const char *winnow_selection_to_string (WinnowSelection selection);

#define WINNOW_TYPE_CATALOG (winnow_catalog_get_type ())

G_DECLARE_FINAL_TYPE (WinnowCatalog, winnow_catalog, WINNOW, CATALOG, GObject)

WinnowCatalog     *winnow_catalog_new                 (void);
guint              winnow_catalog_add_builtin         (WinnowCatalog      *self);
guint              winnow_catalog_add_directory       (WinnowCatalog      *self,
                                                       const char         *directory,
                                                       WinnowFilterSource  source);
guint              winnow_catalog_add_file            (WinnowCatalog      *self,
                                                       const char         *path,
                                                       WinnowFilterSource  source);
guint              winnow_catalog_reload_file         (WinnowCatalog      *self,
                                                       const char         *path,
                                                       WinnowFilterSource  source);
WinnowTrustStatus *winnow_catalog_add_project         (WinnowCatalog      *self,
                                                       const char         *project_dir,
                                                       gboolean            trust_override);
GPtrArray         *winnow_catalog_get_diagnostics     (WinnowCatalog      *self);
GPtrArray         *winnow_catalog_dup_filters         (WinnowCatalog      *self);
WinnowFilter      *winnow_catalog_lookup              (WinnowCatalog      *self,
                                                       const char         *id);
WinnowFilter      *winnow_catalog_lookup_shadowed     (WinnowCatalog      *self,
                                                       const char         *id);
WinnowFilter      *winnow_catalog_select              (WinnowCatalog      *self,
                                                       WinnowDetection    *detection,
                                                       const char         *text,
                                                       gsize               length,
                                                       WinnowConfig       *config,
                                                       WinnowSelection    *selection);

G_END_DECLS
