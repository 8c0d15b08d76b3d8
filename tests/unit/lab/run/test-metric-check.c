/* Unit tests: an experiment's metric names and lab compare's --metric globs
 * are checked before anything boots, against the lab's catalogue and the
 * names the workloads declare (read from build/guest/oomlab-workload
 * --metrics, as lab run does; the Makefile builds it first). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/metric.h"
#include "analysis/run/run-data.h"
#include "lab/run/experiment.h"
#include "lab/run/command-check.h"
#include "lab/run/metric-check.h"
#include "lab/util/glob.h"
#include "tests/unit/export-fixture.h"

#define WORKLOAD_BINARY "build/guest/oomlab-workload"

static struct strlist declared;

static int setup(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	int rc = metric_declarations_load(WORKLOAD_BINARY, &declared, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.buf);
	strbuf_release(&err);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	strlist_clear(&declared);
	return 0;
}

static const char head[] =
	"description = t\n"
	"variants = stock\n"
	"profile = phone-512m\n"
	"prepare = fragment\n"
	"workload = binder-mmap --opens 5\n";

/* "" when the experiment HEAD + TAIL passes the metric check, else its error. */
static char *check(const char *tail)
{
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	char *text = xasprintf("%s%s", head, tail);
	if (experiment_parse(&e, "t", "t.conf", text, &err) < 0)
		fail_msg("%s", err.buf);
	struct command_lines lines;
	experiment_command_lines(&e, NULL, &lines);
	int rc = experiment_check_metrics(&e, &lines, &declared, &err);
	command_lines_clear(&lines);
	assert_true(rc == 0 ? err.len == 0 : err.len > 0);
	assert_null(strchr(strbuf_str(&err), '\n'));
	experiment_clear(&e);
	free(text);
	return strbuf_detach(&err);
}

#define assert_passes(tail)                          \
	do {                                         \
		char *why = check(tail);             \
		assert_string_equal(why, "");        \
		free(why);                           \
	} while (0)

#define assert_refused(tail, message)                \
	do {                                         \
		char *why = check(tail);             \
		assert_string_equal(why, message);   \
		free(why);                           \
	} while (0)

static void workloads_declare_their_metrics(void **state)
{
	(void)state;
	assert_true(strlist_has(&declared, "binder-mmap.mmap_ok"));
	assert_true(strlist_has(&declared, "binder-sendvec.sendvec_ns_per_rt.size=*"));
	assert_true(strlist_has(&declared, "fragment.fragment_free_blocks_ge.order=*.when=*"));
	/* selftest's names are its tests' and cases': one glob */
	assert_true(strlist_has(&declared, "selftest.*"));
}

static void a_typo_names_the_closest(void **state)
{
	(void)state;
	assert_refused("metrics = trial_ok binder-mmap.mmap_okk\n",
		       "t.conf:6: metrics: 'binder-mmap.mmap_okk' matches no metric the workloads or the "
		       "lab can emit; closest: binder-mmap.mmap_ok, binder-mmap.mmap_enomem, "
		       "binder-mmap.mmap_errors");
	assert_refused("metrics = oom_kils_memcg\n",
		       "t.conf:6: metrics: 'oom_kils_memcg' matches no metric the workloads or the lab "
		       "can emit; closest: oom_kills_memcg, oom_kills_*, oom_kills_kmsg");
	/* nothing near: no names offered */
	assert_refused("metrics = zzzzzzzzzzzz\n",
		       "t.conf:6: metrics: 'zzzzzzzzzzzz' matches no metric the workloads or the lab "
		       "can emit; none is close");
}

static void an_unclosed_bracket_is_refused(void **state)
{
	(void)state;
	assert_refused("metrics = trial_ok [unclosed\n",
		       "t.conf:6: metrics: '[unclosed' is not a valid glob: '[' without its ']'");
	assert_refused("metrics = trial_ok\nequivalence.binder-mmap.[ok = 1%\n",
		       "t.conf:7: equivalence.binder-mmap.[ok: 'binder-mmap.[ok' is not a valid glob: "
		       "'[' without its ']'");
}

static void globs_that_match_pass(void **state)
{
	(void)state;
	assert_passes("metrics = binder-mmap.* *_ms oom_kills_[mg]* kernel_warnings.kind=*\n");
	/* a glob matching a declared name's label */
	assert_passes("metrics = fragment.fragment_free_blocks_ge.order=3.when=before\n");
	assert_refused("metrics = binder-mmap.*_latency_p42_ns\n",
		       "t.conf:6: metrics: 'binder-mmap.*_latency_p42_ns' matches no metric the "
		       "workloads or the lab can emit; closest: binder-mmap.mmap_latency_p50_ns, "
		       "binder-mmap.mmap_latency_p99_ns, binder-mmap.open_latency_p50_ns");
}

