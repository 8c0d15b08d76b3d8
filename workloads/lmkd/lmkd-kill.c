/*
 * A kill as lmkd makes one (lmkd-kill.h): SIGKILL through a pidfd, so the
 * signal cannot reach a new process that took a reused pid, then
 * process_mrelease() to free the victim's memory in the killer's own
 * context without waiting for the victim to run its exit. Both logged to
 * /dev/kmsg (common/kernel-text/lmkd-lines.h). The pidfd goes back to the
 * loop, which waits on it for the death (lmkd-policy.h: no decision until
 * then, or until kill_timeout_ms). The reap is made here, in the decision
 * loop; lmkd's reaper threads are not modelled (FIDELITY-LMKD.md 10).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lmkd-kill.h"
#include "lmkd-log.h"
#include "lmkd-system.h"
#include "common/kernel-text/lmkd-lines.h"
#include "common/kernel-text/psi.h"
#include "common/proto/app-tiers.h"
#include "workloads/lib/report.h"

/* The same numbers on x86_64 and arm64 (the generic syscall table); glibc
 * 2.36 wraps none of them. */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif

/* How long a reap is waited for before "was not reaped" is said. */
#define LMKD_REAP_WAIT_MS 1000

/* Waits up to MS for the pidfd to say its process is gone. */
static bool gone_within(int pidfd, long ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int r;
	do
		r = poll(&p, 1, (int)ms);
	while (r < 0 && errno == EINTR);
	return r > 0;
}

int lmkd_kill(struct lmkd *k, const struct lmkd_proc *p, const struct lmkd_kill_line *why)
{
	int pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (pidfd < 0)
		return -1;
	/* the agent stops the killer with SIGTERM as the command ends, which a
	 * kill can cause (its last child gone): the kill is logged first */
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	struct psi psi = { 0 };
	lmkd_read_psi(&psi);
	uint64_t t_mono_ns = mono_ns();
	int64_t t0 = (int64_t)(t_mono_ns / 1000000);
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) < 0) {
		close(pidfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	/* the SIGKILL's time in the trace lies between the two readings */
	uint64_t t_sent_ns = mono_ns();
	struct lmkd_kill_line kl = { .pid = p->pid, .oom_score_adj = p->adj, .rss_kb = p->rss_kb,
				     .swap_kb = lmkd_read_swapped_kb(p->pid), .psi_some = psi.some_avg10,
				     .psi_full = psi.full_avg10, .t_mono_ns = t_mono_ns, .t_sent_ns = t_sent_ns,
				     .have_mem = why->have_mem, .free_kb = why->free_kb,
				     .wmark_min_kb = why->wmark_min_kb, .wmark_low_kb = why->wmark_low_kb,
				     .wmark_high_kb = why->wmark_high_kb };
	snprintf(kl.comm, sizeof(kl.comm), "%s", p->comm);
	snprintf(kl.tier, sizeof(kl.tier), "%s", app_tier_name(app_tier_of_adj(p->adj)));
	snprintf(kl.reason, sizeof(kl.reason), "%s", why->reason);
	char text[512];
	lmkd_format_kill(text, sizeof(text), &kl);
	lmkd_log(k, text);
	k->last_victim = p->pid;

	/* 0: the victim's memory is freed; otherwise (it exited first, or the
	 * kernel has no process_mrelease) its exit says it */
	bool freed = syscall(SYS_process_mrelease, pidfd, 0) == 0;
	if (!freed)
		freed = gone_within(pidfd, LMKD_REAP_WAIT_MS);
	struct lmkd_reap_line rl = { .pid = p->pid, .reaped = freed, .ms = lmkd_now_ms() - t0 };
	lmkd_format_reap(text, sizeof(text), &rl);
	lmkd_log(k, text);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pidfd;
}
