/* winnow-cli.h — the headless `winnow` subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "winnow.h"

G_BEGIN_DECLS

/* Exit codes shared by every subcommand. */
#define WINNOW_EXIT_OK      0
#define WINNOW_EXIT_FAILURE 1
#define WINNOW_EXIT_USAGE   2

typedef struct
{
  char     *data_dir;
  char     *project_dir;
  gboolean  no_project;
  gboolean  json;
} WinnowCliCommon;

int            winnow_cli_compress        (int               argc,
                                           char            **argv);
int            winnow_cli_detect          (int               argc,
                                           char            **argv);
int            winnow_cli_learn           (int               argc,
                                           char            **argv);
int            winnow_cli_filters         (int               argc,
                                           char            **argv);
int            winnow_cli_rules           (int               argc,
                                           char            **argv);
int            winnow_cli_expand          (int               argc,
                                           char            **argv);
int            winnow_cli_trust           (int               argc,
                                           char            **argv);
int            winnow_cli_serve           (int               argc,
                                           char            **argv);
int            winnow_cli_verify          (int               argc,
                                           char            **argv);
int            winnow_cli_run             (int               argc,
                                           char            **argv);
int            winnow_cli_raw             (int               argc,
                                           char            **argv);
int            winnow_cli_gain            (int               argc,
                                           char            **argv);
void           winnow_cli_record          (WinnowContext          *context,
                                           const WinnowStoreEvent *event,
                                           const char             *command);

GOptionGroup  *winnow_cli_common_group    (WinnowCliCommon  *common);
void           winnow_cli_common_clear    (WinnowCliCommon  *common);
WinnowContext *winnow_cli_common_context  (WinnowCliCommon  *common);
GOptionContext *winnow_cli_option_context (const char       *parameters,
                                           const char       *summary,
                                           const char       *description);
gboolean       winnow_cli_parse           (GOptionContext   *context,
                                           const char       *command,
                                           int              *argc,
                                           char           ***argv);
int            winnow_cli_usage_error     (const char       *command,
                                           const char       *format,
                                           ...) G_GNUC_PRINTF (2, 3);
gboolean       winnow_cli_set_mode_and_intensity (const char            *command,
                                                  const char            *mode,
                                                  const char            *intensity,
                                                  WinnowPipelineRequest *request);
gboolean       winnow_cli_read_input      (const char       *path,
                                           char            **contents,
                                           gsize            *length,
                                           GError          **error);
void           winnow_cli_print_json      (JsonNode         *node);
void           winnow_cli_print_diagnostics (GPtrArray      *diagnostics,
                                           gboolean          include_info);
void           winnow_cli_json_member     (JsonBuilder      *builder,
                                           const char       *name,
                                           const char       *value);
void           winnow_cli_add_diagnostics_json (JsonBuilder *builder,
                                           GPtrArray        *diagnostics);
gboolean       winnow_cli_use_color       (int               fd);

G_END_DECLS
