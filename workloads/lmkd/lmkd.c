/* The low-memory killer's setup and loop (lmkd.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lmkd.h"
#include "common/kernel-text/lmkd-lines.h"
#include "common/kernel-text/psi.h"
#include "workloads/lib/sysinfo.h"

/* How often the stall totals are sampled between events (lmkd-decide.h). */
#define SAMPLE_MS 100
/* lmkd's period over which refaults are held against the file LRU */
#define THRASHING_PERIOD_MS 1000
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
	k->thrashing_limit = cfg->v[LMKD_THRASHING_LIMIT_PERCENT];
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

void lmkd_log(const struct lmkd *k, const char *text)
{
	char line[512];
	/* <6>: KERN_INFO, as lmkd's kill reports are informational */
	int n = snprintf(line, sizeof(line), "<6>%s\n", text);
	if (k->kmsg_fd < 0 || write(k->kmsg_fd, line, (size_t)n) < 0)
		fprintf(stderr, "%s\n", text);
}

static void sample(struct lmkd *k, int64_t now)
{
	struct psi psi;
	if (lmkd_read_psi(&psi)) {
		lmkd_samples_add(&k->some, now, psi.some_total_us);
		lmkd_samples_add(&k->full, now, psi.full_total_us);
	}
	long long refaults, file_lru;
	if (now - k->base_ms < THRASHING_PERIOD_MS || !lmkd_read_file_lru(&refaults, &file_lru))
		return;
	/* a period ends: its thrashing is kept for the next, and a limit that
	 * decayed after kills comes back once a period stayed below it */
	if (k->base_ms) {
		k->prev_thrashing = lmkd_thrashing_percent(refaults, k->refault_base, k->file_lru_base);
		if (k->prev_thrashing < k->thrashing_limit)
			k->thrashing_limit = k->cfg.v[LMKD_THRASHING_LIMIT_PERCENT];
	}
	k->base_ms = now;
	k->refault_base = refaults;
	k->file_lru_base = file_lru;
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

static void maybe_kill(struct lmkd *k, bool some, bool full)
{
	static struct lmkd_proc procs[MAX_PROCS];
	struct lmkd_pressure p = { .some_fired = some, .full_fired = full,
				   .swap_free_low_percent = k->cfg.v[LMKD_SWAP_FREE_LOW_PERCENT],
				   .thrashing_limit = k->thrashing_limit };
	lmkd_read_swap(&p.swap_total_kb, &p.swap_free_kb);
	long long refaults, file_lru;
	if (k->base_ms && lmkd_read_file_lru(&refaults, &file_lru)) {
		long long now = lmkd_thrashing_percent(refaults, k->refault_base, k->file_lru_base);
		p.thrashing_percent = now > k->prev_thrashing ? now : k->prev_thrashing;
	}
	struct lmkd_decision d = lmkd_decide(&p);
	if (!d.reason)
		return;
	size_t n = lmkd_read_procs(procs, MAX_PROCS);
	/* the last victim, while it still exits, is not chosen again */
	for (size_t i = 0; i < n; i++)
		if (procs[i].pid == k->last_victim || procs[i].pid == getpid())
			procs[i].adj = -1;
	int v = lmkd_choose_victim(procs, n, d.min_adj);
	if (v < 0 || lmkd_kill(k, &procs[v], d.reason) < 0)
		return;
	if (!strcmp(d.reason, LMKD_REASON_THRASHING))
		k->thrashing_limit = k->thrashing_limit *
				     (100 - k->cfg.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT]) / 100;
}

void lmkd_loop(struct lmkd *k)
{
	for (;;) {
		struct pollfd fds[2] = { { .fd = k->some_fd, .events = POLLPRI },
					 { .fd = k->full_fd, .events = POLLPRI } };
		int r = poll(fds, 2, SAMPLE_MS);
		if (r < 0 && errno != EINTR)
			_exit(1);
		int64_t now = lmkd_now_ms();
		sample(k, now);
		if (r <= 0)
			continue;
		if ((fds[0].revents | fds[1].revents) & (POLLERR | POLLNVAL)) {
			fprintf(stderr, "lmkd: a PSI trigger went away\n");
			_exit(1);
		}
		bool some = fds[0].revents & POLLPRI, full = fds[1].revents & POLLPRI;
		if (some)
			log_event(k, 0, now);
		if (full)
			log_event(k, 1, now);
		maybe_kill(k, some, full);
	}
}
