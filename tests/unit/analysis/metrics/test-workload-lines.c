/* test-workload-lines.c - an experiment's workload lines read from out.log
 * (analysis/metrics/workload_lines.c): the line runner's markers, each
 * line's ending, its first text, and which lines are bad. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/metrics/metric_catalog.h"
#include "analysis/metrics/workload_lines.h"
#include "common/proto/workload-line.h"

#define BAD(s) workload_line_is_bad(s, strlen(s))

/* Bad: a line that means to be JSON and is not, or a metric line out of the
 * schema. Text and good JSON never are. */
static void bad_line_rule(void **state)
{
	(void)state;
	assert_true(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":"));
	assert_true(BAD("  {not json}"));
	assert_true(BAD("{\"a\":1} trailing"));
	assert_true(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":\"12\"}"));
	assert_true(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"value\":1}"));
	assert_true(BAD("{\"type\":\"metric\",\"name\":\"x\",\"value\":1}"));
	assert_true(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\"}"));
	assert_false(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":1.5,\"unit\":\"s\"}"));
	assert_false(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":null}"));
	assert_false(BAD("{\"type\":\"event\",\"workload\":\"r\",\"name\":\"phase-begin\"}"));
	assert_false(BAD("{\"anything\": [1, 2]}"));
	assert_false(BAD("allocated 100 MiB"));
	assert_false(BAD("taskset: bad affinity 'zz'"));
	assert_false(BAD("[1, 2]"));
	assert_false(BAD(""));
}

static const char out_log[] =
	"{\"type\":\"event\",\"workload\":\"fragment\",\"name\":\"ready\"}\n"
	"before any line: not counted\n"
	"{broken before any line\n"
	"{\"type\":\"line-start\",\"workload\":\"spawn\",\"line\":1,\"t_mono_ns\":5}\n"
	"taskset: bad affinity 'zz'   \n"
	"and a second line of text\n"
	"{\"type\":\"metric\",\"workload\":\"spawn\",\"name\":\"exit_status\",\"value\":1,\"unit\":\"status\"}\n"
	"{\"type\":\"line-end\",\"workload\":\"spawn\",\"line\":1,\"exit_status\":1,\"signal\":0}\n"
	"{\"type\":\"line-start\",\"workload\":\"repro\",\"line\":2,\"t_mono_ns\":9}\n"
	"{\"type\":\"metric\",\"workload\":\"repro\",\"name\":\"mb\",\"value\":12}\n"
	"{\"type\":\"metric\",\"workload\":\"repro\",\"name\":\"mb\",\"value\":\n"
	"{oops 1\n"
	"{oops 2\n"
	"{oops 3\n"
	"\t{oops 4\n"
	"{\"type\":\"line-end\",\"workload\":\"repro\",\"line\":2,\"exit_status\":137,\"signal\":9}\n"
	"{\"type\":\"line-start\",\"workload\":\"repro\",\"line\":3,\"t_mono_ns\":11}\n"
	"{\"x\":1}\n"
	"{cut by the guest's end";

