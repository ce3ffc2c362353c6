/* winnow-bar-chart.c — a bar chart drawn with render nodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Savings page's charts: columns over time (vertical, a value axis with round ticks and
 * a label under every bar that has room) or a ranked list (horizontal, label left, value
 * right). Bars are colour nodes and text is Pango layouts, so the chart costs a few dozen
 * render nodes whatever the size of the data behind it: the page sums a million events in
 * SQLite and hands over at most a few hundred numbers.
 *
 * Every colour is looked up from the style at draw time — libadwaita's named colours for the
 * bars (accent for savings, destructive for growth, since growth is reported, never hidden)
 * and the widget's own CSS colour for text and grid — so light, dark and high contrast work
 * and a style change only needs a redraw. GTK 4.8 has no stroke nodes; the grid lines are
 * one-pixel colour nodes, which is all a bar chart needs.
 *
 * A chart is an image to assistive technologies: its accessible description says what a
 * sighted person takes in at a glance (how many bars, the total, the highest and the lowest)
 * and then lists every bar's label and value, so the data is there as text for a screen
 * reader and is updated with the data; each bar's exact figures are also in its tooltip.
 */

#define G_LOG_DOMAIN "winnow-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "winnow-bar-chart.h"

#define PNG_MARGIN 12

typedef struct
{
  char   *label;
  char   *tooltip;
  char   *value_text;
  double  value;
} Bar;

typedef struct
{
  graphene_rect_t plot;   /* where the bars go */
  double          vmin;   /* value at the plot's start (left or bottom) */
  double          vmax;   /* value at its end */
  double          step;   /* between ticks; vertical charts only */
  double          slot;   /* room per bar along the category axis */
  double          thickness;
  double          label_width;
} Geometry;

struct _WinnowBarChart
{
  GtkWidget       parent_instance;

  GtkOrientation  orientation;
  char           *title;
  char           *description;
  GArray         *bars;          /* of Bar */
  int             hovered;

  /* text metrics, measured once per data or style change */
  int             label_width;   /* the widest label; -1 when stale */
  int             value_width;   /* the widest value text */
  int             line_height;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowBarChart, winnow_bar_chart, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_ORIENTABLE, NULL))

enum {
  PROP_0,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_N_BARS,
  N_PROPS,

  PROP_ORIENTATION = N_PROPS,
};

static GParamSpec *properties [N_PROPS];

static void
bar_clear (Bar *bar)
{
  g_clear_pointer (&bar->label, g_free);
  g_clear_pointer (&bar->tooltip, g_free);
  g_clear_pointer (&bar->value_text, g_free);
}

static inline Bar *
bar_at (WinnowBarChart *self,
        guint           i)
{
  return &g_array_index (self->bars, Bar, i);
}

/**
 * winnow_bar_chart_format_compact:
 * @value: a value
 *
 * A short form for axis ticks: `950`, `12 k`, `2.5 M`.
 *
 * Returns: (transfer full): the text
 */
char *
winnow_bar_chart_format_compact (double value)
{
  static const struct { double scale; const char *suffix; } units[] = {
    /* Translators: suffixes of short numbers on chart axes: thousand, million, billion */
    { 1e9, N_("G") }, { 1e6, N_("M") }, { 1e3, N_("k") },
  };
  double a = fabs (value);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (a >= units[i].scale)
      {
        double scaled = value / units[i].scale;

        if (fabs (scaled - round (scaled)) < 0.05)
          return g_strdup_printf ("%.0f %s", round (scaled), _(units[i].suffix));
        return g_strdup_printf ("%.1f %s", scaled, _(units[i].suffix));
      }

  return g_strdup_printf ("%.0f", value);
}

static char *
format_exact (double value)
{
  /* grouped as the locale groups thousands */
  return g_strdup_printf ("%'.0f", value);
}

/* A round step that cuts @span into about @n parts: 1, 2, 2.5 or 5 times a power of ten. */
static double
nice_step (double span,
           int    n)
{
  double raw = span / MAX (n, 1);
  double magnitude, f;

  if (raw <= 1)
    return 1;

  magnitude = pow (10, floor (log10 (raw)));
  f = raw / magnitude;
  f = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return f * magnitude;
}

