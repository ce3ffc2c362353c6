/* test-redact.c — secrets out, everything else byte for byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The corpus in tests/redact/ is realistic command output holding fake secrets (written by
 * tests/redact/generate.py); its manifest says which strings must vanish, which must survive,
 * and how many secrets each rule must count.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "test-util.h"
#include "winnow.h"

static char *
corpus_file (const char *name,
             gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "redact", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

static JsonArray *
manifest_cases (JsonParser *parser)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "redact", "manifest.json", NULL);
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                       "cases");
}

/* the middle of a secret: a partial leak shows here even when the ends were cut */
static char *
middle_of (const char *secret)
{
  gsize len = strlen (secret);
  gsize take = MIN (len, 12);

  return g_strndup (secret + (len - take) / 2, take);
}

static void
assert_counts (WinnowRedaction *r,
               JsonObject      *counts,
               const char      *file)
{
  guint n_rules;
  const char * const *rules = winnow_redact_rules_list (&n_rules);
  const guint *got = winnow_redaction_get_counts (r, &n_rules);
  guint total = 0;

  for (guint i = 0; i < n_rules; i++)
    {
      guint want = json_object_has_member (counts, rules[i])
                   ? (guint) json_object_get_int_member (counts, rules[i]) : 0;

      if (got[i] != want)
        g_error ("%s: rule %s counted %u, expected %u", file, rules[i], got[i], want);
      total += want;
    }
  g_assert_cmpuint (winnow_redaction_get_total (r), ==, total);
}

static void
test_corpus (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = manifest_cases (parser);

  g_assert_cmpuint (json_array_get_length (cases), >=, 12);

  for (guint c = 0; c < json_array_get_length (cases); c++)
    {
      JsonObject *item = json_array_get_object_element (cases, c);
      const char *file = json_object_get_string_member (item, "file");
      JsonArray *secrets = json_object_get_array_member (item, "secrets");
      JsonArray *survivors = json_object_get_array_member (item, "survivors");
      JsonArray *expected = json_object_get_array_member (item, "expected");
      gsize length, out_length;
      g_autofree char *input = corpus_file (file, &length);
      g_autoptr(WinnowRedaction) r = winnow_redact (input, length);
      const char *out = winnow_redaction_get_text (r, &out_length);

      g_test_message ("%s: %u secrets", file, winnow_redaction_get_total (r));

      for (guint i = 0; i < json_array_get_length (secrets); i++)
        {
          const char *secret = json_array_get_string_element (secrets, i);
          g_autofree char *middle = middle_of (secret);

          if (strstr (out, secret) != NULL || strstr (out, middle) != NULL)
            g_error ("%s: secret %s survived:\n%s", file, secret, out);
        }
      for (guint i = 0; i < json_array_get_length (survivors); i++)
        {
          const char *keep = json_array_get_string_element (survivors, i);

          if (strstr (out, keep) == NULL)
            g_error ("%s: harmless \"%s\" did not survive:\n%s", file, keep, out);
        }
      for (guint i = 0; i < json_array_get_length (expected); i++)
        {
          const char *want = json_array_get_string_element (expected, i);

          if (strstr (out, want) == NULL)
            g_error ("%s: expected \"%s\" in:\n%s", file, want, out);
        }
      assert_counts (r, json_object_get_object_member (item, "counts"), file);

      if (json_array_get_length (secrets) == 0)
        {
          g_assert_false (winnow_redaction_get_changed (r));
          g_assert_cmpmem (out, out_length, input, length);
        }
      else
        g_assert_true (winnow_redaction_get_changed (r));
      g_assert_true (g_utf8_validate_len (out, out_length, NULL));
    }
}

