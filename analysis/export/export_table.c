/* export_table.c - the metrics of every trial, one row per trial and metric. */
#include "export_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"
#include "common/util.h"

const char *const export_table_columns[] = {
	"run_id", "group", "variant", "trial", "outcome", "profile", "variant_hash",
	"guest_images_hash", "accelerator", "metric", "value", "unit", "source", "clock",
	"clock_settings", NULL,
};

void export_format_double(char *buf, size_t size, double x)
{
	if (!isfinite(x)) {
		snprintf(buf, size, "%s", "");
		return;
	}
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

/* What a row says about its trial. */
struct trial_info {
	const char *run_id, *group, *outcome, *profile, *variant_hash, *images_hash, *accel,
		*metrics_from, *clock, *clock_settings;
	char *variant;
	char index[16];
};

static const char *env_str(json_t *trial, const char *key)
{
	return json_string_value(json_object_get(json_object_get(trial, "environment"), key));
}

static void trial_info(const struct run_data *rd, const struct run_trial *t, struct trial_info *ti)
{
	memset(ti, 0, sizeof(*ti));
	ti->run_id = "";
	for (size_t r = 0; r < rd->dirs.n; r++) {
		size_t len = strlen(rd->dirs.items[r]);
		if (!strncmp(t->dir, rd->dirs.items[r], len) && t->dir[len] == '/') {
			const char *id = json_string_value(
				json_object_get(json_array_get(rd->runs, r), "run_id"));
			ti->run_id = id ? id : "";
			break;
		}
	}
	ti->group = t->label;
	const char *hash = strchr(t->label, '#');
	const char *v = env_str(t->trial, "variant");
	ti->variant = v ? xstrdup(v) : hash ? xstrndup(t->label, (size_t)(hash - t->label))
					  : xstrdup(t->label);
	snprintf(ti->index, sizeof(ti->index), "%u", t->index);
	ti->outcome = t->outcome;
	const char *profile = json_string_value(json_object_get(
		json_object_get(json_object_get(t->trial, "environment"), "profile"), "name"));
	ti->profile = profile ? profile : rd->profile ? rd->profile : "";
	ti->variant_hash = env_str(t->trial, "variant_hash");
	ti->images_hash = env_str(t->trial, "guest_images_hash");
	ti->accel = env_str(t->trial, "accelerator");
	/* as run-data read it: realtime for a trial.json from before clocks, NULL without one */
	ti->clock = t->clock;
	ti->clock_settings = t->clock_settings;
	json_t *metrics = json_object_get(t->trial, "metrics");
	ti->metrics_from = !json_is_array(metrics) ? "none"
			   : json_is_true(json_object_get(t->trial, "metrics_derived")) ? "derived"
											   : "trial.json";
}

/* The metric's value as text; false when it has none that is a number. */
static bool metric_value(json_t *m, char *buf, size_t size)
{
	json_t *v = json_object_get(m, "value");
	if (json_is_integer(v)) {
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return true;
	}
	if (json_is_real(v)) {
		export_format_double(buf, size, json_real_value(v));
		return true;
	}
	return false;
}

int export_table_csv(FILE *out, const struct run_data *rd, size_t *rows)
{
	size_t n_rows = 0;
	for (size_t c = 0; export_table_columns[c]; c++)
		csv_put_field(out, export_table_columns[c], c == 0);
	fputs("\r\n", out);
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		struct trial_info ti;
		trial_info(rd, t, &ti);
		size_t k;
		json_t *m;
		json_array_foreach(json_object_get(t->trial, "metrics"), k, m) {
			const char *name = json_string_value(json_object_get(m, "name"));
			char value[64];
			if (!name || !metric_value(m, value, sizeof(value)))
				continue;
			const char *cols[] = { ti.run_id, ti.group, ti.variant, ti.index, ti.outcome,
					       ti.profile, ti.variant_hash, ti.images_hash, ti.accel,
					       name, value,
					       json_string_value(json_object_get(m, "unit")),
					       json_string_value(json_object_get(m, "source")),
					       ti.clock, ti.clock_settings };
			for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				csv_put_field(out, cols[c], c == 0);
			fputs("\r\n", out);
			n_rows++;
		}
		free(ti.variant);
	}
	if (rows)
		*rows = n_rows;
	return ferror(out) ? -1 : 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *export_table_json(const struct run_data *rd, size_t *rows)
{
	json_t *root = json_object();
	json_object_set_new(root, "format", json_string("oomlab-metrics"));
	json_object_set_new(root, "version", json_integer(1));
	json_t *runs = json_array();
	size_t r;
	json_t *run;
	json_array_foreach(rd->runs, r, run)
		json_array_append_new(runs, str_or_null(json_string_value(json_object_get(run, "run_id"))));
	json_object_set_new(root, "runs", runs);
	json_t *trials = json_array(), *out_rows = json_array();
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		struct trial_info ti;
		trial_info(rd, t, &ti);
		json_t *common = json_object();
		json_object_set_new(common, "run_id", json_string(ti.run_id));
		json_object_set_new(common, "group", json_string(ti.group));
		json_object_set_new(common, "variant", json_string(ti.variant));
		json_object_set_new(common, "trial", json_integer(t->index));
		json_object_set_new(common, "outcome", json_string(ti.outcome));
		json_object_set_new(common, "profile", json_string(ti.profile));
		json_object_set_new(common, "variant_hash", str_or_null(ti.variant_hash));
		json_object_set_new(common, "guest_images_hash", str_or_null(ti.images_hash));
		json_object_set_new(common, "accelerator", str_or_null(ti.accel));
		json_object_set_new(common, "clock", str_or_null(ti.clock));
		json_object_set_new(common, "clock_settings", str_or_null(ti.clock_settings));

		size_t k, n_metrics = 0;
		json_t *m;
		json_array_foreach(json_object_get(t->trial, "metrics"), k, m) {
			const char *name = json_string_value(json_object_get(m, "name"));
			json_t *v = json_object_get(m, "value");
			if (!name || !json_is_number(v))
				continue;
			json_t *row = json_deep_copy(common);
			json_object_set_new(row, "metric", json_string(name));
			json_object_set_new(row, "value", json_copy(v));
			json_object_set_new(row, "unit",
					    str_or_null(json_string_value(json_object_get(m, "unit"))));
			json_object_set_new(row, "source",
					    str_or_null(json_string_value(json_object_get(m, "source"))));
			json_array_append_new(out_rows, row);
			n_metrics++;
		}
		json_object_set_new(common, "dir", json_string(t->dir));
		json_object_set_new(common, "metrics_from", json_string(ti.metrics_from));
		json_object_set_new(common, "n_metrics", json_integer((json_int_t)n_metrics));
		json_array_append_new(trials, common);
		free(ti.variant);
	}
	if (rows)
		*rows = json_array_size(out_rows);
	json_object_set_new(root, "trials", trials);
	json_object_set_new(root, "rows", out_rows);
	return root;
}
