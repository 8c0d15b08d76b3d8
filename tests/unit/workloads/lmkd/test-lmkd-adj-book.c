/* test-lmkd-adj-book.c - since when each process has held its adj
 * (workloads/lmkd/lmkd-adj-book.c), from scans of /proc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/lmkd/lmkd-adj-book.h"

static struct lmkd_adj_book book;

static void an_adj_kept_keeps_its_time_a_change_refiles(void **state)
{
	(void)state;
	int pids[] = { 30, 10, 20 }, adjs[] = { 900, 0, 910 };
	lmkd_adj_book_scan(&book, pids, adjs, 3, 1000);
	assert_int_equal(lmkd_adj_book_since(&book, 30, 900, -1), 1000);
	/* 20 goes from 910 to 900 (re-ranked), 40 is new, 10 is gone */
	int pids2[] = { 20, 30, 40 }, adjs2[] = { 900, 900, 999 };
	lmkd_adj_book_scan(&book, pids2, adjs2, 3, 2000);
	assert_int_equal(lmkd_adj_book_since(&book, 30, 900, -1), 1000);
	assert_int_equal(lmkd_adj_book_since(&book, 20, 900, -1), 2000);
	assert_int_equal(lmkd_adj_book_since(&book, 40, 999, -1), 2000);
	assert_int_equal(lmkd_adj_book_since(&book, 10, 0, -1), -1);
	/* asked at another adj than the book has: not known */
	assert_int_equal(lmkd_adj_book_since(&book, 30, 910, -7), -7);
	assert_int_equal(book.n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_adj_kept_keeps_its_time_a_change_refiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
