/* test-app-sequence.c - the apps workload's pure parts
 * (workloads/lib/app_sequence.c): the seeded sequence, the tier and adj each
 * step gives every app, the switch intervals' walk, the random share of a
 * page, and the working-set check. Each rule of ActivityManager the model
 * keeps has its own test below, named after it, with its AOSP source
 * (docs/FIDELITY-LMKD.md section 4 has the facts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/lib/app_sequence.h"
#include "workloads/lib/rng.h"

#define STEPS 400

static void same_seed_same_sequence(void **state)
{
	(void)state;
	struct app_step a[STEPS], b[STEPS];
	memset(a, 0xaa, sizeof(a));
	memset(b, 0x55, sizeof(b));
	app_sequence_make(7, 10, a, STEPS);
	app_sequence_make(7, 10, b, STEPS);
	for (size_t k = 0; k < STEPS; k++) {
		assert_int_equal(a[k].app, b[k].app);
		assert_int_equal(a[k].tier, b[k].tier);
		assert_int_equal(a[k].prev_visible, b[k].prev_visible);
	}
}

static size_t differing_steps(uint64_t s1, uint64_t s2)
{
	struct app_step a[STEPS], b[STEPS];
	size_t diff = 0;
	app_sequence_make(s1, 10, a, STEPS);
	app_sequence_make(s2, 10, b, STEPS);
	for (size_t k = 0; k < STEPS; k++)
		diff += a[k].app != b[k].app || a[k].tier != b[k].tier;
	return diff;
}

static void another_seed_another_sequence(void **state)
{
	(void)state;
	/* the opening steps are the same for every seed; most of the rest differ */
	assert_true(differing_steps(1, 2) > STEPS / 2);
	assert_true(differing_steps(1, 1000003) > STEPS / 2);
	assert_int_equal(differing_steps(5, 5), 0);
}

/* The launcher first, then every app once; then switches that never bring
 * the app in front to the front, go home about one time in four (never from
 * home), and start services and perceptible states on apps other than the
 * launcher and the one in front. */
static void opens_every_app_first_then_mixes(void **state)
{
	(void)state;
	struct app_step s[STEPS];
	size_t count[APP_TIER_COUNT] = { 0 }, home = 0, switches = 0;
	app_sequence_make(3, 8, s, STEPS);
	for (unsigned k = 0; k < 8; k++) {
		assert_int_equal(s[k].app, k);
		assert_int_equal(s[k].tier, APP_TIER_FOREGROUND);
	}
	unsigned front = 7;
	for (size_t k = 8; k < STEPS; k++) {
		assert_true(s[k].app < 8);
		count[s[k].tier]++;
		if (s[k].tier != APP_TIER_FOREGROUND) {
			assert_int_not_equal(s[k].app, APP_HOME);
			assert_int_not_equal(s[k].app, front);
			continue;
		}
		assert_int_not_equal(s[k].app, front);
		if (s[k].app == APP_HOME || front == APP_HOME)
			assert_false(s[k].prev_visible);
		switches += front != APP_HOME;
		home += s[k].app == APP_HOME;
		front = s[k].app;
	}
	assert_true(count[APP_TIER_FOREGROUND] > 0);
	assert_true(count[APP_TIER_SERVICE] > 0);
	assert_true(count[APP_TIER_PERCEPTIBLE] > 0);
	/* one in four of the switches from an app (~70 here): well inside 1/8..1/2 */
	assert_true(home * 8 > switches && home * 2 < switches);
	for (int t = APP_TIER_VISIBLE; t < APP_TIER_COUNT; t++)
		if (t != APP_TIER_SERVICE && t != APP_TIER_PERCEPTIBLE)
			assert_int_equal(count[t], 0);
}

static void step(struct app_world *w, unsigned app, enum app_tier tier, bool prev_visible, uint64_t ms)
{
	struct app_step s = { (uint16_t)app, (uint8_t)tier, prev_visible };
	app_world_apply(w, &s, ms);
}

static void front(struct app_world *w, unsigned app, uint64_t ms)
{
	step(w, app, APP_TIER_FOREGROUND, false, ms);
}

/* Home (the launcher, app 0) in front, then apps 1..N-1 opened in turn,
 * one a second: app N-1 in front at (N-1) s, N-2 the previous app. */
static void open_all(struct app_world *w, unsigned n, unsigned services_max)
{
	app_world_init(w, n, services_max);
	for (unsigned a = 0; a < n; a++)
		front(w, a, 1000ull * a);
}