/* --- style -------------------------------------------------------------------------------- */

static void
lookup_color (GtkWidget     *widget,
              const char    *name,
              const GdkRGBA *fallback,
              GdkRGBA       *color)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color))
    *color = *fallback;
  G_GNUC_END_IGNORE_DEPRECATIONS
}

typedef struct
{
  GdkRGBA text;
  GdkRGBA dim;
  GdkRGBA grid;
  GdkRGBA axis;
  GdkRGBA bar;
  GdkRGBA bar_hover;
  GdkRGBA growth;
  GdkRGBA growth_hover;
} Palette;

static void
get_palette (WinnowBarChart *self,
             Palette        *p)
{
  GtkWidget *widget = GTK_WIDGET (self);
  static const GdkRGBA blue = { 0.21, 0.52, 0.89, 1 };
  static const GdkRGBA red = { 0.75, 0.11, 0.16, 1 };

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &p->text);
  G_GNUC_END_IGNORE_DEPRECATIONS

  p->dim = p->text;
  p->dim.alpha *= 0.6;
  p->grid = p->text;
  p->grid.alpha *= 0.1;
  p->axis = p->text;
  p->axis.alpha *= 0.35;

  lookup_color (widget, "accent_bg_color", &blue, &p->bar);
  lookup_color (widget, "accent_color", &p->bar, &p->bar_hover);
  lookup_color (widget, "destructive_bg_color", &red, &p->growth);
  lookup_color (widget, "error_color", &p->growth, &p->growth_hover);
}

