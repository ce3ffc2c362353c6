/* winnow-cli-gain.c — `winnow gain`: the tokens Winnow saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Totals, a 30-day chart and the top filters, commands and projects, from the events that
 * `winnow run`, `winnow compress` and the API record. Every figure says which counter made it
 * (o200k_base, never characters divided by four), and output that came out larger than it
 * went in is shown as growth — a negative saving — rather than clamped to zero or left out:
 * a savings report that hides its losses is the complaint users make of every peer.
 */

#define G_LOG_DOMAIN "winnow-cli"

#include "config.h"

#include <glib/gi18n.h>
/* PRIu64 in translatable strings: xgettext understands it, not G_GUINT64_FORMAT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "winnow-cli.h"

#define DEFAULT_DAYS 30
#define KEY_WIDTH    32

typedef struct
{
  WinnowStoreGroup  group;
  const char       *name;       /* --by value, CSV group */
  const char       *json_list;  /* JSON member of the list */
  const char       *json_key;   /* JSON member of each row's key */
  const char       *title;
  const char       *none;       /* a NULL key */
} Table;

static const Table tables[] = {
  { WINNOW_STORE_GROUP_FILTER, "filter", "filters", "filter", N_("Top filters"),
    N_("(no filter)") },
  { WINNOW_STORE_GROUP_COMMAND, "command", "commands", "command", N_("Top commands"),
    N_("(no command)") },
  { WINNOW_STORE_GROUP_PROJECT, "project", "projects", "project", N_("Top projects"),
    N_("(no project)") },
};

static double
rounded_ratio (const WinnowSavingsRow *row)
{
  return (double) (gint64) (winnow_savings_row_get_saved_ratio (row) * 10000 +
                            (winnow_savings_row_get_saved (row) < 0 ? -0.5 : 0.5)) / 10000;
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void
add_row_json (JsonBuilder            *builder,
              const char             *key_name,
              const WinnowSavingsRow *row)
{
  json_builder_begin_object (builder);
  if (key_name != NULL)
    winnow_cli_json_member (builder, key_name, row->key);
#define INT(name, value) \
  json_builder_set_member_name (builder, name); json_builder_add_int_value (builder, value)
  INT ("events", row->events);
  INT ("tokensBefore", row->tokens_before);
  INT ("tokensAfter", row->tokens_after);
  INT ("tokensSaved", winnow_savings_row_get_saved (row));
  json_builder_set_member_name (builder, "savedRatio");
  json_builder_add_double_value (builder, rounded_ratio (row));
  INT ("bytesBefore", row->bytes_before);
  INT ("bytesAfter", row->bytes_after);
  INT ("grownEvents", row->grown_events);
  INT ("tokensGrown", row->tokens_grown);
#undef INT
  json_builder_end_object (builder);
}

static void
add_rows_json (JsonBuilder *builder,
               const char  *list_name,
               const char  *key_name,
               GPtrArray   *rows)
{
  json_builder_set_member_name (builder, list_name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < rows->len; i++)
    add_row_json (builder, key_name, g_ptr_array_index (rows, i));
  json_builder_end_array (builder);
}

/* ---- CSV --------------------------------------------------------------------------------- */

static void
print_csv_field (const char *value)
{
  if (value == NULL)
    return;

  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      fputs (value, stdout);
      return;
    }

  fputc ('"', stdout);
  for (const char *p = value; *p; p++)
    {
      if (*p == '"')
        fputc ('"', stdout);
      fputc (*p, stdout);
    }
  fputc ('"', stdout);
}

static void
print_csv_rows (const char *group,
                GPtrArray  *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (rows, i);
      char ratio[G_ASCII_DTOSTR_BUF_SIZE];

      fputs (group, stdout);
      fputc (',', stdout);
      print_csv_field (row->key);
      printf (",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
              G_GINT64_FORMAT ",%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
              G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s\n",
              row->events, row->tokens_before, row->tokens_after,
              winnow_savings_row_get_saved (row),
              g_ascii_formatd (ratio, sizeof ratio, "%.4f", rounded_ratio (row)),
              row->bytes_before, row->bytes_after, row->grown_events, row->tokens_grown,
              winnow_tokens_counter_name ());
    }
}

/* ---- text -------------------------------------------------------------------------------- */

static char *
format_saved (const WinnowSavingsRow *row)
{
  gint64 saved = winnow_savings_row_get_saved (row);

  if (row->tokens_before == 0 && row->tokens_after == 0)
    return g_strdup ("");
  if (saved < 0)
    /* TRANSLATORS: tokens added by compression, and by how much of the original */
    return g_strdup_printf (_("grew by %" PRId64 " (+%.1f%%)"), -saved,
                            -100.0 * winnow_savings_row_get_saved_ratio (row));
  return g_strdup_printf (_("%" PRId64 " saved (%.1f%%)"), saved,
                          100.0 * winnow_savings_row_get_saved_ratio (row));
}