static void lab_catalogue_names_pass(void **state)
{
	(void)state;
	assert_passes("metrics = trial_ok oom_kills kernel_warnings.kind=lockdep slab_kmalloc_bytes "
		      "workload_compaction_stalls_vmstat binder_page_array_order3_failed\n");
}

static void workload_names_pass_for_the_workloads_run(void **state)
{
	(void)state;
	/* declared by binder-mmap, fragment (the prepare step) and the harness */
	assert_passes("metrics = binder-mmap.mmap_ok fragment.fragment_target_met "
		      "binder-mmap.exit_status\n");
	/* spawn's, but no line runs spawn */
	assert_refused("metrics = spawn.spawn_per_s\n",
		       "t.conf:6: metrics: 'spawn.spawn_per_s' matches no metric the workloads or the "
		       "lab can emit (it is spawn's, and no workload or prepare line runs spawn); none "
		       "is close");
	/* run through taskset or oomlab-workload, a workload is still itself */
	assert_passes("workload = taskset 1 spawn -n 5\nmetrics = spawn.spawn_per_s spawn.exit_status\n");
	/* and through time, on a workload line as inside sh -c */
	assert_passes("workload = time -v spawn -n 5\nmetrics = spawn.spawn_per_s spawn.exit_status\n");
	/* every line's own metrics are its program's (common/proto/workload-line.h) */
	assert_passes("workload = spawn -n 5\nmetrics = spawn.memory_peak_bytes spawn.oom_kills "
		      "spawn.wall_seconds spawn.signal spawn.bad_lines\n");
	assert_passes("workload = oomlab-workload spawn -n 5\nmetrics = spawn.spawn_per_s spawn.exit_status\n");
	/* the line runner names a line after taskset's program, never taskset, and
	 * runs the first command of a line: a later one's program has no line metrics */
	assert_refused("workload = taskset 1 spawn -n 5\nmetrics = taskset.exit_status\n",
		       "t.conf:7: metrics: 'taskset.exit_status' matches no metric the workloads or the "
		       "lab can emit; closest: spawn.exit_status");
	assert_refused("workload = spawn -n 5; oom-hog --mode memcg\nmetrics = oom-hog.exit_status\n",
		       "t.conf:7: metrics: 'oom-hog.exit_status' matches no metric the workloads or the "
		       "lab can emit; closest: spawn.exit_status, oom-hog.memcg_max");
	/* but the later command's own declared metrics are there */
	assert_passes("workload = spawn -n 5; oom-hog --mode memcg\nmetrics = oom-hog.memcg_oom_kill\n");
	/* the prepare step's program reports no exit status */
	assert_refused("metrics = fragment.exit_status\n",
		       "t.conf:6: metrics: 'fragment.exit_status' matches no metric the workloads or "
		       "the lab can emit; closest: binder-mmap.exit_status");
}

static void other_programs_keep_their_prefix(void **state)
{
	(void)state;
	/* stress-ng is no lab workload: anything under its name passes (a note) */
	assert_passes("workload = stress-ng --vm 1\nmetrics = stress-ng.bogo_ops stress-ng.*\n");
	assert_refused("workload = stress-ng --vm 1\nmetrics = stres-ng.bogo_ops\n",
		       "t.conf:7: metrics: 'stres-ng.bogo_ops' matches no metric the workloads or the "
		       "lab can emit; closest: stress-ng.*, stress-ng.signal, stress-ng.oom_kills");
	/* and it may run any lab workload (sh -c '...'): every declared name counts */
	assert_passes("workload = sh -c 'spawn -n 5'\nmetrics = spawn.spawn_per_s sh.exit_status\n");
}

static void every_key_is_checked_at_its_line(void **state)
{
	(void)state;
	assert_refused("metrics = oom_kills oom_kils\nprimary = oom_kils\n",
		       "t.conf:6: metrics: 'oom_kils' matches no metric the workloads or the lab can "
		       "emit; closest: oom_kills, oomd_kills, oom_kills_*");
	assert_refused("metrics = binder-mmap.*\nparametric = binder-mmap.mmap_latncy_*\n",
		       "t.conf:7: parametric: 'binder-mmap.mmap_latncy_*' matches no metric the "
		       "workloads or the lab can emit; closest: binder-mmap.mmap_latency_p50_ns, "
		       "binder-mmap.mmap_latency_p99_ns, binder-mmap.mmap_latency_max_ns");
	assert_refused("metrics = trial_ok\nequivalence = 2%\nequivalence.oom_kill = 1\n",
		       "t.conf:8: equivalence.oom_kill: 'oom_kill' matches no metric the workloads or "
		       "the lab can emit; closest: oom_kills, oomd_kills, oom_kills_*");
	assert_passes("metrics = trial_ok\nequivalence.binder-mmap.* = 1%\nequivalence = 2%\n");
}

