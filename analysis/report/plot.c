/* plot.c - gnuplot figures as inline SVG (plot.h). */
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/run-command.h"

int plot_open(struct plot *p, struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	const char *tmp = getenv("TMPDIR");
	p->dir = xasprintf("%s/oomlab-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(p->dir)) {
		strbuf_addf(err, "cannot make a folder for gnuplot's files (%s): %m", p->dir);
		free(p->dir);
		p->dir = NULL;
		return -1;
	}
	return 0;
}

const char *plot_data(struct plot *p, const char *text)
{
	static char name[32];
	snprintf(name, sizeof(name), "d%u.dat", ++p->n_data);
	char *path = xasprintf("%s/%s", p->dir, name);
	if (write_file_str(path, text) < 0)
		warning("plot: cannot write %s: %m", path);
	free(path);
	return name;
}

void plot_quote(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "'");
	for (; s && *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "''");
		else if (*s == '\n' || *s == '\r')
			strbuf_addstr(sb, " ");
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_addstr(sb, "'");
}

/* Copies SVG, prefixing ids and the references to them. */
void plot_svg_inline(const char *svg, const char *id_prefix, struct strbuf *out)
{
	const char *start = strstr(svg, "<svg");
	const char *p = start ? start : svg;
	static const char *const marks[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	while (*p) {
		size_t best_len = 0;
		const char *best = NULL;
		for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
			const char *hit = strstr(p, marks[m]);
			if (hit && (!best || hit < best)) {
				best = hit;
				best_len = strlen(marks[m]);
			}
		}
		if (!best) {
			strbuf_addstr(out, p);
			break;
		}
		/* "id=" must start an attribute, not end a word such as "grid=" */
		bool attr = best[0] != 'i' || best == svg || best[-1] == ' ' || best[-1] == '\t' ||
			    best[-1] == '\n';
		strbuf_add(out, p, (size_t)(best - p) + best_len);
		if (attr)
			strbuf_addf(out, "%s-", id_prefix);
		p = best + best_len;
	}
}

bool plot_available(void)
{
	return have_program("gnuplot");
}

int plot_render_size(struct plot *p, const char *script, int width, int height,
		     const char *id_prefix, struct strbuf *svg, struct strbuf *err)
{
	char name[32];
	snprintf(name, sizeof(name), "p%u", ++p->n_renders);
	struct strbuf full = STRBUF_INIT;
	strbuf_addf(&full,
		    "set terminal svg size %d,%d dynamic noenhanced font 'sans,12' "
		    "background '#ffffff'\n"
		    "set output '%s.svg'\n"
		    "set encoding utf8\n"
		    "set datafile missing 'NaN'\n",
		    width, height, name);
	strbuf_addstr(&full, script);
	strbuf_addstr(&full, "\nunset output\n");
	char *gp = xasprintf("%s/%s.gp", p->dir, name);
	char *out_path = xasprintf("%s/%s.svg", p->dir, name);
	int rc = -1;
	if (write_file_str(gp, full.buf) < 0) {
		strbuf_addf(err, "cannot write %s: %m", gp);
		goto out;
	}
	char script_name[40];
	snprintf(script_name, sizeof(script_name), "%s.gp", name);
	const char *argv[] = { "gnuplot", script_name, NULL };
	struct strbuf msgs = STRBUF_INIT;
	int status = capture_command(argv, p->dir, &msgs);
	size_t len = 0;
	char *text = status == 0 ? read_file(out_path, &len) : NULL;
	if (status != 0 || !text || !strstr(text, "</svg>")) {
		strbuf_addf(err, "gnuplot failed (status %d): %s", status,
			    msgs.len ? strbuf_first_line(&msgs) : "no SVG written");
		free(text);
		strbuf_release(&msgs);
		goto out;
	}
	plot_svg_inline(text, id_prefix, svg);
	free(text);
	strbuf_release(&msgs);
	rc = 0;
out:
	free(gp);
	free(out_path);
	strbuf_release(&full);
	return rc;
}

int plot_render(struct plot *p, const char *script, const char *id_prefix, struct strbuf *svg,
		struct strbuf *err)
{
	return plot_render_size(p, script, PLOT_WIDTH, PLOT_HEIGHT, id_prefix, svg, err);
}

void plot_close(struct plot *p)
{
	if (p->dir) {
		remove_tree(p->dir);
		free(p->dir);
	}
	memset(p, 0, sizeof(*p));
}
