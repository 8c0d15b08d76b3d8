/* apps: Android apps that come and go. N app processes, each with a working
 * set (anonymous memory it writes, file pages of the tools disk it reads,
 * and a binder connection with its own mapping, whose page array is the
 * allocation of seed 000), switched between foreground, visible,
 * perceptible, service, home (app 0 is the launcher), previous, service B
 * and cached by a seeded sequence (lib/app_sequence.h). Each switch, each
 * birth and death of an app, and the previous app's 60 s running out
 * write the apps' oom_score_adj as the activity manager does. Each app
 * runs in a memcg of its own (lib/app_memcg.h, --memcg). Bringing back an
 * app that was killed is a cold start (a new process named app-NN, its
 * working set and binder mapping again); bringing a live one to the front
 * is a warm start (it touches its working set again). Both are timed from
 * the switch to the app's "ready".
 *
 * The parent is the system server: it sets itself to oom_score_adj -1000
 * (as binder-mmap's parent and the agent do) so that neither the kernel nor
 * a low-memory killer takes it, and it holds almost nothing; the apps hold
 * the memory. An app can be SIGKILLed at any moment: the parent reaps it
 * and records its death with the tier it had.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/alloc-grow.h"
#include "common/proto/app-events.h"
#include "lib/app_memcg.h"
#include "lib/app_sequence.h"
#include "lib/args.h"
#include "lib/binder.h"
#include "lib/binder_setup.h"
#include "lib/check.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/rng.h"
#include "lib/stats.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME APPS_WORKLOAD
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&apps_metric_rows[id])

const char apps_usage[] =
"Usage: apps [OPTIONS]\n"
"Runs N app processes with a working set each (anonymous memory, file pages\n"
"of the tools disk, a binder connection with its mapping) and switches them\n"
"between foreground, visible, perceptible, service, home (app 0, the\n"
"launcher), previous, service B and cached by a seeded sequence, writing\n"
"each app's oom_score_adj as Android's ActivityManager does. A killed app\n"
"brought back starts cold, a live one warm; both are timed.\n"
"\n";

static const char apps_output[] =
"Events: app-switch (step, app, tier, prev_visible, wait_ms), app-state\n"
"(step, app, pid, tier, adj), app-launch (step, app, pid, kind cold/warm, ms,\n"
"ok, error, memcg), app-death (app, pid, signal, tier, adj, lived_ms),\n"
"apps-alive (alive, cached), app-memcg (dir, groups, moved), app-files,\n"
"binder-device; phase-begin/end (open-all, switch).\n";

/* --anon's default, a share of MemTotal: ten apps of 8% each hold 80% of
 * it, more than phone-512m's workload cgroup (75%) and, beside the kernel,
 * zram and the file pages, more than phone-512m-lmkd has free (no cgroup
 * limit there): either keeps swapping. */
#define ANON_DEFAULT      UINT64_MAX
#define ANON_DEFAULT_PCT  8

/* --memcg's words */
static const char *const memcg_modes[] = { "per-app", "none", NULL };
enum { MEMCG_PER_APP, MEMCG_NONE };

struct cfg {
	uint64_t napps, anon, file, map_size, switches, interval_ns, time_ns, seed, sample_ns;
	uint64_t launch_timeout_ns, random_pct, services;
	bool interval_walk;
	int parent_adj, memcg;
	const char *file_dir, *binderfs, *device;
};

/* What an app tells the parent through its ready pipe. */
struct app_msg {
	char code;              /* MSG_* */
	uint8_t step;           /* enum binder_open_step of a binder failure */
	int16_t pad;
	int32_t err;            /* positive errno */
};
enum { MSG_READY = 'R', MSG_BINDER = 'B', MSG_NOMEM = 'A', MSG_MEMCG = 'M' };

struct app {
	pid_t pid;              /* 0: not running */
	int cmd_wr, ready_rd;   /* the parent's ends of its pipes, -1 when closed */
	uint64_t born_ns;
};

/* The tools disk's files, read as one long span that the apps share out. */
struct file_entry {
	char *path;
	uint64_t size;          /* whole pages */
};
struct file_list {
	struct file_entry *files;
	size_t n, cap;
	uint64_t total;
};

