/* winnow-filter-form.c — a filter's JSON as a form, one group per stage
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form edits a JsonObject in place: the filter's JSON stays the one source of truth, so
 * members the form does not know (a newer format's, a user's own `x-` notes) survive every
 * edit, and the JSON view and the form can never disagree. The groups follow the engine's
 * stage order (FORMATS.md §1). Every pattern is compiled as the user types, with the flags the
 * engine will use (winnow_filter_pattern_flags()), and says either why it does not compile or
 * how many lines of the current sample it matches. Edits emit ::changed; the form is only
 * rebuilt when a new object is set, so typing never loses focus.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "winnow.h"
#include "winnow-a11y.h"
#include "winnow-filter-form.h"

/* counting matches on a huge sample would stall typing; the first lines tell enough */
#define MAX_SAMPLE_LINES 5000

struct _WinnowFilterForm
{
  GtkWidget          parent_instance;

  JsonObject        *object;
  GPtrArray         *sample_lines;
  char              *sample;
  char              *sample_command;
  GPtrArray         *pattern_rows;   /* PatternRow, for recounting */
  guint              n_invalid;

  AdwPreferencesPage *page;
};

G_DEFINE_FINAL_TYPE (WinnowFilterForm, winnow_filter_form, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

typedef struct
{
  WinnowFilterForm *form;
  GtkEditable      *entry;
  GtkLabel         *status;
  char             *member;    /* for the flags */
  gboolean          per_line;
  gboolean          valid;
} PatternRow;

static void
pattern_row_free (PatternRow *row)
{
  g_free (row->member);
  g_free (row);
}

static void rebuild (WinnowFilterForm *self);

static void
emit_changed (WinnowFilterForm *self)
{
  g_signal_emit (self, signals [CHANGED], 0);
}

/* --- JSON access ---------------------------------------------------------------------- */

/* the object at @name inside @parent, made if missing */
static JsonObject *
child_object (JsonObject *parent,
              const char *name)
{
  JsonNode *node = json_object_get_member (parent, name);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      json_object_set_object_member (parent, name, json_object_new ());
      node = json_object_get_member (parent, name);
    }

  return json_node_get_object (node);
}

static JsonArray *
child_array (JsonObject *parent,
             const char *name)
{
  JsonNode *node = json_object_get_member (parent, name);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      json_object_set_array_member (parent, name, json_array_new ());
      node = json_object_get_member (parent, name);
    }

  return json_node_get_array (node);
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return "";
  return json_node_get_string (node);
}

/* json-glib 1.6 has no way to replace an array element: set a string in place */
static void
set_array_string (JsonArray  *array,
                  guint       index,
                  const char *value)
{
  JsonNode *node = json_array_get_element (array, index);

  json_node_set_string (node, value);
}

/* --- pattern status ------------------------------------------------------------------- */

static void
update_pattern_status (PatternRow *row)
{
  WinnowFilterForm *self = row->form;
  const char *source = gtk_editable_get_text (row->entry);
  g_autoptr(WinnowRegex) regex = NULL;
  g_autoptr(GError) error = NULL;
  gboolean was_valid = row->valid;

  gtk_widget_remove_css_class (GTK_WIDGET (row->status), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (row->entry), "error");

  if (source[0] == '\0')
    {
      row->valid = TRUE;
      gtk_label_set_text (row->status, _("empty"));
    }
  else if ((regex = winnow_regex_new (source, winnow_filter_pattern_flags (row->member),
                                      WINNOW_REGEX_DEFAULT, &error)) == NULL)
    {
      row->valid = FALSE;
      gtk_label_set_text (row->status, _("does not compile"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->status), error->message);
      gtk_widget_add_css_class (GTK_WIDGET (row->status), "error");
      gtk_widget_add_css_class (GTK_WIDGET (row->entry), "error");
    }
  else if (self->sample_lines == NULL)
    {
      row->valid = TRUE;
      gtk_label_set_text (row->status, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->status), NULL);
    }
  else if (row->per_line)
    {
      g_autofree char *text = NULL;
      guint hits = 0;

      for (guint i = 0; i < self->sample_lines->len; i++)
        if (winnow_regex_matches (regex, g_ptr_array_index (self->sample_lines, i)))
          hits++;

      row->valid = TRUE;
      /* Translators: how many lines of the sample a pattern matches */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line", "%u lines", hits), hits);
      gtk_label_set_text (row->status, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->status),
                                   _("Lines of the current sample this pattern matches"));
    }
  else if (g_str_equal (row->member, "commands"))
    {
      const char *command = self->sample_command ? self->sample_command : "";

      row->valid = TRUE;
      gtk_label_set_text (row->status, command[0] == '\0' ? ""
                                       : winnow_regex_matches (regex, command)
                                       ? _("matches the command") : _("no match"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->status), command);
    }
  else
    {
      row->valid = TRUE;
      gtk_label_set_text (row->status, winnow_regex_matches (regex, self->sample)
                                       ? _("matches the sample") : _("no match"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->status), NULL);
    }

  if (was_valid != row->valid)
    self->n_invalid += row->valid ? -1 : 1;
}

