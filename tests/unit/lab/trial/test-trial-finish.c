/* test-trial-finish.c - the one way a trial is finished (lab/trial/trial-finish.c):
 * files.bin split before the metrics are computed, perf.data decoded only
 * when something was recorded, trial.json written once and the same again
 * from the same inputs. Trial folders are copies of tests/samples/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/run-command.h"
#include "common/proto/protocol.h"
#include "lab/trial/trial-finish.h"
#include "tests/unit/samples.h"

static char *copy_sample(const char *sample)
{
	char tmpl[] = "/tmp/oomlab-test-finish.XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	char *src = sample_path(sample);
	char *cmd = xasprintf("cp -R '%s/.' '%s/'", src, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(src);
	return xstrdup(dir);
}

static json_t *load(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	json_t *j = json_load_file(path, 0, NULL);
	free(path);
	return j;
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = read_file(path, len);
	free(path);
	return text;
}

static json_t *metric(json_t *trial, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(trial, "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "name")), name))
			return json_object_get(m, "value");
	return NULL;
}

/* The record as given plus the computed keys; finishing again from the
 * trial.json written gives the same bytes. */
static void test_finish_twice_same_bytes(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	json_t *orig = load(dir, "trial.json");
	assert_non_null(orig);
	json_t *record = json_pack("{s:O, s:O}", "environment", json_object_get(orig, "environment"),
				   "outcome", json_object_get(orig, "outcome"));
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	size_t len1, len2;
	char *first = slurp(dir, "trial.json", &len1);
	json_t *again = load(dir, "trial.json");
	assert_int_equal(trial_finish(dir, again, &err), 0);
	char *second = slurp(dir, "trial.json", &len2);
	assert_non_null(first);
	assert_non_null(second);
	assert_int_equal(len1, len2);
	assert_memory_equal(first, second, len1);
	/* the record given is not changed by finishing */
	assert_int_equal(json_object_size(record), 2);

	json_t *now = json_loads(second, 0, NULL);
	assert_true(json_equal(json_object_get(now, "environment"), json_object_get(orig, "environment")));
	assert_true(json_equal(json_object_get(now, "outcome"), json_object_get(orig, "outcome")));
	json_t *metrics = json_object_get(now, "metrics");
	assert_true(json_array_size(metrics) > 50);
	for (size_t i = 1; i < json_array_size(metrics); i++)
		assert_true(strcmp(json_string_value(json_object_get(json_array_get(metrics, i - 1), "name")),
				   json_string_value(json_object_get(json_array_get(metrics, i), "name"))) < 0);
	/* memcg-kill: two kills in the kernel log (see test-trial-metrics.c) */
	assert_int_equal(json_integer_value(metric(now, "oom_kills_kmsg")), 2);
	assert_false(json_is_true(json_object_get(now, "partial")));
	json_decref(now);
	json_decref(again);
	json_decref(record);
	json_decref(orig);
	free(first);
	free(second);
	strbuf_release(&err);
	remove_tree(dir);
	free(dir);
}

/* record.json keeps the record as given, without what finishing computes, so a
 * trial.json cut short is finished again from it to the same bytes. */
static void test_record_kept_for_a_rebuild(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	json_t *orig = load(dir, "trial.json");
	json_t *record = json_pack("{s:O, s:O}", "environment", json_object_get(orig, "environment"),
				   "outcome", json_object_get(orig, "outcome"));
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	size_t len1, len2;
	char *finished = slurp(dir, TRIAL_RECORD, &len1);
	json_t *given = load(dir, TRIAL_RECORD_GIVEN);
	assert_true(json_equal(given, record));
	/* finishing from the whole trial.json keeps record.json the record given */
	json_t *whole = load(dir, TRIAL_RECORD);
	assert_int_equal(trial_finish(dir, whole, &err), 0);
	json_t *given_again = load(dir, TRIAL_RECORD_GIVEN);
	assert_true(json_equal(given_again, record));
	/* trial.json cut short: finished again from record.json, the same bytes */
	char *path = xasprintf("%s/%s", dir, TRIAL_RECORD);
	assert_int_equal(truncate(path, 100), 0);
	assert_null(load(dir, TRIAL_RECORD));
	assert_int_equal(trial_finish(dir, given_again, &err), 0);
	char *rebuilt = slurp(dir, TRIAL_RECORD, &len2);
	assert_int_equal(len1, len2);
	assert_memory_equal(finished, rebuilt, len1);
	free(path);
	free(finished);
	free(rebuilt);
	json_decref(orig);
	json_decref(record);
	json_decref(given);
	json_decref(whole);
	json_decref(given_again);
	strbuf_release(&err);
	remove_tree(dir);
	free(dir);
}

