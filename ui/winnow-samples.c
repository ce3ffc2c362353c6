/* winnow-samples.c — real command output bundled with the dashboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Output captured on a real machine for the engine's corpus (tests/corpus), and one verbose
 * assistant reply from the prose corpus, compiled into the GResource so a person can see what
 * Winnow does before pasting anything of their own, and so the filter editor has something to
 * try a filter on and to draft tests from.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow-samples.h"

#define SAMPLES_PATH "/io/github/winnow/Winnow/samples/"

static const struct
{
  const char *id;
  const char *title;
  const char *resource;
  const char *command;
} samples[] = {
  { "git-status", N_("git status"), "git-status-dirty.txt", "git status" },
  { "git-log", N_("git log"), "git-log.txt", "git log" },
  { "pytest", N_("pytest with failures"), "pytest-fail-verbose.txt", "pytest -v tests" },
  { "cargo-test", N_("cargo test with a failure"), "cargo-test-fail.txt", "cargo test" },
  { "make", N_("make with a compile error"), "make-compile-error.txt", "make" },
  { "meson-test", N_("meson test with a failure"), "meson-test-fail.txt", "meson test -C builddir" },
  { "npm-install", N_("npm install"), "npm-install.txt", "npm install" },
  { "tsc", N_("TypeScript errors"), "tsc-error.txt", "npx tsc --noEmit" },
  { "prose", N_("A verbose assistant reply"), "verbose-reply.md", NULL },
};

guint
winnow_samples_get_n_samples (void)
{
  return G_N_ELEMENTS (samples);
}

const char *
winnow_samples_get_id (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (samples), NULL);
  return samples[index].id;
}

/* translated */
const char *
winnow_samples_get_title (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (samples), NULL);
  return _(samples[index].title);
}

/* the command that produced the sample, or %NULL for prose */
const char *
winnow_samples_get_command (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (samples), NULL);
  return samples[index].command;
}

/**
 * winnow_samples_lookup:
 * @id: a sample id ("git-status", "pytest", "prose"…)
 * @command: (out) (optional) (nullable): the command that produced it
 *
 * Returns: (transfer full) (nullable): the sample's bytes, or %NULL if there is no such sample
 */
GBytes *
winnow_samples_lookup (const char  *id,
                       const char **command)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    if (g_str_equal (samples[i].id, id))
      {
        g_autofree char *path = g_strconcat (SAMPLES_PATH, samples[i].resource, NULL);

        if (command != NULL)
          *command = samples[i].command;
        return g_resources_lookup_data (path, 0, NULL);
      }

  return NULL;
}

/**
 * winnow_samples_new_menu:
 * @action_name: a detailed action taking the sample id as a string parameter
 *
 * Returns: (transfer full): a menu with one item per sample
 */
GMenuModel *
winnow_samples_new_menu (const char *action_name)
{
  GMenu *menu = g_menu_new ();

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(samples[i].title), NULL);

      g_menu_item_set_action_and_target (item, action_name, "s", samples[i].id);
      g_menu_append_item (menu, item);
    }

  return G_MENU_MODEL (menu);
}
