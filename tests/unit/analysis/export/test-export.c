/* test-export.c - unit tests for lab export's formats: the Perfetto trace
 * of a trial folder (analysis/export/export_perfetto.c) and the metrics table
 * (analysis/export/export_table.c), on a small trial folder made of real lines
 * (tests/samples/export/, see export-fixture.h).  Everything written is
 * parsed back with jansson. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/export/export_perfetto.h"
#include "analysis/export/export_table.h"
#include "analysis/run/run-data.h"
#include "tests/unit/export-fixture.h"

static int setup(void **state)
{
	char *base = fixture_make_run();
	if (!base)
		return -1;
	*state = base;
	return 0;
}

static int teardown(void **state)
{
	remove_tree(*state);
	free(*state);
	return 0;
}

/* The trace of stock/000, written to a file and parsed back. */
static json_t *load_trace(const char *base, struct perfetto_counts *counts)
{
	char *dir = xasprintf("%s/run/stock/000", base);
	char *out = xasprintf("%s/trace.json", base);
	json_t *meta = json_pack("{s:s}", "group", "stock");
	json_t *trace = perfetto_trace(dir, meta, counts);
	json_decref(meta);
	assert_non_null(trace);
	assert_int_equal(perfetto_trace_write(trace, out), 0);
	json_decref(trace);
	json_error_t err;
	json_t *back = json_load_file(out, 0, &err);
	if (!back)
		fail_msg("the trace does not parse: %s (line %d)", err.text, err.line);
	free(dir);
	free(out);
	return back;
}

static size_t count_named(json_t *events, const char *ph, const char *name)
{
	size_t i, n = 0;
	json_t *e;
	json_array_foreach(events, i, e) {
		const char *p = json_string_value(json_object_get(e, "ph"));
		const char *nm = json_string_value(json_object_get(e, "name"));
		if (p && !strcmp(p, ph) && (!name || (nm && !strcmp(nm, name))))
			n++;
	}
	return n;
}

static json_t *find_event(json_t *events, const char *ph, const char *name, size_t nth)
{
	size_t i;
	json_t *e;
	json_array_foreach(events, i, e) {
		const char *p = json_string_value(json_object_get(e, "ph"));
		const char *nm = json_string_value(json_object_get(e, "name"));
		if (p && nm && !strcmp(p, ph) && !strcmp(nm, name) && nth-- == 0)
			return e;
	}
	return NULL;
}

static void test_perfetto_parses_and_is_sorted(void **state)
{
	struct perfetto_counts counts;
	json_t *root = load_trace(*state, &counts);
	json_t *events = json_object_get(root, "traceEvents");
	assert_true(json_is_array(events));
	/* The events by kind, counted in the output, against the export's own
	 * tallies, which must account for every event. */
	size_t meta = count_named(events, "M", NULL), slices = count_named(events, "X", NULL);
	size_t instants = count_named(events, "i", NULL), counters = count_named(events, "C", NULL);
	assert_int_equal(meta, counts.metadata);
	assert_int_equal(slices, counts.slices);
	assert_int_equal(instants, counts.instants);
	assert_int_equal(counters, counts.counters);
	assert_int_equal(meta + slices + instants + counters, json_array_size(events));
	/* From ctl.jsonl by hand: 3 heartbeats with samples x 6 fields, and a PSI
	 * some and full percentage between each two of them: 18 + 2 + 2. */
	assert_int_equal(counters, 22);
	assert_true(counts.have_perf && counts.have_kmsg && counts.have_ctl && counts.have_out);
	double last = -1;
	size_t i;
	json_t *e;
	json_array_foreach(events, i, e) {
		const char *ph = json_string_value(json_object_get(e, "ph"));
		assert_non_null(ph);
		assert_true(json_is_number(json_object_get(e, "ts")));
		assert_true(json_is_integer(json_object_get(e, "pid")));
		assert_true(json_is_integer(json_object_get(e, "tid")));
		double ts = json_number_value(json_object_get(e, "ts"));
		if (ts < last)
			fail_msg("event %zu (%s) at ts %.3f comes after ts %.3f", i,
				 json_string_value(json_object_get(e, "name")), ts, last);
		last = ts;
		/* complete slices only: no B/E pairs to balance */
		assert_true(strcmp(ph, "B") && strcmp(ph, "E"));
		if (!strcmp(ph, "X")) {
			json_t *dur = json_object_get(e, "dur");
			assert_true(json_is_number(dur));
			assert_true(json_number_value(dur) >= 0);
		}
	}
	json_t *other = json_object_get(root, "otherData");
	assert_string_equal(json_string_value(json_object_get(other, "group")), "stock");
	json_decref(root);
}

