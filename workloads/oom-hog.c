/* oom-hog: memory eaters that drive a memory cgroup or the whole VM into
 * OOM kills, and a reaper mode whose victim cannot exit promptly, so that
 * the OOM reaper's timer (OOM_REAPER_DELAY, 2 s) fires and reaps it.
 *
 * The hogs run at oom_score_adj 1000 (the victims), oom-hog itself at
 * -1000 like the agent and the recorder.  It reports each victim it lost,
 * with times (CLOCK_MONOTONIC, comparable with perf -k mono).
 *
 * Reaper mode: the victim has a thread looping on O_DIRECT reads of a slow
 * block device (uninterruptible I/O wait) while its main thread eats
 * memory.  When the OOM killer picks it, the main thread dies at once but
 * the process cannot exit until the read completes, so its memory is
 * freed by the reaper (the RSS drops while the process still exists),
 * then the process exits when the I/O is done.
 *
 * Three readers of 1 MiB, not one of 4 MiB: QEMU's throttle lets a lone
 * read through in anything from 4 to 27 s (measured, phone-512m, TCG), so a
 * victim sometimes finished its read and exited before the 2 s timer and
 * the reaper never woke; with three reads queued the throttle runs at its
 * rate and the victim stays stuck 10.1-10.6 s after the kill (3 of 3).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/kernel-text/kmsg.h"
#include "common/kernel-text/oom-lines.h"
#include "lib/args.h"
#include "lib/check.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME "oom-hog"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&oom_hog_metric_rows[id])
#define PAGE 4096ul
#define MAX_HOGS 256

const char oom_hog_usage[] =
"Usage: oom-hog --mode memcg|global|reaper [OPTIONS]\n"
"Memory eaters (oom_score_adj 1000) that drive a memory cgroup (memcg) or the\n"
"VM (global) into OOM kills; oom-hog itself runs at oom_score_adj -1000.\n"
"reaper: a victim with a thread stuck in O_DIRECT reads of a slow disk, so it\n"
"cannot exit promptly and the OOM reaper has to reap it.\n"
"\n";

static const char oom_hog_output[] =
"Events: cgroup (path, memory.max), hog-start (hog, pid), victim-killed\n"
"(SIGKILL seen pending; reaper mode), victim-rss-drop (RSS freed while the\n"
"victim still exists: the reaper at work), victim-lost (hog, pid, signal,\n"
"eaten_bytes, rss_peak_kb, lifetime_ns), hog-exited, phase-begin/end (eat).\n";

enum mode { MODE_MEMCG, MODE_GLOBAL, MODE_REAPER };

struct cfg {
	enum mode mode;
	bool memcg_scope;
	uint64_t hogs, kills, bytes, chunk, memcg_max, io_size, io_threads;
	uint64_t time_ns;
	const char *cgroup, *disk;
	bool respawn, allow_swap, bytes_set, memcg_max_set;
	int victim_adj, self_adj;
};

/* Shared between a hog and the parent. */
struct hog_shm {
	volatile uint64_t eaten;
	volatile uint64_t io_started;      /* reads issued */
	volatile uint64_t io_done;         /* reads completed */
	volatile int32_t ready;            /* in its cgroup, about to eat */
	volatile int32_t full;             /* ate --bytes, holding */
};

struct hog {
	pid_t pid;
	pid_t last_pid;          /* kept after the hog is reaped (kmsg lags) */
	int idx;
	struct hog_shm *shm;
	uint64_t t_start, t_killed, t_rss_drop;
	uint64_t rss_peak_kb;
	bool we_killed;
};

/* ---- the eater (child) ------------------------------------------------ */

struct io_arg {
	int fd;
	uint64_t size, dev_bytes;
	struct hog_shm *shm;
};

static void *io_loop(void *p)
{
	struct io_arg *a = p;
	void *buf;
	uint64_t off = 0;

	if (posix_memalign(&buf, 4096, a->size))
		return NULL;
	for (;;) {
		ssize_t r;

		if (off + a->size > a->dev_bytes)
			off = 0;
		__atomic_add_fetch(&a->shm->io_started, 1, __ATOMIC_RELAXED);
		r = pread(a->fd, buf, a->size, (off_t)off);
		if (r < 0 && errno != EINTR)
			break;
		__atomic_add_fetch(&a->shm->io_done, 1, __ATOMIC_RELAXED);
		off += a->size;
	}
	return NULL;
}

