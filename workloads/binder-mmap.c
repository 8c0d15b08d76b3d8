/* binder-mmap: one or more processes open a binder device many times, each
 * open with its own mmap (4 MiB by default).  Every open is its own
 * binder_proc, and binder_alloc_mmap_handler allocates the page array for
 * the mapping: 4 MiB / 4 KiB pages * 32 bytes = 32 KiB, an order-3
 * allocation with kcalloc, order-0 pages with kvcalloc's vmalloc fallback.
 * That is the allocation the kcalloc/kvcalloc change is about.
 *
 * The opener processes write each outcome into shared memory; the parent
 * (protected at oom_score_adj -1000, like the agent) reports, so results
 * survive an opener being OOM-killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/check.h"
#include "lib/binder.h"
#include "lib/binder_setup.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/stats.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME "binder-mmap"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&binder_mmap_metric_rows[id])

const char binder_mmap_usage[] =
"Usage: binder-mmap [OPTIONS]\n"
"Opens a binder device many times, each open with its own read-only mmap, and\n"
"keeps them all open: each 4 MiB mapping makes the kernel allocate a 32 KiB\n"
"(order-3) page array (kcalloc) or fall back to vmalloc (kvcalloc).\n"
"\n";

static const char binder_mmap_output[] =
"Events: mmap-failed (first 20 per opener; errno, step, latency_ns),\n"
"mmap-stall (first 20 per opener), opener-killed (pid, signal, opens done),\n"
"phase-begin/end (open, hold, close).\n";

enum rec_state { REC_NONE, REC_OK, REC_FAIL };

struct rec {
	int32_t state;
	int32_t err;                 /* positive errno */
	int32_t step;                /* enum binder_open_step */
	int32_t pad;
	uint64_t t_ns;               /* CLOCK_MONOTONIC at start of open */
	uint64_t open_ns;            /* open + version */
	uint64_t mmap_ns;            /* mmap call (0 if not reached) */
};

struct opener_state {
	volatile int32_t done;       /* records written */
	volatile int32_t finished;   /* opener reached its normal end */
	int32_t pid;
};

struct cfg {
	uint64_t opens, procs, map_size, interval_ns, time_ns, hold_ns, stall_ns;
	uint64_t max_failures;
	int opener_adj;
	bool no_protect;
};

#define EVENT_CAP 20

static void event_failure(const struct rec *r, int proc, uint64_t idx)
{
	struct jl j;

	report_begin_event_at(&j, "mmap-failed", r->t_ns);
	jl_i64(&j, "opener", proc);
	jl_u64(&j, "index", idx);
	jl_str(&j, "step", binder_step_name((enum binder_open_step)r->step));
	jl_i64(&j, "errno", r->err);
	jl_str(&j, "error", strerror(r->err));
	jl_u64(&j, "latency_ns", r->step == BSTEP_MMAP ? r->mmap_ns : r->open_ns);
	report_end(&j);
}

static void event_stall(const struct rec *r, int proc, uint64_t idx)
{
	struct jl j;

	report_begin_event_at(&j, "mmap-stall", r->t_ns);
	jl_i64(&j, "opener", proc);
	jl_u64(&j, "index", idx);
	jl_u64(&j, "latency_ns", r->mmap_ns);
	jl_bool(&j, "ok", r->state == REC_OK);
	report_end(&j);
}