static void test_perfetto_slices(void **state)
{
	json_t *root = load_trace(*state, NULL);
	json_t *ev = json_object_get(root, "traceEvents");

	/* sh 47: begin 11.966024649, end 11.967226589 -> 1201.940 us */
	json_t *r = find_event(ev, "X", "direct_reclaim", 0);
	assert_non_null(r);
	assert_int_equal(json_integer_value(json_object_get(r, "tid")), 47);
	assert_true(fabs(json_number_value(json_object_get(r, "ts")) - 11966024.649) < 1e-3);
	assert_true(fabs(json_number_value(json_object_get(r, "dur")) - 1201.940) < 1e-3);
	/* the begin of oom-hog 55 never ended: open to the trace's last event */
	json_t *open = find_event(ev, "X", "direct_reclaim", 1);
	assert_non_null(open);
	assert_int_equal(json_integer_value(json_object_get(open, "tid")), 55);
	assert_true(json_is_true(json_object_get(json_object_get(open, "args"), "open_at_end")));
	assert_true(fabs(json_number_value(json_object_get(open, "ts")) +
			 json_number_value(json_object_get(open, "dur")) - 27489717.686) < 1e-3);
	assert_int_equal(count_named(ev, "X", "direct_reclaim"), 2);
	/* direct compaction by oom-hog; kcompactd's pass is not a stall */
	assert_int_equal(count_named(ev, "X", "direct_compaction"), 1);
	json_t *kc = find_event(ev, "X", "mm_compaction", 0);
	assert_non_null(kc);
	assert_int_equal(json_integer_value(json_object_get(kc, "tid")), 31);
	/* binder's page allocation: 12.186972619 .. 12.189296366 */
	json_t *b = find_event(ev, "X", "binder_alloc_page", 0);
	assert_non_null(b);
	assert_string_equal(json_string_value(json_object_get(b, "cat")), "binder");
	assert_true(fabs(json_number_value(json_object_get(b, "dur")) - 2323.747) < 1e-3);
	/* the workload's phases: pin ended, eat did not */
	json_t *pin = find_event(ev, "X", "pin", 0);
	assert_non_null(pin);
	assert_true(fabs(json_number_value(json_object_get(pin, "dur")) - 3487461.416) < 1e-3);
	json_t *eat = find_event(ev, "X", "eat", 0);
	assert_non_null(eat);
	assert_true(json_is_true(json_object_get(json_object_get(eat, "args"), "unfinished")));
	json_decref(root);
}