static void
ensure_metrics (WinnowBarChart *self)
{
  g_autoptr(PangoLayout) layout = NULL;
  int w, h;

  if (self->label_width >= 0)
    return;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "0");
  pango_layout_get_pixel_size (layout, NULL, &h);
  self->line_height = h;
  self->label_width = 0;
  self->value_width = 0;

  for (guint i = 0; i < self->bars->len; i++)
    {
      Bar *bar = bar_at (self, i);

      pango_layout_set_text (layout, bar->label, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      self->label_width = MAX (self->label_width, w);
      pango_layout_set_text (layout, bar->value_text, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      self->value_width = MAX (self->value_width, w);
    }
}

static void
invalidate_metrics (WinnowBarChart *self)
{
  self->label_width = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* --- geometry ----------------------------------------------------------------------------- */

static void
value_range (WinnowBarChart *self,
             double         *vmin,
             double         *vmax)
{
  *vmin = 0;
  *vmax = 0;
  for (guint i = 0; i < self->bars->len; i++)
    {
      *vmin = MIN (*vmin, bar_at (self, i)->value);
      *vmax = MAX (*vmax, bar_at (self, i)->value);
    }
  if (*vmax <= *vmin)
    *vmax = *vmin + 1;
}

static int
row_height (WinnowBarChart *self)
{
  return self->line_height + 12;
}

static int
text_width (WinnowBarChart *self,
            const char     *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  int w;

  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

static void
compute_geometry (WinnowBarChart *self,
                  int             width,
                  int             height,
                  Geometry       *g)
{
  guint n = MAX (self->bars->len, 1);

  ensure_metrics (self);
  memset (g, 0, sizeof *g);
  value_range (self, &g->vmin, &g->vmax);

  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int row = row_height (self);
      double right = self->value_width + 10;

      g->label_width = MIN (self->label_width, width * 0.4);
      g->plot = GRAPHENE_RECT_INIT (g->label_width + 10, 4,
                                    MAX (width - g->label_width - 10 - right, 1), n * row);
      g->slot = row;
      g->thickness = self->line_height + 2;
    }
  else
    {
      double top = self->line_height / 2.0 + 2;
      double bottom = self->line_height + 8;
      double plot_h = MAX (height - top - bottom, 1);
      int n_ticks = CLAMP ((int) (plot_h / 40), 2, 6);
      double axis_w = 0;

      g->step = nice_step (g->vmax - g->vmin, n_ticks);
      g->vmax = ceil (g->vmax / g->step) * g->step;
      g->vmin = floor (g->vmin / g->step) * g->step;
      if (g->vmax <= g->vmin)
        g->vmax = g->vmin + g->step;

      for (double v = g->vmin; v <= g->vmax + g->step / 2; v += g->step)
        {
          g_autofree char *text = winnow_bar_chart_format_compact (v);

          axis_w = MAX (axis_w, text_width (self, text));
        }

      g->plot = GRAPHENE_RECT_INIT (axis_w + 8, top, MAX (width - axis_w - 12, 1), plot_h);
      g->slot = g->plot.size.width / n;
      g->thickness = MAX (MIN (g->slot * 0.72, 56), 1);
    }
}

/* where @value falls along the value axis, in widget pixels */
static double
value_pos (const Geometry *g,
           GtkOrientation  orientation,
           double          value)
{
  double t = (value - g->vmin) / (g->vmax - g->vmin);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    return g->plot.origin.x + t * g->plot.size.width;
  return g->plot.origin.y + (1 - t) * g->plot.size.height;
}

static graphene_rect_t
bar_rect (WinnowBarChart *self,
          const Geometry *g,
          guint           i)
{
  double value = bar_at (self, i)->value;
  double a = value_pos (g, self->orientation, MIN (value, 0));
  double b = value_pos (g, self->orientation, MAX (value, 0));
  double along = (self->orientation == GTK_ORIENTATION_HORIZONTAL ? g->plot.origin.y
                                                                  : g->plot.origin.x)
                 + i * g->slot + (g->slot - g->thickness) / 2;
  double start = MIN (a, b);
  double extent = fabs (b - a);

  /* a bar that is not zero is never invisible: at least a pixel, grown away from zero */
  if (value != 0 && extent < 1)
    {
      /* does "away from zero" run toward smaller coordinates? */
      gboolean toward_origin = (value > 0) == (self->orientation == GTK_ORIENTATION_VERTICAL);

      if (toward_origin)
        start = MAX (a, b) - 1;
      extent = 1;
    }

  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    return GRAPHENE_RECT_INIT (start, along, extent, g->thickness);
  /* in screen space the larger value is the smaller y */
  return GRAPHENE_RECT_INIT (along, start, g->thickness, extent);
}

/**
 * winnow_bar_chart_get_bar_at:
 * @self: a #WinnowBarChart
 * @x: a point in the widget's coordinates
 * @y: a point in the widget's coordinates
 *
 * The bar whose row or column holds the point: the whole slot counts, not only the painted
 * bar, so a tiny bar still has a tooltip.
 *
 * Returns: the bar's index, or -1
 */
int
winnow_bar_chart_get_bar_at (WinnowBarChart *self,
                             double          x,
                             double          y)
{
  GtkWidget *widget = GTK_WIDGET (self);
  Geometry g;
  double along, start, extent;
  int i;

  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), -1);

  if (self->bars->len == 0)
    return -1;

  compute_geometry (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &g);
  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      along = y;
      start = g.plot.origin.y;
      extent = g.plot.size.height;
      if (x < 0 || x > gtk_widget_get_width (widget))
        return -1;
    }
  else
    {
      along = x;
      start = g.plot.origin.x;
      extent = g.plot.size.width;
      if (y < 0 || y > gtk_widget_get_height (widget))
        return -1;
    }

  if (along < start || along >= start + extent)
    return -1;

  i = (int) ((along - start) / g.slot);
  return i < (int) self->bars->len ? i : -1;
}

/* --- drawing ------------------------------------------------------------------------------ */

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             double         x,
             double         y,
             const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
