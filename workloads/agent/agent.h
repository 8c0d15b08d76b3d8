/*
 * The guest agent: PID 1 of every lab VM. It mounts what workloads need,
 * applies the profile (sysctls, zram swap, the workload cgroup), sends
 * snapshots of the memory state, runs the job's command, and reports
 * everything through virtio-serial ports that the host writes to files as
 * the bytes arrive, so a guest that panics or hangs loses nothing sent.
 */
#ifndef OOMLAB_AGENT_H
#define OOMLAB_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "agent-job.h"
#include "common/proto/protocol.h"

/* agent-ports.c: the channels (common/proto/protocol.h) as virtio-serial ports */
#define PORT_WRITE_MAX 4096
/* How long PID 1 waits for its ports to appear before falling back to the console. */
#define PORTS_WAIT_SECONDS 10.0
/* Where mount_filesystems puts cgroup v2. */
#define AGENT_CGROUP_MOUNT "/sys/fs/cgroup"
/* The workload cgroup's name under it (agent-cgroup.c). */
#define WORKLOAD_CGROUP "workload"
void ports_open(void);
/* Writes to a port in page-sized pieces (see agent-ports.c for why). */
void port_write(int fd, const char *data, size_t len);
/*
 * A pipe whose reader copies everything to the port in page-sized pieces,
 * for writers that write large chunks (perf, the command). Returns the
 * write end; relay_finish() waits for the copy once every writer closed it.
 */
int relay_start(enum channel port);
void relay_finish(enum channel port);
int port_fd(enum channel port);
const char *port_name(enum channel port);
/* Sends a file's current contents as one record on the files port. */
void send_file(const char *record_name, const char *path);
void send_buffer(const char *record_name, const char *data, size_t len);

/* agent-child.c: the one way the agent starts and stops a child */
struct agent_child {
	const char *name;           /* for messages; a function child's process name */
	const char *path;           /* the program to run, with argv ... */
	bool search_path;           /* path is looked up in $PATH (execvp) */
	const char *const *argv;
	void (*fn)(void *arg);      /* ... or a function to run, then exit */
	void *arg;
	int close_fd;               /* closed in the child (the other end of its pipe); -1: none */
	bool stdin_null;            /* stdin from /dev/null */
	int out, err;               /* stdout and stderr to these; -1: the agent's */
	const char *err_path;       /* stderr to this file (truncated) */
	int nice;                   /* niceness; 0: the agent's */
	bool oom_killable;          /* oom_score_adj 0 rather than the agent's -1000 */
	bool workload_cgroup;       /* in the workload cgroup */
	bool make_it_fail;          /* fault injection may fail its allocations, and its children's */
	bool new_session;
	bool controlling_tty;       /* stdin, stdout and stderr on the serial console, as its tty */
};
/* Every field off, the fds -1. */
void agent_child_init(struct agent_child *c, const char *name);
/* Starts the child; its pid, or -1 (logged). A program that cannot be run
 * ends the child as a shell says it: 127 not found, 126 not runnable. */
pid_t agent_spawn(const struct agent_child *c);
bool agent_child_alive(pid_t pid);
/* Waits up to SECONDS for PID to end, calling PUMP (may be NULL) meanwhile; true once it is gone. */
bool agent_child_wait(pid_t pid, double seconds, void (*pump)(void));
/* Sends SIG, waits up to SECONDS (calling PUMP), then SIGKILL; returns once it is gone. */
void agent_child_stop(pid_t pid, int sig, double seconds, void (*pump)(void), const char *name);

/* agent-setup.c */
void mount_filesystems(void);
/* The loopback interface up, and /etc/hosts naming localhost. */
void setup_loopback(void);
int mount_tools_disk(void);
/* Mounts the scratch disk, when the trial has one (DISK_SCRATCH_SERIAL), at
 * GUEST_SCRATCH_DISK_DIR: 0, or -1 with the reason said (a kernel without ext4). */
int mount_scratch_disk(void);
void apply_sysctls(const struct job *job);
int setup_zram(const struct job *job);
const char *find_disk_by_serial(const char *serial);

/* agent-cgroup.c */
int workload_cgroup_create(const struct job *job);
int workload_cgroup_enter(void);

/* agent-snapshot.c */
void send_snapshots(const char *when);
/* An edge of the stall window: WINDOW_EDGE_START or WINDOW_EDGE_END. */
struct job;
void send_window(const char *edge, const struct job *job);

/* agent-perf.c: launch (events off) 0 ready, 1 nothing asked for, -1 failed; then enable */
int perf_launch(const char *args_path);
int perf_enable(void);
/* The events perf records, "," separated ("" before perf_launch). */
const char *perf_recorded_events(void);
/* Has perf send what it recorded so far (called a few times a second). */
void perf_flush(void);
/* agent-pin.c: mlocks the file pages process PID has resident; the bytes locked */
uint64_t pin_file_pages_of(pid_t pid);
void perf_stop(void);

/* agent-prepare.c: 0 ready, 1 nothing to prepare, -1 failed */
int prepare_start(const struct job *job);
void prepare_pump(void);
void prepare_stop(void);
/* The orphan reaper's hook: true when PID was the prepare step (its status is kept). */
bool prepare_reaped(pid_t pid, int status);
/* Says CTL_PREPARE_LOST when the prepare step is gone while the workload still ran. */
void prepare_report_lost(void);

/* agent-faults.c: the kernel's fault injection, for the command's tasks alone */
bool faults_wanted(const struct job *job);
/* Writes the job's "fault." lines to debugfs, in their order (protocol.h). */
void faults_arm(const struct job *job);
/* Disarms each armed capability and sends CTL_FAULTS with the failures forced. */
void faults_report(const struct job *job);

/* agent-line.c: `/init --run-line N PROGRAM ARGS...` (common/proto/workload-line.h) */
int run_line_main(int argc, char **argv);

/* agent-killer.c: the job's userspace killer (killer = NAME), if any */
void killer_start(const struct job *job);
void killer_stop(void);

/* agent-kmsg.c */
void start_kmsg_forwarder(void);

/* agent.c */
void agent_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Starts a control-channel record: its type, uptime and t_mono_ns (protocol.h). */
struct jl;
void ctl_begin(struct jl *j, const char *type);
void ctl_event(const char *type, const char *key, const char *value);
/* The hello event: the guest's machine and page size (common/proto/protocol.h). */
void ctl_hello(void);
/* CTL_WINDOW: an edge of the stall window, read at read_ns; at the start
 * also the fragmentation (protocol.h). */
struct window_state {
	const char *edge;
	uint64_t read_begin_ns, read_ns;	/* just before and just after the reads */
	int target_order;
	int64_t free_blocks_ge;		/* -1: unknown */
	long target_max_blocks;		/* -1: no target */
};
void ctl_window(const struct window_state *w);
void protect_from_oom_killer(void);
double uptime_seconds(void);

#endif
