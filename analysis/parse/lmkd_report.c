/* lmkd_report.c - the guest low-memory killer's kills and events (lmkd_report.h). */
#include "lmkd_report.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void lmkd_reports_init(struct lmkd_reports *r)
{
	memset(r, 0, sizeof(*r));
}

void lmkd_reports_release(struct lmkd_reports *r)
{
	free(r->kills);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

void lmkd_reports_record(struct lmkd_reports *r, const struct kmsg_record *rec)
{
	if (strncmp(rec->text, LMKD_LINE_PREFIX, strlen(LMKD_LINE_PREFIX)))
		return;
	struct lmkd_kill kill = { .usec = rec->usec };
	struct lmkd_reap_line reap;
	struct lmkd_event event = { .usec = rec->usec };
	if (lmkd_parse_kill(rec->text, &kill.line)) {
		ALLOC_GROW(r->kills, r->n_kills + 1, r->alloc_kills);
		r->kills[r->n_kills++] = kill;
	} else if (lmkd_parse_reap(rec->text, &reap)) {
		/* the latest kill of that pid without its reap */
		for (size_t i = r->n_kills; i-- > 0;)
			if (r->kills[i].line.pid == reap.pid && !r->kills[i].have_reap) {
				r->kills[i].have_reap = true;
				r->kills[i].reap = reap;
				break;
			}
	} else if (lmkd_parse_event(rec->text, &event.line)) {
		ALLOC_GROW(r->events, r->n_events + 1, r->alloc_events);
		r->events[r->n_events++] = event;
	}
}