static void lines_of_out_log(void **state)
{
	(void)state;
	struct workload_lines w;
	struct metric_set taken = METRIC_SET_INIT;
	/* read once: the lines and the two metric lines with a number */
	assert_int_equal(workload_lines_parse(out_log, strlen(out_log), &w, &taken), 2);
	assert_true(metric_set_get(&taken, "spawn.exit_status")->value == 1);
	assert_true(metric_set_get(&taken, "repro.mb")->value == 12);
	metric_set_clear(&taken);
	assert_int_equal(w.n, 3);

	assert_int_equal(w.v[0].line, 1);
	assert_string_equal(w.v[0].workload, "spawn");
	assert_true(w.v[0].ended);
	assert_int_equal(w.v[0].exit_status, 1);
	assert_int_equal(w.v[0].signal, 0);
	assert_string_equal(w.v[0].first_text, "taskset: bad affinity 'zz'");
	assert_int_equal(w.v[0].bad_lines, 0);

	assert_string_equal(w.v[1].workload, "repro");
	assert_int_equal(w.v[1].exit_status, 137);
	assert_int_equal(w.v[1].signal, 9);
	assert_null(w.v[1].first_text);
	assert_int_equal(w.v[1].bad_lines, 5);
	assert_int_equal(w.v[1].n_examples, WORKLOAD_LINE_EXAMPLES);
	assert_string_equal(w.v[1].examples[0], "{\"type\":\"metric\",\"workload\":\"repro\",\"name\":\"mb\",\"value\":");
	assert_string_equal(w.v[1].examples[2], "{oops 2");

	/* the guest ended inside line 3: no ending, and its cut last line is not judged */
	assert_int_equal(w.v[2].line, 3);
	assert_false(w.v[2].ended);
	assert_int_equal(w.v[2].bad_lines, 0);

	struct metric_set m = METRIC_SET_INIT;
	workload_lines_metrics(&w, &m);
	assert_int_equal(m.n, 2);
	assert_true(metric_set_get(&m, "spawn.bad_lines")->value == 0);
	/* the lines of one workload summed */
	assert_true(metric_set_get(&m, "repro.bad_lines")->value == 5);
	assert_string_equal(metric_set_get(&m, "repro.bad_lines")->source, "out.log");

	json_t *j = workload_lines_json(&w);
	assert_int_equal(json_array_size(j), 3);
	json_t *l2 = json_array_get(j, 1), *l3 = json_array_get(j, 2);
	assert_int_equal(json_integer_value(json_object_get(l2, "signal")), 9);
	assert_true(json_is_null(json_object_get(l2, "first_text")));
	assert_int_equal(json_array_size(json_object_get(l2, "bad_line_examples")), 3);
	assert_true(json_is_null(json_object_get(l3, "exit_status")));
	assert_true(json_is_false(json_object_get(l3, "ended")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 0), "first_text")),
			    "taskset: bad affinity 'zz'");
	json_decref(j);
	metric_set_clear(&m);
	workload_lines_clear(&w);

	/* out.log without markers (lab boot, older trials): no lines */
	const char *plain = "{\"type\":\"metric\",\"workload\":\"w\",\"name\":\"x\",\"value\":1}\n{bad\n";
	assert_int_equal(workload_lines_parse(plain, strlen(plain), &w, &taken), 1);
	assert_true(metric_set_get(&taken, "w.x")->value == 1);
	metric_set_clear(&taken);
	assert_int_equal(w.n, 0);
	workload_lines_clear(&w);
}

/* A user's program need not name itself: inside its line, a metric without
 * "workload" is the line's program's; outside any line it is no metric. */
static void metrics_without_a_workload(void **state)
{
	(void)state;
	const char *log =
		"{\"type\":\"metric\",\"name\":\"early\",\"value\":1}\n"
		"{\"type\":\"line-start\",\"workload\":\"alloc\",\"line\":1,\"t_mono_ns\":5}\n"
		"{\"type\":\"metric\",\"name\":\"mb_allocated\",\"value\":48,\"unit\":\"count\"}\n"
		"{\"type\":\"metric\",\"workload\":\"spawn\",\"name\":\"spawn_count\",\"value\":3}\n"
		"{\"type\":\"line-end\",\"workload\":\"alloc\",\"line\":1,\"exit_status\":137,\"signal\":9}\n"
		"{\"type\":\"metric\",\"name\":\"late\",\"value\":2}\n";
	struct metric_set m = METRIC_SET_INIT;
	struct workload_lines w;
	assert_int_equal(workload_lines_parse(log, strlen(log), &w, &m), 2);
	assert_true(metric_set_get(&m, "alloc.mb_allocated")->value == 48);
	assert_string_equal(metric_set_get(&m, "alloc.mb_allocated")->unit, "count");
	assert_true(metric_set_get(&m, "spawn.spawn_count")->value == 3);
	assert_null(metric_set_get(&m, "alloc.late"));
	metric_set_clear(&m);
	/* and such a line is no bad line inside its line */
	assert_int_equal(w.n, 1);
	assert_int_equal(w.v[0].bad_lines, 0);
	workload_lines_clear(&w);
}

/* A metric line may declare its direction: "better" is "higher" or "lower",
 * carried to trial.json's metric; any other "better" makes the line a bad
 * line and no figure; without it the metric declares none. */