static int eater(const struct cfg *cfg, const char *cg_procs, struct hog_shm *shm)
{
	char pid[16];
	uint64_t eaten = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	if (wl_set_oom_score_adj(0, cfg->victim_adj))
		fprintf(stderr, "%s: eater: cannot set oom_score_adj\n", NAME);
	if (cg_procs) {
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (wl_write_text(cg_procs, pid)) {
			fprintf(stderr, "%s: eater: cannot join %s: %s\n", NAME, cg_procs,
				strerror(errno));
			return 1;
		}
	}
	if (cfg->mode == MODE_REAPER) {
		static struct io_arg a;
		uint64_t want = cfg->io_threads;

		a.fd = open(cfg->disk, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (a.fd < 0) {
			fprintf(stderr, "%s: eater: open %s: %s\n", NAME, cfg->disk,
				strerror(errno));
			return 1;
		}
		if (ioctl(a.fd, BLKGETSIZE64, &a.dev_bytes) < 0) {
			struct stat st;

			a.dev_bytes = fstat(a.fd, &st) == 0 ? (uint64_t)st.st_size : 0;
		}
		a.size = cfg->io_size;
		a.shm = shm;
		if (a.dev_bytes < a.size) {
			fprintf(stderr, "%s: eater: %s is smaller than --io-size\n", NAME,
				cfg->disk);
			return 1;
		}
		for (uint64_t t = 0; t < want; t++) {
			pthread_t th;

			if (pthread_create(&th, NULL, io_loop, &a)) {
				fprintf(stderr, "%s: eater: pthread_create failed\n", NAME);
				return 1;
			}
		}
		/* Start eating once every reader has a read in flight. */
		while (shm->io_started < want)
			wl_sleep_ns(1000000);
		wl_sleep_ns(100000000);
	}
	shm->ready = 1;
	while (eaten < cfg->bytes) {
		size_t len = cfg->chunk;
		uint8_t *p;

		if (eaten + len > cfg->bytes)
			len = cfg->bytes - eaten;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			wl_sleep_ns(10000000);
			continue;
		}
		for (size_t o = 0; o < len; o += PAGE)
			p[o] = (uint8_t)(o >> 12);
		eaten += len;
		shm->eaten = eaten;
	}
	shm->full = 1;
	for (;;)
		pause();
	return 0;
}

/* ---- the parent --------------------------------------------------------- */

/* SIGKILL pending in a status text (process-wide or thread)? */
static bool sigkill_pending(const char *status_text)
{
	static const char *keys[] = { "ShdPnd:", "SigPnd:" };

	for (int k = 0; k < 2; k++) {
		const char *p = strstr(status_text, keys[k]);
		unsigned long long mask;

		if (p && sscanf(p + strlen(keys[k]), " %llx", &mask) == 1 &&
		    (mask & (1ull << (SIGKILL - 1))))
			return true;
	}
	return false;
}

/* Looks at every thread of pid: the RSS of the mm (a thread that has
 * exited shows none; the stuck reader still has it), whether SIGKILL is
 * pending anywhere, whether the leader is already a zombie.  Returns false
 * if the process is gone. */
static bool probe(pid_t pid, uint64_t *rss_kb, bool *has_mm, bool *killed)
{
	char dir[64], path[128], text[4096];
	struct dirent *de;
	DIR *d;
	bool any = false;

	*rss_kb = 0;
	*has_mm = false;
	*killed = false;
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d)) != NULL) {
		uint64_t v = 0;
		const char *st;

		if (de->d_name[0] == '.')
			continue;
		if (wl_pathf(path, sizeof(path), "%s/%s/status", dir, de->d_name) ||
		    wl_read_text(path, text, sizeof(text)) < 0)
			continue;
		any = true;
		if (wl_kv_get(text, "VmRSS", &v) == 0) {
			*has_mm = true;
			if (v > *rss_kb)
				*rss_kb = v;
		}
		if (sigkill_pending(text))
			*killed = true;
		st = strstr(text, "State:\t");
		if (st && atoi(de->d_name) == (int)pid && (st[7] == 'Z' || st[7] == 'X'))
			*killed = true;
	}
	closedir(d);
	return any;
}

/* ---- kernel log: the OOM killer's and the reaper's own words --------- */

