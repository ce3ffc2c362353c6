/* winnow-line-map.h — which lines of an input survive in its compressed output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * WinnowLineRange:
 * @start: the first line, 0-based
 * @n_lines: how many lines
 *
 * A run of consecutive lines.
 */
typedef struct
{
  guint start;
  guint n_lines;
} WinnowLineRange;

#define WINNOW_TYPE_LINE_MAP (winnow_line_map_get_type ())

G_DECLARE_FINAL_TYPE (WinnowLineMap, winnow_line_map, WINNOW, LINE_MAP, GObject)

WinnowLineMap         *winnow_line_map_new                  (const char    *input,
                                                             gssize         input_length,
                                                             const char    *output,
                                                             gssize         output_length,
                                                             const int     *origins,
                                                             guint          n_origins);
gboolean               winnow_line_map_get_exact            (WinnowLineMap *self);
guint                  winnow_line_map_get_n_input_lines    (WinnowLineMap *self);
guint                  winnow_line_map_get_n_output_lines   (WinnowLineMap *self);
int                    winnow_line_map_get_origin           (WinnowLineMap *self,
                                                             guint          output_line);
guint                  winnow_line_map_get_output_line_for  (WinnowLineMap *self,
                                                             guint          input_line);
const WinnowLineRange *winnow_line_map_get_removed          (WinnowLineMap *self,
                                                             guint         *n_ranges);
const WinnowLineRange *winnow_line_map_get_inserted         (WinnowLineMap *self,
                                                             guint         *n_ranges);
guint                  winnow_line_map_count_removed        (WinnowLineMap *self);
guint                  winnow_line_map_count_inserted       (WinnowLineMap *self);

G_END_DECLS