struct run {
	struct cfg cfg;
	struct binder_device dev;
	struct file_list files;
	struct app apps[APPS_MAX];
	struct app_world world;
	struct app_step *steps;
	size_t nsteps;
	size_t steps_done;
	size_t cur_step;        /* the step being made or waited after */
	bool stopping;          /* the parent kills the apps itself: not deaths */
	/* launches and deaths */
	double *cold_ms, *warm_ms;
	size_t ncold, nwarm;            /* launches that became ready */
	uint64_t cold_starts, warm_starts;      /* launches begun: forks, 'T's sent */
	uint64_t launch_failures, open_failures, mmap_failures;
	uint64_t deaths, deaths_tier[APP_TIER_COUNT];
	uint64_t switch_ns;             /* when the switch phase began (0: not yet) */
	uint64_t first_kill_ns;         /* the first kill after it, from then */
	bool killed_in_switch;
	struct app_memcg memcg;
	uint64_t walk_rng;              /* the switch intervals' walk, from --seed */
	unsigned walk_ms;
	/* apps alive, sampled in the switch phase */
	uint64_t alive_samples, alive_sum, alive_min;
	uint64_t next_sample_ns;
	bool sampling;
	uint64_t t0_ns;         /* the model's clock starts here */
};

/* ---- the tools disk's files ---- */

static struct file_list *scan_list;

static int scan_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	struct file_list *l = scan_list;
	uint64_t size = (uint64_t)st->st_size / wl_page_size() * wl_page_size();

	(void)f;
	/* small files add little and cost an open each */
	if (type != FTW_F || !S_ISREG(st->st_mode) || size < (64u << 10))
		return 0;
	if (!ALLOC_GROW_TRY(l->files, l->n + 1, l->cap))
		return -1;
	char *copy = strdup(path);
	if (!copy)
		return -1;
	l->files[l->n++] = (struct file_entry){ copy, size };
	l->total += size;
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct file_entry *)a)->path, ((const struct file_entry *)b)->path);
}

/* Every file of DIR of 64 KiB or more, in path order (so that app i reads
 * the same pages in every trial). */
static int scan_files(struct file_list *l, const char *dir)
{
	scan_list = l;
	if (nftw(dir, scan_one, 16, FTW_PHYS) < 0)
		return -1;
	qsort(l->files, l->n, sizeof(*l->files), by_path);
	return 0;
}

/* ---- one app process ---- */

/* Touching: one write per page of the anonymous memory, one read per page of
 * the files. A cold start also fills the start of each page with random
 * words, --random percent of it (25 %: the first KiB of a 4 KiB page), and
 * leaves the rest zero, so that zram has to store about that share of each
 * page (an estimate from the layout), where a page of one repeated word
 * would cost it nothing. ChromeOS's memory.Stress uses 33 % and 67 %. */
struct working_set {
	uint8_t *anon;
	size_t anon_bytes;
	struct { const uint8_t *p; size_t len; } maps[64];
	size_t nmaps;
	struct binder_conn conn;
};

static void fill_anon(struct working_set *ws, unsigned random_pct, uint64_t seed)
{
	size_t page = wl_page_size(), words = app_random_bytes(page, random_pct) / sizeof(uint64_t);

	for (size_t off = 0; off < ws->anon_bytes; off += page) {
		uint64_t *w = (uint64_t *)(ws->anon + off);
		for (size_t i = 0; i < words; i++)
			w[i] = wl_random(&seed);
	}
}

static void touch(struct working_set *ws)
{
	size_t page = wl_page_size();
	volatile uint8_t sink = 0;

	for (size_t off = 0; off < ws->anon_bytes; off += page)
		ws->anon[off + 1024]++;
	for (size_t m = 0; m < ws->nmaps; m++)
		for (size_t off = 0; off < ws->maps[m].len; off += page)
			sink ^= ws->maps[m].p[off];
	(void)sink;
}

/* App A's share of the files: FILE bytes from A x FILE on, around the span. */
static void map_files(const struct run *run, unsigned a, struct working_set *ws)
{
	const struct file_list *l = &run->files;
	uint64_t want = run->cfg.file < l->total ? run->cfg.file : l->total;
	uint64_t pos = l->total ? (uint64_t)a * run->cfg.file % l->total : 0;

	for (size_t i = 0; want && l->total && ws->nmaps < 64;) {
		/* find the file holding POS */
		uint64_t start = 0;
		for (i = 0; i < l->n && start + l->files[i].size <= pos; i++)
			start += l->files[i].size;
		if (i == l->n) {
			pos = 0;
			continue;
		}
		uint64_t off = pos - start, len = l->files[i].size - off;
		if (len > want)
			len = want;
		int fd = open(l->files[i].path, O_RDONLY | O_CLOEXEC);
		void *p = fd >= 0 ? mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off) : MAP_FAILED;
		if (fd >= 0)
			close(fd);
		if (p != MAP_FAILED) {
			ws->maps[ws->nmaps].p = p;
			ws->maps[ws->nmaps++].len = len;
		}
		want -= len;
		pos = (pos + len) % l->total;
	}
}

