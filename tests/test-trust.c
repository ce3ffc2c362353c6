/* test-trust.c — hashing, approving and revoking project filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "winnow.h"

static char *
make_project (const char *filters)
{
  char *dir = g_dir_make_tmp ("winnow-trust-XXXXXX", NULL);
  g_autofree char *rtk = g_build_filename (dir, ".rtk", NULL);
  g_autofree char *path = g_build_filename (rtk, "filters.json", NULL);

  g_mkdir (rtk, 0755);
  if (filters != NULL)
    g_file_set_contents (path, filters, -1, NULL);
  return dir;
}

static void
cleanup (const char *dir)
{
  g_autofree char *rtk = g_build_filename (dir, ".rtk", NULL);
  g_autofree char *filters = g_build_filename (rtk, "filters.json", NULL);
  g_autofree char *trust = g_build_filename (rtk, "trust.json", NULL);

  g_remove (filters);
  g_remove (trust);
  g_rmdir (rtk);
  g_rmdir (dir);
}

static void
test_hash_exact_bytes (void)
{
  g_autofree char *dir = make_project ("[]");
  g_autofree char *path = g_build_filename (dir, ".rtk", "filters.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *a = winnow_trust_hash_file (path, &error);
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;

  g_assert_no_error (error);
  /* sha256("[]") */
  g_assert_cmpstr (a, ==, "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945");

  /* no normalisation: CRLF or a BOM is a different file */
  g_file_set_contents (path, "[]\r\n", -1, NULL);
  b = winnow_trust_hash_file (path, NULL);
  g_file_set_contents (path, "\xEF\xBB\xBF[]", -1, NULL);
  c = winnow_trust_hash_file (path, NULL);
  g_assert_cmpstr (a, !=, b);
  g_assert_cmpstr (a, !=, c);
  g_assert_cmpstr (b, !=, c);

  cleanup (dir);
}

static void
test_approve_revoke (void)
{
  g_autofree char *dir = make_project ("[]\n");
  g_autofree char *trust = g_build_filename (dir, ".rtk", "trust.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(WinnowTrustStatus) before = winnow_trust_check (dir, FALSE);
  g_autoptr(WinnowTrustStatus) after = NULL;
  g_autoptr(WinnowTrustStatus) revoked = NULL;

  g_assert_cmpint (winnow_trust_status_get_state (before), ==, WINNOW_TRUST_UNTRUSTED);
  g_assert_false (winnow_trust_status_is_trusted (before));

  hash = winnow_trust_approve (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (hash), ==, 64);

  g_file_get_contents (trust, &contents, NULL, NULL);
  expected = g_strdup_printf ("{\n  \"filtersSha256\": \"%s\"\n}\n", hash);
  g_assert_cmpstr (contents, ==, expected);

  after = winnow_trust_check (dir, FALSE);
  g_assert_cmpint (winnow_trust_status_get_state (after), ==, WINNOW_TRUST_TRUSTED);
  g_assert_cmpstr (winnow_trust_status_get_current_sha256 (after), ==, hash);

  g_assert_true (winnow_trust_revoke (dir, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (trust, G_FILE_TEST_EXISTS));
  revoked = winnow_trust_check (dir, FALSE);
  g_assert_cmpint (winnow_trust_status_get_state (revoked), ==, WINNOW_TRUST_UNTRUSTED);

  /* revoking again is fine */
  g_assert_true (winnow_trust_revoke (dir, &error));
  g_assert_no_error (error);

  cleanup (dir);
}

static void
test_reference_field (void)
{
  g_autofree char *dir = make_project ("[]");
  g_autofree char *trust = g_build_filename (dir, ".rtk", "trust.json", NULL);
  g_autofree char *json =
    g_strdup ("{\"trustedFiltersSha256\":\"4F53CDA18C2BAA0C0354BB5F9A3ECBE5ED12AB4D8E11BA873C2F11161202B945\"}");
  g_autoptr(WinnowTrustStatus) status = NULL;

  /* the reference's older field name, in upper case, still counts */
  g_file_set_contents (trust, json, -1, NULL);
  status = winnow_trust_check (dir, FALSE);
  g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_TRUSTED);

  cleanup (dir);
}

static void
test_bad_trust_files (void)
{
  g_autofree char *dir = make_project ("[]");
  g_autofree char *trust = g_build_filename (dir, ".rtk", "trust.json", NULL);
  static const char * const bad[] = { "", "[]", "{\"filtersSha256\": 42}", "{\"filtersSha256\":\"abc\"}",
                                      "{\"other\":true}", NULL };

  /* a trust "file" that cannot be read at all */
  g_mkdir (trust, 0755);
  {
    g_autoptr(WinnowTrustStatus) status = winnow_trust_check (dir, FALSE);

    g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_INVALID);
    g_assert_nonnull (strstr (winnow_trust_status_get_message (status), "trust.json"));
  }
  g_rmdir (trust);

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(WinnowTrustStatus) status = NULL;

      g_file_set_contents (trust, bad[i], -1, NULL);
      status = winnow_trust_check (dir, FALSE);
      g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_INVALID);
      g_assert_false (winnow_trust_status_is_trusted (status));
      g_assert_nonnull (winnow_trust_status_get_message (status));
    }

  cleanup (dir);
}

static void
test_no_filters (void)
{
  g_autofree char *dir = make_project (NULL);
  g_autoptr(WinnowTrustStatus) status = winnow_trust_check (dir, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = NULL;

  g_assert_cmpint (winnow_trust_status_get_state (status), ==, WINNOW_TRUST_NO_FILTERS);
  hash = winnow_trust_approve (dir, &error);
  g_assert_null (hash);
  g_assert_error (error, WINNOW_ERROR, WINNOW_ERROR_NOT_FOUND);

  cleanup (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_unsetenv ("WINNOW_TRUST_PROJECT_FILTERS");
  g_unsetenv ("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS");

  g_test_add_func ("/winnow/trust/hash-exact-bytes", test_hash_exact_bytes);
  g_test_add_func ("/winnow/trust/approve-revoke", test_approve_revoke);
  g_test_add_func ("/winnow/trust/reference-field", test_reference_field);
  g_test_add_func ("/winnow/trust/bad-trust-files", test_bad_trust_files);
  g_test_add_func ("/winnow/trust/no-filters", test_no_filters);

  return g_test_run ();
}
