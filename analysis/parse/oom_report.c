/* oom_report.c - the kernel's OOM kill and reap reports (oom_report.h). */
#include "oom_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void oom_reports_init(struct oom_reports *r)
{
	memset(r, 0, sizeof(*r));
}

void oom_reports_release(struct oom_reports *r)
{
	free(r->kills);
	free(r->reaps);
	free(r->pending);
	memset(r, 0, sizeof(*r));
}

void oom_reports_record(struct oom_reports *r, const struct kmsg_record *rec)
{
	struct oom_kill_report kill;
	struct oom_constraint_line cl;
	struct oom_reap_report reap;
	if (oom_parse_constraint_line(rec->text, &cl)) {
		ALLOC_GROW(r->pending, r->n_pending + 1, r->alloc_pending);
		r->pending[r->n_pending++] = cl;
	} else if (oom_parse_kill_line(rec->text, &kill)) {
		kill.usec = rec->usec;
		const char *constraint = kill.memcg_message ? "memcg" : "global";
		for (size_t i = r->n_pending; i-- > 0;) {
			if (r->pending[i].pid == kill.pid) {
				constraint = r->pending[i].constraint;
				snprintf(kill.constraint, sizeof(kill.constraint), "%s", constraint);
				r->pending[i] = r->pending[--r->n_pending];
				constraint = NULL;
				break;
			}
		}
		if (constraint)
			snprintf(kill.constraint, sizeof(kill.constraint), "%s", constraint);
		ALLOC_GROW(r->kills, r->n_kills + 1, r->alloc_kills);
		r->kills[r->n_kills++] = kill;
	} else if (oom_parse_reap_line(rec->text, &reap)) {
		reap.usec = rec->usec;
		ALLOC_GROW(r->reaps, r->n_reaps + 1, r->alloc_reaps);
		r->reaps[r->n_reaps++] = reap;
	} else if (strstr(rec->text, " invoked oom-killer: ")) {
		r->invocations++;
	}
}

void oom_reports_kmsg_fn(const struct kmsg_record *rec, void *ctx)
{
	oom_reports_record(ctx, rec);
}