static void tell(int fd, char code, uint8_t step, int err)
{
	struct app_msg m = { .code = code, .step = step, .err = err };

	while (write(fd, &m, sizeof(m)) < 0 && errno == EINTR)
		;
}

/* The app's life: binder first (as ProcessState does at start), then its
 * memory; "ready"; then a warm start for every 'T' until its pipe closes. */
static int app_main(const struct run *run, unsigned a, int adj, int cmd_rd, int ready_wr)
{
	struct working_set ws = { 0 };
	enum binder_open_step failed;
	char name[16], c;
	int r;

	snprintf(name, sizeof(name), APP_COMM_FORMAT, a);
	prctl(PR_SET_NAME, name);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	wl_set_oom_score_adj(0, adj);
	/* into its own memcg before it holds anything to charge */
	if (run->memcg.dir[0] && (r = app_memcg_enter(&run->memcg, a))) {
		tell(ready_wr, MSG_MEMCG, 0, -r);
		return 3;
	}
	r = binder_conn_open(&ws.conn, run->dev.path, run->cfg.map_size, &failed);
	if (r) {
		tell(ready_wr, MSG_BINDER, (uint8_t)failed, -r);
		return 3;
	}
	ws.anon_bytes = run->cfg.anon;
	if (ws.anon_bytes) {
		ws.anon = mmap(NULL, ws.anon_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (ws.anon == MAP_FAILED) {
			tell(ready_wr, MSG_NOMEM, 0, errno);
			return 3;
		}
		fill_anon(&ws, (unsigned)run->cfg.random_pct, run->cfg.seed * 1000003u + a + 1);
	}
	map_files(run, a, &ws);
	touch(&ws);
	tell(ready_wr, MSG_READY, 0, 0);
	for (;;) {
		ssize_t n = read(cmd_rd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		touch(&ws);
		tell(ready_wr, MSG_READY, 0, 0);
	}
}

/* ---- the parent: launches, deaths, samples ---- */

static int app_of_pid(const struct run *run, pid_t pid)
{
	for (unsigned a = 0; a < run->cfg.napps; a++)
		if (run->apps[a].pid == pid)
			return (int)a;
	return -1;
}

static void close_app_fds(struct app *ap)
{
	if (ap->cmd_wr >= 0)
		close(ap->cmd_wr);
	if (ap->ready_rd >= 0)
		close(ap->ready_rd);
	ap->cmd_wr = ap->ready_rd = -1;
}

/* The apps' oom_score_adj after a step, written where it changed. */
static void write_adj(struct run *run, size_t step, const struct app_world *before)
{
	for (unsigned a = 0; a < run->cfg.napps; a++) {
		bool tier_changed = before->tier[a] != run->world.tier[a];

		if (run->apps[a].pid && before->adj[a] != run->world.adj[a])
			wl_set_oom_score_adj(run->apps[a].pid, run->world.adj[a]);
		if (tier_changed) {
			struct jl j;
			report_begin_event(&j, APP_EVENT_STATE);
			jl_u64(&j, "step", step);
			jl_i64(&j, APP_FIELD_APP, a);
			jl_i64(&j, APP_FIELD_PID, run->apps[a].pid);
			jl_str(&j, APP_FIELD_TIER, app_tier_name(run->world.tier[a]));
			jl_i64(&j, "adj", run->world.adj[a]);
			report_end(&j);
		}
	}
}

/* The model's clock: ms since the sequence began. */
static uint64_t model_ms(const struct run *run)
{
	return (mono_ns() - run->t0_ns) / 1000000;
}

/* App A's process began or ended: the model follows (ActivityManager
 * re-ranks the others), and the adj that changed are written. */
static void model_running(struct run *run, unsigned a, bool running)
{
	struct app_world before = run->world;

	app_world_set_running(&run->world, a, running);
	write_adj(run, run->cur_step, &before);
}

/* Time passed: the previous app's 700 may have run out. */
static void model_tick(struct run *run)
{
	struct app_world before = run->world;

	if (run->steps && app_world_at(&run->world, model_ms(run)))
		write_adj(run, run->cur_step, &before);
}

static void app_died(struct run *run, unsigned a, int status)
{
	struct app *ap = &run->apps[a];
	enum app_tier tier = run->world.tier[a];
	char sbuf[64];
	struct jl j;

	if (WIFSIGNALED(status) && !run->stopping) {
		run->deaths++;
		run->deaths_tier[tier]++;
		/* the first app killed once the switching began */
		if (run->switch_ns && !run->killed_in_switch) {
			run->first_kill_ns = mono_ns() - run->switch_ns;
			run->killed_in_switch = true;
		}
	}
	if (!run->stopping) {
		report_begin_event(&j, APP_EVENT_DEATH);
		jl_i64(&j, APP_FIELD_APP, a);
		jl_i64(&j, APP_FIELD_PID, ap->pid);
		jl_str(&j, "status", wl_status_str(status, sbuf, sizeof(sbuf)));
		if (WIFSIGNALED(status))
			jl_i64(&j, APP_FIELD_SIGNAL, WTERMSIG(status));
		jl_str(&j, APP_FIELD_TIER, app_tier_name(tier));
		jl_i64(&j, "adj", run->world.adj[a]);
		jl_dbl(&j, "lived_ms", (double)(mono_ns() - ap->born_ns) / 1e6);
		report_end(&j);
	}
	ap->pid = 0;
	close_app_fds(ap);
	if (!run->stopping)
		model_running(run, a, false);
}

/* Reaps every app that ended. */
static void reap(struct run *run)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		int a = app_of_pid(run, pid);
		if (a >= 0)
			app_died(run, (unsigned)a, status);
	}
}