/* One files.bin record as docs/FORMATS.md defines it, written by hand. */
static void add_record(struct strbuf *bin, const char *name, const char *data, size_t len)
{
	strbuf_addf(bin, "oomlab-file %s %zu\n", name, len);
	strbuf_add(bin, data, len);
	strbuf_addstr(bin, "\n");
}

/* The snapshots arrive only in files.bin: finishing splits it before the
 * metrics are taken, so the vmstat deltas are there; the after-vmstat cut
 * short is kept as .partial and makes the trial partial. */
static void test_files_bin_split_before_metrics(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	size_t before_len, after_len;
	char *before = slurp(dir, "files/before/vmstat", &before_len);
	char *after = slurp(dir, "files/after/vmstat", &after_len);
	assert_non_null(before);
	assert_non_null(after);
	char *files = xasprintf("%s/files", dir);
	assert_int_equal(remove_tree(files), 0);
	free(files);

	struct strbuf bin = STRBUF_INIT;
	add_record(&bin, "before/vmstat", before, before_len);
	add_record(&bin, "after/vmstat", after, after_len);
	char *path = xasprintf("%s/files.bin", dir);
	assert_int_equal(write_file_atomic(path, bin.buf, bin.len), 0);
	json_t *record = json_object();
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	size_t len;
	char *split = slurp(dir, "files/before/vmstat", &len);
	assert_non_null(split);
	assert_int_equal(len, before_len);
	assert_memory_equal(split, before, len);
	free(split);
	json_t *trial = load(dir, "trial.json");
	/* grep oom_kill files/{before,after}/vmstat: 0 and 2 */
	assert_int_equal(json_integer_value(metric(trial, "vmstat_oom_kill")), 2);
	assert_false(json_is_true(json_object_get(trial, "partial")));
	json_decref(trial);

	/* Cut the last record in the middle: the guest died while sending it. */
	assert_int_equal(write_file_atomic(path, bin.buf, bin.len - after_len / 2), 0);
	char *files_dir = xasprintf("%s/files", dir);
	remove_tree(files_dir);
	free(files_dir);
	assert_int_equal(trial_finish(dir, record, &err), 0);
	char *cut = xasprintf("%s/files/after/vmstat.partial", dir);
	assert_true(path_exists(cut));
	free(cut);
	trial = load(dir, "trial.json");
	assert_true(json_is_true(json_object_get(trial, "partial")));
	assert_null(metric(trial, "vmstat_oom_kill"));
	json_decref(trial);

	json_decref(record);
	strbuf_release(&bin);
	strbuf_release(&err);
	free(path);
	free(before);
	free(after);
	remove_tree(dir);
	free(dir);
}

/* A crafted trial folder (a tarball, a shard from another node): files/
 * holds links out of the trial. Finishing it again (lab results
 * --recompute) writes files/ afresh and never through them (issue 37). */
