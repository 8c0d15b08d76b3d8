/* store_summary.c - one run's summary from the store: per group, its trials
 * by outcome and, per metric, n, median, min and max over the ok trials.
 *
 * The metric values come sorted from SQL (group, name, ok trials first, then
 * value), so each metric's median is read off its run of rows in C. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/trial-record.h"
#include "store.h"
#include "store_internal.h"

static size_t group_at(const struct store_summary *sum, const sqlite3_int64 *ids,
		       sqlite3_int64 id)
{
	for (size_t i = 0; i < sum->n_groups; i++)
		if (ids[i] == id)
			return i;
	return SIZE_MAX;
}

static int read_groups(struct store *s, const char *run_id, struct store_summary *sum,
		       sqlite3_int64 **ids, struct strbuf *err)
{
	static const char sql[] =
		"SELECT g.id, g.label, g.variant, g.kernel_hash, count(t.id), total(t.partial)\n"
		"FROM runs r JOIN run_groups g ON g.run = r.id LEFT JOIN trials t ON t.grp = g.id\n"
		"WHERE r.run_id = ?\n"
		"GROUP BY g.id ORDER BY g.position";
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, err) < 0)
		return STORE_EDB;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	int rc;
	size_t alloc = 0, alloc_ids = 0;
	while ((rc = store_step(s, st, "reading the groups", err)) == STORE_ROW) {
		ALLOC_GROW(sum->groups, sum->n_groups + 1, alloc);
		ALLOC_GROW(*ids, sum->n_groups + 1, alloc_ids);
		(*ids)[sum->n_groups] = sqlite3_column_int64(st, 0);
		struct store_group_summary *g = &sum->groups[sum->n_groups++];
		memset(g, 0, sizeof(*g));
		g->label = store_column_str(st, 1);
		g->variant = store_column_str(st, 2);
		g->kernel_hash = store_column_str(st, 3);
		g->trials = sqlite3_column_int(st, 4);
		g->partial = (long)sqlite3_column_double(st, 5);
	}
	sqlite3_finalize(st);
	return rc;
}

static int read_outcomes(struct store *s, const char *run_id, struct store_summary *sum,
			 const sqlite3_int64 *ids, struct strbuf *err)
{
	static const char sql[] =
		/* the names common/trial-record.h gives a trial that did not finish */
		"SELECT g.id, coalesce(t.outcome, CASE t.record_error WHEN '" TRIAL_NO_RECORD_WHY "' THEN '"
		TRIAL_OUTCOME_MISSING "' ELSE '" TRIAL_OUTCOME_UNREADABLE "' END) AS o, count(*)\n"
		"FROM runs r JOIN run_groups g ON g.run = r.id JOIN trials t ON t.grp = g.id\n"
		"WHERE r.run_id = ?\n"
		"GROUP BY g.id, o ORDER BY g.id, o <> 'ok', o";
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, err) < 0)
		return STORE_EDB;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = store_step(s, st, "counting outcomes", err)) == STORE_ROW) {
		size_t gi = group_at(sum, ids, sqlite3_column_int64(st, 0));
		if (gi == SIZE_MAX)
			continue;
		struct store_group_summary *g = &sum->groups[gi];
		ALLOC_GROW(g->outcomes, g->n_outcomes + 1, g->alloc_outcomes);
		g->outcomes[g->n_outcomes].outcome = store_column_str(st, 1);
		g->outcomes[g->n_outcomes++].n = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Values of one metric of one group as they stream by. */
struct metric_acc {
	double *v;
	size_t n, alloc;
	long n_other;
};

static void finish_metric(struct store_metric_summary *m, struct metric_acc *acc)
{
	m->n = (long)acc->n;
	m->n_other = acc->n_other;
	if (acc->n == 0) {
		m->median = m->min = m->max = NAN;
	} else {
		/* Sorted by SQL already. */
		m->min = acc->v[0];
		m->max = acc->v[acc->n - 1];
		m->median = acc->n % 2 ? acc->v[acc->n / 2]
				       : (acc->v[acc->n / 2 - 1] + acc->v[acc->n / 2]) / 2;
	}
	acc->n = 0;
	acc->n_other = 0;
}

static int read_metrics(struct store *s, const char *run_id, struct store_summary *sum,
			const sqlite3_int64 *ids, struct strbuf *err)
{
	static const char sql[] =
		"SELECT g.id, m.name, m.unit, t.outcome IS 'ok' AS counts, m.value\n"
		"FROM runs r JOIN run_groups g ON g.run = r.id JOIN trials t ON t.grp = g.id\n"
		"JOIN metrics m ON m.trial = t.id\n"
		"WHERE r.run_id = ?\n"
		"ORDER BY g.id, m.name, counts DESC, m.value";
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, err) < 0)
		return STORE_EDB;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_TRANSIENT);
	struct metric_acc acc = { 0 };
	struct store_metric_summary *cur = NULL;
	struct store_group_summary *cur_group = NULL;
	int rc;
	while ((rc = store_step(s, st, "reading the metrics", err)) == STORE_ROW) {
		size_t gi = group_at(sum, ids, sqlite3_column_int64(st, 0));
		if (gi == SIZE_MAX)
			continue;
		struct store_group_summary *g = &sum->groups[gi];
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 2);
		if (!cur || g != cur_group || strcmp(cur->name, name)) {
			if (cur)
				finish_metric(cur, &acc);
			ALLOC_GROW(g->metrics, g->n_metrics + 1, g->alloc_metrics);
			cur = &g->metrics[g->n_metrics++];
			memset(cur, 0, sizeof(*cur));
			cur->name = xstrdup(name);
			cur->unit = xstrdup("");
			cur_group = g;
		}
		if (!*cur->unit && unit && *unit) {
			free(cur->unit);
			cur->unit = xstrdup(unit);
		}
		if (!sqlite3_column_int(st, 3)) {
			acc.n_other++;
			continue;
		}
		ALLOC_GROW(acc.v, acc.n + 1, acc.alloc);
		acc.v[acc.n++] = sqlite3_column_double(st, 4);
	}
	if (cur)
		finish_metric(cur, &acc);
	free(acc.v);
	sqlite3_finalize(st);
	return rc;
}

