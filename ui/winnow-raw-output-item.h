/* winnow-raw-output-item.h — one row of the Raw Output list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_RAW_OUTPUT_ITEM (winnow_raw_output_item_get_type ())

G_DECLARE_FINAL_TYPE (WinnowRawOutputItem, winnow_raw_output_item, WINNOW, RAW_OUTPUT_ITEM, GObject)

WinnowRawOutputItem       *winnow_raw_output_item_new             (const WinnowRawOutputInfo *info);
const WinnowRawOutputInfo *winnow_raw_output_item_get_info        (WinnowRawOutputItem       *self);
void                       winnow_raw_output_item_set_info        (WinnowRawOutputItem       *self,
                                                                   const WinnowRawOutputInfo *info);
gboolean                   winnow_raw_output_item_get_loaded      (WinnowRawOutputItem       *self);
guint                      winnow_raw_output_item_get_n_redactions (WinnowRawOutputItem      *self);

G_END_DECLS
