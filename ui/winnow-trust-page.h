/* winnow-trust-page.h — approving the filters a project ships
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "winnow.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRUST_PAGE (winnow_trust_page_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTrustPage, winnow_trust_page, WINNOW, TRUST_PAGE, GtkWidget)

void               winnow_trust_page_set_context   (WinnowTrustPage *self,
                                                    WinnowContext   *context);
void               winnow_trust_page_open_project  (WinnowTrustPage *self,
                                                    const char      *project_dir);
const char        *winnow_trust_page_get_project   (WinnowTrustPage *self);
WinnowTrustStatus *winnow_trust_page_get_status    (WinnowTrustPage *self);
GPtrArray         *winnow_trust_page_get_filters   (WinnowTrustPage *self);
guint              winnow_trust_page_get_n_risks   (WinnowTrustPage *self);
gboolean           winnow_trust_page_get_busy      (WinnowTrustPage *self);
char              *winnow_trust_page_dup_summary   (WinnowTrustPage *self);

char              *winnow_trust_describe_filter    (WinnowFilter    *filter);

G_END_DECLS
