/* The job as the agent reads it (agent-job.h). */
#include "agent-job.h"

#include "common/proto/cgroup2-options.h"

#include <stdlib.h>
#include <string.h>

/* The value of the first line of KEY (marked used), or NULL (noted missing). */
static const char *lookup(struct job *job, const char *key)
{
	for (int i = 0; i < job->n; i++)
		if (!strcmp(job->key[i], key)) {
			job->used[i] = true;
			return job->value[i];
		}
	if (job->n_missing < (int)(sizeof(job->missing) / sizeof(job->missing[0])))
		job->missing[job->n_missing++] = key;
	return NULL;
}

static const char *get(struct job *job, enum job_key k, const char *fallback)
{
	const char *v = lookup(job, job_keys[k].name);
	return v ? v : fallback;
}

static long get_long(struct job *job, enum job_key k, long fallback)
{
	const char *v = lookup(job, job_keys[k].name);
	return v ? strtol(v, NULL, 10) : fallback;
}

static void split_lines(struct job *job, char *text)
{
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		if (job->n == JOB_LINES_MAX) {
			job->dropped++;
			continue;
		}
		*eq = '\0';
		job->key[job->n] = line;
		job->value[job->n++] = eq + 1;
	}
}

/* Every line of FAMILY, in order. */
static int family_lines(struct job *job, enum job_key family, int *lines)
{
	const char *prefix = job_keys[family].name;
	int n = 0;
	for (int i = 0; i < job->n; i++)
		if (!strncmp(job->key[i], prefix, strlen(prefix)) && job->key[i][strlen(prefix)]) {
			job->used[i] = true;
			lines[n++] = i;
		}
	return n;
}

void job_read(struct job *job, char *text)
{
	memset(job, 0, sizeof(*job));
	if (text)
		split_lines(job, text);
	struct job_settings *s = &job->set;
	s->thp = get(job, JOB_KEY_THP, "default");
	s->min_free_kbytes = get_long(job, JOB_KEY_MIN_FREE_KBYTES, -1);
	s->watermark_scale_factor = get_long(job, JOB_KEY_WATERMARK_SCALE_FACTOR, -1);
	s->compact_unevictable_allowed = get_long(job, JOB_KEY_COMPACT_UNEVICTABLE_ALLOWED, -1);
	s->zram_bytes = get(job, JOB_KEY_ZRAM_BYTES, "0");
	s->zram_algorithm = get(job, JOB_KEY_ZRAM_ALGORITHM, "lz4");
	s->memory_max = get(job, JOB_KEY_CGROUP_MEMORY_MAX, NULL);
	s->memory_high = get(job, JOB_KEY_CGROUP_MEMORY_HIGH, NULL);
	s->memory_swap_max = get(job, JOB_KEY_CGROUP_MEMORY_SWAP_MAX, NULL);
	s->memory_oom_group = get(job, JOB_KEY_CGROUP_MEMORY_OOM_GROUP, NULL);
	s->cgroup2_options = get(job, JOB_KEY_CGROUP2_OPTIONS, CGROUP2_OPTIONS_DEFAULT);
	s->use_cgroup = strcmp(get(job, JOB_KEY_USE_CGROUP, "1"), "0") != 0;
	s->interactive = !strcmp(get(job, JOB_KEY_INTERACTIVE, "0"), "1");
	s->restore_point = !strcmp(get(job, JOB_KEY_RESTORE_POINT, "0"), "1");
	s->killer = killer_kind_of_name(get(job, JOB_KEY_KILLER, killer_kinds[KILLER_KIND_KERNEL].name));
	if (s->killer >= 0) {
		const struct killer_kind_def *d = &killer_kinds[s->killer];
		for (size_t k = 0; k < d->n_keys; k++) {
			const char *v = lookup(job, d->keys[k].name);
			s->killer_v[k] = v ? strtol(v, NULL, 10) : d->keys[k].fallback;
		}
	}
	s->target_order = (int)get_long(job, JOB_KEY_TARGET_ORDER, 3);
	s->target_max_blocks = get_long(job, JOB_KEY_TARGET_MAX_BLOCKS, -1);
	s->n_faults = family_lines(job, JOB_KEY_FAULT, s->fault_line);
}
