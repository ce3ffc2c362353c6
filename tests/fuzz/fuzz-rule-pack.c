/* fuzz-rule-pack.c — the rule pack loader on arbitrary bytes
 *
 * Parses the bytes as a Caveman rule pack; a pack that loads is then run, alone, over a
 * paragraph of prose at every intensity, so a rule that loads but breaks the engine is found
 * too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "winnow.h"

#include "fuzz-util.h"

static const char prose[] =
  "Hello! I was basically just wondering if you could please take a look at the function "
  "`parse_args()` in src/main.c:42 because, as a matter of fact, it really seems to fail "
  "whenever the value is larger than 1024. Thanks so much in advance for your help!\n\n"
  "```\nfor (i = 0; i < n; i++) total += x[i];\n```\n"
  "Bonjour, je voudrais simplement savoir pourquoi le test échoue. Danke schön. 谢谢。";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowRulePack) pack = NULL;
  g_autoptr(WinnowRuleSet) set = NULL;

  pack = winnow_rule_pack_parse ((const char *) data, size, "file", "fuzz.json", diagnostics);
  for (guint i = 0; i < diagnostics->len; i++)
    g_free (winnow_diagnostic_to_string (g_ptr_array_index (diagnostics, i)));

  if (pack == NULL)
    return 0;

  set = winnow_rule_set_new ();
  for (WinnowCavemanIntensity intensity = WINNOW_CAVEMAN_INTENSITY_LITE;
       intensity <= WINNOW_CAVEMAN_INTENSITY_ULTRA; intensity++)
    {
      g_autoptr(WinnowCavemanResult) result = NULL;
      WinnowCavemanOptions options;
      const char *text;
      gsize length;

      winnow_caveman_options_init (&options);
      options.intensity = intensity;
      options.pack = pack;
      result = winnow_caveman_compress (set, prose, -1, &options);
      text = winnow_caveman_result_get_text (result, &length);
      g_assert_nonnull (text);
      g_assert_true (g_utf8_validate (text, length, NULL));
    }

  return 0;
}
