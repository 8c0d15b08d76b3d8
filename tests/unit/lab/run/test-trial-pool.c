/* Unit tests: the trial pool never runs more than N trials at once, admits by
 * memory, keeps the run's order, judges whole rounds, and stops cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/run/trial-pool.h"

#define MAX_SLOTS 64
#define GIB (1ULL << 30)

/* A simulated host: slot I takes duration[I] seconds; time moves to the next
 * end whenever the pool waits. */
struct sim {
	size_t n, per_round;
	double duration[MAX_SLOTS];
	double started_at[MAX_SLOTS], ended_at[MAX_SLOTS];
	bool started[MAX_SLOTS], ended[MAX_SLOTS];
	size_t start_order[MAX_SLOTS], n_started;
	double now;
	unsigned running, most_running;
	unsigned long long host_bytes, per_trial_bytes;
	/* what was started when each round was judged */
	size_t started_when_judged[MAX_SLOTS];
	unsigned rounds_judged;
	unsigned stop_at_round;   /* round_done says stop after this round (from 1); 0: never */
	bool fail_start_at_slot;  /* start of slot fail_slot fails */
	size_t fail_slot;
};

static int sim_start(void *ctx, size_t i)
{
	struct sim *s = ctx;
	assert_false(s->started[i]);
	if (s->fail_start_at_slot && i == s->fail_slot)
		return -1;
	s->started[i] = true;
	s->started_at[i] = s->now;
	s->start_order[s->n_started++] = i;
	s->running++;
	if (s->running > s->most_running)
		s->most_running = s->running;
	return 0;
}

static size_t sim_wait(void *ctx)
{
	struct sim *s = ctx;
	size_t best = (size_t)-1;
	for (size_t i = 0; i < s->n; i++)
		if (s->started[i] && !s->ended[i] &&
		    (best == (size_t)-1 ||
		     s->started_at[i] + s->duration[i] < s->started_at[best] + s->duration[best]))
			best = i;
	assert_true(best != (size_t)-1);
	s->now = s->started_at[best] + s->duration[best];
	s->ended[best] = true;
	s->ended_at[best] = s->now;
	s->running--;
	return best;
}

static bool sim_round_done(void *ctx, unsigned round)
{
	struct sim *s = ctx;
	assert_int_equal(round, s->rounds_judged);
	/* every slot of the round has ended when it is judged */
	for (size_t i = round * s->per_round; i < (round + 1) * s->per_round && i < s->n; i++)
		assert_false(s->started[i] && !s->ended[i]);
	s->started_when_judged[round] = s->n_started;
	s->rounds_judged++;
	return !(s->stop_at_round && round + 1 == s->stop_at_round);
}

static unsigned long long sim_mem(void *ctx)
{
	struct sim *s = ctx;
	unsigned long long used = (unsigned long long)s->running * s->per_trial_bytes;
	return s->host_bytes > used ? s->host_bytes - used : 0;
}

static void sim_init(struct sim *s, size_t n, size_t per_round)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->per_round = per_round;
	/* uneven lengths, so that trials end out of order */
	for (size_t i = 0; i < n; i++)
		s->duration[i] = 10.0 + (double)((i * 7) % 5) * 3.0;
	s->host_bytes = 64 * GIB;
	s->per_trial_bytes = GIB;
}

static int sim_run(struct sim *s, const bool *todo, unsigned jobs, bool judge_every_round)
{
	bool all[MAX_SLOTS];
	for (size_t i = 0; i < s->n; i++)
		all[i] = todo ? todo[i] : true;
	struct trial_pool pool = { .n_slots = s->n, .per_round = s->per_round, .todo = all,
				   .jobs = jobs, .judge_every_round = judge_every_round,
				   .trial_bytes = s->per_trial_bytes };
	struct trial_pool_ops ops = { .start = sim_start, .wait_one = sim_wait,
				      .round_done = sim_round_done, .mem_available = sim_mem, .ctx = s };
	return trial_pool_run(&pool, &ops);
}

static void never_more_than_n_at_once(void **state)
{
	(void)state;
	struct sim s;
	for (unsigned jobs = 1; jobs <= 5; jobs++) {
		sim_init(&s, 24, 3);
		assert_int_equal(sim_run(&s, NULL, jobs, false), 0);
		assert_int_equal(s.n_started, 24);
		assert_int_equal(s.most_running, jobs);
		assert_int_equal(s.rounds_judged, 8);
		/* the run's order, whatever N is */
		for (size_t i = 0; i < 24; i++)
			assert_int_equal(s.start_order[i], i);
	}
}

static void parallel_is_sooner(void **state)
{
	(void)state;
	struct sim one, two;
	sim_init(&one, 12, 2);
	sim_init(&two, 12, 2);
	assert_int_equal(sim_run(&one, NULL, 1, false), 0);
	assert_int_equal(sim_run(&two, NULL, 2, false), 0);
	/* 2 at a time takes at most about half as long, plus the round barrier's wait */
	assert_true(two.now < 0.65 * one.now);
}

