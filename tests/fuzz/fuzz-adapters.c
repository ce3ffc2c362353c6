/* fuzz-adapters.c — the format adapters on arbitrary bytes
 *
 * The first byte picks one adapter (code, json, structured, csv, xml, yaml, markdown) or all
 * of them, whether summarising is lossy, and the keep ratio; the rest is the document. An
 * adapter's result is never longer than its input (FORMATS.md: it reverts otherwise).
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
  const char *const *names = winnow_adapters_list_names ();
  guint n_names = g_strv_length ((GStrv) names);
  const char *enabled[2] = { NULL, NULL };
  WinnowAdapterOptions options;
  g_autofree char *out = NULL;
  g_autofree char *decision = NULL;
  FuzzReader reader;
  const char *text;
  gsize length, out_length = 0;
  guint8 choice, ratio;

  fuzz_reader_init (&reader, data, size);
  choice = fuzz_reader_byte (&reader);
  ratio = fuzz_reader_byte (&reader);
  text = fuzz_reader_rest (&reader, &length);

  winnow_adapter_options_init (&options);
  if ((choice & 15) < n_names)
    {
      enabled[0] = names[choice & 15];
      options.enabled = enabled;
    }
  options.lossy = (choice & 16) != 0;
  if (choice & 32)
    options.keep_ratio = ratio / 255.0;

  winnow_adapters_detect (text, length, &options);
  out = winnow_adapters_apply (text, length, &options, &out_length, &decision);
  if (out != NULL)
    g_assert_cmpuint (out_length, <=, length);

  return 0;
}