static unsigned alive_count(const struct run *run, unsigned *cached)
{
	unsigned n = 0;

	*cached = 0;
	for (unsigned a = 0; a < run->cfg.napps; a++)
		if (run->apps[a].pid) {
			n++;
			*cached += run->world.tier[a] == APP_TIER_CACHED;
		}
	return n;
}

static void sample_alive(struct run *run)
{
	uint64_t now = mono_ns();
	unsigned cached, alive;
	struct jl j;

	if (!run->sampling || now < run->next_sample_ns)
		return;
	run->next_sample_ns = now + run->cfg.sample_ns;
	alive = alive_count(run, &cached);
	run->alive_samples++;
	run->alive_sum += alive;
	if (alive < run->alive_min)
		run->alive_min = alive;
	report_begin_event_at(&j, APP_EVENT_ALIVE, now);
	jl_u64(&j, APP_FIELD_ALIVE, alive);
	jl_u64(&j, APP_FIELD_CACHED, cached);
	report_end(&j);
}

/* Waits up to NS, reaping and sampling meanwhile. */
static void idle(struct run *run, uint64_t ns)
{
	uint64_t end = mono_ns() + ns;

	for (;;) {
		reap(run);
		model_tick(run);
		sample_alive(run);
		uint64_t now = mono_ns();
		if (now >= end || wl_stop)
			return;
		wl_sleep_ns(end - now < 20000000ull ? end - now : 20000000ull);
	}
}

/* Waits for app A's next message; false when it died or timed out first. */
static bool wait_ready(struct run *run, unsigned a, struct app_msg *m, const char **why)
{
	uint64_t end = mono_ns() + run->cfg.launch_timeout_ns;

	*why = NULL;
	while (run->apps[a].pid && !wl_stop) {
		struct pollfd p = { .fd = run->apps[a].ready_rd, .events = POLLIN };
		int r = poll(&p, 1, 20);

		if (r > 0) {
			ssize_t n = read(p.fd, m, sizeof(*m));
			if (n == (ssize_t)sizeof(*m))
				return m->code == MSG_READY;
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
				/* its end closed: it died, reap it */
				int status;
				if (waitpid(run->apps[a].pid, &status, 0) == run->apps[a].pid)
					app_died(run, a, status);
				*why = "died";
				return false;
			}
		}
		reap(run);
		model_tick(run);
		sample_alive(run);
		if (mono_ns() >= end) {
			*why = "timeout";
			return false;
		}
	}
	*why = wl_stop ? "stopped" : "died";
	return false;
}

