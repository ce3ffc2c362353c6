/* test-verify.c — the verify gate and its diffs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "winnow.h"

static GPtrArray *
pack (const char *json)
{
  return winnow_filter_pack_parse (json, -1, WINNOW_FILTER_SOURCE_FILE, "pack.json", 0, NULL);
}

static void
test_report (void)
{
  g_autoptr(GPtrArray) filters = pack (
    "{\"id\":\"v\",\"label\":\"V\",\"category\":\"test\","
    "\"rules\":{\"dropPatterns\":[\"^PASS \"]},"
    "\"tests\":["
    " {\"name\":\"drops passing\",\"input\":\"PASS test_one_is_long_enough\\nFAIL b\",\"expected\":\"FAIL b\"},"
    " {\"name\":\"wrong expectation\",\"input\":\"PASS test_one_is_long_enough\\nFAIL b\\n\","
    "  \"expected\":\"FAIL b\\nFAIL c\"}]}");
  g_autoptr(WinnowVerifyReport) report = winnow_verify_filters (filters, NULL);
  GListModel *outcomes = winnow_verify_report_get_outcomes (report);
  g_autoptr(WinnowTestOutcome) ok = g_list_model_get_item (outcomes, 0);
  g_autoptr(WinnowTestOutcome) bad = g_list_model_get_item (outcomes, 1);
  g_autofree char *summary = winnow_verify_report_dup_summary (report);
  g_autofree char *diff = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (outcomes), ==, 2);
  g_assert_cmpuint (winnow_verify_report_get_n_passed (report), ==, 1);
  g_assert_cmpuint (winnow_verify_report_get_n_failed (report), ==, 1);
  g_assert_cmpstr (summary, ==, "1 passed, 1 failed");

  g_assert_true (winnow_test_outcome_get_passed (ok));
  g_assert_true (winnow_test_outcome_get_idempotent (ok));
  g_assert_null (winnow_test_outcome_dup_diff (ok));

  g_assert_false (winnow_test_outcome_get_passed (bad));
  g_assert_cmpstr (winnow_test_outcome_get_name (bad), ==, "wrong expectation");
  g_assert_cmpstr (winnow_test_outcome_get_actual (bad), ==, "FAIL b\n");
  diff = winnow_test_outcome_dup_diff (bad);
  g_test_message ("%s", diff);
  g_assert_nonnull (strstr (diff, "--- expected\n+++ actual\n"));
  g_assert_nonnull (strstr (diff, "\n  FAIL b\n"));
  g_assert_nonnull (strstr (diff, "\n- FAIL c\n"));
  g_assert_nonnull (strstr (diff, "\n+ \n"));
  g_assert_nonnull (strstr (diff, "ends with a newline"));
}

static void
test_diff_invisible (void)
{
  g_autofree char *diff = winnow_diff_lines ("a\nb", "a \nb\r");

  /* trailing spaces and carriage returns are made visible */
  g_assert_nonnull (strstr (diff, "+ a·\n"));
  g_assert_nonnull (strstr (diff, "+ b\\r\n"));
}

static void
test_not_idempotent (void)
{
  /* "aabb" → "aab" → "aa": the filter changes its own output, which verify reports */
  g_autoptr(GPtrArray) filters = pack (
    "{\"id\":\"n\",\"label\":\"N\",\"category\":\"test\","
    "\"rules\":{\"replace\":[{\"pattern\":\"ab\",\"replacement\":\"a\"}],"
    "\"dropPatterns\":[\"^noise\"]},"
    "\"tests\":[{\"name\":\"t\",\"input\":\"aabb\\nnoise noise noise\",\"expected\":\"aab\"}]}");
  g_autoptr(WinnowVerifyReport) report = winnow_verify_filters (filters, NULL);
  g_autoptr(WinnowTestOutcome) outcome =
    g_list_model_get_item (winnow_verify_report_get_outcomes (report), 0);

  g_assert_cmpuint (winnow_verify_report_get_n_passed (report), ==, 1);
  g_assert_cmpuint (winnow_verify_report_get_n_not_idempotent (report), ==, 1);
  g_assert_false (winnow_test_outcome_get_idempotent (outcome));
}

static void
verify_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  WinnowVerifyReport **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = winnow_verify_filters_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(GPtrArray) filters = pack (
    "{\"id\":\"a\",\"label\":\"A\",\"category\":\"test\",\"rules\":{\"dropPatterns\":[\"^x\"]},"
    "\"tests\":[{\"name\":\"t\",\"input\":\"x dropped line here\\nkept\",\"expected\":\"kept\"}]}");
  g_autoptr(WinnowVerifyReport) report = NULL;

  winnow_verify_filters_async (filters, NULL, verify_done, &report);
  while (report == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (winnow_verify_report_get_n_passed (report), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/verify/report", test_report);
  g_test_add_func ("/winnow/verify/diff-invisible", test_diff_invisible);
  g_test_add_func ("/winnow/verify/not-idempotent", test_not_idempotent);
  g_test_add_func ("/winnow/verify/async", test_async);

  return g_test_run ();
}
