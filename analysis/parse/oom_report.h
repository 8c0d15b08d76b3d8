/* oom_report.h - the kernel's own OOM reports in a trial's kernel log
 * (kmsg.log), gathered: the kills with their constraint, the reaps, and how
 * often the OOM killer was invoked. The lines themselves are parsed by
 * common/kernel-text/oom-lines.h, which says what they look like.
 */
#ifndef OOMLAB_OOM_REPORT_H
#define OOMLAB_OOM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/kernel-text/kmsg.h"
#include "common/kernel-text/oom-lines.h"

struct oom_reports {
	struct oom_kill_report *kills;
	size_t n_kills, alloc_kills;
	struct oom_reap_report *reaps;
	size_t n_reaps, alloc_reaps;
	struct oom_constraint_line *pending;    /* oom-kill: lines not yet matched to a kill */
	size_t n_pending, alloc_pending;
	uint64_t invocations;                   /* "invoked oom-killer" */
};

void oom_reports_init(struct oom_reports *r);
void oom_reports_release(struct oom_reports *r);
/* Feeds one kmsg record (anything not about OOM is ignored). */
void oom_reports_record(struct oom_reports *r, const struct kmsg_record *rec);
/* A kmsg_record_fn for kmsg_read(); CTX is a struct oom_reports. */
void oom_reports_kmsg_fn(const struct kmsg_record *rec, void *ctx);

#endif
