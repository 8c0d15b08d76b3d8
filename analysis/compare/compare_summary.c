/* compare_summary.c - a line per variant (compare_summary.h). */
#include "compare_summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "compare_fmt.h"
#include "compare_order.h"
#include "compare_row.h"

/* What decided ROW, without its verdict's word: "6/6 against 0/6, p-adj 0.040"
 * (shares), "+5.3% [+3.1,+7.4], p-adj 0.002", "+0.16% inside the 2% margin, 0
 * outside its uncorrected 95% interval", "within +-2%", "could miss +-27%", "too few trials". Returns BUF. */
static char *evidence_of(char *buf, size_t size, const struct compare_row *r)
{
	const struct compare_verdict_info *v = compare_verdict_info(r->verdict);
	char a[32], b[32], p[16], diff[32], ci[48], what[32];

	if (v->significant && r->method == COMPARE_SHARES) {
		snprintf(buf, size, "%s against %s, p-adj %s",
			 compare_fmt_centre(a, sizeof(a), &r->var, r->method, 7),
			 compare_fmt_centre(b, sizeof(b), &r->base, r->method, 7),
			 compare_fmt_p(p, sizeof(p), r->p_adj));
	} else if (v->significant) {
		snprintf(buf, size, "%s %s, p-adj %s", compare_fmt_diff(diff, sizeof(diff), r, 6),
			 compare_fmt_ci(ci, sizeof(ci), r, 6), compare_fmt_p(p, sizeof(p), r->p_adj));
	} else if (v->detail == VERDICT_DETAIL_MARGIN && !r->changed_inside_margin) {
		snprintf(buf, size, "within %s", compare_fmt_margin(what, sizeof(what), r, 6));
	} else {
		compare_fmt_detail(buf, size, r);
	}
	return buf;
}

/* S with control characters as '?', appended to SB. */
static void add_printable(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addf(sb, "%c", (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* Appends the variant's rows of RANK (MINE marks them) to LINE, a rank's
 * heading before its first: "; newly failing (2 cases): worse on A (...)". */
static void add_rank(struct strbuf *line, const struct compare_table *t, const bool *mine,
		     enum compare_rank rank, size_t *said, size_t *open, bool *primary_open)
{
	const char *heading = compare_rank_heading(rank);
	char evidence[160];
	size_t cases = 0;

	for (size_t j = 0; j < t->n_rows; j++)
		cases += mine[j] && compare_row_rank(t, &t->rows[j]) == rank;
	for (size_t j = 0; j < t->n_rows; j++) {
		const struct compare_row *r = &t->rows[j];

		if (!mine[j] || compare_row_rank(t, r) != rank)
			continue;
		/* the primary's row is said even when not decided: the
		 * others' verdicts are read after it (compare.h) */
		bool decided = compare_verdict_decided(r->verdict);
		if (!decided && !compare_row_primary(t, r)) {
			(*open)++;
			continue;
		}
		*primary_open |= !decided;
		strbuf_addstr(line, (*said)++ ? ";" : "");
		if (heading) {	/* once, before the rank's first row */
			strbuf_addf(line, " %s (%zu case%s):", heading, cases, cases == 1 ? "" : "s");
			heading = NULL;
		}
		strbuf_addf(line, " %s on ", compare_verdict_word(r->verdict));
		add_printable(line, t->metrics[r->metric].name);
		strbuf_addf(line, " (%s)", evidence_of(evidence, sizeof(evidence), r));
	}
}

void compare_summary(const struct compare_table *t, void (*emit)(void *ctx, const char *line),
		     void *ctx)
{
	bool *told = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*told));
	bool *mine = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*mine));
	char name[1024], other[1024];

	for (size_t k = 0; k < t->n_rows; k++) {
		if (told[k])
			continue;
		struct strbuf line = STRBUF_INIT;
		size_t said = 0, open = 0;
		bool primary_open = false;

		compare_fmt_row_variant(name, sizeof(name), t, &t->rows[k]);
		for (size_t j = 0; j < t->n_rows; j++) {
			mine[j] = !told[j] &&
				  !strcmp(compare_fmt_row_variant(other, sizeof(other), t, &t->rows[j]), name);
			told[j] |= mine[j];
		}
		add_printable(&line, name);
		strbuf_addstr(&line, ":");
		/* the variant's own rows by rank (compare_order.h), each rank in
		 * the table's order */
		for (int rank = 0; rank < COMPARE_RANKS; rank++)
			add_rank(&line, t, mine, (enum compare_rank)rank, &said, &open, &primary_open);
		if (!said)
			strbuf_addf(&line, " no row decided (%zu row%s)", open, open == 1 ? "" : "s");
		else if (open)
			strbuf_addf(&line, "; %zu %srow%s not decided", open,
				    primary_open ? "other " : "", open == 1 ? "" : "s");
		emit(ctx, line.buf);
		strbuf_release(&line);
	}
	free(mine);
	free(told);
}