static void the_first_round_is_judged_before_the_second_starts(void **state)
{
	(void)state;
	struct sim s;
	sim_init(&s, 12, 3);
	assert_int_equal(sim_run(&s, NULL, 4, false), 0);
	/* with 4 at a time, nothing of round 2 started before round 1 was judged */
	assert_int_equal(s.started_when_judged[0], 3);
	/* afterwards the pool runs ahead: round 2 was not awaited */
	assert_true(s.started_when_judged[1] > 6);
}

static void a_run_that_looks_sees_whole_rounds(void **state)
{
	(void)state;
	struct sim s;
	sim_init(&s, 15, 3);
	assert_int_equal(sim_run(&s, NULL, 2, true), 0);
	for (unsigned r = 0; r < 5; r++)
		assert_int_equal(s.started_when_judged[r], (r + 1) * 3);
	assert_int_equal(s.most_running, 2);
}

static void a_stop_leaves_nothing_running(void **state)
{
	(void)state;
	struct sim s;
	sim_init(&s, 20, 2);
	s.stop_at_round = 4;
	assert_int_equal(sim_run(&s, NULL, 2, true), 1);
	assert_int_equal(s.rounds_judged, 4);
	assert_int_equal(s.n_started, 8);
	assert_int_equal(s.running, 0);
	/* the first round's stop: round 2 never starts */
	sim_init(&s, 20, 2);
	s.stop_at_round = 1;
	assert_int_equal(sim_run(&s, NULL, 3, false), 1);
	assert_int_equal(s.n_started, 2);
	assert_int_equal(s.running, 0);
}

static void only_the_slots_to_do(void **state)
{
	(void)state;
	struct sim s;
	sim_init(&s, 12, 2);
	bool todo[12];
	/* a resumed shard: every other slot is another shard's, 0 and 4 were done */
	for (size_t i = 0; i < 12; i++)
		todo[i] = i % 2 == 0 && i != 0 && i != 4;
	assert_int_equal(sim_run(&s, todo, 2, true), 0);
	assert_int_equal(s.n_started, 4);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(s.started[i], todo[i]);
	/* every round is judged, those with nothing to run too */
	assert_int_equal(s.rounds_judged, 6);
}

static void memory_admits(void **state)
{
	(void)state;
	struct sim s;
	/* room for 2 guests beside the margin: 4 jobs asked, 3 GiB host, 1 GiB a trial */
	sim_init(&s, 12, 2);
	s.host_bytes = 3 * GIB;
	assert_int_equal(sim_run(&s, NULL, 4, false), 0);
	assert_int_equal(s.most_running, 2);
	assert_int_equal(s.n_started, 12);
	/* no room at all: one at a time still runs */
	sim_init(&s, 6, 2);
	s.host_bytes = GIB / 2;
	assert_int_equal(sim_run(&s, NULL, 4, false), 0);
	assert_int_equal(s.most_running, 1);
	assert_int_equal(s.n_started, 6);

	assert_true(trial_pool_admits(0, 2, 0, GIB));
	assert_false(trial_pool_admits(2, 2, 64 * GIB, GIB));
	assert_true(trial_pool_admits(1, 2, 2 * GIB, GIB));
	assert_false(trial_pool_admits(1, 2, 2 * GIB - 1, GIB));
}

static void a_failed_start_stops(void **state)
{
	(void)state;
	struct sim s;
	sim_init(&s, 8, 2);
	s.fail_start_at_slot = true;
	s.fail_slot = 3;
	assert_int_equal(sim_run(&s, NULL, 2, false), -1);
	assert_false(s.started[3]);
}

static void default_jobs(void **state)
{
	(void)state;
	unsigned long long half = GIB / 2;
	/* 2 cores, 24 GiB: the cores decide */
	assert_int_equal(trial_jobs_default(2, 24 * GIB, half), 2);
	/* 8 cores, 3 GiB: (3 - 1) GiB / (512 + 384) MiB = 2 */
	assert_int_equal(trial_jobs_default(8, 3 * GIB, half), 2);
	/* not even one fits: one */
	assert_int_equal(trial_jobs_default(8, GIB, half), 1);
	/* memory unknown: the cores */
	assert_int_equal(trial_jobs_default(4, 0, half), 4);
	assert_int_equal(trial_jobs_default(0, 0, half), 1);
	/* a 1 GiB guest on 16 cores and 8 GiB: 7 GiB / 1.375 GiB = 5 */
	assert_int_equal(trial_jobs_default(16, 8 * GIB, GIB), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(never_more_than_n_at_once),
		cmocka_unit_test(parallel_is_sooner),
		cmocka_unit_test(the_first_round_is_judged_before_the_second_starts),
		cmocka_unit_test(a_run_that_looks_sees_whole_rounds),
		cmocka_unit_test(a_stop_leaves_nothing_running),
		cmocka_unit_test(only_the_slots_to_do),
		cmocka_unit_test(memory_admits),
		cmocka_unit_test(a_failed_start_stops),
		cmocka_unit_test(default_jobs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
