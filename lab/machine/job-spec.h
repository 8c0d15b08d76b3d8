/*
 * Lines of the guest's job spec (common/proto/job-keys.h), written key by
 * key through the table, so that the lab spells no key. The writers:
 * profile_job_spec() (profile.h), fault_plan_spec() (fault-inject.h) and
 * trial_job_spec() (trial.h), which puts the whole spec together.
 */
#ifndef LAB_JOB_SPEC_H
#define LAB_JOB_SPEC_H

#include "common/proto/job-keys.h"
#include "common/util.h"

/* Appends "KEY=VALUE\n", KEY the row's name. */
void job_spec_put(struct strbuf *sb, enum job_key key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends "NAME=VALUE\n" for a member of FAMILY: NAME must start with the
 * family's prefix (a bug otherwise). */
void job_spec_put_member(struct strbuf *sb, enum job_key family, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
