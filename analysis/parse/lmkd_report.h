/* lmkd_report.h - the guest low-memory killer's lines in a trial's kernel
 * log (kmsg.log), gathered: each kill with its reap joined to it by pid,
 * and each PSI event that woke the killer. The lines themselves are
 * parsed by common/kernel-text/lmkd-lines.h, which says what they look like.
 */
#ifndef OOMLAB_LMKD_REPORT_H
#define OOMLAB_LMKD_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/kernel-text/kmsg.h"
#include "common/kernel-text/lmkd-lines.h"

struct lmkd_kill {
	struct lmkd_kill_line line;
	uint64_t usec;                  /* printk time stamp of the kill line */
	bool have_reap;                 /* a reap line followed */
	struct lmkd_reap_line reap;
};

struct lmkd_event {
	struct lmkd_event_line line;
	uint64_t usec;
};

struct lmkd_reports {
	struct lmkd_kill *kills;
	size_t n_kills, alloc_kills;
	struct lmkd_event *events;
	size_t n_events, alloc_events;
};

void lmkd_reports_init(struct lmkd_reports *r);
void lmkd_reports_release(struct lmkd_reports *r);
/* Feeds one kmsg record (anything not the killer's is ignored). */
void lmkd_reports_record(struct lmkd_reports *r, const struct kmsg_record *rec);

#endif