static GtkLabel *
status_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  return GTK_LABEL (label);
}

/* --- rows ----------------------------------------------------------------------------- */

typedef struct
{
  WinnowFilterForm *form;
  JsonObject       *object;   /* borrowed: lives as long as the form's root */
  char             *member;
} Binding;

static void
binding_free (gpointer data,
              GClosure *closure)
{
  Binding *b = data;

  g_free (b->member);
  g_free (b);
}

static Binding *
binding_new (WinnowFilterForm *form,
             JsonObject       *object,
             const char       *member)
{
  Binding *b = g_new0 (Binding, 1);

  b->form = form;
  b->object = object;
  b->member = g_strdup (member);
  return b;
}

static void
on_string_changed (GtkEditable *editable,
                   Binding     *b)
{
  json_object_set_string_member (b->object, b->member, gtk_editable_get_text (editable));
  emit_changed (b->form);
}

static void
add_string_row (WinnowFilterForm    *self,
                AdwPreferencesGroup *group,
                JsonObject          *object,
                const char          *member,
                const char          *title)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (row), string_member (object, member));
  g_signal_connect_data (row, "changed", G_CALLBACK (on_string_changed),
                         binding_new (self, object, member), binding_free, 0);
  adw_preferences_group_add (group, row);
}

static void
on_int_changed (GtkSpinButton *spin,
                Binding       *b)
{
  json_object_set_int_member (b->object, b->member, gtk_spin_button_get_value_as_int (spin));
  emit_changed (b->form);
}

static void
add_int_row (WinnowFilterForm    *self,
             AdwPreferencesGroup *group,
             JsonObject          *object,
             const char          *member,
             const char          *title,
             const char          *subtitle,
             int                  min,
             int                  max)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (min, max, 1);
  JsonNode *node = json_object_get_member (object, member);
  /* the title carries a mnemonic; the control's own name is what is read out */
  g_autofree char *name = winnow_a11y_strip_mnemonic (title);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin),
                             node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_int (node) : 0);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  g_signal_connect_data (spin, "value-changed", G_CALLBACK (on_int_changed),
                         binding_new (self, object, member), binding_free, 0);
  adw_preferences_group_add (group, row);
}

static void
on_bool_changed (GtkSwitch  *sw,
                 GParamSpec *pspec,
                 Binding    *b)
{
  json_object_set_boolean_member (b->object, b->member, gtk_switch_get_active (sw));
  emit_changed (b->form);
}

static void
add_bool_row (WinnowFilterForm    *self,
              AdwPreferencesGroup *group,
              JsonObject          *object,
              const char          *member,
              const char          *title,
              const char          *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *sw = gtk_switch_new ();
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *name = winnow_a11y_strip_mnemonic (title);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_switch_set_active (GTK_SWITCH (sw), node && JSON_NODE_HOLDS_VALUE (node) &&
                                          json_node_get_boolean (node));
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (sw), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
  g_signal_connect_data (sw, "notify::active", G_CALLBACK (on_bool_changed),
                         binding_new (self, object, member), binding_free, 0);
  adw_preferences_group_add (group, row);
}

/* --- pattern lists -------------------------------------------------------------------- */