draw_vertical (WinnowBarChart *self,
               GtkSnapshot    *snapshot,
               const Geometry *g,
               const Palette  *p,
               int             width)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  guint n = self->bars->len;
  guint every;
  int tw, th;

  /* value axis: a grid line and a label per tick, the zero line stronger */
  for (double v = g->vmin; v <= g->vmax + g->step / 2; v += g->step)
    {
      g_autofree char *text = winnow_bar_chart_format_compact (v);
      double y = round (value_pos (g, GTK_ORIENTATION_VERTICAL, v));

      gtk_snapshot_append_color (snapshot, fabs (v) < g->step / 2 ? &p->axis : &p->grid,
                                 &GRAPHENE_RECT_INIT (g->plot.origin.x, y, g->plot.size.width, 1));
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      append_text (snapshot, layout, g->plot.origin.x - 6 - tw, y - th / 2.0, &p->dim);
    }

  for (guint i = 0; i < n; i++)
    {
      Bar *bar = bar_at (self, i);
      gboolean hot = (int) i == self->hovered;
      graphene_rect_t r = bar_rect (self, g, i);

      gtk_snapshot_append_color (snapshot,
                                 bar->value < 0 ? (hot ? &p->growth_hover : &p->growth)
                                                : (hot ? &p->bar_hover : &p->bar),
                                 &r);
    }

  /* labels under the bars, as many as fit; counted from the last bar (today) so that one
   * always has its label */
  every = (guint) ceil ((self->label_width + 8) / MAX (g->slot, 1));
  every = MAX (every, 1);
  for (guint i = 0; i < n; i++)
    {
      double x;

      if ((n - 1 - i) % every != 0)
        continue;

      pango_layout_set_text (layout, bar_at (self, i)->label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      x = g->plot.origin.x + (i + 0.5) * g->slot - tw / 2.0;
      x = CLAMP (x, 0, MAX (width - tw, 0));
      append_text (snapshot, layout, x, g->plot.origin.y + g->plot.size.height + 4,
                   (int) i == self->hovered ? &p->text : &p->dim);
    }
}

static void
draw_horizontal (WinnowBarChart *self,
                 GtkSnapshot    *snapshot,
                 const Geometry *g,
                 const Palette  *p,
                 int             width)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  double zero = round (value_pos (g, GTK_ORIENTATION_HORIZONTAL, 0));
  int tw, th;

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);

  for (guint i = 0; i < self->bars->len; i++)
    {
      Bar *bar = bar_at (self, i);
      gboolean hot = (int) i == self->hovered;
      graphene_rect_t r = bar_rect (self, g, i);
      double mid = g->plot.origin.y + (i + 0.5) * g->slot;

      if (hot)
        gtk_snapshot_append_color (snapshot, &p->grid,
                                   &GRAPHENE_RECT_INIT (0, g->plot.origin.y + i * g->slot,
                                                        width, g->slot));

      pango_layout_set_width (layout, (int) g->label_width * PANGO_SCALE);
      pango_layout_set_text (layout, bar->label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      append_text (snapshot, layout, 0, mid - th / 2.0, &p->text);

      gtk_snapshot_append_color (snapshot,
                                 bar->value < 0 ? (hot ? &p->growth_hover : &p->growth)
                                                : (hot ? &p->bar_hover : &p->bar),
                                 &r);

      pango_layout_set_width (layout, -1);
      pango_layout_set_text (layout, bar->value_text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      append_text (snapshot, layout, width - tw, mid - th / 2.0,
                   bar->value < 0 ? &p->growth_hover : &p->dim);
    }

  /* where zero is, when some bars grow leftwards from it */
  if (g->vmin < 0)
    gtk_snapshot_append_color (snapshot, &p->axis,
                               &GRAPHENE_RECT_INIT (zero, g->plot.origin.y, 1,
                                                    g->plot.size.height));
}

static void
draw_chart (WinnowBarChart *self,
            GtkSnapshot    *snapshot,
            int             width,
            int             height)
{
  Palette p;
  Geometry g;

  get_palette (self, &p);

  if (self->bars->len == 0)
    {
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                                      _("No data"));
      int tw, th;

      pango_layout_get_pixel_size (layout, &tw, &th);
      append_text (snapshot, layout, (width - tw) / 2.0, (height - th) / 2.0, &p.dim);
      return;
    }

  compute_geometry (self, width, height, &g);
  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    draw_horizontal (self, snapshot, &g, &p, width);
  else
    draw_vertical (self, snapshot, &g, &p, width);
}

static void
winnow_bar_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  draw_chart (WINNOW_BAR_CHART (widget), snapshot,
              gtk_widget_get_width (widget), gtk_widget_get_height (widget));
}

