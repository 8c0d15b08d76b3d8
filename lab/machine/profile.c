/* Low-memory machine profiles: parsing and validation (their keys: profile-keys.c). */
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job-spec.h"
#include "common/proto/cgroup2-options.h"
#include "lab/keys/kvfile.h"
#include "common/paths.h"

/* Each key's default; profile-keys.c's table says them. */
static void set_defaults(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->cpus = 2;
	p->numa_nodes = 1;
	p->min_free_kbytes = -1;
	p->watermark_scale_factor = -1;
	p->compact_unevictable_allowed = -1;
	p->slow_disk_bps = 256 * 1024;
	p->slow_disk_iops = 0;
	p->scratch_disk_size = PROFILE_SCRATCH_DISK_DEFAULT;
	p->zram_algorithm = xstrdup("lz4");
	p->cgroup_memory_max = xstrdup("max");
	p->cgroup_memory_high = xstrdup("max");
	p->cgroup_memory_swap_max = xstrdup("max");
	p->cgroup2_options = xstrdup(CGROUP2_OPTIONS_DEFAULT);
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		for (size_t i = 0; i < killer_kinds[k].n_keys; i++)
			p->killer_v[k][i] = killer_kinds[k].keys[i].fallback;
	lmkd_config_defaults(&p->lmkd);
}

/* lmkd's keys against each other, each error at the line that made it;
 * lmkd.low_ram's defaults for the keys the file left out. */
static int check_lmkd(struct profile *p, const char *file, struct strbuf *err)
{
	int *line = p->killer_line[KILLER_KIND_LMKD];
	int last = p->lmkd_low_ram_line;
	for (int k = 0; k < LMKD_KEY_COUNT; k++) {
		p->lmkd.v[k] = p->killer_v[KILLER_KIND_LMKD][k];
		if (line[k] > last)
			last = line[k];
	}
	if (p->lmkd_low_ram)
		lmkd_config_low_ram(&p->lmkd, line);
	const char *why;
	int k = lmkd_config_conflict(&p->lmkd, &why);
	if (k >= 0) {
		/* a default the file did not set: the last lmkd line made the conflict */
		strbuf_addf(err, "%s:%d: %s = %ld %s", file, line[k] ? line[k] : last,
			    lmkd_keys[k].name, p->lmkd.v[k], why);
		return -1;
	}
	for (int k = 0; k < LMKD_KEY_COUNT; k++)
		p->killer_v[KILLER_KIND_LMKD][k] = p->lmkd.v[k];
	return 0;
}

/* Each killer's keys against killer =: only the chosen kind's may be set. */
static int check_killer(struct profile *p, const char *file, struct strbuf *err)
{
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		for (size_t i = 0; i < killer_kinds[k].n_keys; i++)
			if (p->killer_line[k][i] && p->killer != (enum killer_kind)k) {
				strbuf_addf(err, "%s:%d: %s is set but killer is not %s (add killer = %s)",
					    file, p->killer_line[k][i], killer_kinds[k].keys[i].name,
					    killer_kinds[k].name, killer_kinds[k].name);
				return -1;
			}
	if (p->lmkd_low_ram_line && p->killer != KILLER_KIND_LMKD) {
		strbuf_addf(err, "%s:%d: lmkd.low_ram is set but killer is not lmkd (add killer = lmkd)",
			    file, p->lmkd_low_ram_line);
		return -1;
	}
	return p->killer == KILLER_KIND_LMKD ? check_lmkd(p, file, err) : 0;
}

static int check_whole(struct profile *p, const char *file, struct strbuf *err)
{
	if (check_killer(p, file, err) < 0)
		return -1;
	if (!p->memory) {
		strbuf_addf(err, "%s: memory is required", file);
		return -1;
	}
	if (!p->description) {
		strbuf_addf(err, "%s: description is required (one line for lab profiles)", file);
		return -1;
	}
	if (p->numa_nodes > 1) {
		unsigned long long sum = 0;
		for (unsigned i = 0; i < p->numa_nodes; i++)
			sum += p->node_memory[i];
		if (sum != p->memory) {
			strbuf_addf(err, "%s: numa_nodes add up to %lluM but memory is %lluM", file,
				    sum >> 20, p->memory >> 20);
			return -1;
		}
		/* x86_64's guest sees its nodes through numa=fake, which splits evenly */
		for (unsigned i = 1; i < p->numa_nodes; i++)
			if (p->node_memory[i] != p->node_memory[0]) {
				strbuf_addf(err, "%s: numa_nodes must all be one size (%lluM and %lluM "
					    "given): the guest's NUMA emulation splits memory evenly",
					    file, p->node_memory[0] >> 20, p->node_memory[i] >> 20);
				return -1;
			}
		if (p->cpus < p->numa_nodes) {
			strbuf_addf(err, "%s: %u NUMA nodes need at least as many cpus (have %u)", file,
				    p->numa_nodes, p->cpus);
			return -1;
		}
	} else {
		p->node_memory[0] = p->memory;
	}
	if (p->zram_size >= p->memory * 4) {
		strbuf_addf(err, "%s: zram_size %lluM is more than four times memory", file,
			    p->zram_size >> 20);
		return -1;
	}
	return 0;
}