static void declared_direction(void **state)
{
	(void)state;
	const char *log =
		"{\"type\":\"line-start\",\"workload\":\"repro\",\"line\":1,\"t_mono_ns\":5}\n"
		"{\"type\":\"metric\",\"name\":\"up\",\"value\":1,\"better\":\"higher\"}\n"
		"{\"type\":\"metric\",\"name\":\"down\",\"value\":2,\"better\":\"lower\"}\n"
		"{\"type\":\"metric\",\"name\":\"plain\",\"value\":3}\n"
		"{\"type\":\"metric\",\"name\":\"nan\",\"value\":null,\"better\":\"lower\"}\n"
		"{\"type\":\"metric\",\"name\":\"odd\",\"value\":4,\"better\":\"bigger\"}\n"
		"{\"type\":\"metric\",\"name\":\"nil\",\"value\":5,\"better\":null}\n"
		"{\"type\":\"metric\",\"name\":\"num\",\"value\":6,\"better\":1}\n"
		"{\"type\":\"metric\",\"name\":\"neither\",\"value\":7,\"better\":\"neither\"}\n"
		"{\"type\":\"metric\",\"name\":\"caps\",\"value\":8,\"better\":\"Higher\"}\n"
		"{\"type\":\"line-end\",\"workload\":\"repro\",\"line\":1,\"exit_status\":0,\"signal\":0}\n";
	struct metric_set m = METRIC_SET_INIT;
	struct workload_lines w;
	assert_int_equal(workload_lines_parse(log, strlen(log), &w, &m), 3);
	assert_int_equal(metric_set_get(&m, "repro.up")->declared, BETTER_HIGHER);
	assert_int_equal(metric_set_get(&m, "repro.down")->declared, BETTER_LOWER);
	assert_int_equal(metric_set_get(&m, "repro.plain")->declared, BETTER_NEITHER);
	/* a word out of the schema: no figure, and a bad line each (a null
	 * value with a good word is neither) */
	const char *refused[] = { "repro.nan", "repro.odd", "repro.nil", "repro.num", "repro.neither",
				  "repro.caps" };
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (metric_set_get(&m, refused[i]))
			fail_msg("%s taken", refused[i]);
	assert_int_equal(w.n, 1);
	assert_int_equal(w.v[0].bad_lines, 5);
	assert_string_equal(w.v[0].examples[0],
			    "{\"type\":\"metric\",\"name\":\"odd\",\"value\":4,\"better\":\"bigger\"}");

	/* trial.json: "better" only where one was declared */
	json_t *j = metric_set_json(&m);
	size_t i;
	json_t *e;
	json_array_foreach(j, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		json_t *better = json_object_get(e, "better");
		if (!strcmp(name, "repro.up"))
			assert_string_equal(json_string_value(better), "higher");
		else if (!strcmp(name, "repro.down"))
			assert_string_equal(json_string_value(better), "lower");
		else if (better)
			fail_msg("%s has \"better\"", name);
	}
	assert_int_equal(json_array_size(j), 3);
	json_decref(j);

	/* reported again without a word: the last report's (none) */
	const char *again = "{\"type\":\"metric\",\"workload\":\"repro\",\"name\":\"up\",\"value\":9}\n";
	struct workload_lines w2;
	assert_int_equal(workload_lines_parse(again, strlen(again), &w2, &m), 1);
	assert_int_equal(metric_set_get(&m, "repro.up")->declared, BETTER_NEITHER);
	workload_lines_clear(&w2);
	metric_set_clear(&m);
	workload_lines_clear(&w);

	/* the same rule for the line alone */
	assert_true(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":1,\"better\":\"up\"}"));
	assert_false(BAD("{\"type\":\"metric\",\"workload\":\"r\",\"name\":\"x\",\"value\":1,\"better\":\"lower\"}"));
}

/* A program's bytes need not be UTF-8; trial.json stays JSON, and a long
 * line is cut. */
static void odd_text_kept_as_json(void **state)
{
	(void)state;
	char text[600];
	int n = snprintf(text, sizeof(text), "{\"type\":\"line-start\",\"workload\":\"r\",\"line\":1}\n"
					     "caf\xe9 \xff\n{");
	memset(text + n, 'x', 400);
	strcpy(text + n + 400, "\n");
	struct workload_lines w;
	struct metric_set taken = METRIC_SET_INIT;
	assert_int_equal(workload_lines_parse(text, strlen(text), &w, &taken), 0);
	assert_int_equal(w.n, 1);
	assert_int_equal(strlen(w.v[0].examples[0]), WORKLOAD_LINE_TEXT_MAX);
	json_t *j = workload_lines_json(&w);
	json_t *l = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(l, "first_text")), "caf? ?");
	assert_int_equal(json_array_size(json_object_get(l, "bad_line_examples")), 1);
	json_decref(j);
	workload_lines_clear(&w);
}

/* Every line's metrics have a catalogue row, with the unit the runner writes,
 * whatever the workload; a workload's own metrics keep theirs. */
static void line_metrics_catalogued(void **state)
{
	(void)state;
	static const struct {
		const char *name, *unit;
		enum metric_kind kind;
		enum metric_better better;
	} rows[] = {
		{ "repro." LINE_METRIC_EXIT_STATUS, "status", METRIC_EVENTS, BETTER_NEITHER },
		{ "taskset." LINE_METRIC_SIGNAL, "signal", METRIC_EVENTS, BETTER_NEITHER },
		{ "spawn." LINE_METRIC_WALL, "s", METRIC_TIME, BETTER_NEITHER },
		{ "oom-hog." LINE_METRIC_MEMORY_PEAK, "bytes", METRIC_SIZE, BETTER_LOWER },
		{ "binder-mmap." LINE_METRIC_OOM_KILLS, "count", METRIC_EVENTS, BETTER_LOWER },
		{ "my-repro." LINE_METRIC_BAD_LINES, "count", METRIC_EVENTS, BETTER_LOWER },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct metric_def *d = metric_catalog_find(rows[i].name);
		assert_non_null(d);
		assert_string_equal(d->unit, rows[i].unit);
		assert_int_equal(d->kind, rows[i].kind);
		assert_int_equal(d->better, rows[i].better);
	}
	assert_null(metric_catalog_find("binder-mmap.mmap_ok"));
	assert_null(metric_catalog_find("binder-sendvec.sendvec_ns_per_rt.size=4096"));
	assert_null(metric_catalog_find("exit_status"));
}

