/* fuzz-rtk.c — the RTK stages with a random filter over random input
 *
 * The first bytes describe a small filter: which switches are on, a few line counts, and up
 * to a few short patterns for each list (replace, matchOutput, drop, include, collapse, error,
 * summary); the rest is the tool output it runs over, at each intensity, with and without the
 * engine's caps. A filter whose patterns do not compile is skipped: loading is
 * fuzz-filter-pack's job.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "winnow.h"

#include "fuzz-util.h"

/* up to three patterns, each ended by \x01; a \x02 ends the list early */
static void
add_patterns (JsonBuilder *builder,
              FuzzReader  *reader,
              const char  *name)
{
  guint n = fuzz_reader_byte (reader) % 4;

  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *pattern = fuzz_reader_string (reader, '\x01', 48);

      if (!g_utf8_validate (pattern, -1, NULL))
        continue;
      json_builder_add_string_value (builder, pattern);
    }
  json_builder_end_array (builder);
}

static char *
filter_json (FuzzReader *reader)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint8 switches = fuzz_reader_byte (reader);
  guint8 counts = fuzz_reader_byte (reader);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "fuzz");
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "Fuzz");
  json_builder_set_member_name (builder, "category");
  json_builder_add_string_value (builder, "generic");

  json_builder_set_member_name (builder, "rules");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "stripAnsi");
  json_builder_add_boolean_value (builder, switches & 1);
  json_builder_set_member_name (builder, "filterStderr");
  json_builder_add_boolean_value (builder, switches & 2);
  json_builder_set_member_name (builder, "deduplicate");
  json_builder_add_boolean_value (builder, switches & 4);
  if (switches & 8)
    {
      json_builder_set_member_name (builder, "maxLines");
      json_builder_add_int_value (builder, fuzz_reader_byte (reader) % 64);
    }
  if (switches & 16)
    {
      json_builder_set_member_name (builder, "headLines");
      json_builder_add_int_value (builder, counts & 15);
    }
  if (switches & 32)
    {
      json_builder_set_member_name (builder, "tailLines");
      json_builder_add_int_value (builder, counts >> 4);
    }
  if (switches & 64)
    {
      json_builder_set_member_name (builder, "truncateLineAt");
      json_builder_add_int_value (builder, fuzz_reader_byte (reader));
    }
  if (switches & 128)
    {
      g_autofree char *on_empty = fuzz_reader_string (reader, '\x01', 32);

      json_builder_set_member_name (builder, "onEmpty");
      json_builder_add_string_value (builder, g_utf8_validate (on_empty, -1, NULL) ? on_empty : "");
    }

  {
    guint n = fuzz_reader_byte (reader) % 3;

    json_builder_set_member_name (builder, "replace");
    json_builder_begin_array (builder);
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *pattern = fuzz_reader_string (reader, '\x01', 48);
        g_autofree char *replacement = fuzz_reader_string (reader, '\x01', 24);

        if (!g_utf8_validate (pattern, -1, NULL) || !g_utf8_validate (replacement, -1, NULL))
          continue;
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "pattern");
        json_builder_add_string_value (builder, pattern);
        json_builder_set_member_name (builder, "replacement");
        json_builder_add_string_value (builder, replacement);
        json_builder_end_object (builder);
      }
    json_builder_end_array (builder);
  }
  {
    guint n = fuzz_reader_byte (reader) % 2;

    json_builder_set_member_name (builder, "matchOutput");
    json_builder_begin_array (builder);
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *pattern = fuzz_reader_string (reader, '\x01', 48);
        g_autofree char *message = fuzz_reader_string (reader, '\x01', 24);
        g_autofree char *unless = fuzz_reader_string (reader, '\x01', 24);

        if (!g_utf8_validate (pattern, -1, NULL) || !g_utf8_validate (message, -1, NULL) ||
            !g_utf8_validate (unless, -1, NULL))
          continue;
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "pattern");
        json_builder_add_string_value (builder, pattern);
        json_builder_set_member_name (builder, "message");
        json_builder_add_string_value (builder, message);
        if (unless[0] != '\0')
          {
            json_builder_set_member_name (builder, "unless");
            json_builder_add_string_value (builder, unless);
          }
        json_builder_end_object (builder);
      }
    json_builder_end_array (builder);
  }
  add_patterns (builder, reader, "dropPatterns");
  add_patterns (builder, reader, "includePatterns");
  add_patterns (builder, reader, "collapsePatterns");
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "preserve");
  json_builder_begin_object (builder);
  add_patterns (builder, reader, "errorPatterns");
  add_patterns (builder, reader, "summaryPatterns");
  json_builder_end_object (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filters = NULL;
  g_autofree char *json = NULL;
  WinnowFilter *filter;
  FuzzReader reader;
  const char *input;
  gsize length;

  fuzz_reader_init (&reader, data, size);
  json = filter_json (&reader);
  input = fuzz_reader_rest (&reader, &length);

  filters = winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE, "fuzz.json", 0,
                                      diagnostics);
  if (filters->len != 1 ||
      winnow_diagnostics_count_level (diagnostics, WINNOW_DIAGNOSTIC_ERROR) > 0)
    return 0;
  filter = g_ptr_array_index (filters, 0);

  for (WinnowRtkIntensity intensity = WINNOW_RTK_INTENSITY_MINIMAL;
       intensity <= WINNOW_RTK_INTENSITY_AGGRESSIVE; intensity++)
    for (guint limits = 0; limits < 2; limits++)
      {
        g_autoptr(WinnowRtkResult) result = NULL;
        WinnowRtkOptions options;
        const char *text;
        gsize out_length;

        winnow_rtk_options_init (&options);
        options.intensity = intensity;
        options.engine_limits = limits;
        result = winnow_rtk_apply (filter, input, length, &options);
        text = winnow_rtk_result_get_text (result, &out_length);
        g_assert_nonnull (text);
        if (memchr (input, '\0', length) == NULL)
          g_assert_cmpuint (strlen (text), ==, out_length);
      }

  return 0;
}