static int opener(const struct cfg *cfg, const char *path, int proc,
		  struct rec *recs, struct opener_state *st, int close_fd)
{
	char ch;
	struct binder_conn *conns = calloc(cfg->opens, sizeof(*conns));
	uint64_t start = mono_ns(), failures = 0, nconns = 0;
	unsigned fail_events = 0, stall_events = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	wl_set_oom_score_adj(0, cfg->opener_adj);
	if (!conns)
		return 1;
	for (uint64_t i = 0; i < cfg->opens; i++) {
		struct rec *r = &recs[i];
		struct binder_version v;
		uint64_t t1;
		int fd;
		void *m;

		if (cfg->time_ns && mono_ns() - start >= cfg->time_ns)
			break;
		r->t_ns = mono_ns();
		r->step = BSTEP_OPEN;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			r->step = BSTEP_VERSION;
			if (ioctl(fd, BINDER_VERSION, &v) < 0) {
				r->err = errno;
				close(fd);
				fd = -1;
			}
		} else {
			r->err = errno;
		}
		t1 = mono_ns();
		r->open_ns = t1 - r->t_ns;
		if (fd >= 0) {
			r->step = BSTEP_MMAP;
			m = mmap(NULL, cfg->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
			r->mmap_ns = mono_ns() - t1;
			if (m == MAP_FAILED) {
				r->err = errno;
				close(fd);
			} else {
				conns[nconns].fd = fd;
				conns[nconns].map = m;
				conns[nconns].map_size = cfg->map_size;
				nconns++;
				r->step = BSTEP_NONE;
			}
		}
		r->state = r->step == BSTEP_NONE ? REC_OK : REC_FAIL;
		__atomic_store_n(&st->done, (int32_t)(i + 1), __ATOMIC_RELEASE);
		if (r->state == REC_FAIL) {
			failures++;
			if (fail_events++ < EVENT_CAP)
				event_failure(r, proc, i);
		}
		if (r->mmap_ns >= cfg->stall_ns && stall_events++ < EVENT_CAP)
			event_stall(r, proc, i);
		if (cfg->max_failures && failures >= cfg->max_failures)
			break;
		if (cfg->interval_ns)
			wl_sleep_ns(cfg->interval_ns);
	}
	st->finished = 1;
	/* Wait for the parent to say "close" by closing the pipe (it handles
	 * --hold, so that all openers hold at the same time). */
	while (read(close_fd, &ch, 1) < 0 && errno == EINTR)
		;
	for (uint64_t i = 0; i < nconns; i++)
		binder_conn_close(&conns[i]);
	free(conns);
	return 0;
}

/* One run: the settings, the device, the openers and what they recorded. */
struct run {
	struct cfg cfg;
	const char *binderfs, *device;
	struct binder_device dev;
	struct rec *recs;               /* shared: cfg.opens per opener */
	struct opener_state *st;        /* shared: one per opener */
	size_t nrec, recs_bytes, st_bytes;
	pid_t *pids;                    /* 0 once reaped */
	struct wl_pipe closer;          /* closing it tells the openers to close */
	uint64_t killed;
};

