/* Metrics for trials whose trial.json has none (run-metrics.h). */
#include "run-metrics.h"

#include <string.h>

#include "analysis/metrics/trial_metrics.h"

size_t run_data_fill_metrics(struct run_data *rd)
{
	size_t filled = 0;
	for (size_t i = 0; i < rd->n; i++) {
		json_t *trial = rd->trials[i].trial;
		if (!json_is_object(trial) || json_is_array(json_object_get(trial, "metrics")))
			continue;
		json_t *computed = NULL;
		struct strbuf err = STRBUF_INIT;
		if (trial_metrics_compute(rd->trials[i].dir, &computed, &err) == 0) {
			static const char *const keys[] = { "metrics", "victims", "lost_events", "partial" };
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				json_t *v = json_object_get(computed, keys[k]);
				if (v && !json_object_get(trial, keys[k]))
					json_object_set(trial, keys[k], v);
			}
			json_object_set_new(trial, "metrics_derived", json_true());
			filled++;
		} else {
			warning("%s: %s", rd->trials[i].dir, err.buf);
		}
		json_decref(computed);
		strbuf_release(&err);
	}
	return filled;
}
