/*
 * The guest's low-memory killer (workloads/lmkd/) as the agent runs it
 * when the profile says killer = lmkd: a child of the agent, started
 * through agent-child.c just before the job's command and stopped after
 * it, so that its kills fall in the window perf records. Like the agent it
 * is out of the OOM killer's reach (oom_score_adj -1000, inherited), keeps
 * its pages locked and runs at a real-time priority, as lmkd does, so that
 * the pressure it is there to relieve cannot stall it.
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agent.h"
#include "common/proto/lmkd-config.h"
#include "workloads/lib/report.h"
#include "workloads/lmkd/lmkd.h"

static pid_t killer = -1;

static void run_killer(void *arg)
{
	const struct lmkd_config *cfg = arg;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		agent_log("%s: cannot lock its memory", LMKD_COMM);
	struct sched_param param = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &param) < 0)
		agent_log("%s: cannot run at a real-time priority", LMKD_COMM);
	struct lmkd k;
	const char *why;
	if (lmkd_setup(&k, cfg, &why) < 0) {
		ctl_event(CTL_WARNING, "message", why);
		_exit(1);
	}
	lmkd_loop(&k);
}

bool lmkd_wanted(const struct job *job)
{
	return job->set.killer_lmkd;
}

void lmkd_start(const struct job *job)
{
	static struct lmkd_config cfg;
	cfg = job->set.lmkd;
	struct agent_child c;
	agent_child_init(&c, LMKD_COMM);
	c.fn = run_killer;
	c.arg = &cfg;
	c.stdin_null = true;
	killer = agent_spawn(&c);
	if (killer > 0) {
		struct jl j;
		ctl_begin(&j, CTL_KILLER);
		jl_str(&j, KILLER_NAME, KILLER_LMKD);
		jl_i64(&j, KILLER_PID, killer);
		jl_emit(&j, port_fd(CHANNEL_CTL));
	}
}

void lmkd_stop(void)
{
	/* not when it ended early (a refused trigger) and the orphan reaper took
	 * it: its pid may be another process's by now */
	if (agent_child_alive(killer))
		agent_child_stop(killer, SIGTERM, 2.0, NULL, LMKD_COMM);
	killer = -1;
}
