/*
 * The guest agent: PID 1 of every lab VM. It mounts what workloads need,
 * applies the profile (sysctls, zram swap, the workload cgroup), sends
 * snapshots of the memory state, runs the job's command, and reports
 * everything through virtio-serial ports that the host writes to files as
 * the bytes arrive, so a guest that panics or hangs loses nothing sent.
 *
 * This file is its main flow: set up, report ready, run the job, end the VM.
 * The modules it runs, agent-*.c, each with its header, depend downward and
 * never call back here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent-cgroup.h"
#include "agent-child.h"
#include "agent-ctl.h"
#include "agent-faults.h"
#include "agent-killer.h"
#include "agent-kmsg.h"
#include "agent-line.h"
#include "agent-log.h"
#include "agent-perf.h"
#include "agent-ports.h"
#include "agent-prepare.h"
#include "agent-restore.h"
#include "agent-self.h"
#include "agent-setup.h"
#include "agent-snapshot.h"
#include "common/kernel-text/kv.h"
#include "common/kernel-text/psi.h"
#include "common/proto/cgroup2-options.h"
#include "common/proto/workload-line.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

#define HEARTBEAT_SECONDS 1.0
#define PERF_FLUSH_SECONDS 0.1

static void ctl_exit(int status)
{
	struct jl j;
	ctl_begin(&j, CTL_EXIT);
	if (WIFEXITED(status))
		jl_i64(&j, "status", WEXITSTATUS(status));
	else if (WIFSIGNALED(status)) {
		jl_i64(&j, "status", 128 + WTERMSIG(status));
		jl_i64(&j, "signal", WTERMSIG(status));
	}
	char clocksource[32];
	if (wl_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			 clocksource, sizeof(clocksource)) >= 0)
		jl_str(&j, EXIT_CLOCKSOURCE, clocksource);
	jl_emit(&j, port_fd(CHANNEL_CTL));
}

/* PATH's whole text, or NULL. */
static char *slurp(const char *path)
{
	char *text;
	return wl_read_text_alloc(path, &text) < 0 ? NULL : text;
}

/* The job's files; the spec read through agent-job.c. A spec line nothing
 * reads is a key the lab and the agent disagree on: said on the console. */
static void load_job(struct job *job)
{
	job_read(job, slurp(JOB_DIR "/" JOB_SPEC));
	for (int i = 0; i < job->n; i++)
		if (!job->used[i])
			agent_log("the job's spec: nothing reads key %s", job->key[i]);
	if (job->dropped)
		agent_log("the job's spec: %d lines past the first %d dropped", job->dropped, JOB_LINES_MAX);
	job->cmd = slurp(JOB_DIR "/" JOB_CMD);
	job->prepare = slurp(JOB_DIR "/" JOB_PREPARE);
}

static void set_environment(void)
{
	setenv("PATH", GUEST_ENV_PATH, 1);
	setenv("HOME", GUEST_ENV_HOME, 1);
	setenv("TERM", GUEST_ENV_TERM, 1);
	setenv("OOMLAB_SCRATCH", GUEST_ENV_SCRATCH, 1);
	const char *slow = find_disk_by_serial(DISK_SLOW_SERIAL);
	if (slow)
		setenv("OOMLAB_SLOW_DISK", slow, 1);
}

/* The job's command (or, interactive, a shell on the console), killable and in the workload cgroup. */
static pid_t start_command(const struct job *job, bool interactive, int out)
{
	const char *shell[] = { "sh", "-i", NULL };
	const char *command[] = { "sh", "-c", job->cmd ? job->cmd : "true", NULL };
	struct agent_child c;
	agent_child_init(&c, "the command");
	c.path = "/bin/sh";
	c.argv = interactive ? shell : command;
	c.oom_killable = true;
	c.workload_cgroup = job->set.use_cgroup;
	c.make_it_fail = faults_wanted(job);
	c.new_session = true;
	c.controlling_tty = interactive;
	c.stdin_null = true;
	c.out = c.err = out;
	return agent_spawn(&c);
}

/* The value of KEY in a "Key: value" text (common/kernel-text/kv.h), or -1. */
static long long field(const char *text, const char *key)
{
	long long v;
	return text && kv_find(text, key, &v) ? v : -1;
}

/*
 * A heartbeat carries a sample of the memory state, so the host can draw
 * counter tracks over the trial: free and available memory, swap, the
 * workload cgroup's usage, and the PSI stall totals (microseconds).
 */
