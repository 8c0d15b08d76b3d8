/*
 * The keys of a profile (configs/profiles/NAME.conf): one row each, with
 * what lab keys says of it and the setter profile_parse() calls
 * (key-table.h). Checks that take the whole file are profile.c's.
 */
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/cgroup2-options.h"
#include "lab/keys/kvfile.h"
#include "lab/util/glob.h"
#include "profile-keys.h"
#include "profile-type.h"

static void replace(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* A cgroup limit: "max" or a size. Stored the way memory.max takes it (bytes). */
static bool cgroup_limit(const char *v, char **out)
{
	unsigned long long bytes;
	if (!strcmp(v, "max")) {
		replace(out, "max");
		return true;
	}
	if (!parse_size(v, &bytes))
		return false;
	free(*out);
	*out = xasprintf("%llu", bytes);
	return true;
}

static bool parse_long_range(const char *v, long lo, long hi, long *out)
{
	double d;
	if (!parse_double(v, &d) || d != (long)d || d < lo || d > hi)
		return false;
	*out = (long)d;
	return true;
}

static const char *set_description(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	replace(&p->description, v);
	return NULL;
}

static const char *set_memory(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!parse_size(v, &p->memory) || p->memory < (64ULL << 20))
		return "wants a size of at least 64M, such as 512M or 1G";
	return NULL;
}

static const char *set_cpus(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	unsigned long ul;
	(void)key, (void)line;
	if (!parse_ulong(v, &ul))
		return "wants a whole number";
	p->cpus = (unsigned)ul;
	return NULL;
}

static const char *set_numa_nodes(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	char *copy = xstrdup(v), *save = NULL;
	unsigned n = 0;
	bool ok = true;
	(void)key, (void)line;
	for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
		if (n == PROFILE_MAX_NODES || !parse_size(trim(tok), &p->node_memory[n]) ||
		    !p->node_memory[n])
			ok = false;
		n++;
	}
	free(copy);
	if (ok)
		p->numa_nodes = n;
	if (!ok || !n)
		return "wants node sizes separated by commas, such as 512M,512M (at most 8)";
	return NULL;
}

static const char *set_zram_size(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!strcmp(v, "none"))
		p->zram_size = 0;
	else if (!parse_size(v, &p->zram_size))
		return "wants a size such as 256M, or none";
	return NULL;
}

static const char *set_zram_algorithm(void *ctx, const char *key, const char *v, int line)
{
	static const char *const zram_algorithms[] = { "lzo", "lzo-rle", "lz4", NULL };
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!str_in_list(v, zram_algorithms))
		return "wants lzo, lzo-rle or lz4 (the algorithms the lab kernel has)";
	replace(&p->zram_algorithm, v);
	return NULL;
}

static const char *set_min_free_kbytes(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!parse_long_range(v, LONG_MIN, LONG_MAX, &p->min_free_kbytes))
		return "wants a whole number of kilobytes";
	return NULL;
}

static const char *set_watermark_scale_factor(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!parse_long_range(v, LONG_MIN, LONG_MAX, &p->watermark_scale_factor))
		return "wants a whole number";
	return NULL;
}

static const char *set_thp(void *ctx, const char *key, const char *v, int line)
{
	static const char *const thp_modes[] = { "always", "madvise", "never", NULL };
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!str_in_list(v, thp_modes))
		return "wants always, madvise or never";
	replace(&p->thp, v);
	return NULL;
}

/* "0" or "1" into *OUT. */
static bool zero_or_one(const char *v, int *out)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return false;
	*out = v[0] - '0';
	return true;
}

static const char *set_compact_unevictable_allowed(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return zero_or_one(v, &p->compact_unevictable_allowed) ? NULL : "wants 0 or 1";
}

static const char *set_slow_disk_size(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!strcmp(v, "none"))
		p->slow_disk_size = 0;
	else if (!parse_size(v, &p->slow_disk_size) || p->slow_disk_size < (1ULL << 20))
		return "wants a size of at least 1M, or none";
	return NULL;
}