struct kmsg_watch {
	int fd;
	uint64_t kills_ours, reaped_ours, unable_ours;
	uint64_t first_kill_us, first_reap_us;    /* printk clock, our victims */
};

static void kmsg_open(struct kmsg_watch *k)
{
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd >= 0)
		lseek(k->fd, 0, SEEK_END);
}

static bool is_ours(const struct hog *hogs, int n, int pid, int *idx)
{
	for (int i = 0; i < n; i++)
		if (hogs[i].pid == pid || hogs[i].last_pid == pid) {
			*idx = hogs[i].idx;
			return true;
		}
	return false;
}

/* Reads the records logged since the last call.  Record: "prio,seq,us,flags;text". */
static void kmsg_poll(struct kmsg_watch *k, const struct hog *hogs, int n)
{
	char rec[2048];

	if (k->fd < 0)
		return;
	for (;;) {
		ssize_t r = read(k->fd, rec, sizeof(rec) - 1);
		struct kmsg_record kr;
		struct oom_kill_report kill;
		struct oom_reap_report reap;
		int pid = 0, idx = -1;
		const char *what = NULL;

		if (r < 0) {
			if (errno == EPIPE)     /* overwritten records: go on */
				continue;
			return;
		}
		if (r == 0)
			return;
		rec[r] = '\0';
		/* The kernel's records and lines, parsed as the lab parses kmsg.log. */
		if (!kmsg_parse_record(rec, &kr))
			continue;
		if (oom_parse_kill_line(kr.text, &kill)) {
			pid = kill.pid;
			what = "kmsg-oom-kill";
		} else if (oom_parse_reap_line(kr.text, &reap)) {
			pid = reap.pid;
			what = "kmsg-oom-reaped";
		} else if (oom_parse_unable_to_reap_line(kr.text, &pid)) {
			what = "kmsg-oom-unable-to-reap";
		}
		if (!what)
			continue;
		{
			struct jl j;
			bool ours = is_ours(hogs, n, pid, &idx);
			unsigned long long us = kr.usec;
			const char *msg = kr.text;

			report_begin_event(&j, what);
			jl_i64(&j, "pid", pid);
			jl_bool(&j, "ours", ours);
			if (ours)
				jl_i64(&j, "hog", idx);
			jl_u64(&j, "kmsg_us", us);
			jl_str(&j, "text", msg);
			report_end(&j);
			if (!ours)
				continue;
			if (what[9] == 'k') {            /* kmsg-oom-kill */
				k->kills_ours++;
				if (!k->first_kill_us)
					k->first_kill_us = us;
			} else if (what[9] == 'r') {     /* kmsg-oom-reaped */
				k->reaped_ours++;
				if (!k->first_reap_us)
					k->first_reap_us = us;
			} else {
				k->unable_ours++;
			}
		}
	}
}

static int vmstat_get(const char *key, uint64_t *v)
{
	char *text;
	int r;

	if (wl_read_text_alloc("/proc/vmstat", &text) < 0)
		return -1;
	r = wl_kv_get(text, key, v);
	free(text);
	return r;
}

struct cgctx {
	char dir[512];           /* cgroup directory used by the eaters */
	char procs[600];
	bool created;            /* we made dir: rmdir at the end */
	char old_max[64];        /* memory.max to restore (own cgroup case) */
	bool restore_max;
	bool have_events;
	uint64_t ev0_oom, ev0_kill, ev0_max;
};

static int cg_file(const struct cgctx *cg, const char *f, char *buf, size_t cap)
{
	return wl_pathf(buf, cap, "%s/%s", cg->dir, f);
}