/* Redacting redacted text changes nothing: markers are placeholders to every rule. */
static void
test_idempotent (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = manifest_cases (parser);

  for (guint c = 0; c < json_array_get_length (cases); c++)
    {
      JsonObject *item = json_array_get_object_element (cases, c);
      const char *file = json_object_get_string_member (item, "file");
      gsize length, once_length, twice_length;
      g_autofree char *input = corpus_file (file, &length);
      g_autoptr(WinnowRedaction) once = winnow_redact (input, length);
      const char *once_text = winnow_redaction_get_text (once, &once_length);
      g_autoptr(WinnowRedaction) twice = winnow_redact (once_text, once_length);
      const char *twice_text = winnow_redaction_get_text (twice, &twice_length);
      g_autoptr(WinnowRedaction) again = winnow_redact (input, length);

      if (winnow_redaction_get_total (twice) != 0)
        g_error ("%s: a second pass redacted again:\n%s", file, twice_text);
      g_assert_cmpmem (twice_text, twice_length, once_text, once_length);
      /* deterministic */
      g_assert_cmpstr (winnow_redaction_get_text (again, NULL), ==, once_text);
    }
}

static void
test_rules_list (void)
{
  guint n = 0;
  const char * const *rules = winnow_redact_rules_list (&n);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(WinnowRedaction) r = winnow_redact ("nothing here", -1);
  g_auto(GStrv) fired = winnow_redaction_dup_fired_rules (r);
  static const char * const required[] = {
    "openai-key", "slack-token", "aws-access-key-id", "secret-assignment", "authorization-header",
    "github-token", "gitlab-token", "google-api-key", "stripe-key", "aws-secret-key", "jwt",
    "private-key-block", "url-password", "npm-token", "pypi-token", "azure-storage-key",
    "gcp-service-account", "high-entropy-value", NULL
  };

  g_assert_cmpuint (n, >=, 15);
  g_assert_cmpuint (g_strv_length ((char **) rules), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (g_hash_table_add (seen, (gpointer) rules[i]));
      g_assert_nonnull (winnow_redact_rule_describe (rules[i]));
      g_assert_cmpuint (winnow_redaction_get_count (r, rules[i]), ==, 0);
    }
  for (guint i = 0; required[i]; i++)
    g_assert_true (g_hash_table_contains (seen, required[i]));
  g_assert_null (winnow_redact_rule_describe ("no-such-rule"));
  g_assert_cmpuint (winnow_redaction_get_count (r, "no-such-rule"), ==, 0);
  g_assert_cmpuint (g_strv_length (fired), ==, 0);
  g_assert_cmpstr (winnow_redaction_get_text (r, NULL), ==, "nothing here");
}

typedef struct
{
  const char *input;
  const char *output;
  const char *rule;    /* NULL: nothing is redacted */
} Case;

/* One line per rule and per near miss. The tokens are assembled from halves so that no
 * credential-shaped literal sits in the source. */