static void test_perfetto_victims_and_counters(void **state)
{
	struct perfetto_counts counts;
	json_t *root = load_trace(*state, &counts);
	json_t *ev = json_object_get(root, "traceEvents");
	assert_int_equal(counts.victims, 1);
	/* the trace's own instants on their threads, and the victim's lane */
	json_t *mark = find_event(ev, "i", "mark_victim", 0);
	assert_non_null(mark);
	assert_int_equal(json_integer_value(json_object_get(mark, "tid")), 56);
	assert_string_equal(json_string_value(json_object_get(json_object_get(mark, "args"), "pid")),
			    "56");
	assert_int_equal(count_named(ev, "i", "finish_task_reaping"), 2);
	json_t *lane = find_event(ev, "X", "victim: mark_victim to reaped/exit", 0);
	assert_non_null(lane);
	/* mark 24.481050457 .. exit of its last thread 27.472661798 */
	assert_true(fabs(json_number_value(json_object_get(lane, "dur")) - 2991611.341) < 1e-3);
	assert_true(json_is_true(json_object_get(json_object_get(lane, "args"),
						 "reaped_before_exit")));

	/* counters from the three heartbeats with samples (not the prepare step's) */
	assert_int_equal(count_named(ev, "C", "mem_available_kb"), 3);
	assert_int_equal(count_named(ev, "C", "psi_some_total_us"), 3);
	assert_int_equal(count_named(ev, "C", "psi_some_percent"), 2);
	json_t *c = find_event(ev, "C", "mem_available_kb", 0);
	assert_true(json_number_value(json_object_get(json_object_get(c, "args"), "value")) ==
		    205928.0);
	/* the agent's other lines as instants */
	assert_int_equal(count_named(ev, "i", "command-done"), 1);

	/* every pid and tid of a non-metadata event is named */
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e) {
		if (!strcmp(json_string_value(json_object_get(e, "ph")), "M"))
			continue;
		json_int_t pid = json_integer_value(json_object_get(e, "pid"));
		json_int_t tid = json_integer_value(json_object_get(e, "tid"));
		bool pname = false, tname = false;
		size_t k;
		json_t *m;
		json_array_foreach(ev, k, m) {
			const char *ph = json_string_value(json_object_get(m, "ph"));
			const char *nm = json_string_value(json_object_get(m, "name"));
			if (strcmp(ph, "M") || json_integer_value(json_object_get(m, "pid")) != pid)
				continue;
			pname |= !strcmp(nm, "process_name");
			tname |= !strcmp(nm, "thread_name") &&
				 json_integer_value(json_object_get(m, "tid")) == tid;
		}
		if (!pname || (!tname && strcmp(json_string_value(json_object_get(e, "ph")), "C")))
			fail_msg("event %s: pid %lld tid %lld has no name",
				 json_string_value(json_object_get(e, "name")), (long long)pid,
				 (long long)tid);
	}
	json_decref(root);
}

static void test_perfetto_empty_folder(void **state)
{
	char *dir = xasprintf("%s/empty", (char *)*state);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	struct perfetto_counts counts;
	json_t *trace = perfetto_trace(dir, NULL, &counts);
	assert_non_null(trace);
	assert_false(counts.have_perf || counts.have_ctl || counts.have_out || counts.have_kmsg);
	assert_int_equal(counts.slices + counts.instants + counts.counters, 0);
	assert_int_equal(counts.events, counts.metadata);
	json_decref(trace);
	free(dir);
}

/* The apps workload's out.log: a lane per app with its states, launches and
 * deaths. App 0 starts cold (100 ms), goes cached, is killed; app 1 starts
 * cold while that happens, and app 0 comes back cold. */