static int setup_cgroup(const struct cfg *cfg, struct cgctx *cg)
{
	char mnt[256], own[256], base[512], path[600], line[512];
	bool memcg = cfg->mode == MODE_MEMCG || cfg->memcg_scope;
	int r;

	memset(cg, 0, sizeof(*cg));
	if (cfg->cgroup) {
		wl_strlcpy0(cg->dir, cfg->cgroup, sizeof(cg->dir));
		if (mkdir(cg->dir, 0755) == 0)
			cg->created = true;
		else if (errno != EEXIST)
			return -errno;
	} else if (!memcg) {
		return 0;                    /* global: stay where we are */
	} else {
		if (wl_cgroup2_mount(mnt, sizeof(mnt)) || wl_own_cgroup(0, own, sizeof(own)))
			return -ENOENT;
		if (wl_pathf(base, sizeof(base), "%s%s", mnt, strcmp(own, "/") ? own : ""))
			return -ENAMETOOLONG;
		/* Enable memory for children; fails (EBUSY) in a non-root
		 * cgroup that has processes, e.g. our own. */
		wl_pathf(path, sizeof(path), "%s/cgroup.subtree_control", base);
		wl_write_text(path, "+memory");
		if (wl_read_line(path, line, sizeof(line)) == 0 && strstr(line, "memory")) {
			if (wl_pathf(cg->dir, sizeof(cg->dir), "%s/oom-hog-%d", base,
				  (int)getpid()))
				return -ENAMETOOLONG;
			if (mkdir(cg->dir, 0755) < 0)
				return -errno;
			cg->created = true;
		} else {
			wl_strlcpy0(cg->dir, base, sizeof(cg->dir));
		}
	}
	cg_file(cg, "cgroup.procs", cg->procs, sizeof(cg->procs));
	cg_file(cg, "memory.max", path, sizeof(path));
	if (memcg) {
		char val[32];

		if (wl_read_line(path, cg->old_max, sizeof(cg->old_max)))
			return -EOPNOTSUPP;     /* no memory controller here */
		if (!cg->created && !cfg->memcg_max_set && !strcmp(cg->old_max, "max"))
			return -EDOM;
		if (cg->created || cfg->memcg_max_set) {
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)cfg->memcg_max);
			r = wl_write_text(path, val);
			if (r)
				return r;
			cg->restore_max = !cg->created;
		}
		if (!cfg->allow_swap) {
			cg_file(cg, "memory.swap.max", path, sizeof(path));
			wl_write_text(path, "0");   /* absent without swap: fine */
		}
	}
	{
		char *text;

		cg_file(cg, "memory.events", path, sizeof(path));
		if (wl_read_text_alloc(path, &text) >= 0) {
			cg->have_events = true;
			wl_kv_get(text, "oom", &cg->ev0_oom);
			wl_kv_get(text, "oom_kill", &cg->ev0_kill);
			wl_kv_get(text, "max", &cg->ev0_max);
			free(text);
		}
	}
	return 0;
}

static void cgroup_report_and_cleanup(struct cgctx *cg)
{
	char path[600];
	char *text;

	if (cg->have_events) {
		uint64_t oom = 0, kill = 0, max = 0;

		cg_file(cg, "memory.events", path, sizeof(path));
		if (wl_read_text_alloc(path, &text) >= 0) {
			wl_kv_get(text, "oom", &oom);
			wl_kv_get(text, "oom_kill", &kill);
			wl_kv_get(text, "max", &max);
			free(text);
			report_row(ROW(OOMHOG_MEMCG_OOM), (double)(oom - cg->ev0_oom), NULL);
			report_row(ROW(OOMHOG_MEMCG_OOM_KILL), (double)(kill - cg->ev0_kill), NULL);
			report_row(ROW(OOMHOG_MEMCG_MAX), (double)(max - cg->ev0_max), NULL);
		}
	}
	if (cg->restore_max) {
		cg_file(cg, "memory.max", path, sizeof(path));
		wl_write_text(path, cg->old_max);
	}
	if (cg->created) {
		/* The cgroup empties asynchronously after the last exit. */
		for (int i = 0; i < 200 && rmdir(cg->dir) < 0 && errno == EBUSY; i++)
			wl_sleep_ns(10000000);
	}
}

static int start_hog(const struct cfg *cfg, struct cgctx *cg, struct hog *h, int idx)
{
	pid_t pid;
	struct jl j;

	memset(h, 0, sizeof(*h));
	h->idx = idx;
	h->shm = wl_shared_alloc(sizeof(*h->shm));
	if (!h->shm)
		return -ENOMEM;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(eater(cfg, cg->procs[0] ? cg->procs : NULL, h->shm));
	h->pid = pid;
	h->last_pid = pid;
	h->t_start = mono_ns();
	report_begin_event(&j, "hog-start");
	jl_i64(&j, "hog", idx);
	jl_i64(&j, "pid", pid);
	report_end(&j);
	return 0;
}