typedef struct
{
  WinnowFilterForm *form;
  JsonArray        *array;    /* borrowed from the root object */
  guint             index;
  char             *field;    /* NULL: the element is the pattern; else a member of it */
  PatternRow       *pattern;  /* NULL for non-pattern fields */
} ElementBinding;

static void
element_binding_free (gpointer  data,
                      GClosure *closure)
{
  ElementBinding *b = data;

  g_free (b->field);
  g_free (b);
}

static void
on_element_changed (GtkEditable    *editable,
                    ElementBinding *b)
{
  const char *text = gtk_editable_get_text (editable);

  if (b->field == NULL)
    set_array_string (b->array, b->index, text);
  else
    {
      JsonNode *element = json_array_get_element (b->array, b->index);

      if (JSON_NODE_HOLDS_OBJECT (element))
        {
          /* an empty `unless` means none, not a pattern that matches everywhere */
          if (text[0] == '\0' && g_str_equal (b->field, "unless"))
            json_object_remove_member (json_node_get_object (element), b->field);
          else
            json_object_set_string_member (json_node_get_object (element), b->field, text);
        }
    }

  if (b->pattern != NULL)
    update_pattern_status (b->pattern);
  emit_changed (b->form);
}

static GtkWidget *
element_row (WinnowFilterForm *self,
             JsonArray        *array,
             guint             index,
             const char       *field,
             const char       *title,
             const char       *member,
             gboolean          per_line)
{
  GtkWidget *row = adw_entry_row_new ();
  JsonNode *element = json_array_get_element (array, index);
  ElementBinding *b = g_new0 (ElementBinding, 1);
  const char *value = "";

  if (field == NULL && json_node_get_value_type (element) == G_TYPE_STRING)
    value = json_node_get_string (element);
  else if (field != NULL && JSON_NODE_HOLDS_OBJECT (element))
    value = string_member (json_node_get_object (element), field);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_editable_set_text (GTK_EDITABLE (row), value);
  gtk_widget_add_css_class (row, "monospace");

  b->form = self;
  b->array = array;
  b->index = index;
  b->field = g_strdup (field);

  if (member != NULL)
    {
      PatternRow *p = g_new0 (PatternRow, 1);

      p->form = self;
      p->entry = GTK_EDITABLE (row);
      p->status = status_label ();
      p->member = g_strdup (member);
      p->per_line = per_line;
      p->valid = TRUE;
      adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), GTK_WIDGET (p->status));
      g_ptr_array_add (self->pattern_rows, p);
      b->pattern = p;
      update_pattern_status (p);
    }

  g_signal_connect_data (row, "changed", G_CALLBACK (on_element_changed), b,
                         element_binding_free, 0);
  return row;
}

typedef struct
{
  WinnowFilterForm *form;
  JsonArray        *array;
  guint             index;
} RemoveData;

static void
rebuild_idle (gpointer data)
{
  WinnowFilterForm *self = data;

  rebuild (self);
  g_object_unref (self);
}

/* The clicked button belongs to the rows a rebuild destroys: rebuild once it returned. */
static void
rebuild_later (WinnowFilterForm *self)
{
  g_idle_add_once (rebuild_idle, g_object_ref (self));
}

static void
on_remove_clicked (GtkButton  *button,
                   RemoveData *data)
{
  if (data->index < json_array_get_length (data->array))
    json_array_remove_element (data->array, data->index);

  emit_changed (data->form);
  rebuild_later (data->form);
}

static GtkWidget *
remove_button (WinnowFilterForm *self,
               JsonArray        *array,
               guint             index,
               const char       *what)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  RemoveData *data = g_new0 (RemoveData, 1);
  /* Translators: a button that removes one entry; %s says what ("pattern", "replacement") */
  g_autofree char *label = g_strdup_printf (_("Remove %s %u"), what, index + 1);

  data->form = self;
  data->array = array;
  data->index = index;
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  g_signal_connect_data (button, "clicked", G_CALLBACK (on_remove_clicked), data,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  return button;
}

typedef enum
{
  LIST_PATTERNS,       /* ["re", …] */
  LIST_STRINGS,        /* ["git-status", …], no regex */
  LIST_REPLACE,        /* [{pattern, replacement}] */
  LIST_MATCH_OUTPUT,   /* [{pattern, message, unless?}] */
} ListKind;

