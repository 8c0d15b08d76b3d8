/* fragment: leave physical memory fragmented in a controlled, repeatable
 * way, to a target rather than a fixed size, then hold it until told to
 * stop (SIGTERM/SIGINT) so that the workload that follows runs on the
 * fragmented machine.
 *
 * Recipe (DESIGN.md, measured by hand): with vm.compact_unevictable_allowed
 * = 0, mlock a large anonymous region (compaction may not move mlocked
 * pages then), then unmap every other page: each freed page's buddy stays
 * pinned, so the free memory is order-0 holes that neither merging nor
 * compaction can turn back into large blocks.
 *
 *  1. pin: mlock chunk after chunk until no free block of order >= K is
 *     left in the selected zones or MemAvailable would drop below the
 *     reserve (or --max-pin);
 *  2. holes: munmap every other pinned page;
 *  3. pipes: if free blocks of order >= K are still left (the reserve),
 *     fill pipes: their pages are unmovable allocations, which the page
 *     allocator takes by stealing the largest free blocks, not the
 *     order-0 holes;
 *  4. optional slab fragmentation: N files in a tmpfs, every other one
 *     unlinked (half-empty dentry and inode slabs);
 *  optional first: a stress-ng recipe with --oomable.
 *
 * Then it prints a "ready" event and keeps holding everything.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/alloc-grow.h"
#include "lib/args.h"
#include "lib/check.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME "fragment"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&fragment_metric_rows[id])
/* The kernel's page: holes are punched one page apart, whatever its size. */
#define PAGE ((unsigned long)wl_page_size())
#define PAGE_MAX 65536ul

const char fragment_usage[] =
"Usage: fragment [OPTIONS]\n"
"Fragments physical memory to a target and holds it until SIGTERM/SIGINT:\n"
"mlocked memory with every other page unmapped (order-0 holes that compaction\n"
"cannot undo, vm.compact_unevictable_allowed=0), then unmovable pipe pages to\n"
"use up what is left in large blocks.  Prints a \"ready\" event when done; the\n"
"agent starts the workload after that line and stops fragment with SIGTERM.\n"
"Run it outside a memory-limited cgroup.\n"
"\n";

static const char fragment_output[] =
"Events: buddyinfo (when=before|after, node, zone, free[] per order),\n"
"phase-begin/end (stress-ng, pin, holes, pipes, slab), ready, released.\n"
"Labels: when = before|after, order = --order.\n"
"Exit status 0 also when the target was not met (see fragment_target_met).\n";

struct cfg {
	int node;                     /* --node: only this node's zones count */
	int order;
	uint64_t target_blocks;
	double target_unusable;       /* <0: use target_blocks */
	const char *zones;
	uint64_t reserve, max_pin, chunk, pipe_max, slab_files;
	const char *slab_dir;
	const char *stress_args, *stress_temp;
	uint64_t stress_ns, hold_ns, time_ns;
	bool pipes, hold_forever, no_hold;
	int self_adj;
};

struct state {
	uint8_t *region;
	size_t region_size, pinned;
	size_t holes;
	int *pipes;
	size_t npipes, cap_pipes;
	uint64_t pipe_bytes;
	char slab_path[512];
	uint64_t slab_made;
	char old_cua[32], old_mmc[32];
	bool cua_set, mmc_set;
};

/* /proc/buddyinfo, restricted to the bound node with --node. */
static int read_buddy(const struct cfg *cfg, struct buddyinfo *bi)
{
	int r = wl_read_buddyinfo(bi), n = 0;

	if (r < 0 || cfg->node < 0)
		return r;
	for (int i = 0; i < bi->nzones; i++)
		if (bi->z[i].node == cfg->node)
			bi->z[n++] = bi->z[i];
	bi->nzones = n;
	return n;
}