static void test_perfetto_app_lanes(void **state)
{
	static const char out_log[] =
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1000000000,\"app\":0,\"pid\":0,\"tier\":\"foreground\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1000000000,\"app\":0,\"pid\":50,\"kind\":\"cold\",\"ms\":100,\"ok\":true}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1200000000,\"app\":0,\"pid\":50,\"tier\":\"cached\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1200000000,\"app\":1,\"pid\":0,\"tier\":\"foreground\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-death\",\"t_mono_ns\":1250000000,\"app\":0,\"pid\":50,\"signal\":9,\"tier\":\"cached\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1200000000,\"app\":1,\"pid\":51,\"kind\":\"cold\",\"ms\":150,\"ok\":true}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1400000000,\"app\":0,\"pid\":0,\"tier\":\"foreground\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-state\",\"t_mono_ns\":1400000000,\"app\":1,\"pid\":51,\"tier\":\"visible\"}\n"
		"{\"type\":\"event\",\"workload\":\"apps\",\"name\":\"app-launch\",\"t_mono_ns\":1400000000,\"app\":0,\"pid\":52,\"kind\":\"cold\",\"ms\":200,\"ok\":true}\n";
	char *dir = xasprintf("%s/apps", (char *)*state);
	char *out = xasprintf("%s/out.log", dir);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_atomic(out, out_log, strlen(out_log)), 0);
	struct perfetto_counts counts;
	json_t *trace = perfetto_trace(dir, NULL, &counts);
	assert_non_null(trace);
	assert_int_equal(counts.app_lanes, 2);
	json_t *ev = json_object_get(trace, "traceEvents");
	int apps_pid = PERFETTO_SYNTHETIC_PID + 3;
	size_t i, cold = 0, fg = 0, dead = 0, killed = 0, lanes = 0;
	json_t *e;
	json_array_foreach(ev, i, e) {
		if (json_integer_value(json_object_get(e, "pid")) != apps_pid)
			continue;
		const char *ph = json_string_value(json_object_get(e, "ph"));
		const char *name = json_string_value(json_object_get(e, "name"));
		json_int_t tid = json_integer_value(json_object_get(e, "tid"));
		double ts = json_number_value(json_object_get(e, "ts"));
		double dur = json_number_value(json_object_get(e, "dur"));
		if (!strcmp(ph, "M") && !strcmp(name, "thread_name"))
			lanes++;
		if (!strcmp(ph, "X") && !strcmp(name, "cold start")) {
			cold++;
			/* app 0's first: 100 ms from 1 s */
			if (tid == 1 && ts == 1000000.0)
				assert_true(dur == 100000.0);
		}
		if (!strcmp(ph, "X") && !strcmp(name, "foreground"))
			fg++;
		if (!strcmp(ph, "X") && !strcmp(name, "dead")) {
			dead++;
			/* app 0 from its kill at 1.25 s to its cold start at 1.4 s */
			assert_int_equal(tid, 1);
			assert_true(ts == 1250000.0 && dur == 150000.0);
		}
		if (!strcmp(ph, "i") && !strcmp(name, "killed")) {
			killed++;
			assert_int_equal(tid, 1);
		}
	}
	assert_int_equal(lanes, 2);
	assert_int_equal(cold, 3);
	assert_int_equal(fg, 3);
	assert_int_equal(dead, 1);
	assert_int_equal(killed, 1);
	json_decref(trace);
	free(out);
	free(dir);
}

/* ---- the metrics table ---- */

/* binder-kcalloc's trial booted on icount; stock's trial.json names no clock
 * (written before the lab had clocks: realtime). */
static void set_kcalloc_clock(const char *base)
{
	char *path = xasprintf("%s/run/binder-kcalloc/000/trial.json", base);
	json_t *t = json_load_file(path, 0, NULL);
	assert_non_null(t);
	json_object_set_new(json_object_get(t, "environment"), "clock",
			    json_pack("{s:s, s:s}", "name", "icount", "settings",
				      "shift=0,sleep=off,align=off"));
	assert_int_equal(json_dump_file(t, path, JSON_INDENT(2)), 0);
	json_decref(t);
	free(path);
}

static void load_run(const char *base, struct run_data *rd)
{
	set_kcalloc_clock(base);
	char *run = xasprintf("%s/run", base);
	struct strbuf err = STRBUF_INIT;
	memset(rd, 0, sizeof(*rd));
	if (run_data_add(rd, run, &err) < 0)
		fail_msg("%s", err.buf);
	strbuf_release(&err);
	free(run);
	/* stock's trial.json has no metrics: computed from its folder */
	assert_int_equal(rd->derived, 1);
}

