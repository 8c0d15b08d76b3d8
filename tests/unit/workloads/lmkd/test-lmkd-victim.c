/* test-lmkd-victim.c - whom lmkd kills (workloads/lmkd/lmkd-victim.c): the
 * highest adj first, within one adj the one that has held it longest, the
 * heaviest only at adj 200 and below (lmkd.cpp find_and_kill_process(),
 * proc_adj_tail(), proc_get_heaviest(); docs/FIDELITY-LMKD.md 3.2-3.4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/lmkd/lmkd-victim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* lmkd.cpp proc_adj_tail(): two adj-900 apps, the older small one goes first */
static void the_older_of_two_900s_not_the_larger(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 900, .adj_since_ms = 5000, .rss_pages = 90000 },  /* newer, larger */
		{ .pid = 11, .adj = 900, .adj_since_ms = 1000, .rss_pages = 100 },    /* older, small */
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 701, false), 1);
	/* ro.lmk.kill_heaviest_task: the larger */
	assert_int_equal(lmkd_pick_victim(c, N(c), 701, true), 0);
}

/* lmkd.cpp find_and_kill_process(): adj from 1000 down */
static void highest_adj_first(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 900, .adj_since_ms = 1, .rss_pages = 100 },
		{ .pid = 11, .adj = 999, .adj_since_ms = 9, .rss_pages = 1 },
		{ .pid = 12, .adj = 910, .adj_since_ms = 1, .rss_pages = 100 },
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 0, false), 1);
}

/* LOW_MEM's 701 spares the previous app (700) and everything below */
static void nothing_below_the_floor(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 700, .rss_pages = 100 },
		{ .pid = 11, .adj = 0, .rss_pages = 100 },
		{ .pid = 12, .adj = -1000, .rss_pages = 100 },
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 701, false), -1);
	assert_int_equal(lmkd_pick_victim(c, N(c), 700, false), 0);
	/* a negative floor is 0: lmkd never walks below 0 */
	const struct lmkd_candidate sys[] = { { .pid = 12, .adj = -1000, .rss_pages = 100 } };
	assert_int_equal(lmkd_pick_victim(sys, N(sys), -1000, false), -1);
}

/* lmkd.cpp register_oom_adj_proc(): with per-app memcgs the launcher
 * (registered at 600-699) is filed at 200, so a service (500) goes first,
 * and a floor of 201 spares it; without, it goes before the service */
static void the_launcher_filed_as_perceptible_with_per_app_memcgs(void **state)
{
	(void)state;
	assert_int_equal(lmkd_filed_adj(600, true), 200);
	assert_int_equal(lmkd_filed_adj(699, true), 200);
	assert_int_equal(lmkd_filed_adj(700, true), 700);
	assert_int_equal(lmkd_filed_adj(599, true), 599);
	assert_int_equal(lmkd_filed_adj(600, false), 600);
	struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 600, .adj_since_ms = 1, .rss_pages = 100 },   /* home */
		{ .pid = 11, .adj = 500, .adj_since_ms = 1, .rss_pages = 100 },   /* a service */
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 201, false), 0);
	for (size_t i = 0; i < N(c); i++)
		c[i].adj = lmkd_filed_adj(c[i].adj, true);
	assert_int_equal(lmkd_pick_victim(c, N(c), 201, false), 1);
	c[1].gone = true;
	assert_int_equal(lmkd_pick_victim(c, N(c), 201, false), -1);
	assert_int_equal(lmkd_pick_victim(c, N(c), 200, false), 0);
}

/* lmkd.cpp find_and_kill_process(): i <= PERCEPTIBLE_APP_ADJ chooses the heaviest */
static void heaviest_at_200_and_below(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 200, .adj_since_ms = 1000, .rss_pages = 100 },    /* older, small */
		{ .pid = 11, .adj = 200, .adj_since_ms = 5000, .rss_pages = 9000 },   /* newer, heavy */
		{ .pid = 12, .adj = 201, .adj_since_ms = 1000, .rss_pages = 10 },
		{ .pid = 13, .adj = 201, .adj_since_ms = 5000, .rss_pages = 900 },
	};
	/* at 201 the older, though lighter */
	assert_int_equal(lmkd_pick_victim(c, N(c), 0, false), 2);
	/* at 200 the heavier, though newer */
	assert_int_equal(lmkd_pick_victim(c, 2, 0, false), 1);
}

/* lmkd.cpp proc_get_heaviest(): walked from the head (newest), strictly
 * heavier wins, so a tie goes to the newer; a list of one is taken unread;
 * a list where none has a page gives none, and the walk goes on below */
static void heaviest_ties_and_empty_lists(void **state)
{
	(void)state;
	const struct lmkd_candidate tie[] = {
		{ .pid = 10, .adj = 100, .adj_since_ms = 1000, .rss_pages = 500 },
		{ .pid = 11, .adj = 100, .adj_since_ms = 2000, .rss_pages = 500 },
	};
	assert_int_equal(lmkd_pick_victim(tie, N(tie), 0, false), 1);
	const struct lmkd_candidate one[] = { { .pid = 10, .adj = 100, .rss_pages = -1 } };
	assert_int_equal(lmkd_pick_victim(one, N(one), 0, false), 0);
	const struct lmkd_candidate empty[] = {
		{ .pid = 10, .adj = 200, .adj_since_ms = 1, .rss_pages = 0 },
		{ .pid = 11, .adj = 200, .adj_since_ms = 2, .rss_pages = -1 },
		{ .pid = 12, .adj = 0, .rss_pages = 10 },
	};
	assert_int_equal(lmkd_pick_victim(empty, N(empty), 0, false), 2);
}

/* lmkd.cpp kill_one_process(): a failed kill drops the record; the next is tried */
static void a_failed_kill_is_skipped(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 10, .adj = 900, .adj_since_ms = 1000, .rss_pages = 100, .gone = true },
		{ .pid = 11, .adj = 900, .adj_since_ms = 2000, .rss_pages = 100 },
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 701, false), 1);
}

/* lmkd.cpp proc_slot(): the same filing time: the one listed first is the older */
static void same_time_goes_by_order(void **state)
{
	(void)state;
	const struct lmkd_candidate c[] = {
		{ .pid = 20, .adj = 950, .adj_since_ms = 1000, .rss_pages = 1 },
		{ .pid = 10, .adj = 950, .adj_since_ms = 1000, .rss_pages = 1 },
	};
	assert_int_equal(lmkd_pick_victim(c, N(c), 701, false), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_older_of_two_900s_not_the_larger),
		cmocka_unit_test(highest_adj_first),
		cmocka_unit_test(nothing_below_the_floor),
		cmocka_unit_test(the_launcher_filed_as_perceptible_with_per_app_memcgs),
		cmocka_unit_test(heaviest_at_200_and_below),
		cmocka_unit_test(heaviest_ties_and_empty_lists),
		cmocka_unit_test(a_failed_kill_is_skipped),
		cmocka_unit_test(same_time_goes_by_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
