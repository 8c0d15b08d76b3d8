/* The apps workload's pure parts: the seeded sequence of user actions, the
 * states and oom_score_adj they give every app (as Android's activity
 * manager sets them), and the check of the working set against the guest's
 * memory. No I/O here: the unit tests call them as the workload does.
 *
 * A step is one action: app A comes to the foreground (the user opens it),
 * or A starts a background service, or becomes perceptible (plays music).
 * The first NAPPS steps open every app once, in order (a phone's morning).
 * What the step does to the other apps:
 *   - the app in front goes to visible (100) when the step says so
 *     (prev_visible: split screen, a picture-in-picture), else to cached;
 *   - the visible app before that goes to cached;
 *   - a new service or perceptible app pushes the one before it to cached
 *     (one of each at a time);
 *   - cached apps get 900 + 10 x their place in the LRU order (the most
 *     recently in front first), at most 999, as Android's cached slots do.
 */
#ifndef OOMLAB_APP_SEQUENCE_H
#define OOMLAB_APP_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/app-tiers.h"

#define APPS_MAX 64
/* Between two cached apps next to each other in the LRU order. */
#define APP_CACHED_ADJ_STEP 10

struct app_step {
	uint16_t app;
	uint8_t tier;           /* APP_TIER_FOREGROUND, _PERCEPTIBLE or _SERVICE */
	bool prev_visible;      /* foreground: the app it replaces stays visible */
};

/* The first N steps of SEED's sequence for NAPPS apps (2..APPS_MAX): the
 * same SEED gives the same steps. */
void app_sequence_make(uint64_t seed, unsigned napps, struct app_step *out, size_t n);

struct app_world {
	unsigned n;
	enum app_tier tier[APPS_MAX];
	int adj[APPS_MAX];
	uint64_t last_used[APPS_MAX];   /* when it was last in front (0: never) */
	int fg, visible, perceptible, service;  /* the app in each, -1: none */
	uint64_t clock;
};

/* N apps, none opened yet: all cached, in index order. */
void app_world_init(struct app_world *w, unsigned n);
/* Applies one step: every app's tier and adj after it. */
void app_world_apply(struct app_world *w, const struct app_step *s);
/* The adj of the cached app at RANK in the LRU order (0: most recent). */
int app_cached_adj(unsigned rank);

/* NAPPS x (ANON + FILE) bytes fit in MEM_TOTAL: 0, else -1 with the reason
 * (naming the options) in ERR. */
int app_working_set_check(unsigned napps, uint64_t anon, uint64_t file, uint64_t mem_total,
			  char *err, size_t cap);

#endif
