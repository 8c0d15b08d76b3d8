/* Unit tests: the one name rule (common/proto/name-rule.h) and the places
 * names enter by it: experiment and profile files, a run.json's run id and
 * group labels, a guest's metric names and units (issue 37). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/workload_lines.h"
#include "common/proto/name-rule.h"
#include "common/run-folder.h"
#include "lab/machine/profile.h"
#include "lab/run/experiment.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-name-rule.XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static void the_rule(void **state)
{
	(void)state;
	const char *good[] = { "quick", "oom-basic_2", "stock+debug", "stock#2", "a.b.kind=warn",
			       "x-20261203-121500-a1b2c3", "_x", "9lives" };
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		assert_null(name_rule_refusal(good[i], NAME_PLAIN));
	const char *bad[] = { "", "..", "a..b", "../esc", "-x", ".hidden", "a b", "a\nb", "a'b",
			      "a$(id)", "a`id`", "a;b", "a,b", "a%j", "<b>", "a&b", "a/b", "=cmd",
			      "+1", "@x", "a\x1b[31m" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_non_null(name_rule_refusal(bad[i], NAME_PLAIN));
	char *long_name = xcalloc(1, NAME_RULE_MAX + 2);
	memset(long_name, 'a', NAME_RULE_MAX);
	assert_null(name_rule_refusal(long_name, NAME_PLAIN));
	long_name[NAME_RULE_MAX] = 'a';
	assert_non_null(name_rule_refusal(long_name, NAME_PLAIN));
	free(long_name);
	/* SUITE/TEST */
	assert_null(name_rule_refusal("mm/compaction_test", NAME_PATH));
	assert_null(name_rule_refusal("1/s", NAME_PATH));
	const char *bad_path[] = { "mm/../../x", "/tmp/x", "mm//x", "mm/", "mm/.x", "mm/-x", "mm/x y" };
	for (size_t i = 0; i < sizeof(bad_path) / sizeof(*bad_path); i++)
		assert_non_null(name_rule_refusal(bad_path[i], NAME_PATH));
	char *shown = name_rule_shown("a\nb\x1b");
	assert_string_equal(shown, "a?b?");
	free(shown);
}

static const char experiment_text[] =
	"description = d\nvariants = stock\nprofile = small\nworkload = true\n";

/* The base name makes the run id (and so a folder, and a comment in the Slurm
 * scripts): one line naming the file, without the newline. */
static void an_experiment_name_is_checked(void **state)
{
	(void)state;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(experiment_parse(&e, "x\ntouch PWNED\n", "/d/x\ntouch PWNED\n.conf",
					  experiment_text, &err), -1);
	assert_non_null(strstr(err.buf, "experiment name 'x?touch PWNED?'"));
	assert_null(strchr(err.buf, '\n'));
	experiment_clear(&e);
	strbuf_reset(&err);
	assert_int_equal(experiment_parse(&e, "ok", "/d/ok.conf", experiment_text, &err), 0);
	experiment_clear(&e);
	strbuf_release(&err);
}

static void a_profile_name_is_checked(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(profile_parse(&p, "../up", "/d/../up.conf", "memory = 512M\n", &err), -1);
	assert_non_null(strstr(err.buf, "profile name '../up'"));
	profile_clear(&p);
	strbuf_release(&err);
}

