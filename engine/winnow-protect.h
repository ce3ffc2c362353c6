#pragma once
#include <gio/gio.h>
G_BEGIN_DECLS
typedef enum { WINNOW_PROTECT_FENCE, WINNOW_PROTECT_INLINE_CODE, WINNOW_PROTECT_URL, WINNOW_PROTECT_PATH, WINNOW_PROTECT_NUMBER, WINNOW_PROTECT_IDENTIFIER } WinnowProtectKind;
typedef struct { gsize start; gsize end; WinnowProtectKind kind; } WinnowProtectSpan;
GArray *winnow_protect_scan (const char *text, gssize length);
gboolean winnow_protect_check (const char *original, gssize original_length, const char *compressed, gssize compressed_length, GError **error);
G_END_DECLS