static char *
shorten (const char *key,
         guint       width)
{
  glong chars = g_utf8_strlen (key, -1);

  if (chars <= (glong) width)
    return g_strdup (key);

  /* keep the end: for paths and commands it is the part that tells them apart */
  return g_strconcat ("…", g_utf8_offset_to_pointer (key, chars - (width - 1)), NULL);
}

static void
print_row (const char             *key,
           const WinnowSavingsRow *row,
           const char             *bar)
{
  g_autofree char *saved = format_saved (row);
  g_autofree char *shown = shorten (key, KEY_WIDTH);
  glong pad = KEY_WIDTH - g_utf8_strlen (shown, -1);

  g_print ("  %s%*s %7" G_GUINT64_FORMAT " %-6s %s%s%s\n", shown, (int) MAX (pad, 0), "",
           row->events, row->events == 1 ? _("event") : _("events"), saved,
           bar != NULL && bar[0] != '\0' ? "  " : "", bar != NULL ? bar : "");
}

static void
print_totals (const WinnowSavingsRow *row,
              const char             *since)
{
  g_autofree char *saved = format_saved (row);

  if (g_strcmp0 (since, "all") == 0)
    g_print (_("Tokens saved by Winnow, all recorded events (counted with %s)\n\n"),
             winnow_tokens_counter_name ());
  else
    g_print (_("Tokens saved by Winnow in the last %s (counted with %s)\n\n"), since,
             winnow_tokens_counter_name ());

  g_print (_("  events         %" PRIu64 "\n"), row->events);
  g_print (_("  tokens before  %" PRIu64 "\n"), row->tokens_before);
  g_print (_("  tokens after   %" PRIu64 "\n"), row->tokens_after);
  g_print (_("  net            %s\n"), row->events > 0 ? saved : "0");
  if (row->grown_events > 0)
    g_print (_("  grew           %" PRIu64 " of the events came out larger, by %"
               PRIu64 " tokens in all\n"), row->grown_events, row->tokens_grown);
  else
    g_print (_("  grew           no event came out larger\n"));
}

/* The text shows the days that have events; JSON and CSV have every day, zeros included. */
static void
print_days (GPtrArray *days)
{
  gint64 best = 0;
  guint empty = 0;
  gboolean utf8 = g_get_charset (NULL);

  g_print (_("\nBy day, last %u days:\n"), days->len);
  for (guint i = 0; i < days->len; i++)
    best = MAX (best, winnow_savings_row_get_saved (g_ptr_array_index (days, i)));

  for (guint i = 0; i < days->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (days, i);
      gint64 saved = winnow_savings_row_get_saved (row);
      g_autoptr(GString) bar = g_string_new (NULL);
      guint width = best > 0 && saved > 0 ? (guint) ((saved * 20 + best - 1) / best) : 0;

      if (row->events == 0)
        {
          empty++;
          continue;
        }

      for (guint k = 0; k < width; k++)
        g_string_append (bar, utf8 ? "█" : "#");
      print_row (row->key, row, bar->str);
    }

  if (empty == days->len)
    g_print (_("  no events\n"));
  else if (empty > 0)
    g_print (g_dngettext (GETTEXT_PACKAGE, "  no events on the other day\n",
                          "  no events on the other %u days\n", empty), empty);
}

static void
print_table (const Table *table,
             GPtrArray   *rows)
{
  g_print ("\n%s:\n", _(table->title));
  if (rows->len == 0)
    g_print (_("  none yet\n"));
  for (guint i = 0; i < rows->len; i++)
    {
      const WinnowSavingsRow *row = g_ptr_array_index (rows, i);

      print_row (row->key != NULL ? row->key : _(table->none), row, NULL);
    }
}

