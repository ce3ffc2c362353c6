/* winnow-receipt.h — tokens before and after one compression, and who counted them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_RECEIPT (winnow_receipt_get_type ())

G_DECLARE_FINAL_TYPE (WinnowReceipt, winnow_receipt, WINNOW, RECEIPT, GObject)

WinnowReceipt *winnow_receipt_new               (const char    *engine,
                                                 const char    *intensity,
                                                 gsize          tokens_before,
                                                 gsize          tokens_after);
WinnowReceipt *winnow_receipt_new_for_texts     (const char    *engine,
                                                 const char    *intensity,
                                                 const char    *before,
                                                 gssize         before_length,
                                                 const char    *after,
                                                 gssize         after_length);
const char    *winnow_receipt_get_engine        (WinnowReceipt *self);
const char    *winnow_receipt_get_intensity     (WinnowReceipt *self);
gsize          winnow_receipt_get_tokens_before (WinnowReceipt *self);
gsize          winnow_receipt_get_tokens_after  (WinnowReceipt *self);
gsize          winnow_receipt_get_saved_tokens  (WinnowReceipt *self);
double         winnow_receipt_get_saved_ratio   (WinnowReceipt *self);
const char    *winnow_receipt_get_counter       (WinnowReceipt *self);
JsonNode      *winnow_receipt_to_json_node      (WinnowReceipt *self);

G_END_DECLS
