/* winnow-sample-item.h — one checked sample as an item of a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-rule-pack-check.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_SAMPLE_ITEM (winnow_sample_item_get_type ())

G_DECLARE_FINAL_TYPE (WinnowSampleItem, winnow_sample_item, WINNOW, SAMPLE_ITEM, GObject)

WinnowSampleItem        *winnow_sample_item_new        (WinnowRulePackCheck *check,
                                                        guint                index);
const WinnowSampleCheck *winnow_sample_item_get_sample (WinnowSampleItem    *self);
gboolean                 winnow_sample_item_is_failing (WinnowSampleItem    *self);

GListModel              *winnow_sample_item_list_new   (WinnowRulePackCheck *check);

G_END_DECLS