/* Splits one RFC 4180 line into fields (quoted fields unquoted). */
static size_t csv_split(const char *line, char fields[][256], size_t max)
{
	size_t n = 0;
	const char *p = line;
	for (;;) {
		char *f = fields[n];
		size_t len = 0;
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
				if (*p == '"')
					p++;
				if (len < 255)
					f[len++] = *p;
			}
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',' && *p != '\r' && *p != '\n')
				if (len < 255)
					f[len++] = *p++;
				else
					p++;
		}
		f[len] = '\0';
		n++;
		if (*p != ',' || n == max)
			break;
		p++;
	}
	return n;
}

static size_t trial_metric_count(const struct run_data *rd, const char *label)
{
	for (size_t i = 0; i < rd->n; i++)
		if (!strcmp(rd->trials[i].label, label))
			return json_array_size(json_object_get(rd->trials[i].trial, "metrics"));
	return 0;
}

static void test_table_csv(void **state)
{
	struct run_data rd;
	load_run(*state, &rd);
	size_t stock = trial_metric_count(&rd, "stock");
	size_t kcalloc = trial_metric_count(&rd, "binder-kcalloc");
	assert_int_equal(kcalloc, FIXTURE_KCALLOC_METRICS);
	assert_true(stock >= 3);        /* oom_kills, the stalls, the workloads' ... */

	char *text = NULL;
	size_t len = 0, rows = 0;
	FILE *mem = open_memstream(&text, &len);
	assert_int_equal(export_table_csv(mem, &rd, &rows), 0);
	fclose(mem);
	assert_int_equal(rows, stock + kcalloc);

	size_t ncols = 0;
	while (export_table_columns[ncols])
		ncols++;
	static char fields[32][256];
	size_t lines = 0, stock_rows = 0, kcalloc_rows = 0;
	bool saw_quoted = false, saw_oom = false;
	for (char *line = text, *next; line && *line; line = next) {
		next = strstr(line, "\r\n");
		assert_non_null(next);          /* CRLF line ends */
		*next = '\0';
		next += 2;
		size_t n = csv_split(line, fields, 32);
		assert_int_equal(n, ncols);
		if (lines++ == 0) {
			for (size_t c = 0; c < ncols; c++)
				assert_string_equal(fields[c], export_table_columns[c]);
			continue;
		}
		assert_string_equal(fields[0], "fixture-20261130-000000");
		assert_string_equal(fields[5], "phone-512m");
		assert_string_equal(fields[8], "tcg");
		/* the clock each trial booted with, in the last two columns */
		if (!strcmp(fields[1], "stock")) {
			stock_rows++;
			assert_string_equal(fields[2], "stock");
			assert_string_equal(fields[13], "realtime");
			assert_string_equal(fields[14], "");
		} else {
			kcalloc_rows++;
			assert_string_equal(fields[1], "binder-kcalloc");
			assert_string_equal(fields[6], "bbbb");
			assert_string_equal(fields[13], "icount");
			assert_string_equal(fields[14], "shift=0,sleep=off,align=off");
		}
		if (!strcmp(fields[9], "a,b \"c\"")) {
			saw_quoted = true;
			assert_string_equal(fields[10], "0.1");
		}
		if (!strcmp(fields[1], "binder-kcalloc") && !strcmp(fields[9], "oom_kills")) {
			saw_oom = true;
			assert_string_equal(fields[10], "2");
		}
	}
	assert_int_equal(lines, 1 + rows);
	assert_int_equal(stock_rows, stock);
	assert_int_equal(kcalloc_rows, kcalloc);
	assert_true(saw_quoted);
	assert_true(saw_oom);
	free(text);
	run_data_free(&rd);
}