static void test_links_in_files_not_followed(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	char outside_tmpl[] = "/tmp/oomlab-test-outside.XXXXXX";
	char *outside = mkdtemp(outside_tmpl);
	assert_non_null(outside);
	char *victim = xasprintf("%s/victim", outside);
	assert_int_equal(write_file_str(victim, "untouched\n"), 0);
	char *files = xasprintf("%s/files", dir);
	assert_int_equal(remove_tree(files), 0);
	char *before = xasprintf("%s/before", files);
	assert_int_equal(mkdir_p(before, 0755), 0);
	char *link = xasprintf("%s/x", before);
	assert_int_equal(symlink(victim, link), 0);
	/* and a folder of files/ that is a link to a folder outside */
	char *linked_dir = xasprintf("%s/after", files);
	assert_int_equal(symlink(outside, linked_dir), 0);
	struct strbuf bin = STRBUF_INIT;
	add_record(&bin, "before/x", "PWNED\n", 6);
	add_record(&bin, "after/victim", "PWNED\n", 6);
	char *bin_path = xasprintf("%s/files.bin", dir);
	assert_int_equal(write_file_atomic(bin_path, bin.buf, bin.len), 0);
	json_t *record = json_object();
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	size_t len;
	char *kept = read_file(victim, &len);
	assert_non_null(kept);
	assert_string_equal(kept, "untouched\n");
	free(kept);
	/* the records landed inside, in files the lab made */
	char *split = slurp(dir, "files/before/x", &len);
	assert_non_null(split);
	assert_memory_equal(split, "PWNED\n", 6);
	free(split);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(lstat(linked_dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));

	/* files/ itself a link out: removed, not followed */
	assert_int_equal(remove_tree(files), 0);
	assert_int_equal(symlink(outside, files), 0);
	assert_int_equal(trial_finish(dir, record, &err), 0);
	kept = read_file(victim, &len);
	assert_string_equal(kept, "untouched\n");
	free(kept);
	char *outside_before = xasprintf("%s/before", outside);
	assert_false(path_exists(outside_before));
	free(outside_before);

	/* a record that names a path outside: refused, nothing written */
	strbuf_reset(&bin);
	add_record(&bin, "/tmp/oomlab-abs-record", "PWNED\n", 6);
	assert_int_equal(write_file_atomic(bin_path, bin.buf, bin.len), 0);
	assert_int_equal(trial_split_files(dir, &err), -1);
	assert_non_null(strstr(err.buf, "is no path inside files/"));
	assert_false(path_exists("/tmp/oomlab-abs-record"));

	json_decref(record);
	strbuf_release(&err);
	strbuf_release(&bin);
	free(bin_path);
	free(linked_dir);
	free(link);
	free(before);
	free(files);
	remove_tree(outside);
	free(victim);
	remove_tree(dir);
	free(dir);
}

/* perf script's messages go to perf.script.stderr, made afresh: a link
 * there is removed, not written through. */
static void test_child_stderr_not_through_a_link(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/oomlab-test-stderr.XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	char *victim = xasprintf("%s/victim", dir), *log = xasprintf("%s/perf.script.stderr", dir);
	assert_int_equal(write_file_str(victim, "untouched\n"), 0);
	assert_int_equal(symlink(victim, log), 0);
	const char *argv[] = { "sh", "-c", "echo PWNED >&2", NULL };
	struct child_process cp = { .argv = argv, .err_path = log };
	assert_int_equal(run_command(&cp), 0);
	size_t len;
	char *kept = read_file(victim, &len);
	assert_string_equal(kept, "untouched\n");
	free(kept);
	char *said = read_file(log, &len);
	assert_string_equal(said, "PWNED\n");
	free(said);
	/* stdout appended to a link: the child does not run */
	char *out = xasprintf("%s/out", dir);
	assert_int_equal(symlink(victim, out), 0);
	const char *argv2[] = { "sh", "-c", "echo PWNED", NULL };
	struct child_process cp2 = { .argv = argv2, .out_path = out };
	assert_int_equal(run_command(&cp2), 127);
	kept = read_file(victim, &len);
	assert_string_equal(kept, "untouched\n");
	free(kept);
	free(out);
	free(log);
	free(victim);
	remove_tree(dir);
}