/* A selftest's line: its first text is "TAP version 13", the line that
 * explains how it ended is its last diagnostic; a plain program's is its
 * first text. */
static void explaining_text_of_a_selftest(void **state)
{
	(void)state;
	static const char log[] =
		"{\"type\":\"line-start\",\"workload\":\"selftest\",\"line\":1,\"t_mono_ns\":5}\n"
		"TAP version 13\n"
		"1..1\n"
		"# Failed to open /proc/sys/vm/nr_hugepages\n"
		"# Planned tests != run tests (1 != 0)\n"
		"# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\n"
		"selftest: mm/hugepage-mmap printed no test result (exit 1)\n"
		"{\"type\":\"line-end\",\"workload\":\"selftest\",\"line\":1,\"exit_status\":1,\"signal\":0}\n"
		"{\"type\":\"line-start\",\"workload\":\"spawn\",\"line\":2,\"t_mono_ns\":9}\n"
		"taskset: bad affinity 'zz'\n"
		"# spawn's own words\n"
		"{\"type\":\"line-end\",\"workload\":\"spawn\",\"line\":2,\"exit_status\":1,\"signal\":0}\n"
		"{\"type\":\"line-start\",\"workload\":\"spawn\",\"line\":3,\"t_mono_ns\":11}\n"
		"{\"type\":\"line-end\",\"workload\":\"spawn\",\"line\":3,\"exit_status\":0,\"signal\":0}\n";
	struct workload_lines w;
	struct metric_set taken = METRIC_SET_INIT;
	workload_lines_parse(log, strlen(log), &w, &taken);
	metric_set_clear(&taken);
	assert_int_equal(w.n, 3);
	assert_string_equal(w.v[0].first_text, "TAP version 13");
	assert_string_equal(w.v[0].explaining_text, "# Failed to open /proc/sys/vm/nr_hugepages");
	assert_string_equal(w.v[1].explaining_text, "taskset: bad affinity 'zz'");
	assert_null(w.v[2].explaining_text);
	json_t *j = workload_lines_json(&w);
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 0), "explaining_text")),
			    "# Failed to open /proc/sys/vm/nr_hugepages");
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 0), "first_text")),
			    "TAP version 13");
	assert_true(json_is_null(json_object_get(json_array_get(j, 2), "explaining_text")));

	/* the one decoder gives back what the encoder wrote */
	struct workload_lines back;
	workload_lines_from_json(j, &back);
	assert_int_equal(back.n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(back.v[i].line, w.v[i].line);
		assert_string_equal(back.v[i].workload, w.v[i].workload);
		assert_int_equal(back.v[i].ended, w.v[i].ended);
		assert_int_equal(back.v[i].exit_status, w.v[i].exit_status);
		assert_int_equal(back.v[i].signal, w.v[i].signal);
	}
	assert_string_equal(back.v[0].explaining_text, "# Failed to open /proc/sys/vm/nr_hugepages");
	assert_string_equal(back.v[0].first_text, "TAP version 13");
	assert_null(back.v[2].explaining_text);
	assert_ptr_equal(workload_lines_find(&back, 2), &back.v[1]);
	assert_null(workload_lines_find(&back, 4));
	assert_true(workload_line_exited_nonzero(&back.v[1]));
	assert_false(workload_line_exited_nonzero(&back.v[2]));
	workload_lines_clear(&back);
	/* a trial.json from before explaining_text: the first text explains */
	json_object_del(json_array_get(j, 1), "explaining_text");
	json_object_set_new(json_array_get(j, 1), "first_text", json_string("older words"));
	workload_lines_from_json(j, &back);
	assert_string_equal(back.v[1].explaining_text, "older words");
	workload_lines_clear(&back);
	json_decref(j);
	workload_lines_clear(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(explaining_text_of_a_selftest),
		cmocka_unit_test(bad_line_rule),
		cmocka_unit_test(lines_of_out_log),
		cmocka_unit_test(metrics_without_a_workload),
		cmocka_unit_test(declared_direction),
		cmocka_unit_test(odd_text_kept_as_json),
		cmocka_unit_test(line_metrics_catalogued),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