static void
winnow_bar_chart_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  WinnowBarChart *self = WINNOW_BAR_CHART (widget);

  ensure_metrics (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 160;
      *natural = 320;
    }
  else if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* a ranked list is as tall as its rows: every bar gets its line */
      *minimum = *natural = 8 + MAX (self->bars->len, 1) * row_height (self);
    }
  else
    {
      *minimum = 120;
      *natural = 200;
    }
}

static void
winnow_bar_chart_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (winnow_bar_chart_parent_class)->css_changed (widget, change);

  /* the font may have changed, and the named colours with the light or dark style */
  invalidate_metrics (WINNOW_BAR_CHART (widget));
  gtk_widget_queue_draw (widget);
}

/* --- hover and tooltips ------------------------------------------------------------------- */

static void
set_hovered (WinnowBarChart *self,
             int             hovered)
{
  if (self->hovered == hovered)
    return;

  self->hovered = hovered;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           WinnowBarChart           *self)
{
  set_hovered (self, winnow_bar_chart_get_bar_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion,
          WinnowBarChart           *self)
{
  set_hovered (self, -1);
}

static gboolean
winnow_bar_chart_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard_mode,
                                GtkTooltip *tooltip)
{
  WinnowBarChart *self = WINNOW_BAR_CHART (widget);
  int i = keyboard_mode ? -1 : winnow_bar_chart_get_bar_at (self, x, y);
  Geometry g;
  graphene_rect_t r;

  if (i < 0)
    return FALSE;

  gtk_tooltip_set_text (tooltip, winnow_bar_chart_get_tooltip (self, i));

  /* moving to the next bar asks again */
  compute_geometry (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &g);
  if (self->orientation == GTK_ORIENTATION_HORIZONTAL)
    r = GRAPHENE_RECT_INIT (0, g.plot.origin.y + i * g.slot, gtk_widget_get_width (widget), g.slot);
  else
    r = GRAPHENE_RECT_INIT (g.plot.origin.x + i * g.slot, 0, g.slot, gtk_widget_get_height (widget));
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) r.origin.x, (int) r.origin.y,
                                                       (int) ceil (r.size.width),
                                                       (int) ceil (r.size.height) });
  return TRUE;
}

/* --- accessibility ------------------------------------------------------------------------ */

static void
update_description (WinnowBarChart *self)
{
  g_autoptr(GString) text = g_string_new (self->title ? self->title : "");
  guint n = self->bars->len;
  guint hi = 0, lo = 0;
  double total = 0;

  for (guint i = 0; i < n; i++)
    {
      total += bar_at (self, i)->value;
      if (bar_at (self, i)->value > bar_at (self, hi)->value)
        hi = i;
      if (bar_at (self, i)->value < bar_at (self, lo)->value)
        lo = i;
    }

  if (text->len > 0)
    g_string_append (text, ": ");

  if (n == 0)
    g_string_append (text, _("no data"));
  else
    {
      g_autofree char *sum = format_exact (total);

      /* Translators: a chart summary for screen readers: "7 bars, total 12,345" */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u bar, total %s",
                                                 "%u bars, total %s", n), n, sum);
      /* Translators: the chart's highest bar: value, then the bar's label */
      g_string_append_printf (text, _("; highest %s (%s)"), bar_at (self, hi)->value_text,
                              bar_at (self, hi)->label);
      if (bar_at (self, lo)->value < 0)
        /* Translators: the chart's lowest bar, below zero: value, then the bar's label */
        g_string_append_printf (text, _("; lowest %s (%s)"), bar_at (self, lo)->value_text,
                                bar_at (self, lo)->label);

      /* then every bar, in order: the exact figures a sighted user gets from the tooltips,
       * which neither the keyboard nor a screen reader can hover */
      g_string_append (text, ". ");
      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s%s %s", i > 0 ? ", " : "", bar_at (self, i)->label,
                                bar_at (self, i)->value_text);
    }

  g_free (self->description);
  self->description = g_string_free (g_steal_pointer (&text), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->title ? self->title : "",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description,
                                  -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DESCRIPTION]);
}