/* ActivityManager: the previous process (the last app that left the front)
 * is raised to PREVIOUS_APP_ADJ 700 (OomAdjuster.computeOomAdjLSP(),
 * "previous"; ActivityStackSupervisor.updatePreviousProcessLocked()); the
 * one before it is not previous any more; the launcher is HOME_APP_ADJ 600
 * while not in front (computeOomAdjLSP(), "home"). */
static void previous_app_at_700_home_at_600(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 4, 3);
	assert_int_equal(w.fg, 3);
	assert_int_equal(w.adj[3], 0);
	assert_int_equal(w.tier[2], APP_TIER_PREVIOUS);
	assert_int_equal(w.adj[2], 700);
	assert_int_equal(w.tier[0], APP_TIER_HOME);
	assert_int_equal(w.adj[0], 600);
	/* app 1, previous before app 3 came, is cached now */
	assert_int_equal(w.tier[1], APP_TIER_CACHED);
	assert_int_equal(w.adj[1], 900);
}

/* computeOomAdjLSP(): the previous app drops to cached ("previous-expired")
 * once lastStateTime + MAX_PREVIOUS_TIME <= now; MAX_PREVIOUS_TIME is 60 s
 * (ActivityManagerConstants DEFAULT_MAX_PREVIOUS_TIME). So 700 for
 * 59 999 ms after it left the front, cached at 60 000. */
static void previous_app_cached_after_60_s(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 4, 3);     /* app 2 left the front at 3000 ms */
	assert_false(app_world_at(&w, 3000 + 59999));
	assert_int_equal(w.adj[2], 700);
	assert_true(app_world_at(&w, 3000 + 60000));
	assert_int_equal(w.tier[2], APP_TIER_CACHED);
	/* the most recent cached app, before app 1 */
	assert_int_equal(w.adj[2], 900);
	assert_int_equal(w.adj[1], 910);
	assert_false(app_world_at(&w, 3000 + 60001));
	/* it left the front again: 700 again, from then */
	front(&w, 2, 70000);
	front(&w, 1, 71000);
	assert_int_equal(w.adj[2], 700);
	assert_false(app_world_at(&w, 71000 + 59999));
	assert_true(app_world_at(&w, 71000 + 60000));
	assert_int_equal(w.tier[2], APP_TIER_CACHED);
}

/* updatePreviousProcessLocked() never makes the launcher the previous
 * process (r.app != mHomeProcess): going home makes the app left the
 * previous one; opening an app from home leaves it previous, with its
 * time from when it left. */
static void home_is_never_previous(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 4, 3);
	front(&w, APP_HOME, 5000);      /* app 3 left at 5000 */
	assert_int_equal(w.adj[0], 0);
	assert_int_equal(w.previous, 3);
	assert_int_equal(w.adj[3], 700);
	assert_int_equal(w.tier[2], APP_TIER_CACHED);
	front(&w, 1, 6000);
	assert_int_equal(w.tier[0], APP_TIER_HOME);
	assert_int_equal(w.adj[0], 600);
	assert_int_equal(w.previous, 3);
	assert_int_equal(w.adj[3], 700);
	app_world_at(&w, 5000 + 59999);
	assert_int_equal(w.adj[3], 700);
	app_world_at(&w, 5000 + 60000);
	assert_int_equal(w.tier[3], APP_TIER_CACHED);
	assert_int_equal(w.adj[0], 600);
}

/* computeOomAdjLSP(): setServiceB(mNewNumAServiceProcs > mNumServiceProcs /
 * 3) over the services in LRU order, the most recent first: with n
 * services the newest floor(n / 3) + 1 stay at SERVICE_ADJ 500, the rest
 * go to SERVICE_B_ADJ 800. Here the newest is the one started last. */