static const char *set_scratch_disk_size(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!strcmp(v, "none"))
		p->scratch_disk_size = 0;
	else if (!parse_size(v, &p->scratch_disk_size) || p->scratch_disk_size < (64ULL << 20))
		return "wants a size of at least 64M, or none";
	return NULL;
}

static const char *set_slow_disk_bps(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!parse_size(v, &p->slow_disk_bps) || !p->slow_disk_bps)
		return "wants bytes per second, such as 262144 or 256K";
	return NULL;
}

static const char *set_slow_disk_iops(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (!parse_ulong(v, &p->slow_disk_iops))
		return "wants I/O operations per second (0: unlimited)";
	return NULL;
}

static const char *set_cgroup_memory_max(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return cgroup_limit(v, &p->cgroup_memory_max) ? NULL : "wants a size such as 384M, or max";
}

static const char *set_cgroup_memory_high(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return cgroup_limit(v, &p->cgroup_memory_high) ? NULL : "wants a size such as 320M, or max";
}

static const char *set_cgroup_memory_swap_max(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return cgroup_limit(v, &p->cgroup_memory_swap_max) ? NULL : "wants a size such as 128M, or max";
}

static const char *set_cgroup_memory_oom_group(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return zero_or_one(v, &p->cgroup_memory_oom_group) ? NULL : "wants 0 or 1";
}

static const char *set_cgroup2_options(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	static char why[384];
	char bad[64];
	(void)key, (void)line;
	if (cgroup2_options_check(v, bad, sizeof(bad))) {
		snprintf(why, sizeof(why), "wants cgroup2's options joined by commas, each once, or none: "
			 "'%s' is not one of %s", bad, cgroup2_options_known);
		return why;
	}
	replace(&p->cgroup2_options, v);
	return NULL;
}

static const char *set_fault(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	return fault_key_set(&p->faults, p->path, key, v, line);
}

/* killer = NAME, one of common/proto/killer-kinds.h's rows; a name that is
 * none is told the nearest ones. */
static const char *set_killer(void *ctx, const char *key, const char *v, int line)
{
	static char why[256];
	struct profile *p = ctx;
	(void)key, (void)line;
	int k = killer_kind_of_name(v);
	if (k >= 0) {
		p->killer = (enum killer_kind)k;
		return NULL;
	}
	const char *names[KILLER_KIND_COUNT];
	struct strbuf sb = STRBUF_INIT, near = STRBUF_INIT;
	for (int i = 0; i < KILLER_KIND_COUNT; i++)
		names[i] = killer_kinds[i].name;
	strbuf_addstr(&sb, "wants one of");
	for (int i = 0; i < KILLER_KIND_COUNT; i++)
		strbuf_addf(&sb, "%s %s", i ? "," : "", names[i]);
	strbuf_addstr(&sb, " (lab keys profile)");
	if (glob_suggest(&near, names, KILLER_KIND_COUNT, v, 1))
		strbuf_addf(&sb, "; did you mean %s?", near.buf);
	snprintf(why, sizeof(why), "%s", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&near);
	return why;
}

/* The killer key: its values and meaning made once from the kinds' rows. */
static bool killer_member(size_t i, struct key_info *out)
{
	static char range[128], meaning[1024];
	if (i > 0)
		return false;
	if (!range[0]) {
		struct strbuf r = STRBUF_INIT, m = STRBUF_INIT;
		strbuf_addstr(&m, "who kills under memory pressure:");
		for (int k = 0; k < KILLER_KIND_COUNT; k++) {
			strbuf_addf(&r, "%s%s", k ? " | " : "", killer_kinds[k].name);
			strbuf_addf(&m, "%s %s, %s", k ? ";" : "", killer_kinds[k].name,
				    killer_kinds[k].meaning);
		}
		snprintf(range, sizeof(range), "%s", r.buf);
		snprintf(meaning, sizeof(meaning), "%s", m.buf);
		strbuf_release(&r);
		strbuf_release(&m);
	}
	*out = (struct key_info){ .name = JOB_KILLER, .type = "word",
				  .fallback = killer_kinds[KILLER_KIND_KERNEL].name, .range = range,
				  .meaning = meaning };
	return true;
}

