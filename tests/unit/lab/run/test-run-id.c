/* Unit tests: run ids say the experiment and the time, and two of the same second differ. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lab/run/run-id.h"

static void ids_have_their_form(void **state)
{
	(void)state;
	regex_t plain, shard;
	assert_int_equal(regcomp(&plain, "^quick-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&shard, "^quick-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}-shard2-of-3$",
				 REG_EXTENDED), 0);
	char *a = run_id_new("quick", 1796030301, 1, 1), *b = run_id_new("quick", 1796030301, 2, 3);
	assert_int_equal(regexec(&plain, a, 0, NULL, 0), 0);
	assert_int_equal(regexec(&shard, b, 0, NULL, 0), 0);
	regfree(&plain);
	regfree(&shard);
	free(a);
	free(b);
}

static void one_second_many_runs(void **state)
{
	(void)state;
	struct strlist ids = STRLIST_INIT;
	for (int i = 0; i < 200; i++) {
		char *id = run_id_new("quick", 1796030301, 1, 1);
		assert_false(strlist_has(&ids, id));
		strlist_push_owned(&ids, id);
	}
	strlist_clear(&ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_have_their_form),
		cmocka_unit_test(one_second_many_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