static void services_beyond_the_newest_third_at_800(void **state)
{
	(void)state;
	struct app_world w;
	/* n services -> how many at 500 */
	static const unsigned a_count[] = { 0, 1, 1, 2, 2, 2, 3 };
	open_all(&w, 9, 6);
	for (unsigned n = 1; n <= 6; n++) {
		step(&w, n, APP_TIER_SERVICE, false, 10000 + n);
		for (unsigned a = 1; a <= n; a++) {
			bool newest = a > n - a_count[n];
			assert_int_equal(w.tier[a], newest ? APP_TIER_SERVICE : APP_TIER_SERVICE_B);
			assert_int_equal(w.adj[a], newest ? 500 : 800);
		}
	}
	/* a restarted service is the newest again: app 1 back to 500, app 4 to 800 */
	step(&w, 1, APP_TIER_SERVICE, false, 20000);
	assert_int_equal(w.adj[1], 500);
	assert_int_equal(w.adj[5], 500);
	assert_int_equal(w.adj[6], 500);
	assert_int_equal(w.adj[4], 800);
	/* a service that is also perceptible ranks as perceptible and is not
	 * counted (computeOomAdjLSP counts adj == SERVICE_ADJ only): 5 services,
	 * the newest two at 500 */
	step(&w, 1, APP_TIER_PERCEPTIBLE, false, 20001);
	assert_int_equal(w.adj[1], 200);
	assert_int_equal(w.adj[6], 500);
	assert_int_equal(w.adj[5], 500);
	assert_int_equal(w.adj[4], 800);
}

/* The model's own limit (ActivityManager has none: a service runs until it
 * stops): at most SERVICES_MAX run; a new one stops the oldest. And an app
 * brought to the front stops its service: ActivityManager leaves a started
 * service of an app that has shown UI to the cached levels
 * (computeOomAdjLSP(), "cch-started-ui-services"). */
static void services_limited_and_ended_by_the_front(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 8, 3);
	for (unsigned a = 1; a <= 4; a++)
		step(&w, a, APP_TIER_SERVICE, false, 10000 + a);
	assert_int_equal(w.tier[1], APP_TIER_CACHED);
	assert_int_equal(w.adj[2], 800);
	assert_int_equal(w.adj[3], 500);
	assert_int_equal(w.adj[4], 500);
	front(&w, 4, 11000);
	front(&w, 5, 12000);
	assert_int_equal(w.tier[4], APP_TIER_PREVIOUS);
	/* two services left: the newest at 500, the other at 800 */
	assert_int_equal(w.adj[3], 500);
	assert_int_equal(w.adj[2], 800);
	/* no services at all */
	open_all(&w, 4, 0);
	step(&w, 1, APP_TIER_SERVICE, false, 5000);
	assert_int_equal(w.tier[1], APP_TIER_CACHED);
}

/* OomAdjuster.assignCachedAdjIfNecessary(): cached apps with activities,
 * most recent first, get 900, 910, ... (step 2 x CACHED_APP_IMPORTANCE_LEVELS
 * = 10), capped at 999; mNumSlots = 10 slots, each holding cachedFactor =
 * ceil(n / 10) apps. So no app sits at 999 however many there are. */
static void cached_apps_share_ten_slots(void **state)
{
	(void)state;
	/* up to ten cached apps: one a slot */
	assert_int_equal(app_cached_adj(0, 1), 900);
	assert_int_equal(app_cached_adj(0, 10), 900);
	assert_int_equal(app_cached_adj(9, 10), 990);
	/* eleven: two a slot */
	assert_int_equal(app_cached_adj(1, 11), 900);
	assert_int_equal(app_cached_adj(2, 11), 910);
	assert_int_equal(app_cached_adj(10, 11), 950);
	/* 21: three a slot; 64: seven a slot, the last at 990 */
	assert_int_equal(app_cached_adj(20, 21), 960);
	assert_int_equal(app_cached_adj(63, 64), 990);
	/* ranks past the count (ActivityManager sizes by its previous pass) cap at 999 */
	assert_int_equal(app_cached_adj(10, 10), 999);
	assert_int_equal(app_cached_adj(30, 10), 999);

	/* in the world: 30 apps opened, 27 of them cached (home 600, app 28
	 * previous, 29 in front); 27 share the slots three apiece, from app 27,
	 * the most recent, down to app 1 */
	struct app_world w;
	open_all(&w, 30, 3);
	for (unsigned a = 1; a <= 27; a++) {
		assert_int_equal(w.tier[a], APP_TIER_CACHED);
		assert_int_equal(w.adj[a], 900 + 10 * (int)((27 - a) / 3));
	}
	/* twelve apps: 9 cached, one a slot */
	open_all(&w, 12, 3);
	for (unsigned a = 1; a <= 9; a++)
		assert_int_equal(w.adj[a], 900 + 10 * (int)(9 - a));
}

/* A dead process leaves ActivityManager's LRU list, so it takes no slot,
 * and ActivityManager forgets it as the previous process (its cleanup sets
 * mPreviousProcess to null). */