static void report_buddy(const char *when, const struct cfg *cfg)
{
	struct buddyinfo bi;
	char ord[8];

	if (read_buddy(cfg, &bi) < 0)
		return;
	for (int i = 0; i < bi.nzones; i++) {
		struct jl j;

		report_begin_event(&j, "buddyinfo");
		jl_str(&j, "when", when);
		jl_i64(&j, "node", bi.z[i].node);
		jl_str(&j, "zone", bi.z[i].zone);
		jl_u64_array(&j, "free", bi.z[i].free, (size_t)bi.z[i].norders);
		report_end(&j);
	}
	snprintf(ord, sizeof(ord), "%d", cfg->order);
	report_rowl(ROW(FRAGMENT_FREE_PAGES), (double)wl_buddy_pages_ge(&bi, cfg->zones, 0), "when", when, NULL);
	report_rowl(ROW(FRAGMENT_FREE_BLOCKS_GE),
		       (double)wl_buddy_blocks_ge(&bi, cfg->zones, cfg->order),
		       "when", when, "order", ord, NULL);
	report_rowl(ROW(FRAGMENT_UNUSABLE_INDEX),
		       wl_buddy_unusable_index(&bi, cfg->zones, cfg->order),
		       "when", when, "order", ord, NULL);
}

static bool target_met(const struct cfg *cfg, uint64_t *blocks, double *unusable)
{
	struct buddyinfo bi;

	if (read_buddy(cfg, &bi) < 0)
		return false;
	*blocks = wl_buddy_blocks_ge(&bi, cfg->zones, cfg->order);
	*unusable = wl_buddy_unusable_index(&bi, cfg->zones, cfg->order);
	if (cfg->target_unusable >= 0)
		return *unusable >= cfg->target_unusable;
	return *blocks <= cfg->target_blocks;
}

/* MemAvailable, or with --node that node's MemFree + FilePages (its
 * meminfo has no MemAvailable). */
static uint64_t mem_available(const struct cfg *cfg)
{
	char buf[4096], path[96], key[48];
	uint64_t kb = 0, file = 0;

	if (cfg->node < 0) {
		if (wl_read_text("/proc/meminfo", buf, sizeof(buf)) < 0 ||
		    wl_kv_get(buf, "MemAvailable", &kb))
			return 0;
		return kb * 1024;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", cfg->node);
	if (wl_read_text(path, buf, sizeof(buf)) < 0)
		return 0;
	/* lines look like "Node 1 MemFree:  222908 kB" */
	for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long long v;

		if (sscanf(p, "Node %*d %47[^:]: %llu", key, &v) == 2) {
			if (!strcmp(key, "MemFree"))
				kb = v;
			else if (!strcmp(key, "FilePages"))
				file = v;
		}
	}
	return (kb + file) * 1024;
}

static int sysctl_set(const char *path, const char *val, char *old, size_t oldcap,
		      bool *was_set)
{
	int r = wl_read_line(path, old, oldcap);

	if (r)
		return r;
	r = wl_write_text(path, val);
	if (!r)
		*was_set = true;
	return r;
}