/* Forks app A with its pipes; false when it could not. */
static bool fork_app(struct run *run, unsigned a, int adj)
{
	int cmd[2], ready[2];
	pid_t pid;

	if (pipe2(cmd, O_CLOEXEC) < 0)
		return false;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close(cmd[0]);
		close(cmd[1]);
		return false;
	}
	pid = fork();
	if (pid == 0) {
		/* no other app's pipe stays open here, or its end would never close */
		for (unsigned b = 0; b < run->cfg.napps; b++)
			close_app_fds(&run->apps[b]);
		close(cmd[1]);
		close(ready[0]);
		_exit(app_main(run, a, adj, cmd[0], ready[1]));
	}
	close(cmd[0]);
	close(ready[1]);
	if (pid < 0) {
		close(cmd[1]);
		close(ready[0]);
		return false;
	}
	run->apps[a].pid = pid;
	run->apps[a].cmd_wr = cmd[1];
	run->apps[a].ready_rd = ready[0];
	run->apps[a].born_ns = mono_ns();
	model_running(run, a, true);
	return true;
}

static void report_launch(size_t step, unsigned a, pid_t pid, bool cold, uint64_t t0, double ms,
			  bool ok, const char *error)
{
	struct jl j;

	report_begin_event_at(&j, APP_EVENT_LAUNCH, t0);
	jl_u64(&j, "step", step);
	jl_i64(&j, APP_FIELD_APP, a);
	jl_i64(&j, APP_FIELD_PID, pid);
	jl_str(&j, APP_FIELD_KIND, cold ? APP_LAUNCH_COLD : APP_LAUNCH_WARM);
	jl_dbl(&j, APP_FIELD_MS, ms);
	jl_bool(&j, APP_FIELD_OK, ok);
	if (error)
		jl_str(&j, "error", error);
	/* where a new app runs, as the kernel says (its memcg) */
	char cg[256];
	if (cold && ok && pid > 0 && !wl_own_cgroup(pid, cg, sizeof(cg)))
		jl_str(&j, "memcg", cg);
	report_end(&j);
}

/* Brings app A up: cold when it is not running, warm otherwise. */
static void launch(struct run *run, size_t step, unsigned a)
{
	bool cold = run->apps[a].pid == 0;
	uint64_t t0 = mono_ns();
	const char *why = NULL;
	struct app_msg m = { 0 };
	pid_t pid;
	bool ok;

	if (cold && !fork_app(run, a, run->world.adj[a])) {
		int err = errno;

		model_running(run, a, false);
		errno = err;
		run->launch_failures++;
		report_launch(step, a, 0, true, t0, 0, false, strerror(errno));
		return;
	}
	pid = run->apps[a].pid;
	if (cold)
		run->cold_starts++;
	else
		run->warm_starts++;
	if (!cold && write(run->apps[a].cmd_wr, "T", 1) != 1) {
		why = "died";
		ok = false;
	} else {
		ok = wait_ready(run, a, &m, &why);
	}
	if (!cold && !ok && why && !strcmp(why, "died")) {
		/* it was killed before it could answer: the user gets a cold start */
		report_launch(step, a, pid, false, t0, (double)(mono_ns() - t0) / 1e6, false, why);
		if (run->apps[a].pid) {
			int status;
			if (waitpid(run->apps[a].pid, &status, 0) == run->apps[a].pid)
				app_died(run, a, status);
		}
		launch(run, step, a);
		return;
	}
	double ms = (double)(mono_ns() - t0) / 1e6;
	if (ok) {
		if (cold)
			run->cold_ms[run->ncold++] = ms;
		else
			run->warm_ms[run->nwarm++] = ms;
		report_launch(step, a, pid, cold, t0, ms, true, NULL);
		return;
	}
	run->launch_failures++;
	if (m.code == MSG_BINDER) {
		if (m.step == BSTEP_MMAP)
			run->mmap_failures++;
		else
			run->open_failures++;
		why = m.step == BSTEP_MMAP ? "binder-mmap" : "binder-open";
	} else if (m.code == MSG_NOMEM) {
		why = "anon-mmap";
	} else if (m.code == MSG_MEMCG) {
		why = "memcg";
	}
	report_launch(step, a, pid, cold, t0, ms, false, why);
}

static void do_step(struct run *run, size_t k, uint64_t wait_ns)
{
	const struct app_step *s = &run->steps[k];
	struct app_world before = run->world;
	struct jl j;

	report_begin_event(&j, APP_EVENT_SWITCH);
	jl_u64(&j, "step", k);
	jl_i64(&j, APP_FIELD_APP, s->app);
	jl_str(&j, APP_FIELD_TIER, app_tier_name((enum app_tier)s->tier));
	jl_bool(&j, "prev_visible", s->prev_visible);
	jl_u64(&j, "wait_ms", wait_ns / 1000000);
	report_end(&j);
	run->cur_step = k;
	app_world_apply(&run->world, s, model_ms(run));
	write_adj(run, k, &before);
	/* the front app, and a service the platform restarts, must run */
	if (s->tier == APP_TIER_FOREGROUND || (run->world.running[s->app] && !run->apps[s->app].pid))
		launch(run, k, s->app);
}