static void dead_apps_hold_no_slot_and_no_state(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 6, 3);     /* 5 in front, 4 previous, 3 2 1 cached at 900 910 920 */
	assert_int_equal(w.adj[1], 920);
	app_world_set_running(&w, 2, false);
	assert_int_equal(w.adj[3], 900);
	assert_int_equal(w.adj[1], 910);
	app_world_set_running(&w, 4, false);
	assert_int_equal(w.previous, -1);
	assert_int_equal(w.tier[4], APP_TIER_CACHED);
	/* back as a service (a cold start), it is a service again */
	step(&w, 4, APP_TIER_SERVICE, false, 9000);
	assert_true(w.running[4]);
	assert_int_equal(w.adj[4], 500);
	app_world_set_running(&w, 4, false);
	assert_int_equal(w.tier[4], APP_TIER_CACHED);
	/* no process: 999 (never written) */
	assert_int_equal(w.adj[4], 999);
	assert_int_equal(w.adj[2], 999);
	/* nor counts for the slots' size: 11 cached share by two, 9 by one */
	open_all(&w, 14, 3);
	assert_int_equal(w.adj[10], 900);
	app_world_set_running(&w, 1, false);
	app_world_set_running(&w, 2, false);
	assert_int_equal(w.adj[11], 900);
	assert_int_equal(w.adj[10], 910);
	assert_int_equal(w.adj[3], 980);
}

/* The visible and perceptible states, as the model had them before. */
static void visible_and_perceptible(void **state)
{
	(void)state;
	struct app_world w;
	open_all(&w, 6, 3);
	/* app 1 in front, 5 stays visible (and is the previous app) */
	step(&w, 1, APP_TIER_FOREGROUND, true, 6000);
	assert_int_equal(w.adj[1], 0);
	assert_int_equal(w.tier[5], APP_TIER_VISIBLE);
	assert_int_equal(w.adj[5], 100);
	/* app 2 in front, 1 visible; 5 is not visible any more, nor previous */
	step(&w, 2, APP_TIER_FOREGROUND, true, 7000);
	assert_int_equal(w.adj[1], 100);
	assert_int_equal(w.tier[5], APP_TIER_CACHED);
	/* a perceptible app; a second one takes its place */
	step(&w, 3, APP_TIER_PERCEPTIBLE, false, 7100);
	assert_int_equal(w.adj[3], 200);
	step(&w, 4, APP_TIER_PERCEPTIBLE, false, 7200);
	assert_int_equal(w.adj[4], 200);
	assert_int_equal(w.tier[3], APP_TIER_CACHED);
	/* the perceptible one to the front: not perceptible any more */
	front(&w, 4, 8000);
	assert_int_equal(w.perceptible, -1);
	assert_int_equal(w.adj[2], 700);
	assert_int_equal(w.tier[1], APP_TIER_CACHED);
	/* the launcher never stays visible */
	step(&w, APP_HOME, APP_TIER_FOREGROUND, true, 9000);
	step(&w, 1, APP_TIER_FOREGROUND, true, 10000);
	assert_int_equal(w.tier[0], APP_TIER_HOME);
}

/* Every app has exactly one tier, its adj in that tier; at most one app
 * holds each single state; at most SERVICES_MAX services; over a long
 * sequence with time passing and apps dying and coming back. */
static void states_stay_consistent(void **state)
{
	(void)state;
	struct app_step s[STEPS];
	struct app_world w;
	uint64_t rng = 99, ms = 0;
	size_t seen[APP_TIER_COUNT] = { 0 };
	app_sequence_make(11, 12, s, STEPS);
	app_world_init(&w, 12, 3);
	for (size_t k = 0; k < STEPS; k++) {
		size_t n[APP_TIER_COUNT] = { 0 };
		ms += 500 + wl_random_below(&rng, 30000);
		app_world_apply(&w, &s[k], ms);
		/* the app a step names runs after it */
		assert_true(w.running[s[k].app] || s[k].app == w.fg);
		if (s[k].tier == APP_TIER_FOREGROUND)
			assert_true(w.running[w.fg]);
		if (wl_random_below(&rng, 4) == 0)
			app_world_set_running(&w, wl_random_below(&rng, 12), false);
		app_world_at(&w, ms + wl_random_below(&rng, 20000));
		for (unsigned a = 0; a < 12; a++) {
			n[w.tier[a]]++;
			seen[w.tier[a]]++;
			assert_int_equal(app_tier_of_adj(w.adj[a]), w.tier[a]);
		}
		assert_int_equal(n[APP_TIER_FOREGROUND], 1);
		assert_true(n[APP_TIER_VISIBLE] <= 1);
		assert_true(n[APP_TIER_PERCEPTIBLE] <= 1);
		assert_true(n[APP_TIER_HOME] <= 1);
		assert_true(n[APP_TIER_PREVIOUS] <= 1);
		assert_true(n[APP_TIER_SERVICE] + n[APP_TIER_SERVICE_B] <= 3);
	}
	/* and every tier came up */
	for (int t = 0; t < APP_TIER_COUNT; t++)
		assert_true(seen[t] > 0);
}

