/* Process helpers; see proc.h. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "binder.h"
#include "report.h"

volatile sig_atomic_t wl_stop;

static void on_stop(int sig)
{
	(void)sig;
	wl_stop = 1;
}

void wl_stop_on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;            /* no SA_RESTART */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	binder_interrupt_flag = &wl_stop;
}

void wl_default_signals(void)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
}

void wl_exec_signals(void)
{
	wl_default_signals();
	signal(SIGPIPE, SIG_DFL);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t wl_cpu_ns_process(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }
uint64_t wl_cpu_ns_thread(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

void wl_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !wl_stop)
		;
}

int wl_pipe_open(struct wl_pipe *p)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	p->rd = fds[0];
	p->wr = fds[1];
	return 0;
}

void wl_pipe_close(struct wl_pipe *p)
{
	if (p->rd >= 0)
		close(p->rd);
	if (p->wr >= 0)
		close(p->wr);
	p->rd = p->wr = -1;
}

int wl_pipe_signal(struct wl_pipe *p, char c)
{
	ssize_t w;

	do {
		w = write(p->wr, &c, 1);
	} while (w < 0 && errno == EINTR);
	return w == 1 ? 0 : -errno;
}

int wl_pipe_wait(struct wl_pipe *p, char *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = p->rd, .events = POLLIN };
	uint64_t deadline = timeout_ms >= 0 ?
		mono_ns() + (uint64_t)timeout_ms * 1000000ull : 0;

	for (;;) {
		int left = -1, r;
		char ch;
		ssize_t n;

		if (timeout_ms >= 0) {
			uint64_t now = mono_ns();

			if (now >= deadline)
				return -ETIMEDOUT;
			left = (int)((deadline - now) / 1000000ull) + 1;
		}
		r = poll(&pfd, 1, left);
		if (r < 0) {
			if (errno == EINTR && !wl_stop)
				continue;
			return -errno;
		}
		if (r == 0)
			continue;
		n = read(p->rd, &ch, 1);
		if (n == 1) {
			if (c)
				*c = ch;
			return 0;
		}
		if (n == 0)
			return -EPIPE;
		if (errno != EINTR)
			return -errno;
	}
}

void *wl_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void wl_shared_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

pid_t wl_waitpid_timeout(pid_t pid, int *status, int timeout_ms)
{
	uint64_t deadline = timeout_ms >= 0 ?
		mono_ns() + (uint64_t)timeout_ms * 1000000ull : 0;

	for (;;) {
		pid_t r = waitpid(pid, status, timeout_ms < 0 ? 0 : WNOHANG);

		if (r > 0)
			return r;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (mono_ns() >= deadline)
			return 0;
		wl_sleep_ns(2000000);
	}
}

const char *wl_status_str(int status, char *buf, size_t cap)
{
	if (WIFEXITED(status))
		snprintf(buf, cap, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, cap, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?");
	else
		snprintf(buf, cap, "status 0x%x", status);
	return buf;
}

void wl_barrier_arrive(volatile uint32_t *ctr)
{
	__atomic_add_fetch(ctr, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, ctr, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

int wl_barrier_wait(volatile uint32_t *ctr, uint32_t n,
		    volatile uint32_t *abort, int timeout_ms)
{
	uint64_t deadline = timeout_ms >= 0 ?
		mono_ns() + (uint64_t)timeout_ms * 1000000ull : UINT64_MAX;

	for (;;) {
		uint32_t v = __atomic_load_n(ctr, __ATOMIC_SEQ_CST);
		struct timespec ts = { 0, 50000000 };    /* recheck abort */

		if (v >= n)
			return 0;
		if (abort && *abort)
			return -ECANCELED;
		if (mono_ns() >= deadline)
			return -ETIMEDOUT;
		syscall(SYS_futex, ctr, FUTEX_WAIT, v, &ts, NULL, 0);
	}
}

int wl_raise_nofile(uint64_t n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if (rl.rlim_cur >= n)
		return 0;
	if (rl.rlim_max < n) {
		rl.rlim_max = n;
		/* Only root may raise the hard limit (up to fs.nr_open). */
	}
	rl.rlim_cur = n;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	return 0;
}
