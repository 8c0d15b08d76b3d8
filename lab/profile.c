/* Low-memory machine profiles: parsing and validation (their keys: profile-keys.c). */
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
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
	lmkd_config_defaults(&p->lmkd);
}

/* The lmkd.* keys against killer = and each other, each error at the line
 * that made it; lmkd.low_ram's defaults for the keys the file left out. */
static int check_killer(struct profile *p, const char *file, struct strbuf *err)
{
	int last = p->lmkd_low_ram_line;
	if (p->lmkd_low_ram_line && !p->killer_lmkd) {
		strbuf_addf(err, "%s:%d: lmkd.low_ram is set but killer is not lmkd (add killer = lmkd)",
			    file, p->lmkd_low_ram_line);
		return -1;
	}
	if (p->lmkd_low_ram)
		lmkd_config_low_ram(&p->lmkd, p->lmkd_line);
	for (int k = 0; k < LMKD_KEY_COUNT; k++) {
		if (p->lmkd_line[k] && !p->killer_lmkd) {
			strbuf_addf(err, "%s:%d: %s is set but killer is not lmkd (add killer = lmkd)",
				    file, p->lmkd_line[k], lmkd_keys[k].name);
			return -1;
		}
		if (p->lmkd_line[k] > last)
			last = p->lmkd_line[k];
	}
	const char *why;
	int k = lmkd_config_conflict(&p->lmkd, &why);
	if (k >= 0) {
		/* a default the file did not set: the last lmkd line made the conflict */
		strbuf_addf(err, "%s:%d: %s = %ld %s", file, p->lmkd_line[k] ? p->lmkd_line[k] : last,
			    lmkd_keys[k].name, p->lmkd.v[k], why);
		return -1;
	}
	return 0;
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

char *profile_format(const struct profile *p)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "name=%s\nmemory_bytes=%llu\ncpus=%u\nnuma_nodes=%u\n", p->name, p->memory,
		    p->cpus, p->numa_nodes);
	for (unsigned i = 0; i < p->numa_nodes; i++)
		strbuf_addf(&sb, "node%u_bytes=%llu\n", i, p->node_memory[i]);
	strbuf_addf(&sb, "zram_bytes=%llu\nzram_algorithm=%s\n", p->zram_size, p->zram_algorithm);
	strbuf_addf(&sb, "min_free_kbytes=%ld\nwatermark_scale_factor=%ld\nthp=%s\n",
		    p->min_free_kbytes, p->watermark_scale_factor, p->thp ? p->thp : "default");
	strbuf_addf(&sb, "compact_unevictable_allowed=%d\n", p->compact_unevictable_allowed);
	strbuf_addf(&sb, "slow_disk_bytes=%llu\nslow_disk_bps=%llu\nslow_disk_iops=%lu\n",
		    p->slow_disk_size, p->slow_disk_bps, p->slow_disk_iops);
	strbuf_addf(&sb, "cgroup.memory.max=%s\ncgroup.memory.high=%s\ncgroup.memory.swap.max=%s\n"
		    "cgroup.memory.oom.group=%d\n", p->cgroup_memory_max, p->cgroup_memory_high,
		    p->cgroup_memory_swap_max, p->cgroup_memory_oom_group);
	strbuf_addf(&sb, "clock=%s\n", guest_clock_name(p->clock));
	strbuf_addf(&sb, JOB_KILLER "=%s\n", p->killer_lmkd ? KILLER_LMKD : KILLER_KERNEL);
	if (p->killer_lmkd)
		for (int k = 0; k < LMKD_KEY_COUNT; k++)
			strbuf_addf(&sb, "%s=%ld\n", lmkd_keys[k].name, p->lmkd.v[k]);
	return strbuf_detach(&sb);
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
	memset(p, 0, sizeof(*p));
}
