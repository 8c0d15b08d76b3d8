/* A trial of restores: one saved boot and its restores, merged (trial-restores.h). */
#include "trial-restores.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json-file.h"
#include "common/trial-record.h"
#include "trial-finish.h"
#include "lab/machine/scratch-disk.h"
#include "lab/machine/vm-snapshot.h"

#define BOOT_FOLDER "boot"

/* The restore's name: its folder and the trial id the guest sees. */
static char *restore_name(unsigned i)
{
	return xasprintf("restore-%u", i);
}

/* One metric's mean over the restores that have it. */
struct metric_sum {
	json_t *first;  /* the first restore's object: name, unit, source ... */
	double sum;
	unsigned n;
};

static void add_metrics(json_t *metrics, struct metric_sum **sums, size_t *n_sums, size_t *alloc)
{
	size_t i;
	json_t *m;
	json_array_foreach(metrics, i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		json_t *v = json_object_get(m, "value");
		if (!name || !json_is_number(v))
			continue;
		size_t k = 0;
		while (k < *n_sums &&
		       strcmp(json_string_value(json_object_get((*sums)[k].first, "name")), name))
			k++;
		if (k == *n_sums) {
			ALLOC_GROW(*sums, *n_sums + 1, *alloc);
			(*sums)[(*n_sums)++] = (struct metric_sum){ .first = json_incref(m) };
		}
		(*sums)[k].sum += json_number_value(v);
		(*sums)[k].n++;
	}
}

/* ARRAY's elements appended to INTO, each object marked with its restore. */
static void join_array(json_t *into, json_t *array, const char *restore)
{
	size_t i;
	json_t *e;
	json_array_foreach(array, i, e) {
		json_t *copy = json_deep_copy(e);
		if (json_is_object(copy))
			json_object_set_new(copy, "restore", json_string(restore));
		json_array_append_new(into, copy);
	}
}

int trial_restores_merge(const char *dir, unsigned n, double boot_seconds, struct strbuf *err)
{
	json_t *merged = NULL, *bad_outcome = NULL, *seeds = json_array();
	struct metric_sum *sums = NULL;
	size_t n_sums = 0, alloc = 0;
	double wall = boot_seconds;
	bool partial = false;
	json_int_t lost = 0;
	int rc = -1;
	for (unsigned i = 1; i <= n; i++) {
		char *name = restore_name(i);
		char *path = xasprintf("%s/%s/trial.json", dir, name);
		json_t *t = json_file_load_object(path, err);
		free(path);
		if (!t) {
			free(name);
			goto out;
		}
		json_t *env = json_object_get(t, "environment"), *outcome = json_object_get(t, "outcome");
		json_array_append(seeds, json_object_get(json_object_get(env, "restore"), "seed"));
		wall += json_number_value(json_object_get(outcome, "wall_seconds_total"));
		const char *said = json_string_value(json_object_get(outcome, "outcome"));
		if (!bad_outcome && (!said || strcmp(said, "ok")))
			bad_outcome = json_deep_copy(outcome);
		partial |= json_is_true(json_object_get(t, "partial"));
		lost += json_integer_value(json_object_get(t, "lost_events"));
		add_metrics(json_object_get(t, "metrics"), &sums, &n_sums, &alloc);
		if (!merged) {
			merged = json_deep_copy(t);
			const char *key;
			json_t *value;
			/* the arrays start empty and take every restore's, this one's too */
			json_object_foreach(merged, key, value)
				if (json_is_array(value))
					json_array_clear(value);
		}
		const char *key;
		json_t *value;
		json_object_foreach(t, key, value) {
			if (!json_is_array(value) || !strcmp(key, "metrics"))
				continue;
			if (!json_object_get(merged, key))
				json_object_set_new(merged, key, json_array());
			join_array(json_object_get(merged, key), value, name);
		}
		json_decref(t);
		free(name);
	}
	if (!merged) {
		strbuf_addf(err, "%s: no restores to merge", dir);
		goto out;
	}
	json_t *metrics = json_array();
	for (size_t k = 0; k < n_sums; k++) {
		json_t *m = json_deep_copy(sums[k].first);
		json_object_set_new(m, "value", json_real(sums[k].sum / sums[k].n));
		json_array_append_new(metrics, m);
	}
	json_object_set_new(merged, "metrics", metrics);
	json_t *env = json_object_get(merged, "environment");
	json_object_set_new(env, "restore", json_pack("{s:s, s:i, s:O}", "boot", BOOT_FOLDER, "restores",
						      (int)n, "seeds", seeds));
	if (bad_outcome)
		json_object_set(merged, "outcome", bad_outcome);
	json_object_set_new(json_object_get(merged, "outcome"), "wall_seconds_total", json_real(wall));
	json_object_set_new(merged, "partial", json_boolean(partial));
	json_object_set_new(merged, "lost_events", json_integer(lost));
	char *out = xasprintf("%s/trial.json", dir);
	rc = json_file_write(out, merged, err);
	free(out);
out:
	for (size_t k = 0; k < n_sums; k++)
		json_decref(sums[k].first);
	free(sums);
	json_decref(merged);
	json_decref(bad_outcome);
	json_decref(seeds);
	return rc;
}

