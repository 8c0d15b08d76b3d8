/* The apps workload's pure parts: the seeded sequence of user actions, the
 * states and oom_score_adj they give every app (as Android's activity
 * manager sets them), the seeded switch intervals, and the check of the
 * working set against the guest's memory. No I/O here: the unit tests call
 * them as the workload does.
 *
 * App 0 is the launcher (APP_HOME). A step is one action: app A comes to
 * the foreground (the user opens it, or goes home: A = APP_HOME), or A
 * starts a background service, or becomes perceptible (plays music). The
 * first NAPPS steps open every app once, in order, the launcher first (a
 * phone's morning). After that about one foreground switch in four goes
 * home, when home is not in front already; the user then opens an app from
 * there. The launcher never starts a service or becomes perceptible.
 *
 * What a state is worth (AOSP's ActivityManager, docs/FIDELITY-LMKD.md 4):
 * every app gets the lowest adj of all it is at once:
 *   - foreground 0; visible 100 (the app before stays visible when the step
 *     says so: split screen, picture-in-picture; the launcher never does);
 *     perceptible 200 (one at a time);
 *   - a service 500 (service A) or 800 (service B): the running services,
 *     newest first, are A while fewer than a third (rounded down) of their
 *     number, plus one, came before (OomAdjuster.computeOomAdjLSP(),
 *     setServiceB()); at most SERVICES_MAX run, a new one stops the oldest;
 *     an app brought to the front stops its service (ActivityManager leaves
 *     a started service of an app that has shown UI to the cached levels);
 *   - home 600 whenever the launcher is not in front;
 *   - previous 700: the last app other than the launcher that left the
 *     front, for APP_PREVIOUS_MS after it left (MAX_PREVIOUS_TIME), then
 *     cached (ActivityStackSupervisor.updatePreviousProcessLocked(),
 *     computeOomAdjLSP() "previous-expired"); a death ends it;
 *   - cached: the running cached apps in LRU order (the most recently in
 *     front first) share 10 slots of 900, 910, ... 990, ceil(n / 10) apps a
 *     slot (OomAdjuster.assignCachedAdjIfNecessary()). ActivityManager
 *     sizes the slots by the count of its previous pass; the model by the
 *     current one (the same after ActivityManager's next update).
 * An app that is not running (never opened, or killed) holds no slot and
 * no service; its adj (999 when cached) is never written.
 */
#ifndef OOMLAB_APP_SEQUENCE_H
#define OOMLAB_APP_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/app-tiers.h"

#define APPS_MIN 3
#define APPS_MAX 64
/* The launcher. */
#define APP_HOME 0
/* Between two cached slots (2 x CACHED_APP_IMPORTANCE_LEVELS), and how
 * many slots ActivityManager has (mNumSlots: (999 - 900 + 1) / 2 / 5). */
#define APP_CACHED_ADJ_STEP 10
#define APP_CACHED_SLOTS 10
/* How long the previous app keeps 700 (ActivityManagerConstants
 * DEFAULT_MAX_PREVIOUS_TIME). */
#define APP_PREVIOUS_MS 60000
/* Services running at once, unless the workload says otherwise. */
#define APP_SERVICES_DEFAULT 3

struct app_step {
	uint16_t app;
	uint8_t tier;           /* APP_TIER_FOREGROUND, _PERCEPTIBLE or _SERVICE */
	bool prev_visible;      /* foreground: the app it replaces stays visible */
};

/* The first N steps of SEED's sequence for NAPPS apps (APPS_MIN..APPS_MAX):
 * the same SEED gives the same steps. */
void app_sequence_make(uint64_t seed, unsigned napps, struct app_step *out, size_t n);

struct app_world {
	unsigned n, services_max;
	enum app_tier tier[APPS_MAX];
	int adj[APPS_MAX];
	bool running[APPS_MAX];         /* it has a process */
	uint64_t last_used[APPS_MAX];   /* when it was last in front (order; 0: never) */
	uint64_t service_since[APPS_MAX];       /* when its service started (order; 0: none) */
	int fg, visible, perceptible, previous; /* the app in each, -1: none */
	uint64_t previous_left_ms;      /* when the previous app left the front */
	uint64_t order;                 /* the counter behind last_used and service_since */
	uint64_t now_ms;                /* the workload's clock at the last update */
};

/* N apps, none running, at most SERVICES_MAX services at once (0: none). */
void app_world_init(struct app_world *w, unsigned n, unsigned services_max);
/* Applies one step at NOW_MS (the workload's clock, never going back): the
 * step's app runs after it, and every app's tier and adj follow. */
void app_world_apply(struct app_world *w, const struct app_step *s, uint64_t now_ms);
/* Every app's tier and adj at NOW_MS (the previous app's 700 runs out);
 * true when one changed. */
bool app_world_at(struct app_world *w, uint64_t now_ms);
/* App A's process started (RUNNING) or ended; a death ends its service,
 * and its visible, perceptible and previous states, as ActivityManager
 * forgets a dead process's. Every app's tier and adj follow. */
void app_world_set_running(struct app_world *w, unsigned a, bool running);
/* The adj of the cached app at RANK in the LRU order (0: most recent) of
 * NCACHED running cached apps. */
int app_cached_adj(unsigned rank, unsigned ncached);

/* Switch intervals as ChromeOS's memory.Stress waits between tab switches
 * (tast-tests memory/stress switchTabs()): a random walk that starts at
 * APP_WALK_START_MS and moves by a whole number of ms in [-1000, 1000]
 * each switch, held within [APP_WALK_MIN_MS, APP_WALK_MAX_MS], so that
 * short and long waits come in clusters. The next interval after PREV_MS. */
#define APP_WALK_START_MS 3000
#define APP_WALK_MIN_MS   1000
#define APP_WALK_MAX_MS   5000
#define APP_WALK_STEP_MS  1000
unsigned app_walk_next(uint64_t *rng, unsigned prev_ms);

/* NAPPS x (ANON + FILE) bytes fit in MEM_TOTAL: 0, else -1 with the reason
 * (naming the options) in ERR. */
int app_working_set_check(unsigned napps, uint64_t anon, uint64_t file, uint64_t mem_total,
			  char *err, size_t cap);

/* How many bytes at the start of each PAGE a cold start fills with random
 * words for a random share of PCT % (whole 8-byte words, rounded down). */
size_t app_random_bytes(size_t page, unsigned pct);

#endif
