/* How long trials like a planned one took before (store.h: store_trial_seconds). */
#include "store.h"

#include <math.h>
#include <stdlib.h>

#include "store_internal.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The stored wall times of ok trials of PROFILE on CLOCK, with APIC_TIMER
 * unless NULL, of EXPERIMENT unless NULL. */
static int collect(struct store *s, const char *experiment, const char *profile, const char *clock,
		   const char *apic_timer, double **values, size_t *n, struct strbuf *err)
{
	static const char sql[] =
		"SELECT t.wall_seconds_total FROM trials t"
		" JOIN run_groups g ON t.grp = g.id JOIN runs r ON g.run = r.id"
		" WHERE t.outcome = 'ok' AND t.wall_seconds_total > 0 AND r.profile = ?1"
		" AND json_extract(t.environment_json, '$.clock.name') = ?2"
		" AND (?3 IS NULL OR r.experiment = ?3)"
		" AND (?4 IS NULL OR json_extract(t.environment_json, '$.apic_timer.name') = ?4)";
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, err) < 0)
		return STORE_EDB;
	store_bind_str(st, 1, profile);
	store_bind_str(st, 2, clock);
	store_bind_str(st, 3, experiment);
	store_bind_str(st, 4, apic_timer);
	size_t alloc = 0;
	int rc;
	while ((rc = store_step(s, st, "reading trial times", err)) == STORE_ROW) {
		ALLOC_GROW(*values, *n + 1, alloc);
		(*values)[(*n)++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_trial_seconds(struct store *s, const char *experiment, const char *profile, const char *clock,
			const char *apic_timer, struct store_trial_seconds *out, struct strbuf *err)
{
	*out = (struct store_trial_seconds){ .median = NAN };
	double *values = NULL;
	size_t n = 0;
	int rc = collect(s, experiment, profile, clock, apic_timer, &values, &n, err);
	/* too few of this experiment's own: any experiment's on that machine and clock */
	if (rc == 0 && n < STORE_ESTIMATE_MIN_TRIALS) {
		n = 0;
		out->any_experiment = true;
		rc = collect(s, NULL, profile, clock, apic_timer, &values, &n, err);
	}
	if (rc == 0 && n >= STORE_ESTIMATE_MIN_TRIALS) {
		qsort(values, n, sizeof(*values), by_value);
		out->n = (long)n;
		out->median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
		out->p90 = values[(size_t)(0.9 * (double)(n - 1))];
	}
	free(values);
	return rc;
}
