/* test-ui-util.h — helpers for tests that drive the real dashboard widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void        test_ui_init            (int          *argc,
                                     char       ***argv);
void        test_ui_load_style      (void);
GtkWidget  *test_ui_find            (GtkWidget    *root,
                                     GType         type,
                                     const char   *tooltip);
GPtrArray  *test_ui_find_all        (GtkWidget    *root,
                                     GType         type);
void        test_ui_wait_mapped     (GtkWidget    *widget);
void        test_ui_wait_frames     (GtkWidget    *widget,
                                     guint         n_frames);
gboolean    test_ui_wait_for        (gboolean    (*done) (gpointer data),
                                     gpointer      data,
                                     guint         timeout_ms);
GdkTexture *test_ui_render          (GtkWidget    *widget);
char       *test_ui_buffer_text     (GtkTextView  *view);

G_END_DECLS