/* One run: the settings, the eaters' cgroup, the eaters and what was seen. */
struct hogrun {
	struct cfg cfg;
	struct cgctx cg;
	struct hog hogs[MAX_HOGS];
	int nhogs;
	struct kmsg_watch km;
	uint64_t memtotal, t0, first_loss, lost, started, vm0, vm1;
	uint64_t kill_to_drop, kill_to_exit;
	bool have_vm;
};

static const char *const mode_names[] = { [MODE_MEMCG] = "memcg", [MODE_GLOBAL] = "global",
					   [MODE_REAPER] = "reaper", NULL };
static const char *const scope_names[] = { "global", "memcg", NULL };

/* --bytes and --memcg-max: sizes (a share of MemTotal too) that remember being given. */
static int bytes_option(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct cfg *cfg = o->target;
	struct opt size = WL_OPT_MEM_SIZE(0, NULL, &cfg->bytes, NULL, PAGE, UINT64_MAX, NULL);
	if (wl_opt_mem_size(&size, value, err, err_size) < 0)
		return -1;
	cfg->bytes_set = true;
	return 0;
}

static int memcg_max_option(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct cfg *cfg = o->target;
	struct opt size = WL_OPT_MEM_SIZE(0, NULL, &cfg->memcg_max, NULL, 1ul << 20, UINT64_MAX, NULL);
	if (wl_opt_mem_size(&size, value, err, err_size) < 0)
		return -1;
	cfg->memcg_max_set = true;
	return 0;
}

