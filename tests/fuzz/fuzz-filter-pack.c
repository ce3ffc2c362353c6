/* fuzz-filter-pack.c — the filter pack loader on arbitrary bytes
 *
 * Parses the bytes as a pack (eagerly and lazily compiled), assesses each filter's risks and
 * writes the pack back out; what it writes must load again.
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
  for (guint lazy = 0; lazy < 2; lazy++)
    {
      g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) filters = NULL;
      WinnowFilterParseFlags flags = lazy ? WINNOW_FILTER_PARSE_LAZY_REGEX : 0;

      filters = winnow_filter_pack_parse ((const char *) data, size, WINNOW_FILTER_SOURCE_FILE,
                                          "fuzz.json", flags, diagnostics);
      for (guint i = 0; i < diagnostics->len; i++)
        g_free (winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i)));

      if (filters == NULL)
        continue;

      for (guint i = 0; i < filters->len; i++)
        {
          g_autoptr(GPtrArray) risks = winnow_filter_assess_risks (g_ptr_array_index (filters, i));
        }

      if (filters->len > 0)
        {
          g_autofree char *json = winnow_filter_pack_to_json (filters, TRUE);
          g_autoptr(GPtrArray) again_diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
          g_autoptr(GPtrArray) again = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE,
                                                                 "again.json", flags,
                                                                 again_diagnostics);

          g_assert_nonnull (again);
          g_assert_cmpuint (again->len, ==, filters->len);
        }
    }

  return 0;
}
