/* The apps workload's sequence, states and working-set check (app_sequence.h). */
#include "app_sequence.h"

#include <inttypes.h>
#include <stdio.h>

#include "rng.h"


/* Any app but NOT (NOT < 0: any app). */
static unsigned other_app(uint64_t *rng, unsigned napps, int not)
{
	unsigned a = wl_random_below(rng, not >= 0 ? napps - 1 : napps);

	return not >= 0 && a >= (unsigned)not ? a + 1 : a;
}

/* Users go back to the few apps they used last: RECENT[0] is the app in
 * front, RECENT[1..] the ones before it. */
#define RECENT_APPS 4

void app_sequence_make(uint64_t seed, unsigned napps, struct app_step *out, size_t n)
{
	uint64_t rng = seed;
	int recent[RECENT_APPS];

	for (int i = 0; i < RECENT_APPS; i++)
		recent[i] = -1;
	for (size_t k = 0; k < n; k++) {
		struct app_step *s = &out[k];
		unsigned roll = wl_random_below(&rng, 100);

		s->prev_visible = wl_random_below(&rng, 2);
		if (k < napps) {
			s->app = (uint16_t)k;
			s->tier = APP_TIER_FOREGROUND;
		} else if (roll < 70) {
			/* back to one of the last few three times in five, else any other */
			int pick = -1;

			if (wl_random_below(&rng, 5) < 3) {
				int r = 1 + (int)wl_random_below(&rng, RECENT_APPS - 1);
				pick = recent[r];
			}
			s->app = (uint16_t)(pick >= 0 ? (unsigned)pick : other_app(&rng, napps, recent[0]));
			s->tier = APP_TIER_FOREGROUND;
		} else {
			s->app = (uint16_t)other_app(&rng, napps, recent[0]);
			s->tier = roll < 85 ? APP_TIER_SERVICE : APP_TIER_PERCEPTIBLE;
		}
		if (s->tier != APP_TIER_FOREGROUND)
			continue;
		/* the app moves to the front of the recent list */
		int at = RECENT_APPS - 1;
		for (int i = 0; i < RECENT_APPS; i++)
			if (recent[i] == s->app) {
				at = i;
				break;
			}
		for (int i = at; i > 0; i--)
			recent[i] = recent[i - 1];
		recent[0] = s->app;
	}
}

int app_cached_adj(unsigned rank)
{
	unsigned adj = APP_ADJ_CACHED_MIN + rank * APP_CACHED_ADJ_STEP;

	return adj > APP_ADJ_CACHED_MAX ? APP_ADJ_CACHED_MAX : (int)adj;
}

void app_world_init(struct app_world *w, unsigned n)
{
	w->n = n > APPS_MAX ? APPS_MAX : n;
	w->fg = w->visible = w->perceptible = w->service = -1;
	w->clock = 0;
	for (unsigned a = 0; a < w->n; a++) {
		w->tier[a] = APP_TIER_CACHED;
		w->last_used[a] = 0;
		w->adj[a] = app_cached_adj(a);
	}
}

/* A moves out of whichever slot it held. */
static void leave_slots(struct app_world *w, int a)
{
	int *slots[] = { &w->fg, &w->visible, &w->perceptible, &w->service };

	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		if (*slots[i] == a)
			*slots[i] = -1;
}

/* Puts A in SLOT with TIER; the app there before goes to cached. */
static void take_slot(struct app_world *w, int *slot, int a, enum app_tier tier)
{
	if (*slot >= 0 && *slot != a)
		w->tier[*slot] = APP_TIER_CACHED;
	leave_slots(w, a);
	*slot = a;
	w->tier[a] = tier;
}

/* Cached apps ranked by when they were last in front, the most recent first. */
static void rank_cached(struct app_world *w)
{
	for (unsigned a = 0; a < w->n; a++) {
		if (w->tier[a] != APP_TIER_CACHED) {
			w->adj[a] = app_tier_adj(w->tier[a]);
			continue;
		}
		unsigned rank = 0;
		for (unsigned b = 0; b < w->n; b++)
			if (b != a && w->tier[b] == APP_TIER_CACHED &&
			    (w->last_used[b] > w->last_used[a] ||
			     (w->last_used[b] == w->last_used[a] && b < a)))
				rank++;
		w->adj[a] = app_cached_adj(rank);
	}
}

void app_world_apply(struct app_world *w, const struct app_step *s)
{
	int a = s->app;

	if ((unsigned)a >= w->n)
		return;
	if (s->tier == APP_TIER_FOREGROUND) {
		if (w->fg != a) {
			int old = w->fg;

			if (w->visible >= 0 && w->visible != a) {
				w->tier[w->visible] = APP_TIER_CACHED;
				w->visible = -1;
			}
			leave_slots(w, a);
			w->fg = a;
			w->tier[a] = APP_TIER_FOREGROUND;
			if (old >= 0) {
				if (s->prev_visible) {
					w->visible = old;
					w->tier[old] = APP_TIER_VISIBLE;
				} else {
					w->tier[old] = APP_TIER_CACHED;
				}
			}
		}
		w->last_used[a] = ++w->clock;
	} else if (a != w->fg) {
		take_slot(w, s->tier == APP_TIER_SERVICE ? &w->service : &w->perceptible, a,
			  (enum app_tier)s->tier);
	}
	rank_cached(w);
}

int app_working_set_check(unsigned napps, uint64_t anon, uint64_t file, uint64_t mem_total,
			  char *err, size_t cap)
{
	uint64_t total = (uint64_t)napps * (anon + file);

	if (!mem_total || total <= mem_total)
		return 0;
	snprintf(err, cap,
		 "--apps %u x (--anon %" PRIu64 " MiB + --file %" PRIu64 " MiB) = %" PRIu64
		 " MiB is more than the guest's memory (%" PRIu64 " MiB)",
		 napps, anon >> 20, file >> 20, total >> 20, mem_total >> 20);
	return -1;
}
