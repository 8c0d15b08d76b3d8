/* test-app-timeline.c - the apps workload's timeline from out.log
 * (analysis/parse/app_timeline.c): spans of tier and life per app,
 * launches, deaths and samples, with the launch printed after the events
 * that came while it ran. Times in ms after 1 s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/parse/app_timeline.h"
#include "common/proto/app-tiers.h"

#define MS(x) (1000000000ull + (x) * 1000000ull)

static const char out_log[] =
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1000000000,\"step\":0,\"app\":0,\"pid\":0,\"tier\":\"foreground\",\"adj\":0}\n"
	/* app 0's cold launch: 100 ms */
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1000000000,\"step\":0,\"app\":0,\"pid\":50,\"kind\":\"cold\",\"ms\":100,\"ok\":true}\n"
	"plain text from a program\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1200000000,\"step\":1,\"app\":0,\"pid\":50,\"tier\":\"cached\",\"adj\":900}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1200000000,\"step\":1,\"app\":1,\"pid\":0,\"tier\":\"foreground\",\"adj\":0}\n"
	/* app 0 is killed while app 1 launches: printed before the launch, earlier than its end */
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-death\",\"t_mono_ns\":1250000000,\"app\":0,\"pid\":50,\"signal\":9,\"tier\":\"cached\",\"adj\":900}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"apps-alive\",\"t_mono_ns\":1260000000,\"alive\":1,\"cached\":0}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1200000000,\"step\":1,\"app\":1,\"pid\":51,\"kind\":\"cold\",\"ms\":150,\"ok\":true}\n"
	/* another workload's events do not count */
	"{\"type\":\"event\",\"workload\":\"binder-mmap\",\"name\":\"app-death\",\"t_mono_ns\":1300000000,\"app\":1}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1400000000,\"step\":2,\"app\":0,\"pid\":0,\"tier\":\"foreground\",\"adj\":0}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1400000000,\"step\":2,\"app\":1,\"pid\":51,\"tier\":\"visible\",\"adj\":100}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1400000000,\"step\":2,\"app\":0,\"pid\":52,\"kind\":\"cold\",\"ms\":200,\"ok\":true}\n";

static const struct app_span *span_at(const struct app_timeline *tl, int app, uint64_t t)
{
	for (size_t i = 0; i < tl->n_spans; i++)
		if (tl->spans[i].app == app && tl->spans[i].begin_ns <= t && t < tl->spans[i].end_ns)
			return &tl->spans[i];
	return NULL;
}

static void replays_in_time_order(void **state)
{
	(void)state;
	struct app_timeline tl;
	assert_int_equal(app_timeline_parse(out_log, strlen(out_log), &tl), 0);
	assert_int_equal(tl.napps, 2);
	assert_int_equal(tl.start_ns, MS(0));
	assert_int_equal(tl.end_ns, MS(600));   /* the last launch's ready */
	assert_int_equal(tl.n_launches, 3);
	assert_int_equal(tl.n_deaths, 1);
	assert_int_equal(tl.deaths[0].app, 0);
	assert_int_equal(tl.deaths[0].signal, 9);
	assert_int_equal(tl.deaths[0].tier, APP_TIER_CACHED);
	assert_int_equal(tl.n_alive, 1);
	assert_int_equal(tl.alive[0].alive, 1);

	const struct app_span *s = span_at(&tl, 0, MS(50));
	assert_non_null(s);
	assert_int_equal(s->tier, APP_TIER_FOREGROUND);
	assert_true(s->alive);
	assert_int_equal(s->begin_ns, MS(0));
	assert_int_equal(s->end_ns, MS(200));
	s = span_at(&tl, 0, MS(220));
	assert_int_equal(s->tier, APP_TIER_CACHED);
	assert_true(s->alive);
	assert_int_equal(s->end_ns, MS(250));
	s = span_at(&tl, 0, MS(300));           /* dead, and still cached */
	assert_int_equal(s->tier, APP_TIER_CACHED);
	assert_false(s->alive);
	assert_int_equal(s->end_ns, MS(400));
	s = span_at(&tl, 0, MS(500));           /* cold-started again */
	assert_int_equal(s->tier, APP_TIER_FOREGROUND);
	assert_true(s->alive);
	assert_int_equal(s->end_ns, MS(600));
	/* app 1: nothing before its first event, then foreground and visible */
	assert_null(span_at(&tl, 1, MS(100)));
	s = span_at(&tl, 1, MS(300));
	assert_int_equal(s->tier, APP_TIER_FOREGROUND);
	assert_true(s->alive);
	assert_int_equal(s->begin_ns, MS(200));
	s = span_at(&tl, 1, MS(450));
	assert_int_equal(s->tier, APP_TIER_VISIBLE);
	app_timeline_release(&tl);
}

static void no_app_events(void **state)
{
	(void)state;
	static const char other[] =
		"{\"type\":\"event\",\"workload\":\"spawn\",\"name\":\"phase-begin\",\"t_mono_ns\":5,\"phase\":\"spawn\"}\n";
	struct app_timeline tl;
	assert_int_equal(app_timeline_parse(other, strlen(other), &tl), -1);
	assert_int_equal(tl.n_spans, 0);
	app_timeline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replays_in_time_order),
		cmocka_unit_test(no_app_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