static int run_stress_ng(const struct cfg *cfg)
{
	char *argv[64], buf[1024], tmo[32];
	int argc = 0, status;
	char *save = NULL, *tok;
	pid_t pid;

	snprintf(buf, sizeof(buf), "%s", cfg->stress_args);
	argv[argc++] = "stress-ng";
	for (tok = strtok_r(buf, " \t", &save); tok && argc < 56;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	snprintf(tmo, sizeof(tmo), "%llus",
		 (unsigned long long)((cfg->stress_ns + 999999999ull) / 1000000000ull));
	argv[argc++] = "--oomable";
	argv[argc++] = "--temp-path";
	argv[argc++] = (char *)cfg->stress_temp;
	argv[argc++] = "--timeout";
	argv[argc++] = tmo;
	argv[argc] = NULL;
	report_phase("stress-ng", true);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* stress-ng's output is human text: keep stdout for JSON. */
		dup2(2, 1);
		wl_set_oom_score_adj(0, 0);
		wl_exec_signals();
		execvp("stress-ng", argv);
		fprintf(stderr, "%s: cannot run stress-ng: %s\n", NAME, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		if (wl_stop)
			kill(pid, SIGTERM);
	}
	report_phase("stress-ng", false);
	{
		char sbuf[64];
		struct jl j;

		report_begin_event(&j, "stress-ng-done");
		jl_str(&j, "status", wl_status_str(status, sbuf, sizeof(sbuf)));
		/* stress-ng exit 7: a stressor was OOM-killed; fine here. */
		jl_i64(&j, "exit", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		report_end(&j);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return 0;
}

/* Phase 1: mlock chunks until the target order is gone or memory is short. */
static int pin(const struct cfg *cfg, struct state *s, uint64_t deadline)
{
	uint64_t blocks;
	double unusable;

	s->region_size = cfg->max_pin & ~(PAGE - 1);
	s->region = mmap(NULL, s->region_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->region == MAP_FAILED) {
		s->region = NULL;
		return -errno;
	}
	report_phase("pin", true);
	while (s->pinned < s->region_size && !wl_stop && mono_ns() < deadline) {
		size_t len = cfg->chunk;
		uint8_t *p = s->region + s->pinned;
		uint64_t avail = mem_available(cfg);

		if (s->pinned + len > s->region_size)
			len = s->region_size - s->pinned;
		if (avail < cfg->reserve + len)
			break;
		if (mprotect(p, len, PROT_READ | PROT_WRITE) < 0)
			return -errno;
		/* Small pages only: a THP would be split and freed whole. */
		madvise(p, len, MADV_NOHUGEPAGE);
		if (mlock(p, len) < 0) {
			int e = errno;

			wl_err(NAME, "mlock: %s", strerror(e));
			munmap(p, len);
			return -e;
		}
		s->pinned += len;
		if (target_met(cfg, &blocks, &unusable) && cfg->target_unusable < 0)
			break;
	}
	report_phase("pin", false);
	return 0;
}

/* Phase 2: unmap every other pinned page. */
static int make_holes(struct state *s)
{
	size_t pages = s->pinned / PAGE;
	char want[32];
	uint64_t mmc = 0;

	/* Each remaining page becomes its own VMA. */
	if (wl_read_u64("/proc/sys/vm/max_map_count", &mmc) == 0 &&
	    mmc < pages / 2 + 16384) {
		snprintf(want, sizeof(want), "%zu", pages / 2 + 16384);
		if (sysctl_set("/proc/sys/vm/max_map_count", want, s->old_mmc,
			       sizeof(s->old_mmc), &s->mmc_set))
			wl_err(NAME, "cannot raise vm.max_map_count to %s", want);
	}
	report_phase("holes", true);
	for (size_t i = 1; i < pages && !wl_stop; i += 2) {
		if (munmap(s->region + i * PAGE, PAGE) < 0) {
			int e = errno;

			wl_err(NAME, "munmap of page %zu: %s (vm.max_map_count?)", i,
			       strerror(e));
			report_phase("holes", false);
			return -e;
		}
		s->holes += PAGE;
	}
	report_phase("holes", false);
	return 0;
}

/* Phase 3: unmovable pipe pages eat the large blocks that are left. */
static int fill_pipes(const struct cfg *cfg, struct state *s, uint64_t deadline)
{
	static char page[PAGE_MAX];
	uint64_t blocks;
	double unusable;
	int r = 0;

	uint64_t best = UINT64_MAX, since_best = 0;

	memset(page, 0x5a, sizeof(page));
	report_phase("pipes", true);
	while (!target_met(cfg, &blocks, &unusable) && !wl_stop &&
	       s->pipe_bytes < cfg->pipe_max && mono_ns() < deadline) {
		int fds[2];

		/* Once the large blocks are gone the pipes only eat holes (they
		 * claim half-free pageblocks); stop when 16 pipes in a row
		 * brought no progress (blocks that reclaim keeps freeing). */
		if (blocks < best) {
			best = blocks;
			since_best = 0;
		} else if (++since_best > 16) {
			break;
		}

		if (mem_available(cfg) < cfg->reserve / 2)
			break;
		if (!ALLOC_GROW_TRY(s->pipes, s->npipes + 2, s->cap_pipes)) {
			r = -ENOMEM;
			break;
		}
		if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) < 0) {
			r = -errno;
			if (r == -EMFILE)
				wl_raise_nofile(s->npipes * 2 + 1024);
			if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) < 0)
				break;
			r = 0;
		}
		s->pipes[s->npipes++] = fds[0];
		s->pipes[s->npipes++] = fds[1];
		fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
		for (;;) {
			ssize_t w = write(fds[1], page, PAGE);

			if (w <= 0)
				break;
			s->pipe_bytes += (uint64_t)w;
			if (s->pipe_bytes >= cfg->pipe_max)
				break;
		}
	}
	report_phase("pipes", false);
	return r;
}

