/* lab bisect's readings of its runs (bisect-judge.h). */
#include "bisect-judge.h"

#include <math.h>
#include <string.h>

#include "analysis/compare/compare_verdict.h"
#include "analysis/run/run-data.h"
#include "analysis/stats/stats.h"
#include "analysis/verdict/compare_family.h"
#include "experiment.h"
#include "vm.h"

/* The runs' trials, loaded once for every row a reading takes from them. */
static int load(struct run_data *rd, const char *const *runs, struct strbuf *err)
{
	for (const char *const *r = runs; *r; r++)
		if (run_data_add(rd, *r, err) < 0)
			return -1;
	return 0;
}

/* The row of LABEL against BASELINE on METRIC in the family of RD's runs. */
static int row_of(const struct run_data *rd, const char *baseline, const char *label,
		  const char *metric, struct compare_row *row, struct strbuf *err)
{
	struct strlist globs = STRLIST_INIT;
	strlist_push(&globs, metric);
	struct compare_family_spec spec = { .baseline = baseline, .globs = &globs, .all = true,
					    .seed = 1 };
	struct compare_family family;
	int rc = 0;
	if (compare_family_build(rd, &spec, &family, err) != 0) {
		if (!err->len)
			strbuf_addstr(err, "the groups ran on different clocks");
		rc = -1;
	}
	if (rc == 0) {
		rc = -1;
		for (size_t i = 0; i < family.table.n_rows; i++) {
			const struct compare_row *r = &family.table.rows[i];
			if (!strcmp(family.table.metrics[r->metric].name, metric) &&
			    !strcmp(r->var.variant, label)) {
				*row = *r;
				row->var.variant = row->base.variant = NULL;	/* the table's */
				row->why = NULL;
				rc = 0;
			}
		}
		if (rc < 0)
			strbuf_addf(err, "no row of %s against %s on %s", label, baseline, metric);
		compare_family_free(&family);
	}
	strlist_clear(&globs);
	return rc;
}

int bisect_judge_endpoints(const char *run, const char *good, const char *bad, const char *metric,
			   bool *differs, int *bad_dir, const char **verdict, struct strbuf *err)
{
	const char *runs[] = { run, NULL };
	struct run_data rd = { .quiet = true };
	struct compare_row row;
	int rc = load(&rd, runs, err);
	if (rc == 0)
		rc = row_of(&rd, good, bad, metric, &row, err);
	run_data_free(&rd);
	if (rc < 0)
		return -1;
	*differs = compare_verdict_info(row.verdict)->significant && row.direction != 0;
	*bad_dir = row.direction;
	*verdict = compare_verdict_word(row.verdict);
	return 0;
}

/* LABEL's trials whose kernel did not boot. */
static size_t boot_failures(const struct run_data *rd, const char *label)
{
	size_t n = 0;
	for (size_t i = 0; i < rd->n; i++)
		if (!strcmp(rd->trials[i].label, label) && rd->trials[i].outcome &&
		    !strcmp(rd->trials[i].outcome, vm_outcome_name(VM_BOOT_FAILURE)))
			n++;
	return n;
}

int bisect_judge_look(const char *endpoint_run, const char *step_run, const char *label,
		      const char *good, const char *bad, const char *metric, int bad_dir,
		      double step_alpha, size_t max_trials, struct bisect_look *look,
		      struct strbuf *err)
{
	const char *runs[] = { endpoint_run, step_run, NULL };
	struct run_data rd = { .quiet = true };
	struct compare_row vs_good, vs_bad;
	memset(look, 0, sizeof(*look));
	int rc = load(&rd, runs, err);
	if (rc == 0) {
		look->boot_failures = boot_failures(&rd, label);
		rc = row_of(&rd, good, label, metric, &vs_good, err);
	}
	if (rc == 0)
		rc = row_of(&rd, bad, label, metric, &vs_bad, err);
	run_data_free(&rd);
	if (rc < 0)
		return -1;
	look->n = vs_good.var.n;
	look->n_other = vs_good.var.n_other;
	look->p_good = vs_good.p;
	look->dir_good = vs_good.direction;
	look->diff_good = vs_good.diff;
	look->p_bad = vs_bad.p;
	look->dir_bad = vs_bad.direction;
	/* the looks at 3, 4, ..., max_trials of the midpoint's trials */
	look->level = stats_sequential_level(step_alpha, look->n, SEQUENTIAL_FIRST_LOOK, max_trials);
	look->call = bisect_step_call(look->p_good, look->dir_good, look->p_bad, look->dir_bad, bad_dir,
				      look->level);
	return 0;
}