int profile_parse(struct profile *p, const char *name, const char *file, const char *text,
		  struct strbuf *err)
{
	set_defaults(p);
	p->name = xstrdup(name);
	p->path = xstrdup(file);
	/* a profile loaded by its path (-p FILE) is known by that path, which
	 * only names it in run.json; a name is checked by the name rule */
	if (strcmp(name, file) && kvfile_name_check(name, "profile", file, err) < 0)
		return -1;
	const struct kvfile_options opts = { .inline_comments = true };
	int rc = kvfile_parse(file, text, &opts, &profile_keys, p, err);
	if (rc == 0)
		rc = check_whole(p, file, err);
	return rc;
}

/* A profile's file given by its path: the absolute path is then its name too,
 * which run.json keeps, so that --resume finds the file again. */
static int read_path(const char *path, char **file, char **text, struct strbuf *err)
{
	*text = NULL;
	*file = realpath(path, NULL);
	if (*file)
		*text = read_file(*file, NULL);
	if (*text)
		return 0;
	strbuf_addf(err, "profile %s: %s", path, strerror(errno));
	return -1;
}

int profile_load(struct profile *p, const char *name, struct strbuf *err)
{
	char *file, *text;
	bool path = strchr(name, '/') || ends_with(name, ".conf");
	int rc = path ? read_path(name, &file, &text, err)
		      : kvfile_read_named("profiles", "profile", name, &file, &text, err);
	if (path && rc == 0)
		name = file;
	if (rc < 0)
		memset(p, 0, sizeof(*p));
	else
		rc = profile_parse(p, name, file, text, err);
	free(text);
	free(file);
	return rc;
}

void profile_names(struct strlist *names)
{
	kvfile_names("profiles", names);
}

/*
 * The profile as key=value lines. RECORD: every setting, for the trial's
 * record and `lab profiles -v`; else only what the guest's agent reads,
 * for the job spec. The keys the agent reads are job-keys.h's rows, the
 * rest the record's own.
 */
static void write_settings(const struct profile *p, struct strbuf *sb, bool record)
{
	if (record) {
		strbuf_addf(sb, "name=%s\nmemory_bytes=%llu\ncpus=%u\nnuma_nodes=%u\n", p->name, p->memory,
			    p->cpus, p->numa_nodes);
		for (unsigned i = 0; i < p->numa_nodes; i++)
			strbuf_addf(sb, "node%u_bytes=%llu\n", i, p->node_memory[i]);
	}
	job_spec_put(sb, JOB_KEY_ZRAM_BYTES, "%llu", p->zram_size);
	job_spec_put(sb, JOB_KEY_ZRAM_ALGORITHM, "%s", p->zram_algorithm);
	job_spec_put(sb, JOB_KEY_MIN_FREE_KBYTES, "%ld", p->min_free_kbytes);
	job_spec_put(sb, JOB_KEY_WATERMARK_SCALE_FACTOR, "%ld", p->watermark_scale_factor);
	job_spec_put(sb, JOB_KEY_THP, "%s", p->thp ? p->thp : "default");
	job_spec_put(sb, JOB_KEY_COMPACT_UNEVICTABLE_ALLOWED, "%d", p->compact_unevictable_allowed);
	if (record)
		strbuf_addf(sb, "slow_disk_bytes=%llu\nslow_disk_bps=%llu\nslow_disk_iops=%lu\n",
			    p->slow_disk_size, p->slow_disk_bps, p->slow_disk_iops);
	job_spec_put(sb, JOB_KEY_CGROUP_MEMORY_MAX, "%s", p->cgroup_memory_max);
	job_spec_put(sb, JOB_KEY_CGROUP_MEMORY_HIGH, "%s", p->cgroup_memory_high);
	job_spec_put(sb, JOB_KEY_CGROUP_MEMORY_SWAP_MAX, "%s", p->cgroup_memory_swap_max);
	job_spec_put(sb, JOB_KEY_CGROUP_MEMORY_OOM_GROUP, "%d", p->cgroup_memory_oom_group);
	job_spec_put(sb, JOB_KEY_CGROUP2_OPTIONS, "%s", p->cgroup2_options);
	if (record)
		strbuf_addf(sb, "clock=%s\n", guest_clock_name(p->clock));
	const struct killer_kind_def *killer = &killer_kinds[p->killer];
	job_spec_put(sb, JOB_KEY_KILLER, "%s", killer->name);
	for (size_t i = 0; i < killer->n_keys; i++)
		job_spec_put_member(sb, (enum job_key)job_key_of(killer->keys[i].name), killer->keys[i].name,
				    "%ld", p->killer_v[p->killer][i]);
}

char *profile_format(const struct profile *p)
{
	struct strbuf sb = STRBUF_INIT;
	write_settings(p, &sb, true);
	return strbuf_detach(&sb);
}

void profile_job_spec(const struct profile *p, struct strbuf *spec)
{
	write_settings(p, spec, false);
}

void profile_clear(struct profile *p)
{
	free(p->name);
	free(p->path);
	free(p->description);
	free(p->zram_algorithm);
	free(p->thp);
	free(p->cgroup_memory_max);
	free(p->cgroup_memory_high);
	free(p->cgroup_memory_swap_max);
	free(p->cgroup2_options);
	memset(p, 0, sizeof(*p));
}