/* Phase 4: half-empty dentry/inode slabs. */
static int slab_frag(const struct cfg *cfg, struct state *s)
{
	char path[600];

	if (wl_pathf(s->slab_path, sizeof(s->slab_path), "%s/oomlab-fragment-%d",
		  cfg->slab_dir, (int)getpid()))
		return -ENAMETOOLONG;
	if (mkdir(s->slab_path, 0700) < 0)
		return -errno;
	report_phase("slab", true);
	for (uint64_t i = 0; i < cfg->slab_files && !wl_stop; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/f%llu", s->slab_path,
			 (unsigned long long)i);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			break;
		close(fd);
		s->slab_made = i + 1;
	}
	for (uint64_t i = 0; i < s->slab_made; i += 2) {
		snprintf(path, sizeof(path), "%s/f%llu", s->slab_path,
			 (unsigned long long)i);
		unlink(path);
	}
	report_phase("slab", false);
	return 0;
}

static void release(struct state *s)
{
	char path[600];

	if (s->region)
		munmap(s->region, s->region_size);
	s->region = NULL;
	for (size_t i = 0; i < s->npipes; i++)
		close(s->pipes[i]);
	free(s->pipes);
	s->pipes = NULL;
	s->npipes = 0;
	if (s->slab_path[0]) {
		for (uint64_t i = 1; i < s->slab_made; i += 2) {
			snprintf(path, sizeof(path), "%s/f%llu", s->slab_path,
				 (unsigned long long)i);
			unlink(path);
		}
		rmdir(s->slab_path);
		s->slab_path[0] = '\0';
	}
	if (s->cua_set)
		wl_write_text("/proc/sys/vm/compact_unevictable_allowed", s->old_cua);
	if (s->mmc_set)
		wl_write_text("/proc/sys/vm/max_map_count", s->old_mmc);
	s->cua_set = s->mmc_set = false;
}

/* --hold DUR: released after DUR rather than at SIGTERM. */
static int hold_option(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct cfg *cfg = o->target;
	struct opt duration = WL_OPT_DURATION(0, NULL, &cfg->hold_ns, NULL, NULL);
	if (wl_opt_duration(&duration, value, err, err_size) < 0)
		return -1;
	cfg->hold_forever = false;
	return 0;
}