typedef struct
{
  WinnowFilterForm *form;
  JsonObject       *object;
  char             *member;
  ListKind          kind;
} AddData;

static void
add_data_free (gpointer  data,
               GClosure *closure)
{
  AddData *a = data;

  g_free (a->member);
  g_free (a);
}

static void
on_add_clicked (GtkButton *button,
                AddData   *a)
{
  JsonArray *array = child_array (a->object, a->member);

  switch (a->kind)
    {
    case LIST_REPLACE:
      {
        JsonObject *rule = json_object_new ();

        json_object_set_string_member (rule, "pattern", "");
        json_object_set_string_member (rule, "replacement", "");
        json_array_add_object_element (array, rule);
      }
      break;

    case LIST_MATCH_OUTPUT:
      {
        JsonObject *rule = json_object_new ();

        json_object_set_string_member (rule, "pattern", "");
        json_object_set_string_member (rule, "message", "");
        json_array_add_object_element (array, rule);
      }
      break;

    case LIST_PATTERNS:
    case LIST_STRINGS:
    default:
      json_array_add_string_element (array, "");
      break;
    }

  emit_changed (a->form);
  rebuild_later (a->form);
}

static void
add_list_group (WinnowFilterForm *self,
                JsonObject       *object,
                const char       *member,
                ListKind          kind,
                const char       *title,
                const char       *description,
                gboolean          per_line)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  GtkWidget *add = gtk_button_new_from_icon_name ("list-add-symbolic");
  /* Translators: %s is the title of a list in the filter form, "Drop lines" */
  g_autofree char *add_label = g_strdup_printf (_("Add to “%s”"), title);
  AddData *a = g_new0 (AddData, 1);

  adw_preferences_group_set_title (group, title);
  adw_preferences_group_set_description (group, description);

  gtk_widget_add_css_class (add, "flat");
  gtk_widget_set_tooltip_text (add, add_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (add), GTK_ACCESSIBLE_PROPERTY_LABEL, add_label, -1);
  a->form = self;
  a->object = object;
  a->member = g_strdup (member);
  a->kind = kind;
  g_signal_connect_data (add, "clicked", G_CALLBACK (on_add_clicked), a, add_data_free, 0);
  adw_preferences_group_set_header_suffix (group, add);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *n = g_strdup_printf ("%u", i + 1);
      GtkWidget *row;

      switch (kind)
        {
        case LIST_REPLACE:
          {
            g_autofree char *t = g_strdup_printf (_("Pattern %s"), n);

            row = element_row (self, array, i, "pattern", t, "replace", TRUE);
            adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove_button (self, array, i, _("replacement")));
            adw_preferences_group_add (group, row);
            adw_preferences_group_add (group, element_row (self, array, i, "replacement",
                                                           _("Replace with"), NULL, FALSE));
          }
          break;

        case LIST_MATCH_OUTPUT:
          {
            g_autofree char *t = g_strdup_printf (_("Pattern %s"), n);

            row = element_row (self, array, i, "pattern", t, "matchOutput", FALSE);
            adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove_button (self, array, i, _("rule")));
            adw_preferences_group_add (group, row);
            adw_preferences_group_add (group, element_row (self, array, i, "message",
                                                           _("Whole output becomes"), NULL, FALSE));
            adw_preferences_group_add (group, element_row (self, array, i, "unless",
                                                           _("Unless the output matches"),
                                                           "unless", FALSE));
          }
          break;

        case LIST_STRINGS:
          row = element_row (self, array, i, NULL, n, NULL, FALSE);
          adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove_button (self, array, i, _("entry")));
          adw_preferences_group_add (group, row);
          break;

        case LIST_PATTERNS:
        default:
          {
            g_autofree char *t = g_strdup_printf (_("Pattern %s"), n);

            row = element_row (self, array, i, NULL, t, member, per_line);
            adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove_button (self, array, i, _("pattern")));
            adw_preferences_group_add (group, row);
          }
          break;
        }
    }

  adw_preferences_page_add (self->page, group);
}

