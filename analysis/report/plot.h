/* plot.h - figures drawn by gnuplot as SVG, for embedding in HTML.
 *
 *   struct plot p;
 *   if (plot_open(&p, &err) < 0) ...           a fresh temporary folder
 *   const char *pts = plot_data(&p, text);     "d1.dat", written there
 *   strbuf_addf(&script, "plot '%s' using 1:2 ...", pts);
 *   plot_render(&p, script.buf, "fig3", &svg, &err);
 *   plot_close(&p);                            removes the folder
 *
 * plot_render() puts the terminal and output lines before SCRIPT (SVG,
 * PLOT_WIDTH x PLOT_HEIGHT, scalable, a white background, no enhanced
 * text so that '_' and '^' in names stay as they are), runs gnuplot in the
 * folder through common/run-command.h, and returns the SVG without its XML
 * prolog, ready to be put inline into HTML: every id in it, and every
 * reference to one, is prefixed with ID_PREFIX so that several SVGs on one
 * page do not share ids.  gnuplot's own messages are in ERR on failure.
 */
#ifndef OOMLAB_PLOT_H
#define OOMLAB_PLOT_H

#include <stdbool.h>

#include "common/util.h"

#define PLOT_WIDTH 900
#define PLOT_HEIGHT 420

struct plot {
	char *dir;
	unsigned n_data;
	unsigned n_renders;
};

/* 0, or -1 with the reason in ERR. */
int plot_open(struct plot *p, struct strbuf *err);
/* Writes TEXT to a new data file in the folder; returns its name (owned by
 * the plot, valid until plot_close). */
const char *plot_data(struct plot *p, const char *text);
/* Renders SCRIPT at the default size; 0, or -1 with gnuplot's words in ERR. */
int plot_render(struct plot *p, const char *script, const char *id_prefix, struct strbuf *svg,
		struct strbuf *err);
int plot_render_size(struct plot *p, const char *script, int width, int height,
		     const char *id_prefix, struct strbuf *svg, struct strbuf *err);
void plot_close(struct plot *p);

/* Appends S as a gnuplot string literal ('...', quotes doubled). */
void plot_quote(struct strbuf *sb, const char *s);
/* The SVG text made embeddable: no prolog, ids prefixed (see above). */
void plot_svg_inline(const char *svg, const char *id_prefix, struct strbuf *out);
/* True when gnuplot is on PATH. */
bool plot_available(void);

#endif