int fragment_main(int argc, char **argv)
{
	uint64_t memtotal = wl_mem_total_bytes(), min_free_kb = 0, t0, blocks = 0;
	struct cfg cfg = {
		.order = 3, .target_unusable = -1, .zones = NULL,
		.chunk = 4ul << 20, .slab_dir = "/tmp", .stress_temp = "/tmp",
		.stress_ns = 10000000000ull, .time_ns = 300000000000ull,
		/*
		 * -999, not -1000: the last victim, never a deadlock. The holes
		 * leave no free block above order 0, so a fork on a debug kernel
		 * (task_struct is order 1) can find nothing to reclaim; with the
		 * workload's coordinator and the lab at -1000, an unkillable
		 * fragmenter made that "no killable processes" panics (issue 26).
		 * Any killable process with a score above -999's is chosen first.
		 */
		.pipes = true, .hold_forever = true, .self_adj = -999,
	};
	struct state s;
	struct wl_common com = { -1 };
	double unusable = 0;
	bool done, met, no_pipes = false;
	int r;

	memset(&s, 0, sizeof(s));
	cfg.max_pin = memtotal / 100 * 95;
	cfg.pipe_max = memtotal / 10;
	wl_read_u64("/proc/sys/vm/min_free_kbytes", &min_free_kb);
	cfg.reserve = min_free_kb * 4096 > (16ul << 20) ? min_free_kb * 4096 : 16ul << 20;

	const struct opt opts[] = {
		OPT_GROUP("Target (default: no free block of order >= 3 left):"),
		OPT_INT(0, "target-order", &cfg.order, "K", 1, 10, "order that must become scarce (default 3)"),
		OPT_U64(0, "target-blocks", &cfg.target_blocks, "N", 0, UINT32_MAX,
			"done when at most N free blocks of order >= K are left (default 0)"),
		OPT_DOUBLE(0, "target-unusable", &cfg.target_unusable, "X", 0, 1,
			   "done when the unusable free space index for order K is at least X (0..1) "
			   "instead"),
		OPT_STRING(0, "zones", &cfg.zones, "LIST",
			   "zones counted: comma list (DMA32,Normal) or all (default: all except DMA)"),
		OPT_GROUP("Recipe:"),
		WL_OPT_MEM_SIZE(0, "reserve", &cfg.reserve, "SIZE", 0, UINT64_MAX,
				"leave this much MemAvailable unpinned (default max(16M, 4 x "
				"vm.min_free_kbytes))"),
		WL_OPT_MEM_SIZE(0, "max-pin", &cfg.max_pin, "SIZE", PAGE * 2, UINT64_MAX,
				"pin at most this much (default 95% of MemTotal; '%' ok)"),
		WL_OPT_SIZE(0, "chunk", &cfg.chunk, "SIZE", PAGE * 2, 1ul << 30,
			    "pin in chunks of SIZE (default 4M)"),
		OPT_FLAG(0, "no-pipes", &no_pipes, "skip the unmovable pipe fill"),
		WL_OPT_MEM_SIZE(0, "pipe-max", &cfg.pipe_max, "SIZE", 0, UINT64_MAX,
				"at most this much in pipes (default 10% of MemTotal; once the large "
				"blocks are gone, pipe pages also take holes of the pageblocks they claim)"),
		OPT_U64(0, "slab-files", &cfg.slab_files, "N", 0, 10000000,
			"also create N files in --slab-dir, unlink every other"),
		OPT_STRING(0, "slab-dir", &cfg.slab_dir, "DIR", "directory for them (default /tmp)"),
		OPT_STRING(0, "stress-ng", &cfg.stress_args, "ARGS",
			   "first run `stress-ng ARGS --oomable --temp-path DIR --timeout T` (e.g. "
			   "\"--vm 2 --vm-bytes 50% --mmapfork 2\")"),
		WL_OPT_DURATION(0, "stress-ng-time", &cfg.stress_ns, "DUR", "T for that run (default 10s)"),
		OPT_STRING(0, "stress-ng-temp", &cfg.stress_temp, "DIR", "its --temp-path (default /tmp)"),
		OPT_GROUP("Holding:"),
		OPT_CALL(0, "hold", &cfg, "DUR", hold_option,
			 "release after DUR (default: hold until SIGTERM/SIGINT)"),
		OPT_FLAG(0, "no-hold", &cfg.no_hold, "release right after reporting (for testing)"),
		OPT_INT(0, "self-oom-adj", &cfg.self_adj, "N", -1000, 1000,
			"own oom_score_adj (default -999: the OOM killer's last victim, after "
			"every other killable process; -1000 never, even if the kernel panics)"),
		WL_OPT_DURATION(0, "time", &cfg.time_ns, "DUR",
				"give up reaching the target after DUR (default 300s)"),
		OPT_INT(0, "node", &com.node, "N", 0, 1023,
			"bind CPU and memory to NUMA node N; only that node's zones and free memory "
			"count"),
		OPT_END(),
	};

	r = wl_parse_args(NAME, argc, argv, opts, fragment_usage, fragment_output, &com, &done);
	if (done)
		return r;
	cfg.pipes = !no_pipes;
	cfg.node = com.node;
	/* the zones are the guest's: not checked in check mode */
	if (cfg.zones && strcmp(cfg.zones, "all") && !wl_checking()) {
		struct buddyinfo bi;
		bool any = false;

		if (read_buddy(&cfg, &bi) > 0)
			for (int i = 0; i < bi.nzones; i++)
				any |= wl_buddy_zone_selected(&bi.z[i], cfg.zones);
		if (!any)
			return wl_usage_error(NAME, "--zones %s: no such zone in /proc/buddyinfo",
					      cfg.zones);
	}
	cfg.chunk &= ~(PAGE - 1);

	wl_start();
	t0 = mono_ns();
	if (wl_set_oom_score_adj(0, cfg.self_adj))
		wl_err(NAME, "cannot set oom_score_adj %d", cfg.self_adj);
	report_buddy("before", &cfg);

	if (cfg.stress_args) {
		r = run_stress_ng(&cfg);
		if (r) {
			wl_err(NAME, "stress-ng: %s", strerror(-r));
			return WL_EXIT_FAIL;
		}
	}
	if (sysctl_set("/proc/sys/vm/compact_unevictable_allowed", "0", s.old_cua,
		       sizeof(s.old_cua), &s.cua_set))
		wl_err(NAME, "cannot set vm.compact_unevictable_allowed=0; "
		       "compaction may undo the holes");

	r = pin(&cfg, &s, t0 + cfg.time_ns);
	if (!r)
		r = make_holes(&s);
	if (!r && cfg.pipes)
		r = fill_pipes(&cfg, &s, t0 + cfg.time_ns);
	if (!r && cfg.slab_files)
		r = slab_frag(&cfg, &s);
	if (r) {
		wl_err(NAME, "failed: %s", strerror(-r));
		release(&s);
		return WL_EXIT_FAIL;
	}
	met = target_met(&cfg, &blocks, &unusable);
	report_buddy("after", &cfg);
	report_row(ROW(FRAGMENT_PINNED_BYTES), (double)(s.pinned - s.holes), NULL);
	report_row(ROW(FRAGMENT_HOLE_BYTES), (double)s.holes, NULL);
	report_row(ROW(FRAGMENT_PIPE_BYTES), (double)s.pipe_bytes, NULL);
	report_row(ROW(FRAGMENT_SLAB_FILES), (double)(s.slab_made / 2), NULL);
	report_row(ROW(FRAGMENT_TARGET_MET), met ? 1 : 0, NULL);
	report_row(ROW(FRAGMENT_SETUP), (double)(mono_ns() - t0), NULL);
	{
		struct jl j;

		report_begin_event(&j, "ready");
		jl_bool(&j, "target_met", met);
		jl_i64(&j, "order", cfg.order);
		jl_u64(&j, "free_blocks_ge", blocks);
		jl_dbl(&j, "unusable_index", unusable);
		jl_u64(&j, "pinned_bytes", s.pinned - s.holes);
		jl_u64(&j, "hole_bytes", s.holes);
		jl_u64(&j, "pipe_bytes", s.pipe_bytes);
		jl_i64(&j, "pid", getpid());
		report_end(&j);
	}
	fprintf(stderr, "%s: ready: %s; %llu free blocks of order >= %d, unusable index %.3f; "
		"pinned %zu MiB, holes %zu MiB, pipes %llu MiB\n", NAME,
		met ? "target met" : "target NOT met", (unsigned long long)blocks,
		cfg.order, unusable, (s.pinned - s.holes) >> 20, s.holes >> 20,
		(unsigned long long)(s.pipe_bytes >> 20));

	if (!cfg.no_hold) {
		uint64_t until = mono_ns() + cfg.hold_ns;

		while (!wl_stop && (cfg.hold_forever || mono_ns() < until)) {
			if (cfg.hold_forever)
				pause();
			else
				wl_sleep_ns(until - mono_ns());
		}
	}
	release(&s);
	report_event("released");
	return WL_EXIT_OK;
}