/* Snapshots that cannot be written (here "files" is no folder; a full disk
 * likewise) leave the trial unfinished: no metrics from what did not land. */
static void test_snapshots_not_written_not_finished(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	char *files = xasprintf("%s/files", dir), *trial = xasprintf("%s/trial.json", dir);
	assert_int_equal(remove_tree(files), 0);
	assert_int_equal(write_file_str(files, "not a folder\n"), 0);
	assert_int_equal(unlink(trial), 0);
	struct strbuf bin = STRBUF_INIT;
	add_record(&bin, "before/meminfo", "MemTotal: 1 kB\n", 15);
	char *bin_path = xasprintf("%s/files.bin", dir);
	assert_int_equal(write_file_atomic(bin_path, bin.buf, bin.len), 0);
	json_t *record = json_object();
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), -1);
	/* files/ is made afresh: a file in its way is not removed, and cannot be made */
	assert_non_null(strstr(err.buf, "/files: File exists"));
	assert_null(strchr(err.buf, '\n'));
	assert_false(path_exists(trial));
	json_decref(record);
	strbuf_release(&err);
	strbuf_release(&bin);
	free(bin_path);
	free(files);
	free(trial);
	remove_tree(dir);
	free(dir);
}

/* An empty perf.data (perf asked for nothing, or sent nothing) is not
 * decoded: the perf.script there stays; a perf.data perf cannot read is a
 * warning, and the trial is still finished. */
static void test_perf_decoded_only_when_recorded(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	char *data = xasprintf("%s/perf.data", dir);
	char *stderr_path = xasprintf("%s/perf.script.stderr", dir);
	assert_int_equal(write_file_str(data, ""), 0);
	json_t *record = json_object();
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	assert_false(path_exists(stderr_path));
	json_t *trial = load(dir, "trial.json");
	assert_non_null(metric(trial, "memcg_reclaim_stall_count"));
	json_decref(trial);

	if (have_program("perf")) {
		assert_int_equal(write_file_str(data, "not a perf stream\n"), 0);
		assert_int_equal(trial_finish(dir, record, &err), 0);
		assert_true(path_exists(stderr_path));
		trial = load(dir, "trial.json");
		assert_non_null(json_object_get(trial, "metrics"));
		json_decref(trial);
	}
	json_decref(record);
	strbuf_release(&err);
	free(data);
	free(stderr_path);
	remove_tree(dir);
	free(dir);
}

/* Appends LINE to the trial's ctl.jsonl, as the agent would have sent it. */
static void add_ctl_line(const char *dir, const char *line)
{
	char *path = xasprintf("%s/ctl.jsonl", dir);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "%s\n", line);
	fclose(f);
	free(path);
}

/* Finishes DIR with an "ok" outcome and returns trial.json. */
static json_t *finish_ok(const char *dir)
{
	json_t *record = json_pack("{s:{s:s, s:s}}", "outcome", "outcome", "ok", "detail",
				   "the command exited with status 0");
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish(dir, record, &err), 0);
	strbuf_release(&err);
	json_decref(record);
	return load(dir, "trial.json");
}

static const char *outcome_of(json_t *trial, const char *key)
{
	return json_string_value(json_object_get(json_object_get(trial, "outcome"), key));
}

/* A trial whose prepare step was lost (STATUS, at guest uptime AT) is
 * off-target with DETAIL and prepare_held 0; returns its folder. */
static char *finish_lost(int status, double at, const char *detail)
{
	char *dir = copy_sample("memcg-kill");
	add_ctl_line(dir, "{\"type\":\"prepared\",\"uptime\":2.0}");
	char *line = xasprintf("{\"type\":\"" CTL_PREPARE_LOST "\",\"uptime\":5.5,\"" PREPARE_LOST_STATUS
			       "\":%d,\"" PREPARE_LOST_ENDED_UPTIME "\":%g}", status, at);
	add_ctl_line(dir, line);
	free(line);
	json_t *t = finish_ok(dir);
	assert_string_equal(outcome_of(t, "outcome"), "off-target");
	assert_string_equal(outcome_of(t, "detail"), detail);
	assert_int_equal(json_integer_value(metric(t, "prepare_held")), 0);
	json_decref(t);
	return dir;
}