/* Every experiment of the checkout and of the tests passes. */
static void shipped_experiments_pass(void **state)
{
	(void)state;
	static const char *const dirs[] = { "configs/experiments", "tests/experiments", NULL };
	for (const char *const *dir = dirs; *dir; dir++) {
		char *cmd = xasprintf("ls %s/*.conf", *dir);
		FILE *ls = popen(cmd, "r");
		char path[512];
		int n = 0;
		while (ls && fgets(path, sizeof(path), ls)) {
			path[strcspn(path, "\n")] = '\0';
			struct experiment e;
			struct strbuf err = STRBUF_INIT;
			if (experiment_load(&e, path, &err) < 0)
				fail_msg("%s", err.buf);
			struct command_lines lines;
			experiment_command_lines(&e, NULL, &lines);
			if (experiment_check_metrics(&e, &lines, &declared, &err) < 0)
				fail_msg("%s", err.buf);
			command_lines_clear(&lines);
			experiment_clear(&e);
			n++;
		}
		assert_true(n > 0);
		pclose(ls);
		free(cmd);
	}
}

/* lab compare's --metric: the run's own names count too. */
static void compare_globs_take_the_runs_names(void **state)
{
	(void)state;
	char *base = fixture_make_run();
	assert_non_null(base);
	char *run = xasprintf("%s/run", base);
	struct run_data rd = { .quiet = true };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	struct strlist globs = STRLIST_INIT;
	strlist_push(&globs, "oom_kills");
	strlist_push(&globs, "spawn.*");              /* a workload's, not in this run */
	strlist_push(&globs, "a,b \"c\"");            /* in the run alone */
	assert_int_equal(run_check_metric_globs(&rd, &declared, &globs, &err), 0);
	strlist_push(&globs, "binder-sendvec.sendvec_ns_per_rtt.*");
	assert_int_equal(run_check_metric_globs(&rd, &declared, &globs, &err), -1);
	assert_string_equal(err.buf, "--metric 'binder-sendvec.sendvec_ns_per_rtt.*' matches no metric "
				     "of the run, nor one the workloads or the lab can emit; closest: "
				     "binder-sendvec.sendvec_ns_per_rt.size=*, "
				     "binder-sendvec.sendvec_ns_per_rt.size=4, "
				     "binder-sendvec.sendvec_ns_per_rt.mode=sg.size=*");
	strbuf_reset(&err);
	strlist_clear(&globs);
	strlist_push(&globs, "[oom");
	assert_int_equal(run_check_metric_globs(&rd, &declared, &globs, &err), -1);
	assert_string_equal(err.buf, "--metric '[oom' is not a valid glob: '[' without its ']'");
	strlist_clear(&globs);
	strbuf_release(&err);
	run_data_free(&rd);
	remove_tree(base);
	free(base);
	free(run);
}

/* compare's table of the workloads' metrics (metric.c's rows with a '.';
 * the others are older records' names) names only declared ones. */
static void compare_rows_name_declared_metrics(void **state)
{
	(void)state;
	size_t n, workload_rows = 0;
	const struct metric_def *rows = metric_known_rows(&n);
	for (size_t i = 0; i < n; i++) {
		if (!strchr(rows[i].name, '.'))
			continue;
		workload_rows++;
		bool found = false;
		for (size_t k = 0; !found && k < declared.n; k++)
			found = glob_intersects(declared.items[k], 0, rows[i].name);
		if (!found)
			fail_msg("metric.c's row %s matches no metric a workload declares", rows[i].name);
	}
	assert_true(workload_rows > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(workloads_declare_their_metrics),
		cmocka_unit_test(a_typo_names_the_closest),
		cmocka_unit_test(an_unclosed_bracket_is_refused),
		cmocka_unit_test(globs_that_match_pass),
		cmocka_unit_test(lab_catalogue_names_pass),
		cmocka_unit_test(workload_names_pass_for_the_workloads_run),
		cmocka_unit_test(other_programs_keep_their_prefix),
		cmocka_unit_test(every_key_is_checked_at_its_line),
		cmocka_unit_test(shipped_experiments_pass),
		cmocka_unit_test(compare_globs_take_the_runs_names),
		cmocka_unit_test(compare_rows_name_declared_metrics),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