/* A killer's own key (lmkd.*, oomd.*: its row's keys), held to the row's range. */
static const char *set_killer_key(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	int i, k = killer_key_of_name(key, &i);
	if (k < 0)
		return kvfile_unknown_key;
	const struct killer_key *d = &killer_kinds[k].keys[i];
	if (!parse_long_range(v, d->min, d->max, &p->killer_v[k][i]))
		return d->range_text;
	p->killer_line[k][i] = line;
	return NULL;
}

static const char *set_lmkd_low_ram(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key;
	if (strcmp(v, "yes") && strcmp(v, "no"))
		return "wants yes (an Android low-RAM device) or no";
	p->lmkd_low_ram = !strcmp(v, "yes");
	p->lmkd_low_ram_line = line;
	return NULL;
}

/* Every kind's keys as the family's members, in the kinds' order: their
 * texts from the rows (common/proto/killer-kinds.h), the numbers made text
 * once, here. */
static bool killer_key_member(size_t i, struct key_info *out)
{
	enum { MAX = KILLER_KIND_COUNT * KILLER_KEYS_MAX };
	static char fallback[MAX][24], range[MAX][48];
	size_t at = i;
	for (int k = 0; k < KILLER_KIND_COUNT; k++) {
		if (at >= killer_kinds[k].n_keys) {
			at -= killer_kinds[k].n_keys;
			continue;
		}
		const struct killer_key *d = &killer_kinds[k].keys[at];
		snprintf(fallback[i], sizeof(fallback[i]), "%ld", d->fallback);
		snprintf(range[i], sizeof(range[i]), "%ld to %ld", d->min, d->max);
		*out = (struct key_info){ .name = d->name,
					  .type = d->type,
					  .fallback = fallback[i], .range = range[i], .meaning = d->meaning };
		return true;
	}
	return false;
}

static const char *set_clock(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	if (guest_clock_parse(v, &p->clock) < 0)
		return guest_clock_bad_value;
	p->clock_given = true;
	return NULL;
}

static const char *set_apic_timer(void *ctx, const char *key, const char *v, int line)
{
	struct profile *p = ctx;
	(void)key, (void)line;
	return apic_timer_parse(v, &p->apic_timer) < 0 ? apic_timer_bad_value : NULL;
}

/* The defaults here are set_defaults()'s in profile.c, as a file says
 * them; test-profile-keys parses each and compares. */
