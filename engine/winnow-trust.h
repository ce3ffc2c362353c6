/* winnow-trust.h — whether a project's own filters may run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "winnow-types.h"

G_BEGIN_DECLS

/**
 * WinnowTrustState:
 * @WINNOW_TRUST_NO_FILTERS: the project has no `.rtk/filters.json`
 * @WINNOW_TRUST_TRUSTED: `.rtk/trust.json` holds the SHA-256 of the filters file as it is
 * @WINNOW_TRUST_CHANGED: the filters file changed since it was approved
 * @WINNOW_TRUST_UNTRUSTED: the filters file was never approved
 * @WINNOW_TRUST_INVALID: the trust file cannot be read or is not the expected JSON
 * @WINNOW_TRUST_OVERRIDDEN: trusted without a hash, by setting or environment variable
 */
typedef enum
{
  WINNOW_TRUST_NO_FILTERS,
  WINNOW_TRUST_TRUSTED,
  WINNOW_TRUST_CHANGED,
  WINNOW_TRUST_UNTRUSTED,
  WINNOW_TRUST_INVALID,
  WINNOW_TRUST_OVERRIDDEN,
} WinnowTrustState;

const char *winnow_trust_state_to_string (WinnowTrustState state);

#define WINNOW_TYPE_TRUST_STATUS (winnow_trust_status_get_type ())

G_DECLARE_FINAL_TYPE (WinnowTrustStatus, winnow_trust_status, WINNOW, TRUST_STATUS, GObject)

WinnowTrustStatus *winnow_trust_check                     (const char        *project_dir,
                                                           gboolean           override);
WinnowTrustState   winnow_trust_status_get_state          (WinnowTrustStatus *self);
gboolean           winnow_trust_status_is_trusted         (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_project_dir    (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_filters_path   (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_trust_path     (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_current_sha256 (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_trusted_sha256 (WinnowTrustStatus *self);
const char        *winnow_trust_status_get_message        (WinnowTrustStatus *self);

char              *winnow_trust_hash_file                 (const char        *path,
                                                           GError           **error);
char              *winnow_trust_approve                   (const char        *project_dir,
                                                           GError           **error);
gboolean           winnow_trust_revoke                    (const char        *project_dir,
                                                           GError           **error);
gboolean           winnow_trust_env_override              (void);

G_END_DECLS
