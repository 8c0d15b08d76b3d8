/*
 * The kernel's fault injection for the command's tasks alone
 * (common/proto/protocol.h): armed from the job's "fault." lines as the
 * workload window opens, disarmed and counted as it closes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent-ctl.h"
#include "agent-faults.h"
#include "agent-ports.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

#define FAULT_DEBUGFS "/sys/kernel/debug"

static int write_attr(const char *capability, const char *attr, const char *value)
{
	char path[256];
	snprintf(path, sizeof(path), FAULT_DEBUGFS "/%s/%s", capability, attr);
	int rc = wl_write_text(path, value);
	errno = -rc;
	return rc;
}

static long read_attr(const char *capability, const char *attr)
{
	char path[256];
	uint64_t v;
	snprintf(path, sizeof(path), FAULT_DEBUGFS "/%s/%s", capability, attr);
	return wl_read_u64(path, &v) == 0 ? (long)v : -1;
}

/* A fault line's key "fault.<capability>.<attribute>" (agent-job.c found
 * it by its prefix) into its two parts; false when it has no '.' after the
 * capability. */
static bool split_key(const char *key, char *capability, size_t cap_size, const char **attr)
{
	const char *cap = key + strlen(job_keys[JOB_KEY_FAULT].name), *dot = strchr(cap, '.');
	if (!dot || (size_t)(dot - cap) >= cap_size)
		return false;
	snprintf(capability, cap_size, "%.*s", (int)(dot - cap), cap);
	*attr = dot + 1;
	return true;
}

bool faults_wanted(const struct job *job)
{
	return job->set.n_faults > 0;
}

void faults_arm(const struct job *job)
{
	for (int f = 0; f < job->set.n_faults; f++) {
		int i = job->set.fault_line[f];
		char capability[64];
		const char *attr;
		if (!split_key(job->key[i], capability, sizeof(capability), &attr))
			continue;
		if (write_attr(capability, attr, job->value[i]) < 0) {
			char message[200];
			snprintf(message, sizeof(message), "fault injection: cannot set %s/%s to %s: %s",
				 capability, attr, job->value[i], strerror(errno));
			ctl_event(CTL_WARNING, "message", message);
		}
	}
}

/* The count of failures the job armed CAPABILITY with (its first "times"
 * line), or -1 when it armed none. */
static long armed_times(const struct job *job, const char *capability)
{
	for (int f = 0; f < job->set.n_faults; f++) {
		int i = job->set.fault_line[f];
		char cap[64];
		const char *attr;
		if (split_key(job->key[i], cap, sizeof(cap), &attr) && !strcmp(cap, capability) &&
		    !strcmp(attr, "times"))
			return strtol(job->value[i], NULL, 10);
	}
	return -1;
}

void faults_report(const struct job *job)
{
	for (int c = 0; c < FAULT_CAPABILITY_COUNT; c++) {
		const char *name = fault_capability_name[c];
		long armed = armed_times(job, name);
		if (armed < 0)
			continue;
		write_attr(name, "probability", "0");
		long left = read_attr(name, "times");
		struct jl j;
		ctl_begin(&j, CTL_FAULTS);
		jl_str(&j, FAULTS_CAPABILITY, name);
		/* "times" counts down once per failure forced */
		if (left >= 0 && left <= armed)
			jl_i64(&j, FAULTS_INJECTED, armed - left);
		jl_emit(&j, port_fd(CHANNEL_CTL));
	}
}
