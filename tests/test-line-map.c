/* test-line-map.c — aligning an output's lines with its input's, exactly and by content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "test-util.h"
#include "winnow.h"

static char *
ranges_to_string (const WinnowLineRange *ranges,
                  guint                  n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u+%u", i ? " " : "", ranges[i].start, ranges[i].n_lines);
  return g_string_free (s, FALSE);
}

static char *
removed_of (WinnowLineMap *map)
{
  guint n;
  const WinnowLineRange *r = winnow_line_map_get_removed (map, &n);

  return ranges_to_string (r, n);
}

static char *
inserted_of (WinnowLineMap *map)
{
  guint n;
  const WinnowLineRange *r = winnow_line_map_get_inserted (map, &n);

  return ranges_to_string (r, n);
}

static void
test_unchanged (void)
{
  const char *text = "one\ntwo\nthree";
  g_autoptr(WinnowLineMap) map = winnow_line_map_new (text, -1, text, -1, NULL, 0);
  g_autofree char *removed = removed_of (map);
  g_autofree char *inserted = inserted_of (map);

  g_assert_false (winnow_line_map_get_exact (map));
  g_assert_cmpuint (winnow_line_map_get_n_input_lines (map), ==, 3);
  g_assert_cmpuint (winnow_line_map_get_n_output_lines (map), ==, 3);
  g_assert_cmpstr (removed, ==, "");
  g_assert_cmpstr (inserted, ==, "");
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (winnow_line_map_get_origin (map, i), ==, (int) i);
      g_assert_cmpuint (winnow_line_map_get_output_line_for (map, i), ==, i);
    }
}

/* What an RTK filter does: drop a run of lines, put a marker in their place. */
static void
test_by_content (void)
{
  const char *input = "Compiling a v0.1\nCompiling b v0.2\nCompiling c v0.3\n"
                      "error[E0308]: mismatched types\n --> src/main.rs:4:5\nFinished";
  const char *output = "[3 lines omitted]\nerror[E0308]: mismatched types\n"
                       " --> src/main.rs:4:5\nFinished";
  g_autoptr(WinnowLineMap) map = winnow_line_map_new (input, -1, output, -1, NULL, 0);
  g_autofree char *removed = removed_of (map);
  g_autofree char *inserted = inserted_of (map);

  g_assert_cmpstr (removed, ==, "0+3");
  g_assert_cmpstr (inserted, ==, "0+1");
  g_assert_cmpuint (winnow_line_map_count_removed (map), ==, 3);
  g_assert_cmpuint (winnow_line_map_count_inserted (map), ==, 1);
  g_assert_cmpint (winnow_line_map_get_origin (map, 0), ==, -1);
  g_assert_cmpint (winnow_line_map_get_origin (map, 1), ==, 3);
  /* removed lines scroll to where the next kept line is shown */
  g_assert_cmpuint (winnow_line_map_get_output_line_for (map, 0), ==, 1);
  g_assert_cmpuint (winnow_line_map_get_output_line_for (map, 5), ==, 3);
}

/* Origins from the engine are taken as they are, even where content matching would differ. */
static void
test_exact_origins (void)
{
  const char *input = "a\nb\na\nc";
  const char *output = "a\n… 1 line\nc";
  const int origins[] = { 2, -1, 3 };
  g_autoptr(WinnowLineMap) map = winnow_line_map_new (input, -1, output, -1, origins, 3);
  g_autofree char *removed = removed_of (map);
  g_autofree char *inserted = inserted_of (map);

  g_assert_true (winnow_line_map_get_exact (map));
  g_assert_cmpstr (removed, ==, "0+2");
  g_assert_cmpstr (inserted, ==, "1+1");
}

/* Origins that do not fit the output are a stale trace: content matching takes over. */
static void
test_mismatched_origins (void)
{
  const char *input = "a\nb";
  const char *output = "b";
  const int origins[] = { 0, 1 };
  g_autoptr(WinnowLineMap) map = winnow_line_map_new (input, -1, output, -1, origins, 2);
  g_autofree char *removed = removed_of (map);

  g_assert_false (winnow_line_map_get_exact (map));
  g_assert_cmpstr (removed, ==, "0+1");
}

/* A blank line in the output must not match a blank line far ahead and mark everything in
 * between as removed. */