static int parse_args(struct run *run, int argc, char **argv, bool *done)
{
	struct cfg *cfg = &run->cfg;
	struct wl_common com = { -1 };
	const struct opt opts[] = {
		OPT_U64(0, "opens", &cfg->opens, "N", 1, 1000000,
			"opens (each with an mmap) per process (default 1000)"),
		OPT_U64(0, "procs", &cfg->procs, "P", 1, 4096, "opener processes (default 1)"),
		WL_OPT_SIZE(0, "map-size", &cfg->map_size, "SIZE", 4096, BINDER_MAP_MAX,
			    "mapping size per open (default 4M, the driver's cap)"),
		WL_OPT_DURATION(0, "interval", &cfg->interval_ns, "DUR", "pause between opens (default 0)"),
		WL_OPT_DURATION(0, "time", &cfg->time_ns, "DUR",
				"stop opening after this long (default: no limit)"),
		WL_OPT_DURATION(0, "hold", &cfg->hold_ns, "DUR",
				"keep everything open this long before closing (default 0)"),
		WL_OPT_DURATION(0, "stall", &cfg->stall_ns, "DUR",
				"an mmap slower than this counts as a stall (default 10ms)"),
		OPT_U64(0, "max-failures", &cfg->max_failures, "N", 0, UINT32_MAX,
			"an opener stops after N failures (default 0: never)"),
		OPT_INT(0, "opener-oom-adj", &cfg->opener_adj, "N", -1000, 1000,
			"oom_score_adj of the openers (default 0; the parent sets itself to -1000 "
			"unless --no-protect)"),
		OPT_FLAG(0, "no-protect", &cfg->no_protect, "leave the parent's oom_score_adj alone"),
		OPT_STRING(0, "binderfs", &run->binderfs, "DIR",
			   "binderfs mount (default /dev/binderfs); a fresh device is made and removed"),
		OPT_STRING(0, "device", &run->device, "PATH", "use this existing binder device instead"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};
	int r = wl_parse_args(NAME, argc, argv, opts, binder_mmap_usage, binder_mmap_output, &com,
			      done);
	if (*done)
		return r;
	*done = true;
	if (cfg->map_size % wl_page_size())
		return wl_usage_error(NAME, "--map-size must be a multiple of the page size (%zu)",
				      wl_page_size());
	if (cfg->opens * cfg->procs > 4000000)
		return wl_usage_error(NAME, "--opens x --procs must stay below 4000000");
	*done = false;
	return WL_EXIT_OK;
}

/* The parent's protection, the file limit, the device and the shared records. */
static int setup(struct run *run)
{
	const struct cfg *cfg = &run->cfg;
	int r;

	if (!cfg->no_protect && wl_set_oom_score_adj(0, -1000))
		wl_err(NAME, "cannot set own oom_score_adj to -1000 (not root?)");
	r = wl_raise_nofile(cfg->opens + 64);
	if (r) {
		wl_err(NAME, "RLIMIT_NOFILE cannot be raised to %llu: %s",
		       (unsigned long long)(cfg->opens + 64), strerror(-r));
		return WL_EXIT_FAIL;
	}
	if (wl_binder_device_setup(NAME, &run->dev, run->device, run->binderfs))
		return WL_EXIT_FAIL;
	{
		struct jl j;

		report_begin_event(&j, "mapping");
		jl_u64(&j, "map_size", cfg->map_size);
		/* one 32-byte entry per page of the mapping: order 3 with 4 KiB pages, 0 with 16 KiB */
		jl_u64(&j, "page_array_bytes", cfg->map_size / wl_page_size() * 32);
		report_end(&j);
	}

	run->nrec = (size_t)(cfg->opens * cfg->procs);
	run->recs_bytes = run->nrec * sizeof(struct rec);
	run->st_bytes = (size_t)cfg->procs * sizeof(struct opener_state);
	run->recs = wl_shared_alloc(run->recs_bytes);
	run->st = wl_shared_alloc(run->st_bytes);
	run->pids = calloc(cfg->procs, sizeof(*run->pids));
	if (!run->recs || !run->st || !run->pids) {
		wl_err(NAME, "out of memory for %zu records", run->nrec);
		binder_device_remove(&run->dev);
		return WL_EXIT_FAIL;
	}
	if (wl_pipe_open(&run->closer)) {
		wl_err(NAME, "pipe: %s", strerror(errno));
		binder_device_remove(&run->dev);
		return WL_EXIT_FAIL;
	}
	return WL_EXIT_OK;
}

static void report_opener_end(uint64_t p, pid_t pid, int status, int32_t done, const char *name)
{
	char sbuf[64];
	struct jl j;

	report_begin_event(&j, name);
	jl_i64(&j, "opener", (int64_t)p);
	jl_i64(&j, "pid", pid);
	jl_str(&j, "status", wl_status_str(status, sbuf, sizeof(sbuf)));
	if (WIFSIGNALED(status))
		jl_i64(&j, "signal", WTERMSIG(status));
	jl_i64(&j, "opens_done", done);
	report_end(&j);
}

/* Starts the openers, and waits until every one finished opening or died. */
static void open_phase(struct run *run)
{
	const struct cfg *cfg = &run->cfg;

	report_phase("open", true);
	for (uint64_t p = 0; p < cfg->procs; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			wl_err(NAME, "fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			close(run->closer.wr);
			_exit(opener(cfg, run->dev.path, (int)p, run->recs + p * cfg->opens,
				     &run->st[p], run->closer.rd));
		}
		run->pids[p] = pid;
		run->st[p].pid = pid;
	}
	for (;;) {
		uint64_t busy = 0;

		for (uint64_t p = 0; p < cfg->procs; p++) {
			int status;

			if (!run->pids[p] || run->st[p].finished)
				continue;
			if (waitpid(run->pids[p], &status, WNOHANG) == run->pids[p]) {
				report_opener_end(p, run->pids[p], status, run->st[p].done,
						  WIFSIGNALED(status) ? "opener-killed" : "opener-exited");
				if (WIFSIGNALED(status))
					run->killed++;
				run->pids[p] = 0;
				continue;
			}
			busy++;
		}
		if (!busy || wl_stop)
			break;
		wl_sleep_ns(5000000);
	}
	report_phase("open", false);
}

static void hold_phase(const struct run *run)
{
	if (run->cfg.hold_ns && !wl_stop) {
		report_phase("hold", true);
		wl_sleep_ns(run->cfg.hold_ns);
		report_phase("hold", false);
	}
}

/* Tells the openers to close everything and reaps them. */
static void close_phase(struct run *run)
{
	const struct cfg *cfg = &run->cfg;

	report_phase("close", true);
	wl_pipe_close(&run->closer);           /* EOF: openers close and exit */
	if (wl_stop)
		for (uint64_t p = 0; p < cfg->procs; p++)
			if (run->pids[p])
				kill(run->pids[p], SIGKILL);
	for (uint64_t p = 0; p < cfg->procs; p++) {
		int status;

		if (!run->pids[p])
			continue;
		if (wl_waitpid_timeout(run->pids[p], &status, 60000) <= 0) {
			kill(run->pids[p], SIGKILL);
			waitpid(run->pids[p], &status, 0);
		}
		if (WIFSIGNALED(status) && !wl_stop) {
			run->killed++;
			report_opener_end(p, run->pids[p], status, run->st[p].done, "opener-killed");
		}
	}
	report_phase("close", false);
}

/* The metrics from every record the openers wrote. */
static void report_results(const struct run *run)
{
	const struct cfg *cfg = &run->cfg;
	uint64_t attempts = 0, ok = 0, enomem = 0, errors = 0, stalls = 0;
	double *mlat = calloc(run->nrec, sizeof(double));
	double *olat = calloc(run->nrec, sizeof(double));
	size_t nm = 0, no = 0;
	struct summary ms, os;

	for (uint64_t p = 0; p < cfg->procs; p++) {
		int32_t n = run->st[p].done;

		for (int32_t i = 0; i < n; i++) {
			const struct rec *rc = &run->recs[p * cfg->opens + (uint64_t)i];

			attempts++;
			if (rc->state == REC_OK)
				ok++;
			else if (rc->step == BSTEP_MMAP && rc->err == ENOMEM)
				enomem++;
			else
				errors++;
			if (rc->step == BSTEP_MMAP || rc->state == REC_OK) {
				if (mlat)
					mlat[nm++] = (double)rc->mmap_ns;
				if (rc->mmap_ns >= cfg->stall_ns)
					stalls++;
			}
			if (olat)
				olat[no++] = (double)rc->open_ns;
		}
	}
	wl_summarize(mlat, mlat ? nm : 0, &ms);
	wl_summarize(olat, olat ? no : 0, &os);
	report_row(ROW(MMAP_ATTEMPTS), (double)attempts, NULL);
	report_row(ROW(MMAP_OK), (double)ok, NULL);
	report_row(ROW(MMAP_ENOMEM), (double)enomem, NULL);
	report_row(ROW(MMAP_ERRORS), (double)errors, NULL);
	report_row(ROW(MMAP_STALLS), (double)stalls, NULL);
	report_row(ROW(MMAP_OPENERS_KILLED), (double)run->killed, NULL);
	if (ms.n) {
		report_row(ROW(MMAP_LATENCY_P50), ms.p50, NULL);
		report_row(ROW(MMAP_LATENCY_P99), ms.p99, NULL);
		report_row(ROW(MMAP_LATENCY_MAX), ms.max, NULL);
		report_row(ROW(MMAP_LATENCY_MEAN), ms.mean, NULL);
	}
	if (os.n) {
		report_row(ROW(MMAP_OPEN_LATENCY_P50), os.p50, NULL);
		report_row(ROW(MMAP_OPEN_LATENCY_MAX), os.max, NULL);
	}
	fprintf(stderr, "%s: %llu attempts: %llu ok, %llu ENOMEM, %llu other errors, "
		"%llu stalls >= %.1f ms, %llu openers killed; mmap p50 %.0f us p99 %.0f us max %.0f us\n",
		NAME, (unsigned long long)attempts, (unsigned long long)ok,
		(unsigned long long)enomem, (unsigned long long)errors,
		(unsigned long long)stalls, (double)cfg->stall_ns / 1e6,
		(unsigned long long)run->killed, ms.p50 / 1e3, ms.p99 / 1e3, ms.max / 1e3);
	free(mlat);
	free(olat);
}

static void teardown(struct run *run)
{
	free(run->pids);
	wl_shared_free(run->recs, run->recs_bytes);
	wl_shared_free(run->st, run->st_bytes);
	int r = binder_device_remove(&run->dev);
	if (r)
		wl_err(NAME, "removing %s: %s", run->dev.path, strerror(-r));
}

int binder_mmap_main(int argc, char **argv)
{
	struct run run = {
		.cfg = { .opens = 1000, .procs = 1, .map_size = BINDER_MAP_MAX,
			 .stall_ns = 10000000ull },
	};
	bool done;
	int r = parse_args(&run, argc, argv, &done);

	if (done)
		return r;
	wl_start();
	r = setup(&run);
	if (r)
		return r;
	open_phase(&run);
	hold_phase(&run);
	close_phase(&run);
	report_results(&run);
	teardown(&run);
	return WL_EXIT_OK;
}