static const struct key_def rows[] = {
	KEY("description", "text", KEY_REQUIRED, "",
	    "one line saying what machine this is (lab profiles prints it)", set_description),
	KEY("memory", "size", KEY_REQUIRED, "at least 64M", "the guest's RAM, such as 512M or 1G",
	    set_memory),
	KEY("cpus", "count", "2", "1 to 64", "the guest's CPUs", set_cpus),
	KEY("numa_nodes", "sizes", "(one node)", "equal sizes adding up to memory, such as 512M,512M",
	    "NUMA nodes, each one's memory (the kernel's NUMA emulation on x86_64)",
	    set_numa_nodes),
	KEY("zram_size", "size", "none", "a size under 4 times memory, or none",
	    "the zram swap device's size", set_zram_size),
	KEY("zram_algorithm", "word", "lz4", "lzo | lzo-rle | lz4", "zram's compression algorithm",
	    set_zram_algorithm),
	KEY("min_free_kbytes", "count", "(the kernel's)", "128 to 4194304",
	    "vm.min_free_kbytes: the kilobytes the kernel keeps free", set_min_free_kbytes),
	KEY("watermark_scale_factor", "count", "(the kernel's)", "1 to 3000",
	    "vm.watermark_scale_factor: the gaps between the zone watermarks, in 1/10000 of memory",
	    set_watermark_scale_factor),
	KEY("thp", "word", "(the kernel's)", "always | madvise | never",
	    "transparent huge pages: when the kernel uses them", set_thp),
	KEY("compact_unevictable_allowed", "bool", "(the kernel's)", "0 | 1",
	    "vm.compact_unevictable_allowed: whether compaction moves unevictable (mlocked) pages",
	    set_compact_unevictable_allowed),
	KEY("slow_disk_size", "size", "none", "at least 1M, or none",
	    "a throttled disk of this size, as a phone's slow flash", set_slow_disk_size),
	KEY("slow_disk_bps", "size", "256K", "at least 1", "the slow disk's bytes per second",
	    set_slow_disk_bps),
	KEY("slow_disk_iops", "count", "0", "0 (unlimited) or more",
	    "the slow disk's I/O operations per second", set_slow_disk_iops),
	KEY("scratch_disk_size", "size", "1G", "at least 64M, or none",
	    "an ext4 disk for the kernel's selftests to work on (their working folder), in the "
	    "trials that run selftest lines and on a kernel with ext4 (VARIANT+test); sparse on "
	    "the host", set_scratch_disk_size),
	KEY("cgroup.memory.max", "limit", "max", "a size, or max",
	    "memory.max of the workload's cgroup: above it, the cgroup's OOM killer",
	    set_cgroup_memory_max),
	KEY("cgroup.memory.high", "limit", "max", "a size, or max",
	    "memory.high of the workload's cgroup: above it, reclaim throttles the cgroup",
	    set_cgroup_memory_high),
	KEY("cgroup.memory.swap.max", "limit", "max", "a size, or max",
	    "memory.swap.max of the workload's cgroup: the swap it may use",
	    set_cgroup_memory_swap_max),
	KEY("cgroup.memory.oom.group", "bool", "0", "0 | 1",
	    "memory.oom.group of the workload's cgroup: 1 kills the whole cgroup at once",
	    set_cgroup_memory_oom_group),
	KEY("cgroup2_options", "words", CGROUP2_OPTIONS_DEFAULT, cgroup2_options_known,
	    "the guest's cgroup2 mount options at /sys/fs/cgroup, joined by commas, or none. "
	    "The default is systemd's: memory_recursiveprot hands a cgroup's memory.min and "
	    "memory.low down to its children (6.12's test_memcg_low fails under it)",
	    set_cgroup2_options),
	KEY_MEMBERS("fail_page_alloc, failslab", set_fault, fault_key_member),
	KEY_MEMBERS("killer", set_killer, killer_member),
	KEY("lmkd.low_ram", "bool", "no", "yes | no",
	    "an Android low-RAM (Go) device: each lmkd.* key the file does not set takes lmkd's "
	    "low-RAM default (partial stall 200 ms, thrashing limit 30 %, decay 50 %)",
	    set_lmkd_low_ram),
	KEY_MEMBERS("KILLER.NAME", set_killer_key, killer_key_member),
	KEY("clock", "word", "realtime", "realtime | icount",
	    "what a guest second is (docs/CLOCKS.md); an experiment's clock wins", set_clock),
	KEY("apic_timer", "word", apic_timer_default_text, "given | calibrated | off",
	    "x86_64's per-CPU timer: each CPU's local APIC timer, its rate told by the lab (given: "
	    "the kernel's patch kernels/arch/x86_64-apic-khz.patch) or measured at boot (calibrated: "
	    "two 100 ms spins, most of an icount boot), or off (noapictimer: periodic ticks "
	    "broadcast from the PIT, no high-resolution timers; docs/CLOCKS.md)", set_apic_timer),
};

const struct key_table profile_keys = { "profile", "configs/profiles/NAME.conf", rows,
					sizeof(rows) / sizeof(rows[0]) };