/* tast-tests memory/stress switchTabs(): the wait starts at 3 s and moves
 * by rand.Intn(2001) - 1000 ms each switch, held within [1 s, 5 s]. */
static void switch_intervals_walk_within_1_to_5_s(void **state)
{
	(void)state;
	uint64_t r1 = 42, r2 = 42;
	unsigned ms = APP_WALK_START_MS, lo = ms, hi = ms, again = ms;
	bool big_step = false;
	assert_int_equal(APP_WALK_START_MS, 3000);
	for (int i = 0; i < 20000; i++) {
		unsigned next = app_walk_next(&r1, ms);
		assert_int_equal(next, app_walk_next(&r2, again));
		assert_true(next >= 1000 && next <= 5000);
		assert_true(next + 1000 >= ms && next <= ms + 1000);
		big_step |= next + 900 < ms || next > ms + 900;
		lo = next < lo ? next : lo;
		hi = next > hi ? next : hi;
		ms = again = next;
	}
	/* it reaches both ends, and its steps are as wide as the walk says */
	assert_int_equal(lo, 1000);
	assert_int_equal(hi, 5000);
	assert_true(big_step);
}

/* Today's cold start fills the first KiB of a 4 KiB page: 25 %. ChromeOS's
 * memory.Stress pages are 33 % or 67 % random (tast-tests
 * memory/stress.go stressMain()). Whole 8-byte words. */
static void random_share_of_a_page(void **state)
{
	(void)state;
	assert_int_equal(app_random_bytes(4096, 25), 1024);
	assert_int_equal(app_random_bytes(4096, 33), 1344);
	assert_int_equal(app_random_bytes(4096, 67), 2744);
	assert_int_equal(app_random_bytes(4096, 100), 4096);
	assert_int_equal(app_random_bytes(4096, 0), 0);
	assert_int_equal(app_random_bytes(16384, 33), 5400);
}

static void working_set_against_memory(void **state)
{
	(void)state;
	char err[256] = "";
	uint64_t mib = 1 << 20;
	assert_int_equal(app_working_set_check(10, 40 * mib, 8 * mib, 512 * mib, err, sizeof(err)), 0);
	assert_int_equal(app_working_set_check(8, 56 * mib, 8 * mib, 512 * mib, err, sizeof(err)), 0);
	assert_int_equal(app_working_set_check(8, 56 * mib, 8 * mib + 4096, 512 * mib, err, sizeof(err)),
			 -1);
	assert_int_equal(app_working_set_check(10, 64 * mib, 8 * mib, 512 * mib, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--apps 10 x (--anon 64 MiB + --file 8 MiB) = 720 MiB"));
	assert_non_null(strstr(err, "(512 MiB)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_seed_same_sequence),
		cmocka_unit_test(another_seed_another_sequence),
		cmocka_unit_test(opens_every_app_first_then_mixes),
		cmocka_unit_test(previous_app_at_700_home_at_600),
		cmocka_unit_test(previous_app_cached_after_60_s),
		cmocka_unit_test(home_is_never_previous),
		cmocka_unit_test(services_beyond_the_newest_third_at_800),
		cmocka_unit_test(services_limited_and_ended_by_the_front),
		cmocka_unit_test(cached_apps_share_ten_slots),
		cmocka_unit_test(dead_apps_hold_no_slot_and_no_state),
		cmocka_unit_test(visible_and_perceptible),
		cmocka_unit_test(states_stay_consistent),
		cmocka_unit_test(switch_intervals_walk_within_1_to_5_s),
		cmocka_unit_test(random_share_of_a_page),
		cmocka_unit_test(working_set_against_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