static void test_table_json(void **state)
{
	struct run_data rd;
	load_run(*state, &rd);
	size_t rows = 0;
	json_t *doc = export_table_json(&rd, &rows);
	char *text = json_dumps(doc, 0);
	json_decref(doc);
	json_t *back = json_loads(text, 0, NULL);
	assert_non_null(back);
	free(text);
	assert_string_equal(json_string_value(json_object_get(back, "format")), "oomlab-metrics");
	json_t *trials = json_object_get(back, "trials"), *out_rows = json_object_get(back, "rows");
	assert_int_equal(json_array_size(trials), 2);
	assert_int_equal(json_array_size(out_rows), rows);
	size_t sum = 0, i;
	json_t *t;
	json_array_foreach(trials, i, t) {
		const char *group = json_string_value(json_object_get(t, "group"));
		const char *from = json_string_value(json_object_get(t, "metrics_from"));
		assert_string_equal(from, !strcmp(group, "stock") ? "derived" : "trial.json");
		sum += (size_t)json_integer_value(json_object_get(t, "n_metrics"));
	}
	assert_int_equal(sum, rows);
	json_t *r;
	json_array_foreach(out_rows, i, r) {
		assert_true(json_is_string(json_object_get(r, "metric")));
		assert_true(json_is_number(json_object_get(r, "value")));
		assert_true(json_is_string(json_object_get(r, "variant")));
		assert_true(json_is_string(json_object_get(r, "profile")));
		assert_true(json_is_integer(json_object_get(r, "trial")));
		bool kcalloc = !strcmp(json_string_value(json_object_get(r, "group")), "binder-kcalloc");
		assert_string_equal(json_string_value(json_object_get(r, "clock")),
				    kcalloc ? "icount" : "realtime");
	}
	json_decref(back);
	run_data_free(&rd);
}

/* A trial without a readable record (a trial.json cut short, none at all) is
 * kept, with its outcome unknown: counted in n_other, trial_ok included. */
static void test_trials_without_a_record(void **state)
{
	char *trial = xasprintf("%s/run/binder-kcalloc/000/trial.json", (char *)*state);
	char *never = xasprintf("%s/run/binder-kcalloc/001", (char *)*state);
	assert_int_equal(truncate(trial, 40), 0);
	assert_int_equal(mkdir_p(never, 0755), 0);
	struct run_data rd = { .quiet = true };
	char *run = xasprintf("%s/run", (char *)*state);
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(run_data_add(&rd, run, &err), 0);
	assert_int_equal(rd.n, 3);
	size_t unreadable = 0, missing = 0;
	for (size_t i = 0; i < rd.n; i++) {
		unreadable += !strcmp(rd.trials[i].outcome, "unreadable");
		missing += !strcmp(rd.trials[i].outcome, "missing");
		if (strcmp(rd.trials[i].label, "stock"))
			assert_null(rd.trials[i].trial);
	}
	assert_int_equal(unreadable, 1);
	assert_int_equal(missing, 1);
	size_t n, n_other;
	free(run_data_values(&rd, "trial_ok", "binder-kcalloc", &n, &n_other, NULL));
	assert_int_equal(n, 0);
	assert_int_equal(n_other, 2);
	free(run_data_values(&rd, "trial_ok", "stock", &n, &n_other, NULL));
	assert_int_equal(n, 1);
	assert_int_equal(n_other, 0);
	run_data_free(&rd);
	strbuf_release(&err);
	free(run);
	free(trial);
	free(never);
}

static void test_format_double(void **state)
{
	(void)state;
	char buf[64];
	export_format_double(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	export_format_double(buf, sizeof(buf), 12);
	assert_string_equal(buf, "12");
	export_format_double(buf, sizeof(buf), 1.0 / 3.0);
	assert_true(strtod(buf, NULL) == 1.0 / 3.0);
	export_format_double(buf, sizeof(buf), NAN);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_perfetto_parses_and_is_sorted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_slices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_victims_and_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_empty_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_app_lanes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trials_without_a_record, setup, teardown),
		cmocka_unit_test(test_format_double),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
