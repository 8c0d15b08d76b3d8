/* test-app-tiers.c - Android's process tiers (common/proto/app-tiers.c):
 * names and adj both ways, and which tier an in-between adj falls in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/proto/app-tiers.h"

static void names_round_trip(void **state)
{
	(void)state;
	for (int t = 0; t < APP_TIER_COUNT; t++) {
		const char *name = app_tier_name((enum app_tier)t);
		assert_non_null(name);
		assert_int_equal(app_tier_from_name(name), t);
		assert_int_equal(app_tier_of_adj(app_tier_adj((enum app_tier)t)), t);
	}
	assert_null(app_tier_name(APP_TIER_COUNT));
	assert_int_equal(app_tier_from_name("background"), -1);
	/* the names metrics carry (deaths.tier=T, lmkd_kills.tier=T) */
	assert_string_equal(app_tier_name(APP_TIER_HOME), "home");
	assert_string_equal(app_tier_name(APP_TIER_PREVIOUS), "previous");
	assert_string_equal(app_tier_name(APP_TIER_SERVICE_B), "service-b");
}

static void adj_between_tiers(void **state)
{
	(void)state;
	assert_int_equal(app_tier_of_adj(-1000), APP_TIER_FOREGROUND);
	assert_int_equal(app_tier_of_adj(99), APP_TIER_FOREGROUND);
	assert_int_equal(app_tier_of_adj(100), APP_TIER_VISIBLE);
	assert_int_equal(app_tier_of_adj(250), APP_TIER_PERCEPTIBLE);
	assert_int_equal(app_tier_of_adj(599), APP_TIER_SERVICE);
	/* ProcessList: HOME_APP_ADJ 600, PREVIOUS_APP_ADJ 700, SERVICE_B_ADJ 800 */
	assert_int_equal(app_tier_of_adj(600), APP_TIER_HOME);
	assert_int_equal(app_tier_of_adj(650), APP_TIER_HOME);
	assert_int_equal(app_tier_of_adj(700), APP_TIER_PREVIOUS);
	assert_int_equal(app_tier_of_adj(799), APP_TIER_PREVIOUS);
	assert_int_equal(app_tier_of_adj(800), APP_TIER_SERVICE_B);
	assert_int_equal(app_tier_of_adj(899), APP_TIER_SERVICE_B);
	assert_int_equal(app_tier_of_adj(950), APP_TIER_CACHED);
	assert_int_equal(app_tier_of_adj(1000), APP_TIER_CACHED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(adj_between_tiers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
