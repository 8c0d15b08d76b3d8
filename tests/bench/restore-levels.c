/* restore-levels: the two levels of lab boot --restores, with the lab's own
 * statistics (analysis/stats/stats_levels.c).
 *
 *   restore-levels BOOT-DIR...
 *
 * Each BOOT-DIR is one `lab boot --restores R -o BOOT-DIR` (its boot/ and
 * restore-1 ... restore-R). For every metric all the restores have, one line:
 *   mean    the grand mean, in the metric's unit
 *   within  the restores' sd within a boot (T1), as a percent of the mean
 *   boot    the boots' own sd component (T2), as a percent of the mean
 *   F, p    the ANOVA of boots against restores (is T2 above zero?)
 *   r       restores a boot for the least variance at the costs measured
 *           here (stats_levels_restores, capped at 20): the boot's cost is
 *           its QEMU's start to the save, the restore's a restored trial's
 *           whole wall time, their medians
 * Metrics that do not vary at all print "constant". Exit 2 on bad input. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats/stats.h"
#include "common/json-file.h"
#include "common/util.h"

#define MAX_VALUES 4096
#define MAX_METRICS 512
#define RESTORES_CAP 20

struct series {
	char *name;
	const char *unit;
	double x[MAX_VALUES];
	unsigned boot[MAX_VALUES];
	size_t n;
};

static struct series metrics[MAX_METRICS];
static size_t n_metrics;

static struct series *series_of(const char *name, const char *unit)
{
	for (size_t i = 0; i < n_metrics; i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	if (n_metrics == MAX_METRICS)
		return NULL;
	metrics[n_metrics] = (struct series){ .name = xstrdup(name), .unit = unit };
	return &metrics[n_metrics++];
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: restore-levels BOOT-DIR BOOT-DIR...\n");
		return 2;
	}
	static double boot_cost[MAX_VALUES], restore_cost[MAX_VALUES];
	size_t n_boots = 0, n_restores = 0;
	for (int b = 1; b < argc; b++) {
		struct strbuf err = STRBUF_INIT;
		char *path = xasprintf("%s/boot/snapshot.json", argv[b]);
		json_t *snap = json_file_load_object(path, &err);
		free(path);
		if (!snap) {
			fprintf(stderr, "restore-levels: %s\n", err.buf);
			return 2;
		}
		boot_cost[n_boots++] = json_number_value(json_object_get(json_object_get(snap, "outcome"),
									  "wall_seconds_total"));
		json_decref(snap);
		for (unsigned r = 1;; r++) {
			path = xasprintf("%s/restore-%u/trial.json", argv[b], r);
			strbuf_reset(&err);
			json_t *t = path_exists(path) ? json_file_load_object(path, &err) : NULL;
			free(path);
			if (!t)
				break;
			restore_cost[n_restores++] = json_number_value(
				json_object_get(json_object_get(t, "outcome"), "wall_seconds_total"));
			size_t i;
			json_t *m;
			json_array_foreach(json_object_get(t, "metrics"), i, m) {
				const char *name = json_string_value(json_object_get(m, "name"));
				json_t *v = json_object_get(m, "value");
				struct series *s = name && json_is_number(v) ? series_of(name, NULL) : NULL;
				if (s && s->n < MAX_VALUES) {
					s->x[s->n] = json_number_value(v);
					s->boot[s->n++] = (unsigned)b;
				}
			}
			json_decref(t);
		}
		strbuf_release(&err);
	}
	qsort(boot_cost, n_boots, sizeof(double), by_double);
	qsort(restore_cost, n_restores, sizeof(double), by_double);
	double c_boot = stats_median(boot_cost, n_boots), c_restore = stats_median(restore_cost, n_restores);
	printf("%zu boots, %zu restores; median cost: a boot to its save %.1f s, a restored trial %.1f s\n",
	       n_boots, n_restores, c_boot, c_restore);
	printf("%-56s %14s %8s %8s %7s %6s %3s\n", "metric", "mean", "within%", "boot%", "F", "p", "r");
	for (size_t i = 0; i < n_metrics; i++) {
		struct series *s = &metrics[i];
		if (s->n != n_restores)
			continue;
		struct stats_levels l;
		if (stats_levels(s->x, s->boot, s->n, &l) < 0)
			continue;
		if (!(l.within_var > 0) && !(l.between_var > 0)) {
			printf("%-56s %14.6g constant\n", s->name, l.grand_mean);
			continue;
		}
		double scale = l.grand_mean != 0 ? 100.0 / fabs(l.grand_mean) : NAN;
		printf("%-56s %14.6g %8.4f %8.4f %7.2f %6.3f %3u\n", s->name, l.grand_mean,
		       sqrt(l.within_var) * scale, sqrt(l.between_var) * scale, l.f, l.p,
		       stats_levels_restores(l.within_var, l.between_var, c_boot, c_restore, RESTORES_CAP));
	}
	return 0;
}