/* A prepare step that held to the end leaves the trial ok with prepare_held
 * 1; one the OOM killer took during the workload (issue 26: the fragmenter
 * is the last victim) makes it off-target, naming the signal; a missed
 * target does too, naming the blocks. Without a prepare step, no metric. */
static void test_prepare_lost_is_off_target(void **state)
{
	(void)state;
	char *held = copy_sample("memcg-kill");
	add_ctl_line(held, "{\"type\":\"" CTL_PINNED "\",\"uptime\":1.5,\"" PINNED_BYTES "\":12058624}");
	add_ctl_line(held, "{\"type\":\"prepared\",\"uptime\":2.0}");
	json_t *t = finish_ok(held);
	assert_string_equal(outcome_of(t, "outcome"), "ok");
	assert_int_equal(json_integer_value(metric(t, "prepare_held")), 1);
	/* and what the agent locked of the recorder's pages, in KiB */
	assert_true(json_number_value(metric(t, "recorder_pinned_kb")) == 11776.0);
	json_decref(t);

	char *lost = finish_lost(137, 4.25, "the prepare step ended during the workload (signal 9, at 4.2 s): "
					   "the machine's shape did not hold");
	char *exiting = finish_lost(-1, 5.5, "the prepare step ended during the workload (still exiting, at "
					     "5.5 s): the machine's shape did not hold");

	char *missed = copy_sample("memcg-kill");
	add_ctl_line(missed, "{\"type\":\"window\",\"edge\":\"start\",\"read_mono_ns\":1,\"target_order\":3,"
			     "\"free_blocks_ge\":40,\"target_max_blocks\":16}");
	t = finish_ok(missed);
	assert_string_equal(outcome_of(t, "outcome"), "off-target");
	assert_string_equal(outcome_of(t, "detail"),
			    "40 free blocks of order >= 3 when the workload started (the target: at most 16)");
	assert_null(metric(t, "prepare_held"));
	assert_null(metric(t, "recorder_pinned_kb"));
	json_decref(t);

	for (char **d = (char *[]){ held, lost, exiting, missed, NULL }; *d; d++) {
		remove_tree(*d);
		free(*d);
	}
}

static void add_out_line(const char *dir, const char *line)
{
	char *path = xasprintf("%s/out.log", dir);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "%s\n", line);
	fclose(f);
	free(path);
}

/* The line runner's markers (common/proto/workload-line.h) for line N. */
static void add_line(const char *dir, int n, const char *w, const char *said, int status, int sig)
{
	char *start = xasprintf("{\"type\":\"line-start\",\"workload\":\"%s\",\"line\":%d}", w, n);
	add_out_line(dir, start);
	if (said)
		add_out_line(dir, said);
	if (status >= 0) {
		char *end = xasprintf("{\"type\":\"line-end\",\"workload\":\"%s\",\"line\":%d,"
				      "\"exit_status\":%d,\"signal\":%d}", w, n, status, sig);
		add_out_line(dir, end);
		free(end);
	}
	free(start);
}

/* An ok trial's detail names its workload lines that did not exit 0, and
 * trial.json keeps every line; record.json keeps the boot's own word. */