/* A crafted run.json: its id and labels would be paths under export's -o. */
static void a_run_json_names_are_checked(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	scratch_put(root, "esc/run.json", "{\"run_id\":\"../esc\",\"groups\":[{\"variant\":\"stock\"}]}");
	char *dir = xasprintf("%s/esc", root);
	assert_null(run_folder_load(dir, &err));
	assert_non_null(strstr(err.buf, "run_id '../esc'"));
	free(dir);
	strbuf_reset(&err);
	scratch_put(root, "label/run.json", "{\"run_id\":\"r1\",\"groups\":[{\"variant\":\"stock\"},"
					   "{\"variant\":\"stock\",\"label\":\"../../x\"}]}");
	dir = xasprintf("%s/label", root);
	assert_null(run_folder_load(dir, &err));
	assert_non_null(strstr(err.buf, "group 2's label '../../x'"));
	free(dir);
	strbuf_reset(&err);
	scratch_put(root, "fine/run.json", "{\"run_id\":\"r1\",\"groups\":[{\"variant\":\"stock\"},"
					  "{\"variant\":\"stock\",\"label\":\"stock#2\"}]}");
	dir = xasprintf("%s/fine", root);
	json_t *run = run_folder_load(dir, &err);
	assert_non_null(run);
	json_decref(run);
	free(dir);
	strbuf_release(&err);
}

/* A guest's metric names and units: a bad one, or one the lab computes
 * itself, is dropped and counted as a bad line; the others are taken. */
static const char out_log[] =
	"{\"type\":\"line-start\",\"workload\":\"w\",\"line\":1,\"t_mono_ns\":1}\n"
	"{\"type\":\"metric\",\"name\":\"good\",\"value\":1,\"unit\":\"count\"}\n"
	"{\"type\":\"metric\",\"name\":\"=cmd|x\",\"value\":2,\"unit\":\"count\"}\n"
	"{\"type\":\"metric\",\"name\":\"a\\nb\",\"value\":3,\"unit\":\"count\"}\n"
	"{\"type\":\"metric\",\"name\":\"u\",\"value\":4,\"unit\":\"<script>\"}\n"
	"{\"type\":\"metric\",\"name\":\"up\",\"value\":5,\"labels\":{\"x\":\"../..\"}}\n"
	"{\"type\":\"metric\",\"workload\":\"kernel_warnings\",\"name\":\"kind\",\"value\":6,"
	"\"labels\":{\"x\":1}}\n"
	"{\"type\":\"metric\",\"workload\":\"kernel_warnings\",\"name\":\"kind=warn\",\"value\":7}\n"
	"{\"type\":\"metric\",\"workload\":\"oom_kills\",\"name\":\"tier=cached\",\"value\":8}\n"
	"{\"type\":\"metric\",\"name\":\"bad_lines\",\"value\":0}\n"
	"{\"type\":\"metric\",\"name\":\"exit_status\",\"value\":0,\"unit\":\"status\"}\n"
	"{\"type\":\"metric\",\"name\":\"rate\",\"value\":9,\"unit\":\"1/s\"}\n"
	"{\"type\":\"line-end\",\"workload\":\"w\",\"line\":1,\"exit_status\":0,\"signal\":0}\n";

static void guest_metric_names_are_checked(void **state)
{
	(void)state;
	struct workload_lines w;
	struct metric_set m = METRIC_SET_INIT;
	assert_int_equal(workload_lines_parse(out_log, strlen(out_log), &w, &m), 4);
	assert_int_equal(m.n, 4);
	assert_non_null(metric_set_get(&m, "w.good"));
	assert_non_null(metric_set_get(&m, "w.exit_status"));   /* the line runner's own */
	assert_non_null(metric_set_get(&m, "w.rate"));
	assert_non_null(metric_set_get(&m, "kernel_warnings.kind.x=1"));   /* no lab name */
	assert_null(metric_set_get(&m, "kernel_warnings.kind=warn"));
	assert_null(metric_set_get(&m, "oom_kills.tier=cached"));
	assert_null(metric_set_get(&m, "w.bad_lines"));
	assert_int_equal(w.n, 1);
	assert_int_equal(w.v[0].bad_lines, 7);
	metric_set_clear(&m);
	workload_lines_clear(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_rule),
		cmocka_unit_test(an_experiment_name_is_checked),
		cmocka_unit_test(a_profile_name_is_checked),
		cmocka_unit_test(a_run_json_names_are_checked),
		cmocka_unit_test(guest_metric_names_are_checked),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
