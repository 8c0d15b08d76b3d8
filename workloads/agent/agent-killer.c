/*
 * The job's killer (killer = NAME, common/proto/killer-kinds.h) as the
 * agent runs it: for a userspace kind, a child of the agent under the
 * row's comm, started through agent-child.c just before the job's command
 * and stopped after it, so that its kills fall in the window perf records.
 * Like the agent it is out of the OOM killer's reach (oom_score_adj -1000,
 * inherited), keeps its pages locked and runs at a real-time priority, as
 * lmkd and systemd-oomd are set up to, so that the pressure it is there to
 * relieve cannot stall it. What it runs is workloads/killers/killer-run.h's.
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agent-cgroup.h"
#include "agent-child.h"
#include "agent-ctl.h"
#include "agent-killer.h"
#include "agent-log.h"
#include "agent-ports.h"
#include "agent-setup.h"
#include "common/proto/killer-kinds.h"
#include "workloads/killers/killer-run.h"
#include "workloads/lib/report.h"

static pid_t killer = -1;
static int kind = KILLER_KIND_KERNEL;

/* What the child is given: the kind's settings, read from the job. */
static long settings[KILLER_KEYS_MAX];

static void run_killer(void *arg)
{
	(void)arg;
	const char *comm = killer_kinds[kind].comm;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		agent_log("%s: cannot lock its memory", comm);
	struct sched_param param = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &param) < 0)
		agent_log("%s: cannot run at a real-time priority", comm);
	const char *why = killer_run((enum killer_kind)kind)(settings, AGENT_CGROUP_MOUNT "/" WORKLOAD_CGROUP);
	ctl_event(CTL_WARNING, "message", why);
	_exit(1);
}

void killer_start(const struct job *job)
{
	int k = job->set.killer;
	if (k < 0) {
		/* the lab checked the profile: a spec it did not write */
		ctl_event(CTL_WARNING, "message", "the job names a killer the agent does not know");
		return;
	}
	const struct killer_kind_def *d = &killer_kinds[k];
	if (!killer_is_userspace((enum killer_kind)k) || !killer_run((enum killer_kind)k))
		return;
	kind = k;
	for (size_t i = 0; i < d->n_keys; i++)
		settings[i] = job->set.killer_v[i];
	struct agent_child c;
	agent_child_init(&c, d->comm);
	c.fn = run_killer;
	c.stdin_null = true;
	killer = agent_spawn(&c);
	if (killer > 0) {
		struct jl j;
		ctl_begin(&j, CTL_KILLER);
		jl_str(&j, KILLER_NAME, d->name);
		jl_i64(&j, KILLER_PID, killer);
		jl_emit(&j, port_fd(CHANNEL_CTL));
	}
}

void killer_stop(void)
{
	/* not when it ended early (a refused trigger) and the orphan reaper took
	 * it: its pid may be another process's by now */
	if (agent_child_alive(killer))
		agent_child_stop(killer, SIGTERM, 2.0, NULL, killer_kinds[kind].comm);
	killer = -1;
}
