/* The apps workload's sequence, states, intervals and working-set check
 * (app_sequence.h). */
#include "app_sequence.h"

#include <inttypes.h>
#include <stdio.h>

#include "rng.h"

/* Any app but the launcher and NOT (NOT < 0 or the launcher: any but the
 * launcher). There is always one: NAPPS >= APPS_MIN. */
static unsigned other_app(uint64_t *rng, unsigned napps, int not)
{
	bool skip = not > APP_HOME;
	unsigned a = 1 + wl_random_below(rng, napps - 1 - skip);

	return skip && a >= (unsigned)not ? a + 1 : a;
}

/* Users go back to the few apps they used last: RECENT[0] is the app other
 * than the launcher that was in front last, RECENT[1..] the ones before. */
#define RECENT_APPS 4
/* One foreground switch in HOME_ONE_IN goes home. */
#define HOME_ONE_IN 4

/* The foreground switch from FRONT: home, back to a recent app, or another. */
static unsigned next_front(uint64_t *rng, unsigned napps, int front, const int *recent)
{
	if (front != APP_HOME && wl_random_below(rng, HOME_ONE_IN) == 0)
		return APP_HOME;
	/* back to one of the last few three times in five; from home the app
	 * just left counts, else it is the one in front */
	if (wl_random_below(rng, 5) < 3) {
		int first = front == APP_HOME ? 0 : 1;
		int pick = recent[first + (int)wl_random_below(rng, RECENT_APPS - (unsigned)first)];
		if (pick >= 0 && pick != front)
			return (unsigned)pick;
	}
	return other_app(rng, napps, front);
}

void app_sequence_make(uint64_t seed, unsigned napps, struct app_step *out, size_t n)
{
	uint64_t rng = seed;
	int recent[RECENT_APPS], front = -1;

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
			s->app = (uint16_t)next_front(&rng, napps, front, recent);
			s->tier = APP_TIER_FOREGROUND;
		} else {
			s->app = (uint16_t)other_app(&rng, napps, front);
			s->tier = roll < 85 ? APP_TIER_SERVICE : APP_TIER_PERCEPTIBLE;
		}
		if (s->tier != APP_TIER_FOREGROUND)
			continue;
		/* the launcher is never left visible, nor split with */
		if (s->app == APP_HOME || front == APP_HOME)
			s->prev_visible = false;
		front = s->app;
		if (s->app == APP_HOME)
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

int app_cached_adj(unsigned rank, unsigned ncached)
{
	/* ceil(n / slots) apps a slot, at least one */
	unsigned per_slot = (ncached + APP_CACHED_SLOTS - 1) / APP_CACHED_SLOTS;
	unsigned slot = rank / (per_slot ? per_slot : 1);
	unsigned adj = APP_ADJ_CACHED_MIN + slot * APP_CACHED_ADJ_STEP;

	return adj > APP_ADJ_CACHED_MAX ? APP_ADJ_CACHED_MAX : (int)adj;
}

/* A is a service process as ActivityManager counts them for the A/B split:
 * running a service, and nothing that ranks above a service (adj 500). */
static bool service_process(const struct app_world *w, unsigned a)
{
	return w->running[a] && w->service_since[a] && (int)a != w->fg && (int)a != w->visible &&
	       (int)a != w->perceptible;
}

/* Every app's tier and adj from the states the world holds. */
static void recompute(struct app_world *w)
{
	unsigned services = 0, ncached = 0;
	bool previous_on = w->previous >= 0 &&
			   w->now_ms - w->previous_left_ms < APP_PREVIOUS_MS;

	for (unsigned a = 0; a < w->n; a++)
		services += service_process(w, a);
	for (unsigned a = 0; a < w->n; a++) {
		enum app_tier t = APP_TIER_CACHED;

		/* the lowest adj of all it is: the tiers run from the lowest */
		if (service_process(w, a)) {
			unsigned newer = 0;
			for (unsigned b = 0; b < w->n; b++)
				newer += service_process(w, b) && w->service_since[b] > w->service_since[a];
			t = newer <= services / 3 ? APP_TIER_SERVICE : APP_TIER_SERVICE_B;
		}
		if (previous_on && (int)a == w->previous && t > APP_TIER_PREVIOUS)
			t = APP_TIER_PREVIOUS;
		if (a == APP_HOME && t > APP_TIER_HOME)
			t = APP_TIER_HOME;
		if ((int)a == w->perceptible)
			t = APP_TIER_PERCEPTIBLE;
		if ((int)a == w->visible)
			t = APP_TIER_VISIBLE;
		if ((int)a == w->fg)
			t = APP_TIER_FOREGROUND;
		w->tier[a] = t;
		w->adj[a] = app_tier_adj(t);
		ncached += t == APP_TIER_CACHED && w->running[a];
	}
	/* the running cached apps share the slots in LRU order */
	for (unsigned a = 0; a < w->n; a++) {
		if (w->tier[a] != APP_TIER_CACHED)
			continue;
		if (!w->running[a]) {
			w->adj[a] = APP_ADJ_CACHED_MAX;
			continue;
		}
		unsigned rank = 0;
		for (unsigned b = 0; b < w->n; b++)
			if (b != a && w->running[b] && w->tier[b] == APP_TIER_CACHED &&
			    (w->last_used[b] > w->last_used[a] ||
			     (w->last_used[b] == w->last_used[a] && b < a)))
				rank++;
		w->adj[a] = app_cached_adj(rank, ncached);
	}
}