/* --- GObject ------------------------------------------------------------------------------ */

static void
winnow_bar_chart_finalize (GObject *object)
{
  WinnowBarChart *self = WINNOW_BAR_CHART (object);

  g_clear_pointer (&self->bars, g_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (winnow_bar_chart_parent_class)->finalize (object);
}

static void
winnow_bar_chart_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowBarChart *self = WINNOW_BAR_CHART (object);

  switch (prop_id)
    {
    case PROP_ORIENTATION:
      g_value_set_enum (value, self->orientation);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_N_BARS:
      g_value_set_uint (value, self->bars->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_bar_chart_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  WinnowBarChart *self = WINNOW_BAR_CHART (object);

  switch (prop_id)
    {
    case PROP_ORIENTATION:
      if (self->orientation != (GtkOrientation) g_value_get_enum (value))
        {
          self->orientation = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_TITLE:
      winnow_bar_chart_set_title (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_bar_chart_class_init (WinnowBarChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = winnow_bar_chart_finalize;
  object_class->get_property = winnow_bar_chart_get_property;
  object_class->set_property = winnow_bar_chart_set_property;

  widget_class->snapshot = winnow_bar_chart_snapshot;
  widget_class->measure = winnow_bar_chart_measure;
  widget_class->css_changed = winnow_bar_chart_css_changed;
  widget_class->query_tooltip = winnow_bar_chart_query_tooltip;

  /**
   * WinnowBarChart:title:
   *
   * What the chart shows; its accessible name, and the heading of the exported image.
   */
  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * WinnowBarChart:description:
   *
   * A one-sentence summary of the data for assistive technologies.
   */
  properties [PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties [PROP_N_BARS] =
    g_param_spec_uint ("n-bars", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ORIENTATION, "orientation");

  gtk_widget_class_set_css_name (widget_class, "barchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
winnow_bar_chart_init (WinnowBarChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->orientation = GTK_ORIENTATION_VERTICAL;
  self->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_array_set_clear_func (self->bars, (GDestroyNotify) bar_clear);
  self->hovered = -1;
  self->label_width = -1;

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  update_description (self);
}

GtkWidget *
winnow_bar_chart_new (GtkOrientation orientation)
{
  return g_object_new (WINNOW_TYPE_BAR_CHART, "orientation", orientation, NULL);
}

const char *
winnow_bar_chart_get_title (WinnowBarChart *self)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), NULL);
  return self->title;
}

void
winnow_bar_chart_set_title (WinnowBarChart *self,
                            const char     *title)
{
  g_return_if_fail (WINNOW_IS_BAR_CHART (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  update_description (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TITLE]);
}

/**
 * winnow_bar_chart_set_bars:
 * @self: a #WinnowBarChart
 * @n_bars: how many bars
 * @labels: (array length=n_bars): what each bar is: a day, a filter, a command
 * @values: (array length=n_bars): their values; negative ones are drawn as growth
 * @tooltips: (array length=n_bars) (nullable): the exact figures for each bar; %NULL for
 *   "label: value"
 *
 * Replaces the bars, in the order given (left to right, or top to bottom).
 */
void
winnow_bar_chart_set_bars (WinnowBarChart     *self,
                           guint               n_bars,
                           const char * const *labels,
                           const double       *values,
                           const char * const *tooltips)
{
  g_return_if_fail (WINNOW_IS_BAR_CHART (self));
  g_return_if_fail (n_bars == 0 || (labels != NULL && values != NULL));

  g_array_set_size (self->bars, 0);
  for (guint i = 0; i < n_bars; i++)
    {
      Bar bar = { 0 };

      bar.label = g_strdup (labels[i] ? labels[i] : "");
      bar.value = values[i];
      bar.value_text = format_exact (values[i]);
      bar.tooltip = tooltips != NULL && tooltips[i] != NULL
                    ? g_strdup (tooltips[i])
                    : g_strdup_printf ("%s: %s", bar.label, bar.value_text);
      g_array_append_val (self->bars, bar);
    }

  self->hovered = -1;
  invalidate_metrics (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_description (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_BARS]);
}

guint
winnow_bar_chart_get_n_bars (WinnowBarChart *self)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), 0);
  return self->bars->len;
}

double
winnow_bar_chart_get_value (WinnowBarChart *self,
                            guint           index)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), 0);
  g_return_val_if_fail (index < self->bars->len, 0);
  return bar_at (self, index)->value;
}

const char *
winnow_bar_chart_get_label (WinnowBarChart *self,
                            guint           index)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), NULL);
  g_return_val_if_fail (index < self->bars->len, NULL);
  return bar_at (self, index)->label;
}