static void test_unwell_lines_named(void **state)
{
	(void)state;
	char *dir = copy_sample("memcg-kill");
	add_line(dir, 1, "oom-hog", NULL, 0, 0);
	add_line(dir, 2, "spawn", "taskset: bad affinity 'zz'", 1, 0);
	add_line(dir, 3, "repro", "{\"type\":\"metric\",", 137, 9);
	add_line(dir, 4, "binder-mmap", "half", -1, 0);
	json_t *t = finish_ok(dir);
	assert_string_equal(outcome_of(t, "outcome"), "ok");
	assert_string_equal(outcome_of(t, "detail"),
			    "the command exited with status 0; line 2 (spawn) exited with status 1: "
			    "taskset: bad affinity 'zz'; line 3 (repro) was killed by signal 9 (Killed); "
			    "line 4 (binder-mmap) did not end");
	assert_int_equal(json_array_size(json_object_get(t, "workload_lines")), 4);
	assert_int_equal(json_integer_value(metric(t, "repro.bad_lines")), 1);
	assert_int_equal(json_integer_value(metric(t, "spawn.bad_lines")), 0);
	json_t *given = load(dir, TRIAL_RECORD_GIVEN);
	assert_string_equal(outcome_of(given, "detail"), "the command exited with status 0");
	assert_null(json_object_get(given, "workload_lines"));
	json_decref(given);
	json_decref(t);
	remove_tree(dir);
	free(dir);

	/* a selftest that failed is quoted by the line that explains it
	 * (workload_line_json_text), not by its first, "TAP version 13" */
	dir = copy_sample("memcg-kill");
	add_out_line(dir, "{\"type\":\"line-start\",\"workload\":\"selftest\",\"line\":1}");
	add_out_line(dir, "TAP version 13");
	add_out_line(dir, "1..1");
	add_out_line(dir, "# Failed to open /proc/sys/vm/nr_hugepages");
	add_out_line(dir, "not ok 1 compaction");
	add_out_line(dir, "{\"type\":\"line-end\",\"workload\":\"selftest\",\"line\":1,"
			  "\"exit_status\":1,\"signal\":0}");
	t = finish_ok(dir);
	assert_string_equal(outcome_of(t, "detail"),
			    "the command exited with status 0; line 1 (selftest) exited with status 1: "
			    "# Failed to open /proc/sys/vm/nr_hugepages");
	json_decref(t);
	remove_tree(dir);
	free(dir);

	/* every line well: the detail stays the command's */
	dir = copy_sample("memcg-kill");
	add_line(dir, 1, "oom-hog", "text", 0, 0);
	t = finish_ok(dir);
	assert_string_equal(outcome_of(t, "detail"), "the command exited with status 0");
	json_decref(t);
	remove_tree(dir);
	free(dir);
}

static void test_cannot_write(void **state)
{
	(void)state;
	json_t *record = json_object();
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(trial_finish("/nonexistent/oomlab-trial", record, &err), -1);
	assert_non_null(strstr(err.buf, "/nonexistent/oomlab-trial: not a trial folder"));
	assert_false(path_exists("/nonexistent/oomlab-trial"));
	/* a folder whose trial.json cannot be written (a folder in its way) */
	char tmpl[] = "/tmp/oomlab-test-finish.XXXXXX";
	char *dir = mkdtemp(tmpl);
	char *blocker = xasprintf("%s/trial.json/x", dir);
	assert_int_equal(mkdir_p(blocker, 0755), 0);
	strbuf_reset(&err);
	assert_int_equal(trial_finish(dir, record, &err), -1);
	assert_non_null(strstr(err.buf, "cannot write"));
	remove_tree(dir);
	free(blocker);
	json_decref(record);
	strbuf_release(&err);
}

int main(void)
{
	quiet = true;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish_twice_same_bytes),
		cmocka_unit_test(test_record_kept_for_a_rebuild),
		cmocka_unit_test(test_snapshots_not_written_not_finished),
		cmocka_unit_test(test_files_bin_split_before_metrics),
		cmocka_unit_test(test_perf_decoded_only_when_recorded),
		cmocka_unit_test(test_prepare_lost_is_off_target),
		cmocka_unit_test(test_unwell_lines_named),
		cmocka_unit_test(test_cannot_write),
		cmocka_unit_test(test_links_in_files_not_followed),
		cmocka_unit_test(test_child_stderr_not_through_a_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