/* ---- options, setup, the run, the figures ---- */

static int parse_args(struct run *run, int argc, char **argv, bool *done)
{
	struct cfg *cfg = &run->cfg;
	struct wl_common com = { -1 };
	char err[256];
	const struct opt opts[] = {
		OPT_U64(0, "apps", &cfg->napps, "N", APPS_MIN, APPS_MAX,
			"app processes, app 0 the launcher (default 10)"),
		WL_OPT_MEM_SIZE(0, "anon", &cfg->anon, "SIZE", 0, 1ull << 40,
				"anonymous memory each app writes, or a share of MemTotal (default "
				"8%: ten apps hold 80%, more than phone-512m's workload cgroup, 75%, "
				"or than phone-512m-lmkd has free)"),
		WL_OPT_SIZE(0, "file", &cfg->file, "SIZE", 0, 1ull << 40,
			    "file pages of the tools disk each app reads (default 8M)"),
		WL_OPT_SIZE(0, "binder-map", &cfg->map_size, "SIZE", 4096, BINDER_MAP_MAX,
			    "each app's binder mapping (default 1M-8K, Android's; 4M for seed 000's "
			    "order-3 page array)"),
		OPT_U64(0, "switches", &cfg->switches, "N", 0, 1000000,
			"switches after every app was opened once (default 40)"),
		WL_OPT_DURATION(0, "interval", &cfg->interval_ns, "DUR",
				"pause between switches (default 500ms)"),
		OPT_FLAG(0, "interval-walk", &cfg->interval_walk,
			 "once every app was opened, pause as ChromeOS's memory.Stress does between "
			 "tab switches: a random walk seeded by --seed from 3 s, moving by up to 1 s "
			 "a switch, held within 1-5 s (in place of --interval)"),
		OPT_U64(0, "random", &cfg->random_pct, "PCT", 0, 100,
			"share of each anonymous page a cold start fills with random words, the rest "
			"zero: what zram must store (default 25, the first KiB of a 4 KiB page; "
			"ChromeOS's memory.Stress: 33 or 67)"),
		OPT_U64(0, "services", &cfg->services, "N", 0, APPS_MAX,
			"background services running at once, the newest third at adj 500 and the "
			"rest at 800; a new one stops the oldest (default 3)"),
		OPT_CHOICE(0, "memcg", &cfg->memcg, "MODE", memcg_modes,
			   "per-app: each app in a memory cgroup of its own under the workload's, "
			   "with no memory.max, as on a low-RAM Android device (default); none: all "
			   "in the workload's"),
		WL_OPT_DURATION(0, "time", &cfg->time_ns, "DUR",
				"stop switching after this long (default: no limit)"),
		OPT_U64(0, "seed", &cfg->seed, "N", 0, UINT64_MAX, "the sequence's seed (default 1)"),
		WL_OPT_DURATION(0, "sample", &cfg->sample_ns, "DUR",
				"apps-alive sample period (default 1s)"),
		WL_OPT_DURATION(0, "launch-timeout", &cfg->launch_timeout_ns, "DUR",
				"a launch not ready by then failed (default 60s)"),
		OPT_INT(0, "parent-oom-adj", &cfg->parent_adj, "N", -1000, 1000,
			"the parent's oom_score_adj (default -1000: the system server survives)"),
		OPT_STRING(0, "file-dir", &cfg->file_dir, "DIR",
			   "where the file pages come from (default /ro, the tools disk)"),
		OPT_STRING(0, "binderfs", &cfg->binderfs, "DIR",
			   "binderfs mount (default /dev/binderfs); a fresh device is made and removed"),
		OPT_STRING(0, "device", &cfg->device, "PATH", "use this existing binder device instead"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};
	int r = wl_parse_args(NAME, argc, argv, opts, apps_usage, apps_output, &com, done);

	if (*done)
		return r;
	*done = true;
	if (cfg->anon == ANON_DEFAULT)
		cfg->anon = wl_mem_total_bytes() / 100 * ANON_DEFAULT_PCT / wl_page_size() * wl_page_size();
	if (!cfg->map_size)
		cfg->map_size = (1u << 20) - 2 * wl_page_size();   /* Android's BINDER_VM_SIZE */
	if (cfg->map_size % wl_page_size())
		return wl_usage_error(NAME, "--binder-map must be a multiple of the page size (%zu)",
				      wl_page_size());
	if (cfg->sample_ns == 0)
		return wl_usage_error(NAME, "--sample must be more than 0");
	if (app_working_set_check((unsigned)cfg->napps, cfg->anon, cfg->file, wl_mem_total_bytes(),
				  err, sizeof(err)))
		return wl_usage_error(NAME, "%s", err);
	*done = false;
	return WL_EXIT_OK;
}

static int setup(struct run *run)
{
	const struct cfg *cfg = &run->cfg;
	struct jl j;

	/* an app that died with its pipe open must not take the parent along */
	signal(SIGPIPE, SIG_IGN);
	if (wl_set_oom_score_adj(0, cfg->parent_adj))
		wl_err(NAME, "cannot set own oom_score_adj to %d (not root?)", cfg->parent_adj);
	for (unsigned a = 0; a < APPS_MAX; a++)
		run->apps[a] = (struct app){ 0, -1, -1, 0 };
	if (cfg->file && (scan_files(&run->files, cfg->file_dir) < 0 || !run->files.total)) {
		wl_err(NAME, "--file-dir %s: no file of 64 KiB or more to read", cfg->file_dir);
		return WL_EXIT_FAIL;
	}
	report_begin_event(&j, "app-files");
	jl_str(&j, "dir", cfg->file_dir);
	jl_u64(&j, "files", run->files.n);
	jl_u64(&j, "bytes", run->files.total);
	jl_u64(&j, "per_app", cfg->file < run->files.total ? cfg->file : run->files.total);
	report_end(&j);
	if (wl_binder_device_setup(NAME, &run->dev, cfg->device, cfg->binderfs))
		return WL_EXIT_FAIL;
	report_begin_event(&j, "mapping");
	jl_u64(&j, "map_size", cfg->map_size);
	/* one 32-byte entry per page of the mapping (binder_alloc_mmap_handler) */
	jl_u64(&j, "page_array_bytes", cfg->map_size / wl_page_size() * 32);
	report_end(&j);
	run->nsteps = cfg->napps + cfg->switches;
	run->steps = calloc(run->nsteps, sizeof(*run->steps));
	run->cold_ms = calloc(run->nsteps, sizeof(double));
	run->warm_ms = calloc(run->nsteps, sizeof(double));
	if (!run->steps || !run->cold_ms || !run->warm_ms) {
		wl_err(NAME, "out of memory for %zu steps", run->nsteps);
		return WL_EXIT_FAIL;
	}
	if (cfg->memcg == MEMCG_PER_APP) {
		char err[600];

		if (app_memcg_setup(&run->memcg, (unsigned)cfg->napps, err, sizeof(err))) {
			wl_err(NAME, "%s", err);
			return WL_EXIT_FAIL;
		}
		report_begin_event(&j, "app-memcg");
		jl_str(&j, "dir", run->memcg.dir);
		jl_u64(&j, "groups", cfg->napps);
		jl_u64(&j, "moved", run->memcg.moved);
		report_end(&j);
	}
	app_sequence_make(cfg->seed, (unsigned)cfg->napps, run->steps, run->nsteps);
	app_world_init(&run->world, (unsigned)cfg->napps, (unsigned)cfg->services);
	/* the intervals' walk draws from its own stream: the sequence stays --seed's */
	run->walk_rng = cfg->seed ^ 0x5157a11c0ffee000ull;
	run->walk_ms = APP_WALK_START_MS;
	run->t0_ns = mono_ns();
	return WL_EXIT_OK;
}

static void run_sequence(struct run *run)
{
	const struct cfg *cfg = &run->cfg;
	uint64_t t_switch = 0;

	report_phase("open-all", true);
	for (size_t k = 0; k < run->nsteps && !wl_stop; k++) {
		if (k == cfg->napps) {
			report_phase("open-all", false);
			report_phase("switch", true);
			run->sampling = true;
			run->alive_min = UINT64_MAX;
			run->next_sample_ns = 0;
			t_switch = run->switch_ns = mono_ns();
		}
		if (k >= cfg->napps && cfg->time_ns && mono_ns() - t_switch >= cfg->time_ns)
			break;
		uint64_t wait_ns = cfg->interval_ns;
		if (k >= cfg->napps && cfg->interval_walk) {
			run->walk_ms = app_walk_next(&run->walk_rng, run->walk_ms);
			wait_ns = (uint64_t)run->walk_ms * 1000000;
		}
		do_step(run, k, wait_ns);
		run->steps_done++;
		idle(run, wait_ns);
	}
	report_phase(run->sampling ? "switch" : "open-all", false);
}

static void stop_apps(struct run *run)
{
	run->stopping = true;
	for (unsigned a = 0; a < run->cfg.napps; a++)
		if (run->apps[a].pid)
			kill(run->apps[a].pid, SIGKILL);
	for (unsigned a = 0; a < run->cfg.napps; a++) {
		int status;
		if (run->apps[a].pid && waitpid(run->apps[a].pid, &status, 0) == run->apps[a].pid)
			app_died(run, a, status);
		close_app_fds(&run->apps[a]);
	}
}

/* The launch times' p50 and p95 (V sorted in place); false when there were none. */
static bool latencies(double *v, size_t n, struct summary *s)
{
	if (!n)
		return false;
	wl_summarize(v, n, s);
	return true;
}

static void report_results(struct run *run)
{
	size_t switches = run->steps_done;
	struct summary s;

	report_row(ROW(APPS_SWITCHES), (double)(switches), NULL);
	report_row(ROW(APPS_COLD_STARTS), (double)run->cold_starts, NULL);
	report_row(ROW(APPS_WARM_STARTS), (double)run->warm_starts, NULL);
	report_row(ROW(APPS_LAUNCH_FAILURES), (double)run->launch_failures, NULL);
	if (latencies(run->cold_ms, run->ncold, &s)) {
		report_row(ROW(APPS_COLD_LAUNCH_P50), s.p50, NULL);
		report_row(ROW(APPS_COLD_LAUNCH_P95), s.p95, NULL);
	}
	if (latencies(run->warm_ms, run->nwarm, &s)) {
		report_row(ROW(APPS_WARM_LAUNCH_P50), s.p50, NULL);
		report_row(ROW(APPS_WARM_LAUNCH_P95), s.p95, NULL);
	}
	report_row(ROW(APPS_DEATHS), (double)run->deaths, NULL);
	/* absent, not 0, when no app was killed once the switching began */
	if (run->killed_in_switch)
		report_row(ROW(APPS_FIRST_KILL), (double)run->first_kill_ns / 1e6, NULL);
	for (int t = 0; t < APP_TIER_COUNT; t++)
		report_rowl(ROW(APPS_DEATHS), (double)run->deaths_tier[t], "tier",
			       app_tier_name((enum app_tier)t), NULL);
	if (run->alive_samples) {
		report_row(ROW(APPS_ALIVE_MEAN), (double)run->alive_sum / (double)run->alive_samples,
			      NULL);
		report_row(ROW(APPS_ALIVE_MIN), (double)run->alive_min, NULL);
	}
	report_row(ROW(APPS_BINDER_OPEN_FAILURES), (double)run->open_failures, NULL);
	report_row(ROW(APPS_BINDER_MMAP_FAILURES), (double)run->mmap_failures, NULL);
	fprintf(stderr, "%s: %zu steps, %zu cold and %zu warm starts, %llu launches failed, "
		"%llu apps killed\n", NAME, switches, (size_t)run->cold_starts, (size_t)run->warm_starts,
		(unsigned long long)run->launch_failures, (unsigned long long)run->deaths);
}

int apps_main(int argc, char **argv)
{
	struct run run = {
		.cfg = { .napps = 10, .anon = ANON_DEFAULT, .file = 8ull << 20,
			 .switches = 40, .interval_ns = 500000000ull,
			 .seed = 1, .sample_ns = 1000000000ull, .launch_timeout_ns = 60000000000ull,
			 .random_pct = 25, .services = APP_SERVICES_DEFAULT,
			 .parent_adj = -1000, .memcg = MEMCG_PER_APP, .file_dir = "/ro" },
	};
	bool done;
	int r = parse_args(&run, argc, argv, &done);

	if (done)
		return r;
	wl_start();
	r = setup(&run);
	if (!r) {
		run_sequence(&run);
		stop_apps(&run);
		report_results(&run);
	}
	app_memcg_teardown(&run.memcg);
	free(run.steps);
	free(run.cold_ms);
	free(run.warm_ms);
	for (size_t i = 0; i < run.files.n; i++)
		free(run.files.files[i].path);
	free(run.files.files);
	if (run.dev.created)
		binder_device_remove(&run.dev);
	return r;
}
