/* test-lmkd-config.c - lmkd's settings (common/proto/lmkd-config.c): the
 * low-RAM defaults, and that a value a profile set stays its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/proto/lmkd-config.h"

/* lmkd.cpp update_props(): low-RAM 200 ms / 30 % / 50 %, others 70 / 100 / 10 */
static void low_ram_defaults_differ_in_four_keys(void **state)
{
	(void)state;
	struct lmkd_config c;
	lmkd_config_defaults(&c);
	assert_int_equal(c.v[LMKD_THRASHING_LIMIT_PERCENT], 100);
	assert_int_equal(c.v[LMKD_PER_APP_MEMCG], 0);
	lmkd_config_low_ram(&c, NULL);
	/* ro.config.per_app_memcg defaults to ro.config.low_ram */
	assert_int_equal(c.v[LMKD_PER_APP_MEMCG], 1);
	assert_int_equal(c.v[LMKD_PSI_PARTIAL_STALL_MS], 200);
	assert_int_equal(c.v[LMKD_THRASHING_LIMIT_PERCENT], 30);
	assert_int_equal(c.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT], 50);
	assert_int_equal(c.v[LMKD_PSI_COMPLETE_STALL_MS], 700);
	assert_int_equal(c.v[LMKD_SWAP_FREE_LOW_PERCENT], 10);
	assert_int_equal(c.v[LMKD_KILL_TIMEOUT_MS], 100);
	int differ = 0;
	for (int k = 0; k < LMKD_KEY_COUNT; k++)
		differ += lmkd_low_ram_default((enum lmkd_key)k) != lmkd_keys[k].fallback;
	assert_int_equal(differ, 4);
}

static void a_set_key_keeps_its_value(void **state)
{
	(void)state;
	struct lmkd_config c;
	lmkd_config_defaults(&c);
	int set_line[LMKD_KEY_COUNT] = { 0 };
	c.v[LMKD_THRASHING_LIMIT_PERCENT] = 70;
	set_line[LMKD_THRASHING_LIMIT_PERCENT] = 12;
	c.v[LMKD_KILL_TIMEOUT_MS] = 0;
	set_line[LMKD_KILL_TIMEOUT_MS] = 13;
	lmkd_config_low_ram(&c, set_line);
	assert_int_equal(c.v[LMKD_THRASHING_LIMIT_PERCENT], 70);
	assert_int_equal(c.v[LMKD_KILL_TIMEOUT_MS], 0);
	assert_int_equal(c.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT], 50);
	assert_int_equal(c.v[LMKD_PSI_PARTIAL_STALL_MS], 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(low_ram_defaults_differ_in_four_keys),
		cmocka_unit_test(a_set_key_keeps_its_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
