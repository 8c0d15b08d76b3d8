/* test-report-app-timeline.c - the apps' timeline figure's script
 * (analysis/report/report_app_timeline.c) from a trial folder written here:
 * a bar per tier span, the deaths and cold starts, PSI from the heartbeats,
 * and the low-memory killer's kills of apps from trial.json's lmkd_kills. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/report/report_app_timeline.h"
#include "common/util.h"

static const char out_log[] =
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1000000000,\"app\":0,\"pid\":0,\"tier\":\"foreground\"}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1000000000,\"app\":0,\"pid\":50,\"kind\":\"cold\",\"ms\":100,\"ok\":true}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":2000000000,\"app\":0,\"pid\":50,\"tier\":\"cached\"}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":2000000000,\"app\":1,\"pid\":0,\"tier\":\"foreground\"}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":2000000000,\"app\":1,\"pid\":51,\"kind\":\"cold\",\"ms\":500,\"ok\":true}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-death\",\"t_mono_ns\":3000000000,\"app\":0,\"pid\":50,\"signal\":9,\"tier\":\"cached\"}\n"
	"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"apps-alive\",\"t_mono_ns\":3500000000,\"alive\":1,\"cached\":0}\n";

/* heartbeats a second apart: some 100 ms then 300 ms of stall, full 50 then 0 */
static const char ctl[] =
	"{\"type\":\"heartbeat\",\"t_mono_ns\":1000000000,\"psi_some_total_us\":0,\"psi_full_total_us\":0}\n"
	"{\"type\":\"heartbeat\",\"t_mono_ns\":2000000000,\"psi_some_total_us\":100000,\"psi_full_total_us\":50000}\n"
	"{\"type\":\"heartbeat\",\"t_mono_ns\":3000000000,\"psi_some_total_us\":400000,\"psi_full_total_us\":50000}\n";

static char *make_trial(void)
{
	char *dir = xstrdup("/tmp/oomlab-test-app-timeline.XXXXXX");
	assert_non_null(mkdtemp(dir));
	char *out = xasprintf("%s/out.log", dir), *c = xasprintf("%s/ctl.jsonl", dir);
	assert_int_equal(write_file_atomic(out, out_log, strlen(out_log)), 0);
	assert_int_equal(write_file_atomic(c, ctl, strlen(ctl)), 0);
	free(out);
	free(c);
	return dir;
}

/* The text of the data file a plot line of SCRIPT names after MARK ("'dN.dat' ... MARK"). */
static char *data_before(const struct plot *p, const char *script, const char *mark)
{
	const char *at = strstr(script, mark);
	assert_non_null(at);
	const char *q = at;
	while (q > script && strncmp(q, ".dat'", 5))
		q--;
	const char *open = q;
	while (open > script && *open != '\'')
		open--;
	char *name = xasprintf("%s/%.*s", p->dir, (int)(q + 4 - open - 1), open + 1);
	size_t len;
	char *text = read_file(name, &len);
	assert_non_null(text);
	free(name);
	return text;
}

static void script_of_a_trial(void **state)
{
	(void)state;
	char *dir = make_trial();
	struct plot p;
	struct strbuf err = STRBUF_INIT, script = STRBUF_INIT, cap = STRBUF_INIT;
	assert_int_equal(plot_open(&p, &err), 0);
	/* the killer's clock where the kill has it, else the printk stamp */
	json_t *trial = json_pack("{s:[{s:f, s:s, s:i}, {s:f, s:I, s:s, s:i}, {s:f, s:s, s:i}]}",
				  "lmkd_kills",
				  "usec", 2900000.0, "comm", "app-00", "pid", 50,
				  "usec", 2990000.0, "t_mono_ns", (json_int_t)3100000000LL, "comm", "app-01",
				  "pid", 51,
				  "usec", 2950000.0, "comm", "sh", "pid", 40);
	assert_int_equal(app_timeline_script(&p, dir, trial, &script, &cap), 0);
	assert_non_null(strstr(script.buf, "title 'foreground'"));
	assert_non_null(strstr(script.buf, "title 'cached'"));
	assert_non_null(strstr(script.buf, "title 'dead'"));
	assert_null(strstr(script.buf, "title 'service'"));
	/* app 0: foreground 0..1 s, cached 1..2 s, then dead to the end (the last sample, 2.5 s) */
	char *cached = data_before(&p, script.buf, "title 'cached'");
	assert_string_equal(cached, "1.5000 0 0.5000 0.35\n");
	free(cached);
	char *deaths = data_before(&p, script.buf, "title 'death'");
	assert_string_equal(deaths, "2.0000 0\n");
	free(deaths);
	/* the killer's kills of apps only: app-00's at its printk stamp, app-01's at its own */
	char *kills = data_before(&p, script.buf, "title 'lmkd kill'");
	assert_string_equal(kills, "1.900 0\n2.100 1\n");
	free(kills);
	char *psi = data_before(&p, script.buf, "title 'PSI some");
	assert_string_equal(psi, "1.000 10.00 5.00\n2.000 30.00 0.00\n");
	free(psi);
	assert_non_null(strstr(cap.buf, "2 apps"));
	assert_non_null(strstr(cap.buf, "2 cold starts, 1 deaths (1 by a signal), 2 kills"));
	json_decref(trial);

	/* without lmkd_kills: no such points, and the caption says so */
	strbuf_release(&script);
	strbuf_release(&cap);
	assert_int_equal(app_timeline_script(&p, dir, NULL, &script, &cap), 0);
	assert_null(strstr(script.buf, "lmkd kill"));
	assert_non_null(strstr(cap.buf, "none recorded"));
	plot_close(&p);
	strbuf_release(&script);
	strbuf_release(&cap);
	strbuf_release(&err);
	char *rm = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(rm), 0);
	free(rm);
	free(dir);
}

static void no_apps_no_figure(void **state)
{
	(void)state;
	char *dir = xstrdup("/tmp/oomlab-test-app-timeline.XXXXXX");
	assert_non_null(mkdtemp(dir));
	struct plot p;
	struct strbuf err = STRBUF_INIT, script = STRBUF_INIT, cap = STRBUF_INIT;
	assert_int_equal(plot_open(&p, &err), 0);
	assert_int_equal(app_timeline_script(&p, dir, NULL, &script, &cap), -1);
	assert_int_equal(script.len, 0);
	plot_close(&p);
	strbuf_release(&err);
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(script_of_a_trial),
		cmocka_unit_test(no_apps_no_figure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
