/* fuzz-settings.c — the settings JSON loader on arbitrary bytes
 *
 * Whatever loads is written back out, and what is written must load again to the same
 * settings: the dashboard and `winnow serve` both save what they read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "winnow.h"

#include "fuzz-util.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) again_diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowConfig) config = NULL;
  g_autoptr(WinnowConfig) again = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;

  config = winnow_config_new_from_json ((const char *) data, size, "settings.json", diagnostics);
  for (guint i = 0; i < diagnostics->len; i++)
    g_free (winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i)));
  if (config == NULL)
    return 0;

  json = winnow_config_to_json (config);
  again = winnow_config_new_from_json (json, -1, "again.json", again_diagnostics);
  g_assert_nonnull (again);
  json_again = winnow_config_to_json (again);
  g_assert_cmpstr (json, ==, json_again);

  return 0;
}