static void send_heartbeat(void)
{
	struct jl j;
	ctl_begin(&j, CTL_HEARTBEAT);
	char *meminfo = slurp("/proc/meminfo");
	jl_i64(&j, HB_MEM_FREE_KB, field(meminfo, "MemFree"));
	jl_i64(&j, HB_MEM_AVAILABLE_KB, field(meminfo, "MemAvailable"));
	jl_i64(&j, HB_SWAP_FREE_KB, field(meminfo, "SwapFree"));
	free(meminfo);
	char *current = slurp(AGENT_CGROUP_MOUNT "/workload/memory.current");
	if (current) {
		jl_i64(&j, HB_CGROUP_MEMORY, strtoll(current, NULL, 10));
		free(current);
	}
	char *text = slurp("/proc/pressure/memory");
	struct psi psi;
	if (text && psi_parse(text, &psi)) {
		if (psi.have_some)
			jl_i64(&j, HB_PSI_SOME_TOTAL_US, (int64_t)psi.some_total_us);
		if (psi.have_full)
			jl_i64(&j, HB_PSI_FULL_TOTAL_US, (int64_t)psi.full_total_us);
	}
	free(text);
	jl_emit(&j, port_fd(CHANNEL_CTL));
}

/* Waits for the command, reaping orphans (we are PID 1) and beating the heart. */
static int wait_for_command(pid_t command)
{
	double next_beat = uptime_seconds() + HEARTBEAT_SECONDS;
	double next_flush = uptime_seconds() + PERF_FLUSH_SECONDS;
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid == command)
			return status;
		if (pid > 0) {
			prepare_reaped(pid, status);
			continue;
		}
		prepare_pump();
		if (uptime_seconds() >= next_flush) {
			perf_flush();
			next_flush += PERF_FLUSH_SECONDS;
		}
		if (uptime_seconds() >= next_beat) {
			send_heartbeat();
			next_beat += HEARTBEAT_SECONDS;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	/* not as init: the experiment's script measuring one workload line */
	if (argc > 1 && !strcmp(argv[1], LINE_RUNNER_OPTION))
		return run_line_main(argc - 1, argv + 1);
	mount_filesystems();
	setup_loopback();
	protect_from_oom_killer();
	ports_open();
	report_set_source_key("source");
	report_set_source("agent");
	ctl_hello();
	start_kmsg_forwarder();

	struct job job;
	load_job(&job);
	if (mount_tools_disk() < 0)
		ctl_event(CTL_WARNING, "message", "no tools disk: only busybox is available");
	if (mount_scratch_disk() < 0)
		ctl_event(CTL_WARNING, "message", "the scratch disk could not be mounted: the "
			  "selftests work in the in-memory root");
	apply_sysctls(&job);
	if (remount_cgroup2(&job) < 0)
		ctl_event(CTL_WARNING, "message", "cgroup2 could not be remounted with the profile's "
			  "cgroup2_options: it has " CGROUP2_OPTIONS_DEFAULT);
	if (setup_zram(&job) < 0)
		ctl_event(CTL_WARNING, "message", "zram swap could not be set up");
	if (workload_cgroup_create(&job) < 0)
		ctl_event(CTL_WARNING, "message", "the workload cgroup could not be set up");
	set_environment();
	send_snapshots(SNAPSHOT_BEFORE);
	ctl_event(CTL_READY, NULL, NULL);
	/* boot once, restore per trial: the lab saves the VM here (agent-restore.h) */
	if (job.set.restore_point)
		restore_point_wait();

	int perf = perf_launch(JOB_DIR "/" JOB_PERF_ARGS);
	int prepared = prepare_start(&job);
	if (prepared == 0)
		ctl_event(CTL_PREPARED, NULL, NULL);
	else if (prepared < 0)
		ctl_event(CTL_WARNING, "message", "the prepare step failed; the workload runs anyway");
	if (perf == 0)
		perf = perf_enable();
	if (perf == 0)
		ctl_event(CTL_RECORDING, "events", perf_recorded_events());
	else if (perf < 0)
		ctl_event(CTL_WARNING, "message", "perf could not start: nothing is recorded");
	send_window(WINDOW_EDGE_START, &job);
	bool interactive = job.set.interactive;
	/*
	 * The command writes straight into its port, not through a relay: a line
	 * written just before a panic must already be on the host. Workloads
	 * write lines well under a page, so the driver's buffer stays small.
	 */
	killer_start(&job);
	faults_arm(&job);
	pid_t command = start_command(&job, interactive, port_fd(CHANNEL_OUT));
	int status = wait_for_command(command);
	ctl_event(CTL_COMMAND_DONE, NULL, NULL);
	killer_stop();
	prepare_report_lost();
	faults_report(&job);
	send_window(WINDOW_EDGE_END, &job);
	perf_stop();
	prepare_stop();
	send_snapshots(SNAPSHOT_AFTER);
	ctl_exit(status);
	sync();
	/*
	 * A reboot, not a power-off: QEMU runs with -no-reboot, so either ends
	 * it, and x86's microvm has no ACPI to power off with (a power-off
	 * there would halt, then panic on init's exit).
	 */
	reboot(RB_AUTOBOOT);
	return 0;
}