int
winnow_cli_gain (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WinnowContext) ctx = NULL;
  g_autoptr(WinnowStore) store = NULL;
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GPtrArray) days = NULL;
  GPtrArray *groups[G_N_ELEMENTS (tables)] = { NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *since_text = NULL;
  g_autofree char *by = NULL;
  gboolean json = FALSE;
  gboolean csv = FALSE;
  int limit = 10;
  WinnowCliCommon common = { 0 };
  GTimeSpan since = 0;
  guint n_days = DEFAULT_DAYS;
  gboolean want_days;
  int status = WINNOW_EXIT_OK;
  GOptionEntry entries[] = {
    { "since", 's', 0, G_OPTION_ARG_STRING, &since_text,
      N_("Only events of the last stretch of time: 24h, 7d, 30d, 2w… or all (default: all)"),
      N_("SPAN") },
    { "by", 'b', 0, G_OPTION_ARG_STRING, &by,
      N_("Only one table: day, filter, command or project"), N_("GROUP") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit,
      N_("At most N rows per table, plus every row that grew (default: 10; 0: all)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the figures as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Print the figures as CSV, one row per table row"), NULL },
    { NULL }
  };

  context = winnow_cli_option_context (NULL,
                                       _("Show how many tokens Winnow saved."),
                                       _("Totals, each of the last 30 days, and the filters, "
                                         "commands and projects that saved the most, from the "
                                         "events “winnow run” and “winnow compress” recorded. "
                                         "Tokens are counted with o200k_base. Output that came "
                                         "out larger than it went in is shown as growth.\n\n"
                                         "Exit status: 0 on success, 1 if the database cannot "
                                         "be read, 2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, winnow_cli_common_group (&common));

  if (!winnow_cli_parse (context, "gain", &argc, &argv))
    return WINNOW_EXIT_USAGE;

  if (argc > 1)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("gain", _("unexpected argument “%s”"), argv[1]);
    }
  if (json && csv)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("gain", _("--json and --csv cannot be used together"));
    }
  if (limit < 0)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("gain", _("--limit must be 0 or more"));
    }
  if (since_text != NULL && !winnow_store_parse_since (since_text, &since, &error))
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("gain", "%s", error->message);
    }
  if (by != NULL && strcmp (by, "day") != 0 && strcmp (by, "filter") != 0 &&
      strcmp (by, "command") != 0 && strcmp (by, "project") != 0)
    {
      winnow_cli_common_clear (&common);
      return winnow_cli_usage_error ("gain", _("unknown group “%s” (day, filter, command, "
                                               "project)"), by);
    }

  /* a bounded span charts just its own days */
  if (since > 0)
    n_days = (guint) CLAMP ((since + G_TIME_SPAN_DAY - 1) / G_TIME_SPAN_DAY, 1, 3650);
  want_days = by == NULL || strcmp (by, "day") == 0;

  ctx = winnow_cli_common_context (&common);
  winnow_cli_common_clear (&common);
  store = winnow_store_open_for_context (ctx, &error);
  if (store == NULL)
    {
      g_printerr ("winnow gain: %s\n", error->message);
      return WINNOW_EXIT_FAILURE;
    }

  totals = winnow_store_query (store, WINNOW_STORE_GROUP_NONE, since, 0, &error);
  if (totals != NULL && want_days)
    days = winnow_store_query_days (store, n_days, &error);
  for (guint i = 0; error == NULL && i < G_N_ELEMENTS (tables); i++)
    if (by == NULL || strcmp (by, tables[i].name) == 0)
      groups[i] = winnow_store_query (store, tables[i].group, since, limit, &error);

  if (error != NULL)
    {
      g_printerr ("winnow gain: %s\n", error->message);
      status = WINNOW_EXIT_FAILURE;
      goto out;
    }

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      winnow_cli_json_member (builder, "counter", winnow_tokens_counter_name ());
      winnow_cli_json_member (builder, "since", since > 0 ? since_text : "all");
      winnow_cli_json_member (builder, "database", winnow_store_get_path (store));
      json_builder_set_member_name (builder, "totals");
      add_row_json (builder, NULL, g_ptr_array_index (totals, 0));
      if (days != NULL)
        add_rows_json (builder, "days", "date", days);
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        if (groups[i] != NULL)
          add_rows_json (builder, tables[i].json_list, tables[i].json_key, groups[i]);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      winnow_cli_print_json (root);
    }
  else if (csv)
    {
      g_print ("group,key,events,tokens_before,tokens_after,tokens_saved,saved_ratio,"
               "bytes_before,bytes_after,grown_events,tokens_grown,counter\n");
      if (by == NULL)
        print_csv_rows ("total", totals);
      if (days != NULL)
        print_csv_rows ("day", days);
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        if (groups[i] != NULL)
          print_csv_rows (tables[i].name, groups[i]);
    }
  else
    {
      print_totals (g_ptr_array_index (totals, 0), since > 0 ? since_text : "all");
      if (days != NULL)
        print_days (days);
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        if (groups[i] != NULL)
          print_table (&tables[i], groups[i]);
    }

out:
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    g_clear_pointer (&groups[i], g_ptr_array_unref);
  return status;
}
