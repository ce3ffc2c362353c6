/* fuzz-caveman.c — the Caveman engine over random text
 *
 * The first byte picks one of the built-in packs (or none: every pack of the detected
 * language), the second the message role; the rest is the message, compressed at each
 * intensity and then expanded. Output must be valid UTF-8 whenever the input is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "winnow.h"

#include "fuzz-util.h"

/* built once: loading the built-in packs costs far more than one input */
static WinnowRuleSet *rules;
static GPtrArray *packs;

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  WinnowRulePack *pack = NULL;
  FuzzReader reader;
  const char *text;
  gsize length;
  guint8 choice;
  gboolean valid;

  if (rules == NULL)
    {
      rules = winnow_rule_set_new ();
      winnow_rule_set_add_builtin (rules);
      packs = winnow_rule_set_list_packs (rules);
      g_assert_cmpuint (packs->len, >, 0);
    }

  fuzz_reader_init (&reader, data, size);
  choice = fuzz_reader_byte (&reader);
  if (choice % 4 != 0)
    pack = g_ptr_array_index (packs, choice % packs->len);
  choice = fuzz_reader_byte (&reader);
  text = fuzz_reader_rest (&reader, &length);
  valid = g_utf8_validate (text, length, NULL);

  for (WinnowCavemanIntensity intensity = WINNOW_CAVEMAN_INTENSITY_LITE;
       intensity <= WINNOW_CAVEMAN_INTENSITY_ULTRA; intensity++)
    {
      g_autoptr(WinnowCavemanResult) result = NULL;
      g_autofree char *expanded = NULL;
      WinnowCavemanOptions options;
      const char *out;
      gsize out_length, expanded_length;

      winnow_caveman_options_init (&options);
      options.intensity = intensity;
      options.role = choice % 4;
      options.pack = pack;
      result = winnow_caveman_compress (rules, text, length, &options);
      out = winnow_caveman_result_get_text (result, &out_length);
      g_assert_nonnull (out);
      if (valid)
        g_assert_true (g_utf8_validate (out, out_length, NULL));

      expanded = winnow_caveman_expand (rules, out, out_length,
                                        winnow_caveman_result_get_language (result),
                                        &expanded_length);
      if (valid && expanded != NULL)
        g_assert_true (g_utf8_validate (expanded, expanded_length, NULL));
    }

  return 0;
}
