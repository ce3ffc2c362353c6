/* winnow-error.h — the error domain of libwinnow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WINNOW_ERROR (winnow_error_quark ())

/**
 * WinnowError:
 * @WINNOW_ERROR_INVALID_REGEX: a pattern does not compile
 * @WINNOW_ERROR_INVALID_JSON: a document is not JSON
 * @WINNOW_ERROR_INVALID_FILTER: a filter does not validate
 * @WINNOW_ERROR_INVALID_CONFIG: a settings document does not validate
 * @WINNOW_ERROR_NOT_FOUND: a file, filter or project is missing
 * @WINNOW_ERROR_IO: reading or writing failed
 * @WINNOW_ERROR_UNTRUSTED: project filters are not trusted
 * @WINNOW_ERROR_NOT_UTF8: text is not valid UTF-8
 */
typedef enum
{
  WINNOW_ERROR_INVALID_REGEX,
  WINNOW_ERROR_INVALID_JSON,
  WINNOW_ERROR_INVALID_FILTER,
  WINNOW_ERROR_INVALID_CONFIG,
  WINNOW_ERROR_NOT_FOUND,
  WINNOW_ERROR_IO,
  WINNOW_ERROR_UNTRUSTED,
  WINNOW_ERROR_NOT_UTF8,
} WinnowError;

GQuark winnow_error_quark (void);

G_END_DECLS