int store_run_summary(struct store *s, const char *run_id, struct store_summary *out,
		      struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	/* One read transaction: an import in between must not mix two versions. */
	if (store_exec(s, "BEGIN", err) < 0)
		return STORE_EDB;
	sqlite3_int64 *ids = NULL;
	int rc = store_find_run(s, run_id, &out->run, err);
	if (rc == 1 && (read_groups(s, run_id, out, &ids, err) < 0 ||
			read_outcomes(s, run_id, out, ids, err) < 0 ||
			read_metrics(s, run_id, out, ids, err) < 0))
		rc = STORE_EDB;
	free(ids);
	sqlite3_exec(s->db, rc < 0 ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
	if (rc <= 0)
		store_summary_clear(out);
	return rc;
}

void store_summary_clear(struct store_summary *sum)
{
	for (size_t i = 0; i < sum->n_groups; i++) {
		struct store_group_summary *g = &sum->groups[i];
		for (size_t k = 0; k < g->n_outcomes; k++)
			free(g->outcomes[k].outcome);
		for (size_t k = 0; k < g->n_metrics; k++) {
			free(g->metrics[k].name);
			free(g->metrics[k].unit);
		}
		free(g->outcomes);
		free(g->metrics);
		free(g->label);
		free(g->variant);
		free(g->kernel_hash);
	}
	free(sum->groups);
	store_run_clear(&sum->run);
	memset(sum, 0, sizeof(*sum));
}

long store_group_outcome(const struct store_group_summary *g, const char *outcome)
{
	for (size_t i = 0; i < g->n_outcomes; i++)
		if (!strcmp(g->outcomes[i].outcome, outcome))
			return g->outcomes[i].n;
	return 0;
}
