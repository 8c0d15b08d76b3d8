/* app_timeline.h - the apps workload's life as its events in out.log tell
 * it (workloads/apps.c; workloads/README.md lists the events): for every
 * app, the spans of its tier and whether it was running, its launches and
 * its deaths, and the apps-alive samples. The report's timeline and the
 * Perfetto export's app lanes both draw from it.
 *
 * The events are replayed in time order (a launch is stamped with the time
 * of its switch but printed once the app is ready). An app is running from
 * its cold launch (the fork) to its death; its tier changes at each
 * app-state. Spans end where the next begins; the last ones at the last
 * event of the workload (a launch's ready included).
 */
#ifndef OOMLAB_APP_TIMELINE_H
#define OOMLAB_APP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct app_span {
	int app;
	int tier;               /* enum app_tier */
	bool alive;
	uint64_t begin_ns, end_ns;
};

struct app_launch_mark {
	int app;
	uint64_t t_ns;          /* the switch */
	double ms;              /* to ready (or to failing) */
	bool cold, ok;
};

struct app_death_mark {
	int app;
	uint64_t t_ns;
	int tier;               /* the tier it had */
	int signal;             /* 0: it exited */
};

struct app_alive_sample {
	uint64_t t_ns;
	unsigned alive, cached;
};

struct app_timeline {
	unsigned napps;         /* the highest app index seen + 1 */
	uint64_t start_ns, end_ns;
	struct app_span *spans;
	size_t n_spans;
	struct app_launch_mark *launches;
	size_t n_launches;
	struct app_death_mark *deaths;
	size_t n_deaths;
	struct app_alive_sample *alive;
	size_t n_alive;
};

/* Reads out.log at PATH: 0 with the timeline, -1 when it has no app event
 * (or cannot be read). TL is empty then, and safe to release either way. */
int app_timeline_read(const char *path, struct app_timeline *tl);
/* The same over out.log's text (LEN bytes). */
int app_timeline_parse(const char *text, size_t len, struct app_timeline *tl);
void app_timeline_release(struct app_timeline *tl);

#endif