static void
test_rules (void)
{
  g_autofree char *tail36 = g_strdup ("Zq3xW8vB2nM5kL7pR4tY6uI9oA1sD0fGhJcE");
  g_autofree char *gh = g_strconcat ("gh", "p_", tail36, NULL);
  g_autofree char *ghs = g_strconcat ("gh", "s_", tail36, NULL);
  g_autofree char *gh_line = g_strconcat ("token ", gh, " used", NULL);
  g_autofree char *gh_assign = g_strconcat ("export GITHUB_TOKEN=", ghs, NULL);
  g_autofree char *gl = g_strconcat ("gl", "pat-", "x7Kq2mP9vR4tY6uI1oA3", NULL);
  g_autofree char *gl_line = g_strconcat ("clone with ", gl, "\n", NULL);
  g_autofree char *aiza = g_strconcat ("AI", "za", "Sy", tail36, "Q", NULL);
  g_autofree char *aiza_line = g_strconcat ("key=", aiza, "&q=x", NULL);
  g_autofree char *stripe = g_strconcat ("sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc", NULL);
  g_autofree char *stripe_line = g_strconcat ("Stripe.api_key = '", stripe, "'", NULL);
  g_autofree char *sk = g_strconcat ("sk", "-ant-api03-", tail36, NULL);
  g_autofree char *sk_line = g_strconcat ("using ", sk, NULL);
  g_autofree char *slack = g_strconcat ("xo", "xb-", "123456789012-1234567890123-", tail36, NULL);
  g_autofree char *slack_line = g_strconcat ("hook: ", slack, NULL);
  g_autofree char *akia = g_strconcat ("AK", "IA", "IOSFODNN7EXAMPLE", NULL);
  g_autofree char *akia_line = g_strconcat ("id ", akia, ".", NULL);
  g_autofree char *npm = g_strconcat ("np", "m_", tail36, NULL);
  g_autofree char *npm_line = g_strconcat ("//r.example/:_authToken=", npm, NULL);
  g_autofree char *pypi = g_strconcat ("py", "pi-AgEIcHlwaS5vcmc", tail36, NULL);
  g_autofree char *pypi_line = g_strconcat ("twine upload -p ", pypi, NULL);
  g_autofree char *jwt = g_strconcat ("ey", "JhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.", tail36, NULL);
  g_autofree char *jwt_line = g_strconcat ("cookie=", jwt, NULL);
  g_autofree char *entropy_line = g_strconcat ("SOME_SEED=", tail36, "\n", NULL);
  const Case cases[] = {
    { gh_line, "token [REDACTED_GITHUB_TOKEN] used", "github-token" },
    { gh_assign, "export GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN]", "github-token" },
    { gl_line, "clone with [REDACTED_GITLAB_TOKEN]\n", "gitlab-token" },
    { aiza_line, "key=[REDACTED_GOOGLE_API_KEY]&q=x", "google-api-key" },
    { stripe_line, "Stripe.api_key = '[REDACTED_STRIPE_KEY]'", "stripe-key" },
    { sk_line, "using [REDACTED_OPENAI_KEY]", "openai-key" },
    { slack_line, "hook: [REDACTED_SLACK_TOKEN]", "slack-token" },
    { akia_line, "id [REDACTED_AWS_KEY].", "aws-access-key-id" },
    { npm_line, "//r.example/:_authToken=[REDACTED_NPM_TOKEN]", "npm-token" },
    { pypi_line, "twine upload -p [REDACTED_PYPI_TOKEN]", "pypi-token" },
    { jwt_line, "cookie=[REDACTED_JWT]", "jwt" },
    { entropy_line, "SOME_SEED=[REDACTED]\n", "high-entropy-value" },
    { "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "aws_secret_access_key = [REDACTED]", "aws-secret-key" },
    { "\"SecretAccessKey\": \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\",",
      "\"SecretAccessKey\": \"[REDACTED]\",", "aws-secret-key" },
    { "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=abcDEF123456ghiJKL789=",
      "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=[REDACTED]",
      "azure-storage-key" },
    { "db: postgres://admin:S3cr3t!pass@db:5432/app", "db: postgres://admin:[REDACTED]@db:5432/app",
      "url-password" },
    { "Authorization: token 0123456789abcdef0123", "Authorization: token [REDACTED]",
      "authorization-header" },
    { "-H 'X-Auth: Bearer abcdefgh12345678ijkl'", "-H 'X-Auth: Bearer [REDACTED]'",
      "authorization-header" },
    { "{\"authorization\":\"Basic dXNlcjpwYXNzd29yZA==\"}",
      "{\"authorization\":\"Basic [REDACTED]\"}", "authorization-header" },
    { "mysql --password=Tr0ub4dor3 -h db", "mysql --password=[REDACTED] -h db", "secret-assignment" },
    { "{\\\"password\\\": \\\"s3cr3tvalue\\\"}", "{\\\"password\\\": \\\"[REDACTED]\\\"}",
      "secret-assignment" },
    { "?access_token=abc123def456&page=2", "?access_token=[REDACTED]&page=2", "secret-assignment" },
    { "PASSWORD=p&ss;w0rd with spaces\nNEXT=1", "PASSWORD=[REDACTED]\nNEXT=1", "secret-assignment" },
    { "private_key = \"-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBLAHBLAHBLAHBLAHBLAHBLAH\\n-----END EC PRIVATE KEY-----\"",
      "private_key = \"[REDACTED]\"", "secret-assignment" },
    { "key: -----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC -----END PRIVATE KEY-----",
      "key: -----BEGIN PRIVATE KEY----- [REDACTED_PRIVATE_KEY] -----END PRIVATE KEY-----",
      "private-key-block" },

    /* near misses: left alone */
    { "sk-learn-pipeline-for-everyone is a branch", NULL, NULL },
    { "the tokenizer: whitespace", NULL, NULL },
    { "git commit 3f9a1c0d2b4e6f8a0c2e4f6a8b0c2d4e6f8a0b1c", NULL, NULL },
    { "HEAD=3f9a1c0d2b4e6f8a0c2e4f6a8b0c2d4e6f8a0b1c", NULL, NULL },
    { "RUN_ID=123e4567-e89b-42d3-a456-426614174000", NULL, NULL },
    { "password: ********", NULL, NULL },
    { "password=${DB_PASSWORD}", NULL, NULL },
    { "token: <your token here>", NULL, NULL },
    { "if token == expected_token:", NULL, NULL },
    { "std::string password;", NULL, NULL },
    { "Bearer of bad news", NULL, NULL },
    { "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyc3RpZmljYXRl\n-----END CERTIFICATE-----", NULL, NULL },
    { "winnow 0.9.1 built with glib-2.74.6", NULL, NULL },
    { "see https://example.com/a:b@c", NULL, NULL },
    { "la contraseña: ******** (oculta) — ✓", NULL, NULL },
    { "", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(WinnowRedaction) r = winnow_redact (cases[i].input, -1);
      const char *out = winnow_redaction_get_text (r, NULL);

      if (g_strcmp0 (out, cases[i].output ? cases[i].output : cases[i].input) != 0)
        g_error ("redacting «%s» gave «%s», expected «%s»",
                 cases[i].input, out, cases[i].output ? cases[i].output : cases[i].input);
      if (cases[i].rule != NULL)
        {
          g_assert_cmpuint (winnow_redaction_get_count (r, cases[i].rule), ==, 1);
          g_assert_cmpuint (winnow_redaction_get_total (r), ==, 1);
        }
      else
        g_assert_cmpuint (winnow_redaction_get_total (r), ==, 0);
    }
}

/* Invalid UTF-8 and NULs pass through; secrets next to them still go. */
static void
test_bytes (void)
{
  static const char input[] = "\xff\xfe garbage\x00 AWS_SECRET_ACCESS_KEY=abcdEFGHijklMNOPqrst\xc3\n"
                              "\x00\x00tail \xe2\x82";
  static const char expected[] = "\xff\xfe garbage\x00 AWS_SECRET_ACCESS_KEY=[REDACTED]\n"
                                 "\x00\x00tail \xe2\x82";
  g_autoptr(WinnowRedaction) r = winnow_redact (input, sizeof input - 1);
  gsize length;
  const char *out = winnow_redaction_get_text (r, &length);

  g_assert_cmpmem (out, length, expected, sizeof expected - 1);
  g_assert_cmpuint (winnow_redaction_get_count (r, "aws-secret-key"), ==, 1);
  g_assert_cmpint (out[length], ==, '\0');
}

/* Valid UTF-8 stays valid, however secrets and multi-byte characters are mixed. */
static void
test_utf8 (void)
{
  g_autofree char *input = g_strconcat ("日本語 password=pässwörd✓ ",
                                        "ünïcödé https://ü:ñ€ß@host/ ",
                                        "token: «секрет» — 🔑=", "AK", "IAIOSFODNN7EXAMPLE", NULL);
  g_autoptr(WinnowRedaction) r = winnow_redact (input, -1);
  const char *out = winnow_redaction_get_text (r, NULL);

  g_assert_true (g_utf8_validate (out, -1, NULL));
  g_assert_null (strstr (out, "pässwörd"));
  g_assert_null (strstr (out, "ñ€ß"));
  g_assert_nonnull (strstr (out, "日本語 password=[REDACTED] "));
  g_assert_nonnull (strstr (out, "https://ü:[REDACTED]@host/"));
  g_assert_nonnull (strstr (out, "🔑=[REDACTED_AWS_KEY]"));
}

/* A private key cut off before its END line loses its body, not the text after it. */
static void
test_pem_unterminated (void)
{
  GString *input = g_string_new ("before\n-----BEGIN RSA PRIVATE KEY-----\n");
  g_autoptr(WinnowRedaction) r = NULL;
  g_autoptr(WinnowRedaction) bare = NULL;
  g_autoptr(WinnowRedaction) escaped = NULL;

  for (int i = 0; i < 5; i++)
    g_string_append (input, "MIIEowIBAAKCAQEAx7Kq2mP9vR4tY6uI1oA3sD0fGhJcEzQ3xW8vB2nM5kL7pR4t\n");
  g_string_append (input, "2024-06-07 12:00:01 INFO key loaded\nafter\n");
  r = winnow_redact (input->str, input->len);
  g_assert_cmpstr (winnow_redaction_get_text (r, NULL), ==,
                   "before\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED_PRIVATE_KEY]\n"
                   "2024-06-07 12:00:01 INFO key loaded\nafter\n");
  g_assert_cmpuint (winnow_redaction_get_count (r, "private-key-block"), ==, 1);

  /* the text ends inside the block; and a BEGIN line with nothing after it */
  g_string_truncate (input, input->len - strlen ("2024-06-07 12:00:01 INFO key loaded\nafter\n") - 20);
  bare = winnow_redact (input->str, input->len);
  g_assert_cmpstr (winnow_redaction_get_text (bare, NULL), ==,
                   "before\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED_PRIVATE_KEY]");
  escaped = winnow_redact ("k=\"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\nMIIE\"\n"
                           "-----BEGIN PRIVATE KEY-----", -1);
  g_assert_cmpstr (winnow_redaction_get_text (escaped, NULL), ==,
                   "k=\"-----BEGIN PRIVATE KEY-----\\n[REDACTED_PRIVATE_KEY]\"\n"
                   "-----BEGIN PRIVATE KEY-----");
  g_string_free (input, TRUE);
}

static double
seconds_for (const char *text,
             gsize       length,
             guint      *total)
{
  gint64 start = g_get_monotonic_time ();
  g_autoptr(WinnowRedaction) r = winnow_redact (text, length);

  *total = winnow_redaction_get_total (r);
  return (g_get_monotonic_time () - start) / 1e6;
}

/* Inputs built to make a backtracking matcher crawl: each must go through in linear time. */
static void
test_pathological (void)
{
  static const char * const units[] = {
    "token=$token=", "a=", "eyJ-", "-----BEGIN PRIVATE KEY-----", "sk-", "xoxb-", ":", "=:",
    "https://a:", "\"password\": \"", "LS0tLS1CRUdJTi", "Authorization: Bearer ", "ghp_", "@",
    "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n",
  };
  const gsize size = 4 * 1024 * 1024;

  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    {
      GString *text = g_string_sized_new (size + 64);
      guint total;
      double seconds;

      while (text->len < size)
        g_string_append (text, units[u]);
      seconds = seconds_for (text->str, text->len, &total);
      g_test_message ("%-32s %.3f s for 4 MiB", units[u], seconds);
      g_assert_cmpfloat (seconds, <, 5.0);
      g_string_free (text, TRUE);
    }
}

/* 50 MB of realistic output with a secret every so often. */
static void
test_large (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = manifest_cases (parser);
  GString *text = g_string_sized_new (52 * 1000 * 1000);
  guint expected = 0, total;
  double seconds;

  while (text->len < 50 * 1000 * 1000)
    for (guint c = 0; c < json_array_get_length (cases); c++)
      {
        JsonObject *item = json_array_get_object_element (cases, c);
        g_autofree char *contents = corpus_file (json_object_get_string_member (item, "file"), NULL);
        JsonObject *counts = json_object_get_object_member (item, "counts");
        g_autoptr(GList) members = json_object_get_members (counts);

        g_string_append (text, contents);
        for (GList *l = members; l; l = l->next)
          expected += json_object_get_int_member (counts, l->data);
      }

  seconds = seconds_for (text->str, text->len, &total);
  g_test_message ("%.1f MB in %.2f s", text->len / 1e6, seconds);
  g_assert_cmpuint (total, ==, expected);
  g_assert_cmpfloat (seconds, <, 60.0);
  g_string_free (text, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/winnow/redact/rules-list", test_rules_list);
  g_test_add_func ("/winnow/redact/rules", test_rules);
  g_test_add_func ("/winnow/redact/corpus", test_corpus);
  g_test_add_func ("/winnow/redact/idempotent", test_idempotent);
  g_test_add_func ("/winnow/redact/bytes", test_bytes);
  g_test_add_func ("/winnow/redact/utf8", test_utf8);
  g_test_add_func ("/winnow/redact/pem-unterminated", test_pem_unterminated);
  g_test_add_func ("/winnow/redact/pathological", test_pathological);
  g_test_add_func ("/winnow/redact/large", test_large);

  return g_test_run ();
}
