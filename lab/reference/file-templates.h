/*
 * The files lab new writes: an experiment of "my variant against stock" and
 * a machine profile, each every key of its table (key-template.h) with the
 * required ones set to values that work here and the others commented out
 * with their defaults.
 */
#ifndef LAB_FILE_TEMPLATES_H
#define LAB_FILE_TEMPLATES_H

#include "common/util.h"

/* What the variants line names when no variant is given: a name the user
 * replaces, which lab run refuses ("variant 'MY-VARIANT' does not exist"). */
#define TEMPLATE_VARIANT "MY-VARIANT"
/* The profile and workload a new experiment runs: the smallest machine, and
 * a memory hog whose memory cgroup ends in OOM kills. */
#define TEMPLATE_PROFILE "tiny-256m"
#define TEMPLATE_WORKLOAD "oom-hog --mode memcg"

/* Experiment NAME comparing VARIANT (NULL: TEMPLATE_VARIANT) against stock,
 * to be written to FILE (which its head names), appended to SB; -1 with one line in ERR when the table has a required key
 * the template gives no value. */
int experiment_template(struct strbuf *sb, const char *name, const char *file, const char *variant,
			struct strbuf *err);
/* Profile NAME, appended to SB; -1 as experiment_template(). */
int profile_template(struct strbuf *sb, const char *name, struct strbuf *err);

#endif
