/* report_html.c - the page and its pieces (report_html.h). */
#include "report_html.h"

#include <string.h>

void html_escape(struct strbuf *sb, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		switch (*c) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default:
			if (*c >= 0x20 || *c == '\t' || *c == '\n' || *c == '\r')
				strbuf_add(sb, c, 1);
		}
	}
}

void html_put(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	html_escape(&sb, s);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

/* The page's style: these rules, the verdicts' (verdict_style), then
 * style_tail. */
static const char style_head[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;"
	"max-width:1200px;padding:1em 2em;color:#222;background:#fff;line-height:1.4}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;"
	"padding-bottom:.2em;margin-top:1.8em}\n"
	"p.warn{background:#fff4d6;border-left:4px solid #e0a800;padding:.5em .8em}\n"
	"p.note{color:#555}p.absent{color:#666;font-style:italic}\n"
	"figure{margin:1.2em 0;padding:0}figure svg{width:100%;height:auto;max-width:900px;"
	"display:block;border:1px solid #eee}\n"
	"figcaption{font-size:.92em;color:#333;max-width:900px;margin-top:.3em}\n"
	"table{border-collapse:collapse;font-size:.85em;margin:.6em 0}\n"
	"th,td{border:1px solid #ddd;padding:.2em .5em;vertical-align:top}\n"
	"th{background:#f3f3f3;text-align:left}td.num{text-align:right;"
	"font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"table.compare tr.base td{background:#fafafa;color:#444}\n";

static const char style_tail[] =
	"table.kv th{width:16em}ul.notes{font-size:.85em;color:#444}\n"
	"nav a{margin-right:1em}div.scroll{overflow-x:auto;max-width:100%}\n"
	"td.metric{max-width:22em;overflow-wrap:anywhere;font-family:ui-monospace,monospace;"
	"font-size:.95em}\n"
	"pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:.85em}\n"
	"table.complaints td{white-space:pre-line;overflow-wrap:anywhere}\n";

/* The rules of the verdicts' cells, on one line: one for each verdict
 * whose row in the verdicts' table (compare_verdict.h) gives it a look. */
static void verdict_style(FILE *out)
{
	for (int v = 0; v < VERDICT_COUNT; v++) {
		const struct compare_verdict_info *info = compare_verdict_info(v);

		if (info->css)
			fprintf(out, "td.%s{%s}", info->css_class, info->css);
	}
	fputc('\n', out);
}

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      out);
	html_put(out, title);
	fputs("</title>\n<style>\n", out);
	fputs(style_head, out);
	verdict_style(out);
	fputs(style_tail, out);
	fputs("</style>\n</head>\n<body>\n<h1>", out);
	html_put(out, title);
	fputs("</h1>\n", out);
}

void html_end(FILE *out, const char *footer)
{
	if (footer) {
		fputs("<footer><p class=\"note\">", out);
		html_put(out, footer);
		fputs("</p></footer>\n", out);
	}
	fputs("</body>\n</html>\n", out);
}

void html_section_begin(FILE *out, const char *id, const char *title)
{
	fputs("<section id=\"", out);
	html_put(out, id);
	fputs("\">\n<h2>", out);
	html_put(out, title);
	fputs("</h2>\n", out);
}

void html_section_end(FILE *out)
{
	fputs("</section>\n", out);
}

void html_para(FILE *out, const char *cls, const char *text)
{
	if (cls) {
		fputs("<p class=\"", out);
		html_put(out, cls);
		fputs("\">", out);
	} else {
		fputs("<p>", out);
	}
	html_put(out, text);
	fputs("</p>\n", out);
}

void html_figure(FILE *out, const char *id, const char *title, const char *svg, const char *caption)
{
	fputs("<figure id=\"", out);
	html_put(out, id);
	fputs("\">\n", out);
	fputs(svg, out);        /* gnuplot's SVG, made inline by plot.c */
	fputs("\n<figcaption><strong>", out);
	html_put(out, title);
	fputs("</strong>", out);
	if (caption && *caption) {
		fputs(": ", out);
		html_put(out, caption);
	}
	fputs("</figcaption>\n</figure>\n", out);
}

void html_figure_absent(FILE *out, const char *id, const char *title, const char *why)
{
	fputs("<p class=\"absent\" id=\"", out);
	html_put(out, id);
	fputs("\"><strong>", out);
	html_put(out, title);
	fputs("</strong>: left out, ", out);
	html_put(out, why);
	fputs("</p>\n", out);
}

void html_kv_table(FILE *out, const char *cls, const char *const *keys, const char *const *values,
		   size_t n)
{
	fputs("<table class=\"", out);
	html_put(out, cls ? cls : "kv");
	fputs("\">\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr><th>", out);
		html_put(out, keys[i]);
		fputs("</th><td>", out);
		html_put(out, values[i] ? values[i] : "");
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

void html_table(FILE *out, const char *cls, const char *const *head, size_t cols,
		const char *const *cells, size_t rows)
{
	fputs("<table class=\"", out);
	html_put(out, cls ? cls : "plain");
	fputs("\">\n<tr>", out);
	for (size_t c = 0; c < cols; c++) {
		fputs("<th>", out);
		html_put(out, head[c]);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t r = 0; r < rows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < cols; c++) {
			fputs("<td>", out);
			html_put(out, cells[r * cols + c] ? cells[r * cols + c] : "");
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}
