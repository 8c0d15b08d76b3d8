/* Unit tests: the growable array (common/base/alloc-grow.h, ALLOC_GROW and
 * REALLOC_ARRAY of common/util.h) keeps what it holds, grows geometrically,
 * and refuses a size that overflows instead of allocating too little. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"

/* 100000 appends one at a time: every item kept, the capacity never below the
 * count, and few enough reallocations that appending costs O(n). */
static void appends_keep_every_item(void **state)
{
	(void)state;
	unsigned *v = NULL;
	size_t n = 0, alloc = 0, grew = 0;
	for (unsigned i = 0; i < 100000; i++) {
		size_t before = alloc;
		ALLOC_GROW(v, n + 1, alloc);
		grew += alloc != before;
		assert_true(alloc >= n + 1);
		v[n++] = i * 7u;
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i], i * 7u);
	/* half as much again each time: about log1.5(100000 / 8) + 1 = 25 */
	assert_in_range(grew, 1, 30);
	free(v);
}

/* Room enough already, or a size that overflows (ALLOC_GROW_TRY false):
 * neither the array nor its capacity moves. A jump past the next step lands
 * on at least what was asked for. */
static void grows_only_when_needed_and_possible(void **state)
{
	(void)state;
	double *v = NULL;
	size_t alloc = 0;
	ALLOC_GROW(v, 100, alloc);
	double *was = v;
	size_t cap = alloc;
	assert_true(cap >= 100);
	ALLOC_GROW(v, 100, alloc);
	ALLOC_GROW(v, 1, alloc);
	ALLOC_GROW(v, 0, alloc);
	assert_false(ALLOC_GROW_TRY(v, SIZE_MAX / sizeof(double) + 1, alloc));
	assert_false(ALLOC_GROW_TRY(v, SIZE_MAX, alloc));
	assert_ptr_equal(v, was);
	assert_int_equal(alloc, cap);
	assert_true(ALLOC_GROW_TRY(v, 5000, alloc));
	assert_true(alloc >= 5000);
	v[4999] = 1.5;
	assert_true(v[4999] == 1.5);
	free(v);
}

/* The capacity: at least NEED, never more items than fit in SIZE_MAX bytes,
 * 0 when NEED items do not fit. */
static void capacity_never_overflows(void **state)
{
	(void)state;
	assert_int_equal(alloc_grow_capacity(1, 0, 4), 8);
	assert_int_equal(alloc_grow_capacity(9, 8, 4), 20);
	assert_int_equal(alloc_grow_capacity(7, 20, 4), 20);
	assert_int_equal(alloc_grow_capacity(SIZE_MAX / 4 + 1, 0, 4), 0);
	assert_int_equal(alloc_grow_capacity(1, 0, 0), 0);
	/* near the top: the step is cut to the most that fits */
	size_t most = SIZE_MAX / 16;
	assert_int_equal(alloc_grow_capacity(most, most - 1, 16), most);
	assert_int_equal(alloc_grow_capacity(most - 5, most - 10, 16), most);
	/* an item so large that fewer than 8 fit */
	size_t huge = SIZE_MAX / 3;
	assert_int_equal(alloc_grow_capacity(1, 0, huge), 3);
	assert_int_equal(alloc_grow_capacity(4, 0, huge), 0);
	for (size_t size = 1; size < 1u << 20; size = size * 3 + 1)
		for (size_t need = SIZE_MAX / size - 40; need <= SIZE_MAX / size && need; need++) {
			size_t c = alloc_grow_capacity(need, need - 1, size);
			assert_true(c >= need && c <= SIZE_MAX / size);
		}
}

/* The exit status of the child that runs F; what it writes to stderr in ERR. */
static int in_child(void (*f)(void), char *err, size_t size)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		f();
		_exit(0);
	}
	close(fds[1]);
	/* to the end: die() writes its line in pieces, and a pipe closed early kills the child */
	size_t len = 0;
	ssize_t got;
	char chunk[256];
	while ((got = read(fds[0], chunk, sizeof(chunk))) > 0) {
		size_t take = (size_t)got < size - 1 - len ? (size_t)got : size - 1 - len;
		memcpy(err + len, chunk, take);
		len += take;
	}
	err[len] = '\0';
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void grow_past_size_max(void)
{
	int *v = NULL;
	size_t alloc = 0, n = SIZE_MAX / sizeof(int);
	ALLOC_GROW(v, n + 1, alloc);
}

static void resize_past_size_max(void)
{
	uint64_t *v = NULL;
	REALLOC_ARRAY(v, SIZE_MAX / 4);
}

/* The lab's forms die on an overflow, naming it, rather than allocate a wrapped size. */
static void the_lab_dies_on_an_overflow(void **state)
{
	(void)state;
	char err[256];
	assert_int_equal(in_child(grow_past_size_max, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "out of memory"));
	assert_non_null(strstr(err, "items of 4 bytes"));
	assert_int_equal(in_child(resize_past_size_max, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "items of 8 bytes"));
}

/* REALLOC_ARRAY: exactly N items, what was there kept. */
static void realloc_array_keeps_items(void **state)
{
	(void)state;
	int *v = NULL;
	REALLOC_ARRAY(v, 3);
	v[0] = 1, v[1] = 2, v[2] = 3;
	REALLOC_ARRAY(v, 1000);
	v[999] = 9;
	assert_int_equal(v[0] + v[1] + v[2] + v[999], 15);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(appends_keep_every_item),
		cmocka_unit_test(grows_only_when_needed_and_possible),
		cmocka_unit_test(capacity_never_overflows),
		cmocka_unit_test(the_lab_dies_on_an_overflow),
		cmocka_unit_test(realloc_array_keeps_items),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