const char *
winnow_bar_chart_get_tooltip (WinnowBarChart *self,
                              guint           index)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), NULL);
  g_return_val_if_fail (index < self->bars->len, NULL);
  return bar_at (self, index)->tooltip;
}

/* the bar under the pointer, -1 for none */
int
winnow_bar_chart_get_hovered (WinnowBarChart *self)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), -1);
  return self->hovered;
}

const char *
winnow_bar_chart_get_description (WinnowBarChart *self)
{
  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), NULL);
  return self->description;
}

/**
 * winnow_bar_chart_render:
 * @self: a #WinnowBarChart
 * @error: return location for a #GError
 *
 * The chart as an image, at its size on screen and its display's scale: its title above it
 * and an opaque background behind it, so the image reads the same outside the window, in the
 * light or the dark style it was drawn in.
 *
 * Returns: (transfer full): the image, or %NULL with @error set when the chart is not shown
 */
GdkTexture *
winnow_bar_chart_render (WinnowBarChart  *self,
                         GError         **error)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkNative *native;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(PangoLayout) title = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  int title_h = 0, full_w, full_h;
  static const GdkRGBA white = { 1, 1, 1, 1 };
  GdkRGBA background, text;

  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  native = gtk_widget_get_native (widget);
  if (native == NULL || !gtk_widget_get_realized (widget) || width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   _("The chart “%s” is not on screen, so it has no size to be drawn at"),
                   self->title ? self->title : "");
      return NULL;
    }

  lookup_color (widget, "view_bg_color", &white, &background);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &text);
  G_GNUC_END_IGNORE_DEPRECATIONS

  if (self->title != NULL && self->title[0] != '\0')
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      title = gtk_widget_create_pango_layout (widget, self->title);
      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (title, attrs);
      pango_attr_list_unref (attrs);
      pango_layout_set_width (title, width * PANGO_SCALE);
      pango_layout_set_ellipsize (title, PANGO_ELLIPSIZE_END);
      pango_layout_get_pixel_size (title, NULL, &title_h);
      title_h += 8;
    }

  full_w = width + 2 * PNG_MARGIN;
  full_h = height + title_h + 2 * PNG_MARGIN;

  snapshot = gtk_snapshot_new ();
  gtk_snapshot_scale (snapshot, scale, scale);
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, full_w, full_h));
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (PNG_MARGIN, PNG_MARGIN));
  if (title != NULL)
    gtk_snapshot_append_layout (snapshot, title, &text);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, title_h));
  draw_chart (self, snapshot, width, height);
  node = gtk_snapshot_to_node (snapshot);

  return gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                      &GRAPHENE_RECT_INIT (0, 0, full_w * scale, full_h * scale));
}

/**
 * winnow_bar_chart_save_png:
 * @self: a #WinnowBarChart
 * @path: where to write the PNG
 * @error: return location for a #GError
 *
 * Writes winnow_bar_chart_render() as a PNG, atomically: a failed save leaves any previous
 * file at @path as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
winnow_bar_chart_save_png (WinnowBarChart  *self,
                           const char      *path,
                           GError         **error)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize size;
  const char *data;

  g_return_val_if_fail (WINNOW_IS_BAR_CHART (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  texture = winnow_bar_chart_render (self, error);
  if (texture == NULL)
    return FALSE;

  bytes = gdk_texture_save_to_png_bytes (texture);
  data = g_bytes_get_data (bytes, &size);
  return g_file_set_contents (path, data, size, error);
}