static AdwPreferencesGroup *
new_group (WinnowFilterForm *self,
           const char       *title,
           const char       *description)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  if (description != NULL)
    adw_preferences_group_set_description (group, description);
  adw_preferences_page_add (self->page, group);
  return group;
}

/* --- building --------------------------------------------------------------------------- */

static void
clear_page (WinnowFilterForm *self)
{
  GtkWidget *page = GTK_WIDGET (self->page);

  if (page != NULL)
    gtk_widget_unparent (page);

  g_ptr_array_set_size (self->pattern_rows, 0);
  self->n_invalid = 0;
  self->page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->page), GTK_WIDGET (self));
}

static void
rebuild (WinnowFilterForm *self)
{
  AdwPreferencesGroup *group;
  JsonObject *match, *rules, *preserve;
  double scroll = 0;
  GtkWidget *scroller;

  /* keep the scroll position across a rebuild (adding a pattern, removing one) */
  scroller = self->page ? gtk_widget_get_first_child (GTK_WIDGET (self->page)) : NULL;
  if (GTK_IS_SCROLLED_WINDOW (scroller))
    scroll = gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));

  clear_page (self);
  if (self->object == NULL)
    return;

  group = new_group (self, _("Filter"), NULL);
  add_string_row (self, group, self->object, "id", _("_Id"));
  add_string_row (self, group, self->object, "label", _("La_bel"));
  add_string_row (self, group, self->object, "category", _("_Category"));
  add_string_row (self, group, self->object, "description", _("D_escription"));
  add_int_row (self, group, self->object, "priority", _("_Priority"),
               _("Higher priorities are tried first"), -1000, 1000);

  match = child_object (self->object, "match");
  add_list_group (self, match, "outputTypes", LIST_STRINGS, _("Output types"),
                  _("Detector output types this filter handles, e.g. git-status"), FALSE);
  add_list_group (self, match, "commands", LIST_PATTERNS, _("Commands"),
                  _("Patterns the command line is matched against"), FALSE);
  add_list_group (self, match, "patterns", LIST_PATTERNS, _("Output patterns"),
                  _("Patterns tried on the whole output when no command is known"), FALSE);

  rules = child_object (self->object, "rules");
  group = new_group (self, _("Clean-up"), _("The first stages, applied to every line"));
  add_bool_row (self, group, rules, "stripAnsi", _("Strip A_NSI escapes"),
                _("Colours, cursor moves and progress redraws"));
  add_bool_row (self, group, rules, "filterStderr", _("Strip stderr pre_fixes"),
                _("“stderr |”, “stderr:” and “err:” at the start of lines"));
  add_list_group (self, rules, "replace", LIST_REPLACE, _("Replace"),
                  _("Rewrites inside each line, in order"), TRUE);
  add_list_group (self, rules, "matchOutput", LIST_MATCH_OUTPUT, _("Whole-output rules"),
                  _("The first whose pattern matches replaces the whole output with its message"),
                  FALSE);
  add_list_group (self, rules, "dropPatterns", LIST_PATTERNS, _("Drop lines"),
                  _("Lines matching any of these are removed"), TRUE);
  add_list_group (self, rules, "includePatterns", LIST_PATTERNS, _("Keep only lines"),
                  _("When any line matches, only matching lines are kept"), TRUE);
  add_list_group (self, rules, "collapsePatterns", LIST_PATTERNS, _("Collapse lines"),
                  _("Of matching lines, each distinct one is kept once"), TRUE);

  group = new_group (self, _("Limits"), NULL);
  add_int_row (self, group, rules, "truncateLineAt", _("_Truncate lines at"),
               _("Characters; 0 keeps lines whole"), 0, 100000);
  add_bool_row (self, group, rules, "deduplicate", _("C_ollapse repeated lines"),
                _("Runs of identical lines become one"));
  add_int_row (self, group, rules, "maxLines", _("_Maximum lines"),
               _("0 for no limit; errors and summaries are always kept"), 0, 1000000);
  add_int_row (self, group, rules, "headLines", _("_Head lines"),
               _("Lines kept from the start when the limit applies"), 0, 1000000);
  add_int_row (self, group, rules, "tailLines", _("Tai_l lines"),
               _("Lines kept from the end when the limit applies"), 0, 1000000);
  add_string_row (self, group, rules, "onEmpty", _("_When nothing is left, say"));

  preserve = child_object (self->object, "preserve");
  add_list_group (self, preserve, "errorPatterns", LIST_PATTERNS, _("Error lines"),
                  _("Never removed by any stage"), TRUE);
  add_list_group (self, preserve, "summaryPatterns", LIST_PATTERNS, _("Summary lines"),
                  _("Never removed by any stage"), TRUE);

  scroller = gtk_widget_get_first_child (GTK_WIDGET (self->page));
  if (GTK_IS_SCROLLED_WINDOW (scroller) && scroll > 0)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)),
                              scroll);
}