static void
test_short_lines_stay_local (void)
{
  GString *input = g_string_new ("header\n");
  g_autofree char *in = NULL;
  g_autoptr(WinnowLineMap) map = NULL;
  g_autofree char *removed = NULL;

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (input, "line %u\n", i);
  g_string_append (input, "\ntail");
  in = g_string_free (input, FALSE);

  map = winnow_line_map_new (in, -1, "header\n\nline 0", -1, NULL, 0);
  removed = removed_of (map);
  /* "" found no blank line near the cursor, so it counts as written; "line 0" still aligns */
  g_assert_cmpint (winnow_line_map_get_origin (map, 1), ==, -1);
  g_assert_cmpint (winnow_line_map_get_origin (map, 2), ==, 1);
  g_assert_cmpstr (removed, ==, "2+201");
}

static void
test_empty_and_unterminated (void)
{
  g_autoptr(WinnowLineMap) empty = winnow_line_map_new ("", -1, "", -1, NULL, 0);
  g_autoptr(WinnowLineMap) map = winnow_line_map_new ("x\ny", -1, "y", -1, NULL, 0);
  g_autofree char *removed = removed_of (map);

  /* like a text buffer, "" is one empty line and "x\ny" two lines */
  g_assert_cmpuint (winnow_line_map_get_n_input_lines (empty), ==, 1);
  g_assert_cmpuint (winnow_line_map_get_output_line_for (empty, 3), ==, 0);
  g_assert_cmpint (winnow_line_map_get_origin (empty, 0), ==, 0);
  g_assert_cmpint (winnow_line_map_get_origin (empty, 1), ==, -1);
  g_assert_cmpuint (winnow_line_map_get_n_input_lines (map), ==, 2);
  g_assert_cmpstr (removed, ==, "0+1");
}

/* The map of a real RTK run is exact and agrees with the trace's own counts. */
static void
test_real_rtk_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("winnow-line-map-XXXXXX", NULL);
  g_autoptr(WinnowContext) context = winnow_context_new (dir, NULL);
  g_autoptr(WinnowPipeline) pipeline = winnow_pipeline_new (context);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "corpus", "samples",
                                                 "pytest-fail-verbose.txt", NULL);
  g_autofree char *input = NULL;
  g_autoptr(WinnowPipelineResult) result = NULL;
  g_autoptr(WinnowLineMap) map = NULL;
  g_autoptr(GError) error = NULL;
  WinnowPipelineRequest request;
  WinnowRtkResult *rtk;
  const int *origins;
  guint n_origins;

  g_assert_true (g_file_get_contents (path, &input, NULL, &error));
  winnow_pipeline_request_init (&request);
  request.mode = WINNOW_PIPELINE_MODE_RTK;
  request.command = "pytest -v tests";
  result = winnow_pipeline_run_text (pipeline, input, -1, &request, &error);
  g_assert_no_error (error);

  rtk = winnow_compression_get_rtk_result (winnow_pipeline_result_get_rtk_compression (result));
  origins = winnow_rtk_result_get_line_origins (rtk, &n_origins);
  map = winnow_line_map_new (input, -1, winnow_pipeline_result_get_text (result, NULL), -1,
                             origins, n_origins);

  g_assert_true (winnow_line_map_get_exact (map));
  g_assert_cmpuint (winnow_line_map_get_n_input_lines (map), ==,
                    winnow_rtk_result_get_lines_in (rtk));
  g_assert_cmpuint (winnow_line_map_count_removed (map), >, 0);
  g_assert_cmpuint (winnow_line_map_get_n_output_lines (map) - winnow_line_map_count_inserted (map),
                    ==, winnow_line_map_get_n_input_lines (map) - winnow_line_map_count_removed (map));

  test_util_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/line-map/unchanged", test_unchanged);
  g_test_add_func ("/winnow/line-map/by-content", test_by_content);
  g_test_add_func ("/winnow/line-map/exact-origins", test_exact_origins);
  g_test_add_func ("/winnow/line-map/mismatched-origins", test_mismatched_origins);
  g_test_add_func ("/winnow/line-map/short-lines-stay-local", test_short_lines_stay_local);
  g_test_add_func ("/winnow/line-map/empty-and-unterminated", test_empty_and_unterminated);
  g_test_add_func ("/winnow/line-map/real-rtk-run", test_real_rtk_run);

  return g_test_run ();
}