void app_world_init(struct app_world *w, unsigned n, unsigned services_max)
{
	w->n = n > APPS_MAX ? APPS_MAX : n;
	w->services_max = services_max;
	w->fg = w->visible = w->perceptible = w->previous = -1;
	w->previous_left_ms = w->order = w->now_ms = 0;
	for (unsigned a = 0; a < w->n; a++) {
		w->running[a] = false;
		w->last_used[a] = w->service_since[a] = 0;
	}
	recompute(w);
}

/* A's service starts (again: it is the newest); past the limit the oldest stops. */
static void start_service(struct app_world *w, int a)
{
	unsigned running = 0;
	int oldest = -1;

	if (!w->services_max)
		return;
	w->service_since[a] = ++w->order;
	for (unsigned b = 0; b < w->n; b++)
		if (w->service_since[b]) {
			running++;
			if (oldest < 0 || w->service_since[b] < w->service_since[oldest])
				oldest = (int)b;
		}
	if (running > w->services_max)
		w->service_since[oldest] = 0;
}

static void to_front(struct app_world *w, int a, bool prev_visible)
{
	int old = w->fg;

	if (old != a) {
		/* the visible app before is not any more (A itself comes to the front) */
		w->visible = -1;
		if (old >= 0 && old != APP_HOME) {
			w->previous = old;
			w->previous_left_ms = w->now_ms;
			if (prev_visible)
				w->visible = old;
		}
		w->fg = a;
	}
	if (w->perceptible == a)
		w->perceptible = -1;
	w->service_since[a] = 0;
	w->last_used[a] = ++w->order;
}

void app_world_apply(struct app_world *w, const struct app_step *s, uint64_t now_ms)
{
	int a = s->app;

	if ((unsigned)a >= w->n)
		return;
	w->now_ms = now_ms;
	if (s->tier == APP_TIER_FOREGROUND) {
		to_front(w, a, s->prev_visible);
		w->running[a] = true;
	} else if (a != w->fg && a != APP_HOME) {
		if (s->tier == APP_TIER_SERVICE)
			start_service(w, a);
		else
			w->perceptible = a;
		w->running[a] = true;
	}
	recompute(w);
}

bool app_world_at(struct app_world *w, uint64_t now_ms)
{
	enum app_tier tier[APPS_MAX];
	int adj[APPS_MAX];
	bool changed = false;

	for (unsigned a = 0; a < w->n; a++) {
		tier[a] = w->tier[a];
		adj[a] = w->adj[a];
	}
	w->now_ms = now_ms;
	recompute(w);
	for (unsigned a = 0; a < w->n; a++)
		changed |= tier[a] != w->tier[a] || adj[a] != w->adj[a];
	return changed;
}

void app_world_set_running(struct app_world *w, unsigned a, bool running)
{
	if (a >= w->n)
		return;
	w->running[a] = running;
	if (!running) {
		w->service_since[a] = 0;
		if (w->visible == (int)a)
			w->visible = -1;
		if (w->perceptible == (int)a)
			w->perceptible = -1;
		if (w->previous == (int)a)
			w->previous = -1;
	}
	recompute(w);
}

unsigned app_walk_next(uint64_t *rng, unsigned prev_ms)
{
	long next = (long)prev_ms - APP_WALK_STEP_MS + (long)wl_random_below(rng, 2 * APP_WALK_STEP_MS + 1);

	if (next < APP_WALK_MIN_MS)
		next = APP_WALK_MIN_MS;
	if (next > APP_WALK_MAX_MS)
		next = APP_WALK_MAX_MS;
	return (unsigned)next;
}

size_t app_random_bytes(size_t page, unsigned pct)
{
	size_t bytes = page * (pct > 100 ? 100 : pct) / 100;

	return bytes / sizeof(uint64_t) * sizeof(uint64_t);
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