/* --- GObject ---------------------------------------------------------------------------- */

static void
winnow_filter_form_dispose (GObject *object)
{
  WinnowFilterForm *self = WINNOW_FILTER_FORM (object);

  if (self->page != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->page));
      self->page = NULL;
    }
  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->sample_lines, g_ptr_array_unref);
  g_clear_pointer (&self->sample, g_free);
  g_clear_pointer (&self->sample_command, g_free);
  g_clear_pointer (&self->pattern_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (winnow_filter_form_parent_class)->dispose (object);
}

static void
winnow_filter_form_class_init (WinnowFilterFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_filter_form_dispose;

  /**
   * WinnowFilterForm::changed:
   *
   * The person edited a field; the object holds the new value.
   */
  signals [CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "filterform");
}

static void
winnow_filter_form_init (WinnowFilterForm *self)
{
  self->pattern_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_row_free);
  clear_page (self);
}

GtkWidget *
winnow_filter_form_new (void)
{
  return g_object_new (WINNOW_TYPE_FILTER_FORM, NULL);
}

/**
 * winnow_filter_form_set_object:
 * @self: a #WinnowFilterForm
 * @object: (nullable): the filter object to edit; the form edits it in place
 */
void
winnow_filter_form_set_object (WinnowFilterForm *self,
                               JsonObject       *object)
{
  g_return_if_fail (WINNOW_IS_FILTER_FORM (self));

  if (object != NULL)
    json_object_ref (object);
  g_clear_pointer (&self->object, json_object_unref);
  self->object = object;
  rebuild (self);
}

/**
 * winnow_filter_form_get_object:
 * @self: a #WinnowFilterForm
 *
 * Returns: (transfer none) (nullable): the object edited
 */
JsonObject *
winnow_filter_form_get_object (WinnowFilterForm *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_FORM (self), NULL);
  return self->object;
}

/**
 * winnow_filter_form_set_sample:
 * @self: a #WinnowFilterForm
 * @text: (nullable): the output the patterns are counted on
 * @command: (nullable): the command that produced it, for the command patterns
 */
void
winnow_filter_form_set_sample (WinnowFilterForm *self,
                               const char       *text,
                               const char       *command)
{
  g_return_if_fail (WINNOW_IS_FILTER_FORM (self));

  g_clear_pointer (&self->sample_lines, g_ptr_array_unref);
  g_clear_pointer (&self->sample, g_free);
  g_free (self->sample_command);
  self->sample_command = g_strdup (command);

  if (text != NULL && text[0] != '\0')
    {
      g_auto(GStrv) lines = g_strsplit (text, "\n", MAX_SAMPLE_LINES + 1);
      guint n = MIN (g_strv_length (lines), MAX_SAMPLE_LINES);

      self->sample = g_strdup (text);
      self->sample_lines = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (self->sample_lines, g_strdup (lines[i]));
    }

  for (guint i = 0; i < self->pattern_rows->len; i++)
    update_pattern_status (g_ptr_array_index (self->pattern_rows, i));
}

/**
 * winnow_filter_form_count_invalid:
 * @self: a #WinnowFilterForm
 *
 * Returns: how many patterns in the form do not compile
 */
guint
winnow_filter_form_count_invalid (WinnowFilterForm *self)
{
  g_return_val_if_fail (WINNOW_IS_FILTER_FORM (self), 0);
  return self->n_invalid;
}