static int parse_args(struct hogrun *run, int argc, char **argv, bool *done)
{
	struct cfg *cfg = &run->cfg;
	struct wl_common com = { -1 };
	int mode = MODE_MEMCG, scope = -1;
	uint64_t kills = 0;
	const struct opt opts[] = {
		OPT_CHOICE(0, "mode", &mode, "M", mode_names, "memcg (default), global or reaper"),
		OPT_U64(0, "hogs", &cfg->hogs, "N", 1, MAX_HOGS, "concurrent eaters (default 1)"),
		OPT_U64(0, "kills", &kills, "K", 1, 100000, "stop after K victims lost (default: --hogs)"),
		OPT_FLAG(0, "respawn", &cfg->respawn,
			 "start a new eater for each one lost, until --kills"),
		OPT_CALL(0, "bytes", cfg, "SIZE", bytes_option,
			 "each eater eats this much, then holds it (default: 2 x the eaters' "
			 "memory.max in memcg scope, else 100% of MemTotal;\n'%' means of MemTotal)"),
		WL_OPT_SIZE(0, "chunk", &cfg->chunk, "SIZE", PAGE, 1ul << 30, "allocation step (default 1M)"),
		OPT_CALL(0, "memcg-max", cfg, "SIZE", memcg_max_option,
			 "memory.max of the eaters' cgroup (memcg mode default 64M; '%' of MemTotal)"),
		OPT_STRING(0, "cgroup", &cfg->cgroup, "DIR",
			   "cgroup directory for the eaters (created if missing); default: new child "
			   "oom-hog-<pid> of oom-hog's own cgroup, or the own cgroup itself if it "
			   "cannot have children"),
		OPT_FLAG(0, "allow-swap", &cfg->allow_swap,
			 "leave memory.swap.max alone (default: 0 in memcg scope)"),
		OPT_CHOICE(0, "scope", &scope, "S", scope_names,
			   "reaper mode: where the OOM happens, global (default) or memcg"),
		OPT_STRING(0, "disk", &cfg->disk, "PATH",
			   "reaper mode (required): block device to read with O_DIRECT, e.g. a "
			   "throttled virtio disk"),
		WL_OPT_SIZE(0, "io-size", &cfg->io_size, "SIZE", 4096, 64ul << 20,
			    "reaper mode: size of each read (default 1M); the reads in flight must "
			    "outlast the eating plus the reaper delay (2 s)"),
		OPT_U64(0, "io-threads", &cfg->io_threads, "N", 1, 64,
			"reaper mode: stuck reader threads (default 3)"),
		OPT_INT(0, "victim-adj", &cfg->victim_adj, "N", -1000, 1000,
			"oom_score_adj of the eaters (default 1000)"),
		OPT_INT(0, "self-adj", &cfg->self_adj, "N", -1000, 1000,
			"oom_score_adj of oom-hog (default -1000)"),
		WL_OPT_DURATION(0, "time", &cfg->time_ns, "DUR",
				"give up after DUR (default 120s); survivors are killed"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};
	int r = wl_parse_args(NAME, argc, argv, opts, oom_hog_usage, oom_hog_output, &com, done);

	if (*done)
		return r;
	*done = true;
	cfg->mode = (enum mode)mode;
	cfg->memcg_scope = scope == 1;
	if (cfg->mode == MODE_REAPER) {
		struct stat st;

		if (!cfg->disk)
			return wl_usage_error(NAME, "--mode reaper needs --disk PATH (a slow block device)");
		if (!wl_checking() && stat(cfg->disk, &st) < 0)
			return wl_usage_error(NAME, "--disk %s: %s", cfg->disk, strerror(errno));
		if (cfg->io_size % 4096)
			return wl_usage_error(NAME, "--io-size must be a multiple of 4096");
	} else {
		if (cfg->disk)
			return wl_usage_error(NAME, "--disk is only for --mode reaper");
		if (scope >= 0)
			return wl_usage_error(NAME, "--scope is only for --mode reaper");
	}
	if (cfg->memcg_max_set && cfg->mode != MODE_MEMCG && !cfg->memcg_scope)
		return wl_usage_error(NAME, "--memcg-max needs --mode memcg or --scope memcg");
	cfg->kills = kills ? kills : cfg->hogs;
	cfg->chunk &= ~(PAGE - 1);
	*done = false;
	return WL_EXIT_OK;
}

/* Own protection, the eaters' cgroup, and how much each eater eats. */
static int setup(struct hogrun *run)
{
	struct cfg *cfg = &run->cfg;
	struct cgctx *cg = &run->cg;
	int r;

	if (wl_set_oom_score_adj(0, cfg->self_adj))
		wl_err(NAME, "cannot set own oom_score_adj to %d", cfg->self_adj);
	r = setup_cgroup(cfg, cg);
	if (r == -EDOM) {
		wl_err(NAME, "own cgroup %s cannot have children and has no memory.max; "
		       "give --memcg-max or --cgroup", cg->dir);
		return WL_EXIT_FAIL;
	}
	if (r) {
		wl_err(NAME, "cgroup setup (%s): %s", cg->dir[0] ? cg->dir : "?", strerror(-r));
		cgroup_report_and_cleanup(cg);
		return WL_EXIT_FAIL;
	}
	/* Default size: twice the limit the eaters actually live under. */
	if (!cfg->bytes_set) {
		char path[600], max[64];
		uint64_t lim = 0;

		cfg->bytes = run->memtotal;
		if ((cfg->mode == MODE_MEMCG || cfg->memcg_scope) && cg->dir[0] &&
		    cg_file(cg, "memory.max", path, sizeof(path)) == 0 &&
		    wl_read_line(path, max, sizeof(max)) == 0 &&
		    wl_parse_u64_str(max, &lim) == 0 && lim)
			cfg->bytes = 2 * lim;
	}
	{
		struct jl j;
		char path[600], max[64] = "";

		report_begin_event(&j, "cgroup");
		jl_str(&j, "mode", cfg->mode == MODE_MEMCG ? "memcg" :
		       cfg->mode == MODE_GLOBAL ? "global" : "reaper");
		jl_str(&j, "path", cg->dir[0] ? cg->dir : "(unchanged)");
		if (cg->dir[0] && cg_file(cg, "memory.max", path, sizeof(path)) == 0 &&
		    wl_read_line(path, max, sizeof(max)) == 0)
			jl_str(&j, "memory_max", max);
		jl_bool(&j, "created", cg->created);
		jl_u64(&j, "bytes_per_hog", cfg->bytes);
		report_end(&j);
	}
	return WL_EXIT_OK;
}

/* An eater is gone: a victim when SIGKILL took it; respawned if asked. */
static void reap_hog(struct hogrun *run, struct hog *h, int status)
{
	const struct cfg *cfg = &run->cfg;
	uint64_t now = mono_ns();
	char sbuf[64];
	struct jl j;
	bool lost_it = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;

	report_begin_event_at(&j, lost_it ? "victim-lost" : "hog-exited", now);
	jl_i64(&j, "hog", h->idx);
	jl_i64(&j, "pid", h->pid);
	jl_str(&j, "status", wl_status_str(status, sbuf, sizeof(sbuf)));
	if (WIFSIGNALED(status))
		jl_i64(&j, "signal", WTERMSIG(status));
	jl_u64(&j, "eaten_bytes", h->shm->eaten);
	jl_u64(&j, "rss_peak_kb", h->rss_peak_kb);
	jl_u64(&j, "lifetime_ns", now - h->t_start);
	if (h->t_killed)
		jl_u64(&j, "t_killed_ns", h->t_killed);
	if (h->t_rss_drop)
		jl_u64(&j, "t_rss_drop_ns", h->t_rss_drop);
	if (cfg->mode == MODE_REAPER) {
		jl_u64(&j, "io_started", h->shm->io_started);
		jl_u64(&j, "io_done", h->shm->io_done);
	}
	report_end(&j);
	if (lost_it) {
		run->lost++;
		kmsg_poll(&run->km, run->hogs, run->nhogs);
		if (!run->first_loss)
			run->first_loss = now - run->t0;
		if (h->t_killed && !run->kill_to_exit)
			run->kill_to_exit = now - h->t_killed;
		if (h->t_killed && h->t_rss_drop && !run->kill_to_drop)
			run->kill_to_drop = h->t_rss_drop - h->t_killed;
	}
	wl_shared_free(h->shm, sizeof(*h->shm));
	h->pid = 0;
	if (cfg->respawn && run->lost < cfg->kills && run->nhogs < MAX_HOGS) {
		if (start_hog(cfg, &run->cg, &run->hogs[run->nhogs], run->nhogs) == 0) {
			run->nhogs++;
			run->started++;
		}
	}
}

/* Watches a live victim: peak RSS, SIGKILL pending, RSS freed while it still exists. */
static void watch_hog(struct hog *h)
{
	uint64_t rss;
	bool killed, has_mm;

	if (!probe(h->pid, &rss, &has_mm, &killed))
		return;
	if (rss > h->rss_peak_kb)
		h->rss_peak_kb = rss;
	if (!h->t_killed && killed) {
		struct jl j;

		h->t_killed = mono_ns();
		report_begin_event_at(&j, "victim-killed", h->t_killed);
		jl_i64(&j, "hog", h->idx);
		jl_i64(&j, "pid", h->pid);
		jl_u64(&j, "rss_kb", rss);
		report_end(&j);
	}
	/* Only while a thread still holds the mm: the normal exit path frees it
	 * after the mm is gone from every thread. */
	if (h->t_killed && !h->t_rss_drop && has_mm && h->rss_peak_kb > 4096 &&
	    rss * 2 < h->rss_peak_kb) {
		struct jl j;

		h->t_rss_drop = mono_ns();
		report_begin_event_at(&j, "victim-rss-drop", h->t_rss_drop);
		jl_i64(&j, "hog", h->idx);
		jl_i64(&j, "pid", h->pid);
		jl_u64(&j, "rss_kb", rss);
		jl_u64(&j, "rss_peak_kb", h->rss_peak_kb);
		report_end(&j);
	}
}

/* Starts the eaters and watches them until enough were lost, or time is up. */
static void eat_phase(struct hogrun *run)
{
	const struct cfg *cfg = &run->cfg;

	/* Keep the watcher's own pages resident: under reclaim its /proc
	 * sampling would otherwise stall behind its own page faults. */
	mlockall(MCL_CURRENT | MCL_FUTURE);
	kmsg_open(&run->km);
	run->have_vm = vmstat_get("oom_kill", &run->vm0) == 0;
	run->t0 = mono_ns();
	report_phase("eat", true);
	for (uint64_t i = 0; i < cfg->hogs; i++) {
		if (start_hog(cfg, &run->cg, &run->hogs[run->nhogs], run->nhogs)) {
			wl_err(NAME, "cannot start eater: %s", strerror(errno));
			break;
		}
		run->nhogs++;
		run->started++;
	}
	while (!wl_stop && run->lost < cfg->kills && mono_ns() - run->t0 < cfg->time_ns) {
		int alive = 0;

		for (int i = 0; i < run->nhogs; i++) {
			struct hog *h = &run->hogs[i];
			int status;

			if (!h->pid)
				continue;
			if (waitpid(h->pid, &status, WNOHANG) == h->pid) {
				reap_hog(run, h, status);
				continue;
			}
			alive++;
			watch_hog(h);
		}
		kmsg_poll(&run->km, run->hogs, run->nhogs);
		if (!alive)
			break;
		wl_sleep_ns(5000000);
	}
	report_phase("eat", false);
}

/* Survivors: we kill them; they are not counted as lost. */
static void kill_survivors(struct hogrun *run)
{
	for (int i = 0; i < run->nhogs; i++) {
		if (!run->hogs[i].pid)
			continue;
		run->hogs[i].we_killed = true;
		kill(run->hogs[i].pid, SIGKILL);
	}
	for (int i = 0; i < run->nhogs; i++) {
		if (!run->hogs[i].pid)
			continue;
		waitpid(run->hogs[i].pid, NULL, 0);
		wl_shared_free(run->hogs[i].shm, sizeof(*run->hogs[i].shm));
	}
}

/* The reaper's message can come after the victim is gone; the kernel log is
 * read a little longer for it. Returns whether the log could be read at all. */
static bool drain_kmsg(struct hogrun *run)
{
	struct kmsg_watch *km = &run->km;
	bool have_kmsg = km->fd >= 0;

	for (int i = 0; i < 20 && km->fd >= 0; i++) {
		kmsg_poll(km, run->hogs, run->nhogs);
		if (run->cfg.mode != MODE_REAPER || km->reaped_ours + km->unable_ours >= km->kills_ours)
			break;
		wl_sleep_ns(50000000);
	}
	if (km->fd >= 0)
		close(km->fd);
	return have_kmsg;
}

static void report_results(struct hogrun *run, bool have_kmsg)
{
	const struct kmsg_watch *km = &run->km;

	vmstat_get("oom_kill", &run->vm1);
	report_row(ROW(OOMHOG_VICTIMS_LOST), (double)run->lost, NULL);
	if (have_kmsg) {
		report_row(ROW(OOMHOG_KMSG_OOM_KILLS), (double)km->kills_ours, NULL);
		report_row(ROW(OOMHOG_KMSG_REAPED), (double)km->reaped_ours, NULL);
		if (km->first_kill_us && km->first_reap_us >= km->first_kill_us)
			report_row(ROW(OOMHOG_KMSG_KILL_TO_REAP),
				      (double)(km->first_reap_us - km->first_kill_us) * 1000.0, NULL);
	}
	report_row(ROW(OOMHOG_HOGS_STARTED), (double)run->started, NULL);
	if (run->first_loss)
		report_row(ROW(OOMHOG_FIRST_LOSS), (double)run->first_loss, NULL);
	if (run->have_vm)    /* needs CONFIG_VM_EVENT_COUNTERS */
		report_row(ROW(OOMHOG_VM_OOM_KILL), (double)(run->vm1 - run->vm0), NULL);
	if (run->cfg.mode == MODE_REAPER) {
		if (run->kill_to_drop)
			report_row(ROW(OOMHOG_KILL_TO_RSS_DROP), (double)run->kill_to_drop, NULL);
		if (run->kill_to_exit)
			report_row(ROW(OOMHOG_KILL_TO_EXIT), (double)run->kill_to_exit, NULL);
	}
	cgroup_report_and_cleanup(&run->cg);
	fprintf(stderr, "%s: %llu victims lost of %llu eaters started; vm oom_kill +%llu\n",
		NAME, (unsigned long long)run->lost, (unsigned long long)run->started,
		(unsigned long long)(run->vm1 - run->vm0));
}

int oom_hog_main(int argc, char **argv)
{
	struct hogrun run;
	bool done;
	int r;

	memset(&run, 0, sizeof(run));
	run.memtotal = wl_mem_total_bytes();
	run.cfg = (struct cfg){
		.mode = MODE_MEMCG, .hogs = 1, .chunk = 1ul << 20,
		.memcg_max = 64ul << 20, .io_size = 1ul << 20, .io_threads = 3,
		.time_ns = 120000000000ull, .victim_adj = 1000, .self_adj = -1000,
	};
	r = parse_args(&run, argc, argv, &done);
	if (done)
		return r;
	wl_start();
	r = setup(&run);
	if (r)
		return r;
	eat_phase(&run);
	kill_survivors(&run);
	bool have_kmsg = drain_kmsg(&run);
	munlockall();
	report_results(&run, have_kmsg);
	return WL_EXIT_OK;
}
