/* Process helpers for the workloads: a stop flag set by SIGTERM/SIGINT,
 * clocks, start barriers over pipes, shared memory, child reaping. */
#ifndef OOMLAB_PROC_H
#define OOMLAB_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Set by SIGTERM / SIGINT once wl_stop_on_signals() is called. */
extern volatile sig_atomic_t wl_stop;
/* Installs the handlers without SA_RESTART so blocking calls return EINTR.
 * Also points binder_interrupt_flag at wl_stop. */
void wl_stop_on_signals(void);
/* Restore default dispositions (in children that must die on SIGTERM). */
void wl_default_signals(void);
/* In a child about to exec another program: the dispositions a shell gives
 * what it starts. oomlab-workload ignores SIGPIPE for its own writes, and an
 * ignored signal survives exec: test_memcontrol's sock case then saw EPIPE
 * where it waits for its server to die of SIGPIPE, and failed. */
void wl_exec_signals(void);

uint64_t wl_cpu_ns_process(void);      /* CLOCK_PROCESS_CPUTIME_ID */
uint64_t wl_cpu_ns_thread(void);       /* CLOCK_THREAD_CPUTIME_ID */
void wl_sleep_ns(uint64_t ns);         /* restarts on EINTR unless wl_stop */

/* A one-shot "ready" pipe: the child writes one byte, the parent waits
 * (with a timeout).  0 or -errno (-ETIMEDOUT, -EPIPE if the child died
 * before writing). */
struct wl_pipe { int rd, wr; };
int wl_pipe_open(struct wl_pipe *p);
void wl_pipe_close(struct wl_pipe *p);
int wl_pipe_signal(struct wl_pipe *p, char c);
int wl_pipe_wait(struct wl_pipe *p, char *c, int timeout_ms);

/* Anonymous MAP_SHARED memory (inherited across fork), zeroed. */
void *wl_shared_alloc(size_t size);
void wl_shared_free(void *p, size_t size);

/* waitpid with timeout (ms, <0 = forever); returns pid, 0 on timeout,
 * -errno. */
pid_t wl_waitpid_timeout(pid_t pid, int *status, int timeout_ms);
/* "exit 0", "killed by SIGKILL", ... */
const char *wl_status_str(int status, char *buf, size_t cap);

/* A counting barrier in MAP_SHARED memory for processes (futex based):
 * wl_barrier_arrive() adds one and wakes waiters; wl_barrier_wait() waits
 * until *ctr >= n.  Gives up with -ECANCELED when *abort becomes nonzero,
 * -ETIMEDOUT after timeout_ms (<0: never). */
void wl_barrier_arrive(volatile uint32_t *ctr);
int wl_barrier_wait(volatile uint32_t *ctr, uint32_t n,
		    volatile uint32_t *abort, int timeout_ms);

/* Raise RLIMIT_NOFILE to at least n (soft up to hard, hard too if root). */
int wl_raise_nofile(uint64_t n);

#endif
