/* The low-memory killer's setup and loop (lmkd.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lmkd.h"
#include "lmkd-kill.h"
#include "lmkd-log.h"
#include "lmkd-system.h"
#include "lmkd-victim.h"
#include "common/kernel-text/lmkd-lines.h"
#include "common/kernel-text/psi.h"
#include "workloads/lib/sysinfo.h"

/* How often the stall totals are sampled for the event lines (lmkd-psi.h),
 * and /proc's adj scanned for the adj book (lmkd-adj-book.h). */
#define SAMPLE_MS 100
#define MAX_PROCS 2048

static const char *const kinds[2] = { "some", "full" };

static int open_trigger(const char *kind, long stall_ms, long window_ms)
{
	char text[64];
	if (lmkd_trigger_text(text, sizeof(text), kind, stall_ms, window_ms) < 0)
		return -1;
	int fd = open("/proc/pressure/memory", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* the kernel reads the text up to its NUL, which is written too */
	if (write(fd, text, strlen(text) + 1) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int lmkd_setup(struct lmkd *k, const struct lmkd_config *cfg, const char **why)
{
	memset(k, 0, sizeof(*k));
	k->cfg = *cfg;
	lmkd_tunables_from_config(&k->tun, cfg);
	lmkd_policy_init(&k->mem, &k->tun);
	k->victim_pidfd = -1;
	k->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	long window = cfg->v[LMKD_PSI_WINDOW_MS];
	k->some_fd = open_trigger("some", cfg->v[LMKD_PSI_PARTIAL_STALL_MS], window);
	k->full_fd = open_trigger("full", cfg->v[LMKD_PSI_COMPLETE_STALL_MS], window);
	if (k->some_fd < 0 || k->full_fd < 0) {
		*why = "the kernel refused a PSI trigger on /proc/pressure/memory (CONFIG_PSI?)";
		return -1;
	}
	/* one writer's lines beyond ten in five seconds are dropped by the
	 * default ratelimit of /dev/kmsg; every kill line must arrive. The
	 * kernel takes the word with its newline and nothing else. */
	if (wl_write_text("/proc/sys/kernel/printk_devkmsg", "on\n") < 0)
		fprintf(stderr, "lmkd: cannot turn /dev/kmsg's ratelimit off: lines may be lost\n");
	k->kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	return 0;
}

static void sample(struct lmkd *k, int64_t now)
{
	static int pids[MAX_PROCS], adjs[MAX_PROCS];
	struct psi psi;
	if (lmkd_read_psi(&psi)) {
		lmkd_samples_add(&k->some, now, psi.some_total_us);
		lmkd_samples_add(&k->full, now, psi.full_total_us);
	}
	lmkd_adj_book_scan(&k->book, pids, adjs, lmkd_read_adjs(pids, adjs, MAX_PROCS), now);
	k->last_sample_ms = now;
}

/* Logs what woke the killer: the stall it saw over the window, and how
 * long after the stall first reached the threshold the event came. */
static void log_event(struct lmkd *k, int kind, int64_t now)
{
	const struct lmkd_samples *s = kind ? &k->full : &k->some;
	long window = k->cfg.v[LMKD_PSI_WINDOW_MS];
	long threshold = k->cfg.v[kind ? LMKD_PSI_COMPLETE_STALL_MS : LMKD_PSI_PARTIAL_STALL_MS];
	int64_t crossed = lmkd_first_crossing(s, window, threshold, k->last_event_ms[kind]);
	struct lmkd_event_line e = { .stall_ms = lmkd_stall_over_window(s, window), .window_ms = window,
				     .threshold_ms = threshold,
				     .after_crossing_ms = crossed >= 0 ? now - crossed : -1 };
	snprintf(e.kind, sizeof(e.kind), "%s", kinds[kind]);
	k->last_event_ms[kind] = now;
	char text[256];
	lmkd_format_event(text, sizeof(text), &e);
	lmkd_log(k, text);
}

/* Kills one process at V's lowest adj or above, lmkd's way (lmkd-victim.h);
 * false when none could be killed. */
static bool kill_one(struct lmkd *k, const struct lmkd_verdict *v, const struct lmkd_kill_line *why, int64_t now)
{
	static struct lmkd_proc procs[MAX_PROCS];
	static struct lmkd_candidate cands[MAX_PROCS];
	static size_t at[MAX_PROCS];
	size_t n = lmkd_read_procs(procs, MAX_PROCS), m = 0;
	long page_kb = k->page_kb > 0 ? k->page_kb : 4;
	for (size_t i = 0; i < n; i++) {
		const struct lmkd_proc *p = &procs[i];
		/* not registered with lmkd on a phone: kernel threads, init, the
		 * killer, a victim it already killed */
		if (p->kernel_thread || p->pid <= 1 || p->pid == getpid() || p->pid == k->last_victim || p->adj < 0)
			continue;
		/* a process the book has not seen at this adj took it just now */
		/* filed as lmkd files it (the launcher at 200 with per-app memcgs);
		 * its time at that adj is its time at the adj it wrote */
		cands[m] = (struct lmkd_candidate){ .pid = p->pid,
						    .adj = lmkd_filed_adj(p->adj, k->cfg.v[LMKD_PER_APP_MEMCG]),
						    .adj_since_ms = lmkd_adj_book_since(&k->book, p->pid, p->adj, now),
						    .rss_pages = p->rss_kb / page_kb };
		at[m++] = i;
	}
	for (;;) {
		int c = lmkd_pick_victim(cands, m, v->min_adj, false);
		if (c < 0)
			return false;
		int pidfd = lmkd_kill(k, &procs[at[c]], why);
		if (pidfd >= 0) {
			k->victim_pidfd = pidfd;
			k->last_victim = procs[at[c]].pid;
			return true;
		}
		cands[c].gone = true;       /* gone meanwhile: the next */
	}
}

/* One decision cycle (lmkd-policy.h) on an event or a poll. */
static void cycle(struct lmkd *k, enum lmkd_wake wake, int64_t now)
{
	struct lmkd_sample s = { .wake = wake, .now_ms = now };
	s.unreadable = !lmkd_read_figures(&s, k->page_kb);
	struct lmkd_zone_reader zr = { lmkd_read_watermarks, NULL };
	struct lmkd_verdict v = lmkd_policy_decide(&k->mem, &k->tun, &s, &zr);
	/* what the decision compared, for the kill line (pages to kB) */
	const struct lmkd_watermarks *w = &k->mem.wmarks;
	struct lmkd_kill_line why = { .have_mem = k->mem.have_wmarks,
				      .free_kb = (s.mi.free - s.mi.cma_free) * k->page_kb,
				      .wmark_min_kb = w->min * k->page_kb, .wmark_low_kb = w->low * k->page_kb,
				      .wmark_high_kb = w->high * k->page_kb };
	snprintf(why.reason, sizeof(why.reason), "%s", lmkd_reason_name(v.reason));
	bool killed = v.reason != LMKD_NO_KILL && kill_one(k, &v, &why, now);
	lmkd_policy_after_kill(&k->mem, &k->tun, &v, wake, killed, lmkd_now_ms());
}

/* The victim died, or the kill timeout ran out: stop waiting for it. */
static void victim_done(struct lmkd *k, int64_t now)
{
	close(k->victim_pidfd);
	k->victim_pidfd = -1;
	lmkd_policy_victim_gone(&k->mem, now);
}

void lmkd_loop(struct lmkd *k)
{
	for (;;) {
		int64_t now = lmkd_now_ms();
		long wait = lmkd_policy_wait_ms(&k->mem, &k->tun, now);
		long to_sample = SAMPLE_MS - (long)(now - k->last_sample_ms);
		if (to_sample < 0)
			to_sample = 0;
		long timeout = wait < 0 || to_sample < wait ? to_sample : wait;
		/* poll() skips a negative fd: no victim awaited */
		struct pollfd fds[3] = { { .fd = k->some_fd, .events = POLLPRI },
					 { .fd = k->full_fd, .events = POLLPRI },
					 { .fd = k->victim_pidfd, .events = POLLIN } };
		int r = poll(fds, 3, (int)timeout);
		if (r < 0 && errno != EINTR)
			_exit(1);
		now = lmkd_now_ms();
		/* an event's line needs the stall up to now: a sample up to
		 * SAMPLE_MS old would leave the end of its window out */
		bool event = r > 0 && ((fds[0].revents | fds[1].revents) & POLLPRI);
		if (event || now - k->last_sample_ms >= SAMPLE_MS)
			sample(k, now);
		if (r > 0 && ((fds[0].revents | fds[1].revents) & (POLLERR | POLLNVAL))) {
			fprintf(stderr, "lmkd: a PSI trigger went away\n");
			_exit(1);
		}
		if (k->victim_pidfd >= 0 &&
		    ((r > 0 && (fds[2].revents & (POLLIN | POLLHUP))) ||
		     lmkd_policy_kill_timed_out(&k->mem, &k->tun, now)))
			victim_done(k, now);
		bool some = r > 0 && (fds[0].revents & POLLPRI), full = r > 0 && (fds[1].revents & POLLPRI);
		if (some)
			log_event(k, 0, now);
		if (full)
			log_event(k, 1, now);
		/* lmkd handles each event in turn; a partial one after a complete
		 * one is dropped as the lower (lmkd-policy.h step 1) */
		if (full)
			cycle(k, LMKD_WAKE_FULL, now);
		if (some)
			cycle(k, LMKD_WAKE_SOME, now);
		if (!some && !full && lmkd_policy_poll_due(&k->mem, now))
			cycle(k, LMKD_WAKE_POLL, now);
	}
}

const char *lmkd_run(const long *settings, const char *cgroup)
{
	static struct lmkd_config cfg;
	static struct lmkd k;
	const char *why;
	(void)cgroup;
	for (int i = 0; i < LMKD_KEY_COUNT; i++)
		cfg.v[i] = settings[i];
	if (lmkd_setup(&k, &cfg, &why) < 0)
		return why;
	lmkd_loop(&k);
}