/* The boot's record as the trial's when it was not saved: its outcome says
 * why, and it has no metrics (nothing was measured). */
static int unsaved_boot_record(const char *dir, struct strbuf *err)
{
	char *path = xasprintf("%s/" BOOT_FOLDER "/snapshot.json", dir);
	json_t *record = json_file_load_object(path, err);
	free(path);
	if (!record)
		return -1;
	json_object_del(record, "saved");
	json_object_del(record, "wall_seconds_to_save");
	json_object_set_new(record, "metrics", json_array());
	path = xasprintf("%s/trial.json", dir);
	int rc = json_file_write(path, record, err);
	free(path);
	json_decref(record);
	return rc;
}

int trial_run_restores(const struct trial_spec *spec, const struct trial_restores *how, struct strbuf *err)
{
	struct trial_spec boot = *spec;
	char *boot_dir = xasprintf("%s/" BOOT_FOLDER, spec->dir);
	boot.dir = boot_dir;
	boot.save = true;
	boot.stream_output = false;
	struct vm_run vm;
	int rc = trial_run(&boot, &vm, err);
	bool saved = rc == 0 && vm.saved;
	double boot_seconds = vm.wall_total;
	if (rc == 0 && how->each)
		how->each(how->ctx, 0, &boot, &vm);
	free(vm.detail);
	if (rc < 0 || !saved) {
		if (rc == 0)
			rc = unsaved_boot_record(spec->dir, err);
		free(boot_dir);
		return rc;
	}
	char *from = realpath(boot_dir, NULL);
	if (!from) {
		strbuf_addf(err, "%s: %s", boot_dir, strerror(errno));
		free(boot_dir);
		return -1;
	}
	for (unsigned i = 1; rc == 0 && i <= how->n; i++) {
		struct trial_spec r = *spec;
		char *name = restore_name(i);
		char *dir = xasprintf("%s/%s", spec->dir, name);
		r.dir = dir;
		r.restore_from = from;
		r.restore_seed = how->same_seed ? how->seed : how->seed + i - 1;
		r.restore_trial = name;
		rc = trial_run(&r, &vm, err);
		if (rc == 0 && how->each)
			how->each(how->ctx, i, &r, &vm);
		free(vm.detail);
		free(dir);
		free(name);
	}
	/* the saved VM and what it needs: 100 MB and more a boot */
	const char *kept[] = { VM_SNAPSHOT_FILE, "initrd.img", SLOW_DISK_IMAGE, SCRATCH_DISK_IMAGE };
	for (size_t k = 0; k < sizeof(kept) / sizeof(kept[0]); k++) {
		char *path = xasprintf("%s/%s", boot_dir, kept[k]);
		unlink(path);
		free(path);
	}
	if (rc == 0)
		rc = trial_restores_merge(spec->dir, how->n, boot_seconds, err);
	free(from);
	free(boot_dir);
	return rc;
}

int trial_restores_refinish(const char *dir, struct strbuf *err)
{
	json_t *own = trial_record_load(dir, TRIAL_RECORD);
	json_t *n = own ? json_object_get(json_object_get(json_object_get(own, "environment"), "restore"),
					  "restores") : NULL;
	unsigned restores = json_is_integer(n) ? (unsigned)json_integer_value(n) : 0;
	json_decref(own);
	if (!restores)
		return 0;
	for (unsigned i = 1; i <= restores; i++) {
		char *name = restore_name(i), *sub = xasprintf("%s/%s", dir, name);
		json_t *record = trial_record_load(sub, TRIAL_RECORD);
		int rc = record ? trial_finish(sub, record, err) : -1;
		if (!record)
			strbuf_addf(err, "%s: no record of the restore", sub);
		json_decref(record);
		free(sub);
		free(name);
		if (rc < 0)
			return -1;
	}
	char *path = xasprintf("%s/" BOOT_FOLDER "/snapshot.json", dir);
	json_t *snap = json_file_load_object(path, err);
	free(path);
	if (!snap)
		return -1;
	double boot_seconds = json_number_value(json_object_get(json_object_get(snap, "outcome"),
								"wall_seconds_total"));
	json_decref(snap);
	return trial_restores_merge(dir, restores, boot_seconds, err) < 0 ? -1 : 1;
}
