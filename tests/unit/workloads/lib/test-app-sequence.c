/* test-app-sequence.c - the apps workload's pure parts
 * (workloads/lib/app_sequence.c): the seeded sequence, the tier and adj each
 * step gives every app, and the working-set check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/lib/app_sequence.h"

#define STEPS 200

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

static void opens_every_app_first_then_mixes(void **state)
{
	(void)state;
	struct app_step s[STEPS];
	size_t count[APP_TIER_COUNT] = { 0 };
	app_sequence_make(3, 8, s, STEPS);
	for (unsigned k = 0; k < 8; k++) {
		assert_int_equal(s[k].app, k);
		assert_int_equal(s[k].tier, APP_TIER_FOREGROUND);
	}
	for (size_t k = 8; k < STEPS; k++) {
		assert_true(s[k].app < 8);
		count[s[k].tier]++;
		/* a switch brings another app to the front, never the one there */
		if (s[k].tier == APP_TIER_FOREGROUND) {
			size_t prev = k - 1;
			while (s[prev].tier != APP_TIER_FOREGROUND)
				prev--;
			assert_int_not_equal(s[k].app, s[prev].app);
		}
	}
	assert_true(count[APP_TIER_FOREGROUND] > 0);
	assert_true(count[APP_TIER_SERVICE] > 0);
	assert_true(count[APP_TIER_PERCEPTIBLE] > 0);
	assert_int_equal(count[APP_TIER_VISIBLE] + count[APP_TIER_CACHED], 0);
}

static void step(struct app_world *w, unsigned app, enum app_tier tier, bool prev_visible)
{
	struct app_step s = { (uint16_t)app, (uint8_t)tier, prev_visible };
	app_world_apply(w, &s);
}

static void adj_each_state_gets(void **state)
{
	(void)state;
	struct app_world w;
	app_world_init(&w, 5);
	for (unsigned a = 0; a < 5; a++) {
		assert_int_equal(w.tier[a], APP_TIER_CACHED);
		assert_int_equal(w.adj[a], 900 + 10 * (int)a);
	}
	step(&w, 0, APP_TIER_FOREGROUND, false);
	assert_int_equal(w.adj[0], 0);
	/* app 1 in front, app 0 stays visible */
	step(&w, 1, APP_TIER_FOREGROUND, true);
	assert_int_equal(w.tier[1], APP_TIER_FOREGROUND);
	assert_int_equal(w.adj[1], 0);
	assert_int_equal(w.tier[0], APP_TIER_VISIBLE);
	assert_int_equal(w.adj[0], 100);
	/* app 2 in front, 1 visible, 0 (the visible before) cached, the most recent cached */
	step(&w, 2, APP_TIER_FOREGROUND, true);
	assert_int_equal(w.adj[2], 0);
	assert_int_equal(w.adj[1], 100);
	assert_int_equal(w.tier[0], APP_TIER_CACHED);
	assert_int_equal(w.adj[0], 900);
	/* never-opened apps come after it in the LRU order */
	assert_int_equal(w.adj[3], 910);
	assert_int_equal(w.adj[4], 920);
	/* a service and a perceptible app */
	step(&w, 3, APP_TIER_SERVICE, false);
	assert_int_equal(w.adj[3], 500);
	step(&w, 4, APP_TIER_PERCEPTIBLE, false);
	assert_int_equal(w.adj[4], 200);
	/* a second service pushes the first to cached */
	step(&w, 0, APP_TIER_SERVICE, false);
	assert_int_equal(w.adj[0], 500);
	assert_int_equal(w.tier[3], APP_TIER_CACHED);
	assert_int_equal(w.adj[3], 900);
	/* app 3 to the front without a visible: 2 goes cached, and so does 1
	 * (the visible before); 2 was in front last, so it is the first cached */
	step(&w, 3, APP_TIER_FOREGROUND, false);
	assert_int_equal(w.adj[3], 0);
	assert_int_equal(w.tier[1], APP_TIER_CACHED);
	assert_int_equal(w.tier[2], APP_TIER_CACHED);
	assert_int_equal(w.visible, -1);
	assert_int_equal(w.adj[2], 900);
	assert_int_equal(w.adj[1], 910);
	assert_int_equal(w.adj[4], 200);
	assert_int_equal(w.adj[0], 500);
	/* the service comes to the front: its slot is free, 3 stays visible */
	step(&w, 0, APP_TIER_FOREGROUND, true);
	assert_int_equal(w.adj[0], 0);
	assert_int_equal(w.adj[3], 100);
	assert_int_equal(w.service, -1);
	assert_int_equal(w.adj[2], 900);
	assert_int_equal(w.adj[1], 910);
	/* the perceptible one to the front: 0 visible, 3 cached and now the most recent */
	step(&w, 4, APP_TIER_FOREGROUND, true);
	assert_int_equal(w.perceptible, -1);
	assert_int_equal(w.adj[0], 100);
	assert_int_equal(w.adj[3], 900);
	assert_int_equal(w.adj[2], 910);
	assert_int_equal(w.adj[1], 920);
}

static void cached_adj_stays_in_range(void **state)
{
	(void)state;
	assert_int_equal(app_cached_adj(0), APP_ADJ_CACHED_MIN);
	assert_int_equal(app_cached_adj(9), 990);
	assert_int_equal(app_cached_adj(10), APP_ADJ_CACHED_MAX);
	assert_int_equal(app_cached_adj(63), APP_ADJ_CACHED_MAX);
}

/* Every app has exactly one tier, and at most one app holds each slot. */
static void one_app_per_slot(void **state)
{
	(void)state;
	struct app_step s[STEPS];
	struct app_world w;
	app_sequence_make(11, 12, s, STEPS);
	app_world_init(&w, 12);
	for (size_t k = 0; k < STEPS; k++) {
		size_t n[APP_TIER_COUNT] = { 0 };
		app_world_apply(&w, &s[k]);
		for (unsigned a = 0; a < 12; a++) {
			n[w.tier[a]]++;
			assert_int_equal(app_tier_of_adj(w.adj[a]), w.tier[a]);
		}
		assert_int_equal(n[APP_TIER_FOREGROUND], 1);
		assert_true(n[APP_TIER_VISIBLE] <= 1);
		assert_true(n[APP_TIER_PERCEPTIBLE] <= 1);
		assert_true(n[APP_TIER_SERVICE] <= 1);
	}
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
		cmocka_unit_test(adj_each_state_gets),
		cmocka_unit_test(cached_adj_stays_in_range),
		cmocka_unit_test(one_app_per_slot),
		cmocka_unit_test(working_set_against_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
