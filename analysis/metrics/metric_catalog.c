/* metric_catalog.c - the lab's own metrics, each declared once (lab_metric_rows.h),
 * served by name (metric_catalog.h). */
#include "metric_catalog.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/killer-kinds.h"
#include "common/util.h"

/* The rows of lab_metric_rows.h, ID for index. */
#define LAB_METRIC_DEF(id, name, unit, kind, better, meaning, source) \
	[id] = { name, unit, METRIC_##kind, BETTER_##better, meaning, source },
static const struct metric_def lab_metrics[] = { LAB_METRICS(LAB_METRIC_DEF) };
#undef LAB_METRIC_DEF

#define N_LAB_METRICS (sizeof(lab_metrics) / sizeof(lab_metrics[0]))

/* lab_metrics with the LAB_KILLER_ROWS row replaced by each userspace
 * killer's two rows, of its unit, kind and direction, made once; the
 * killers' rows are rows[killers_from] up to rows[killers_to]. */
static struct metric_def rows[N_LAB_METRICS - 1 + 2 * KILLER_KIND_COUNT];
static size_t n_rows, killers_from, killers_to;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static void killer_rows(void)
{
	for (size_t i = 0; i < N_LAB_METRICS; i++) {
		if (i != LAB_KILLER_ROWS) {
			rows[n_rows++] = lab_metrics[i];
			continue;
		}
		const struct metric_def *row = &lab_metrics[i];
		killers_from = n_rows;
		for (int k = 0; k < KILLER_KIND_COUNT; k++) {
			const struct killer_kind_def *d = &killer_kinds[k];
			if (!d->metric_prefix)
				continue;
			rows[n_rows++] = (struct metric_def){
				xasprintf("%s_kills", d->metric_prefix), row->unit, row->kind,
				row->better,
				xasprintf("killer = %s: its kills, one a kill line (only in a trial whose "
					  "guest ran it)", d->name),
				xasprintf("the guest %s's kill lines in kmsg.log (\"%s...\")", d->name,
					  d->kmsg_prefix) };
			rows[n_rows++] = (struct metric_def){
				xasprintf("%s_kills_trace", d->metric_prefix), row->unit, row->kind,
				row->better, xasprintf("killer = %s: the SIGKILLs it sent", d->name),
				xasprintf("perf trace signal:signal_generate, sig 9 from comm %s", d->comm) };
		}
		killers_to = n_rows;
	}
}

const struct metric_def *metric_catalog_rows(size_t *n)
{
	pthread_once(&rows_once, killer_rows);
	*n = n_rows;
	return rows;
}

const struct metric_def *metric_catalog_find(const char *name)
{
	size_t n;
	const struct metric_def *all = metric_catalog_rows(&n);
	return metric_table_find(all, n, name);
}

const struct metric_def *metric_catalog_lookup(const char *name)
{
	const struct metric_def *def = metric_catalog_find(name);
	return def ? def : metric_lookup(name);
}

const struct metric_def *metric_catalog_row(enum lab_metric id)
{
	return &lab_metrics[id];
}

const struct metric_def *metric_catalog_row_of(enum lab_metric id, const char *name)
{
	if (id == LAB_KILLER_ROWS) {
		size_t n;
		const struct metric_def *all = metric_catalog_rows(&n);
		for (size_t i = killers_from; i < killers_to; i++)
			if (!strcmp(all[i].name, name))
				return &all[i];
		return NULL;
	}
	if (id < 0 || id >= LAB_METRIC_COUNT || !metric_name_matches(lab_metrics[id].name, name))
		return NULL;
	return &lab_metrics[id];
}

void metric_catalog_resolve(const char *name, const char *unit, struct metric_def *out)
{
	metric_resolve_from(metric_catalog_lookup(name), name, unit, out);
}
