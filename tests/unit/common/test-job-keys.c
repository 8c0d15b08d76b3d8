/*
 * Unit tests: the job spec's keys (common/proto/job-keys.h) as both sides
 * use them. The lab's real writer (trial_job_spec) runs on a trial that sets
 * everything a spec can carry; the agent's real reader (agent-job.c) reads
 * what it wrote. Every key written must have a row and be read; every key
 * read must have been written; every row must be written. A key that only one
 * side knows (the drift of "prepare_timeout", which the agent read and the
 * lab never wrote) fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/job-keys.h"
#include "lab/profile.h"
#include "lab/trial.h"
#include "workloads/agent/agent-job.h"

/* A profile that sets every setting the spec carries, lmkd and both fault
 * capabilities included. */
static const char full_profile[] =
	"description = everything\nmemory = 1G\ncpus = 2\nnuma_nodes = 512M, 512M\n"
	"zram_size = 256M\nzram_algorithm = lzo\nmin_free_kbytes = 4096\n"
	"watermark_scale_factor = 150\nthp = never\ncompact_unevictable_allowed = 0\n"
	"slow_disk_size = 64M\ncgroup.memory.max = 384M\ncgroup.memory.high = 300M\n"
	"cgroup.memory.swap.max = 0\ncgroup.memory.oom.group = 1\n"
	"killer = lmkd\nlmkd.psi_window_ms = 900\nlmkd.kill_timeout_ms = 55\n"
	"fail_page_alloc = probability 20, min-order 3\nfailslab = probability 5, times 100\n";

static void load_profile(struct profile *p, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	if (profile_parse(p, "t", "t.conf", text, &err) < 0)
		fail_msg("the test's profile: %s", err.buf);
	strbuf_release(&err);
}

/* The spec the lab writes for a trial of P with everything else set too. */
static char *full_spec(const struct profile *p)
{
	struct trial_spec spec = { .profile = p, .use_cgroup = false, .interactive = true,
				   .has_target = true, .target_order = 4, .target_max_free_blocks = 12 };
	return trial_job_spec(&spec);
}

/* Each written line's row; fails on a line no row names or whose value is
 * not of the row's type. Marks the rows, lmkd keys and capabilities seen. */
static void check_written(const char *text, bool row_seen[JOB_KEY_COUNT], bool lmkd_seen[LMKD_KEY_COUNT],
			  bool cap_seen[FAULT_CAPABILITY_COUNT])
{
	char *copy = strdup(text);
	for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (!eq)
			fail_msg("the lab wrote the spec line '%s', which has no '='", line);
		*eq = '\0';
		int k = job_key_of(line);
		if (k < 0)
			fail_msg("the lab writes the spec key %s, which no row of common/proto/job-keys.c names",
				 line);
		if (!job_value_valid(job_keys[k].value, eq + 1))
			fail_msg("the lab writes %s=%s, not of its row's value type", line, eq + 1);
		row_seen[k] = true;
		if (k == JOB_KEY_LMKD) {
			int m = lmkd_key_of_name(line);
			if (m < 0)
				fail_msg("the lab writes %s, which is no lmkd_keys[] row", line);
			lmkd_seen[m] = true;
		}
		if (k == JOB_KEY_FAULT)
			for (int c = 0; c < FAULT_CAPABILITY_COUNT; c++) {
				size_t prefix = strlen(job_keys[JOB_KEY_FAULT].name);
				size_t len = strlen(fault_capability_name[c]);
				if (!strncmp(line + prefix, fault_capability_name[c], len) && line[prefix + len] == '.')
					cap_seen[c] = true;
			}
	}
	free(copy);
}

/* Every key written has a row, and every row (each lmkd key, each fault
 * capability) is written: the table and the writer agree. */
static void every_row_is_written_and_every_written_key_has_a_row(void **state)
{
	(void)state;
	struct profile p;
	load_profile(&p, full_profile);
	char *text = full_spec(&p);
	bool row_seen[JOB_KEY_COUNT] = { 0 }, lmkd_seen[LMKD_KEY_COUNT] = { 0 },
	     cap_seen[FAULT_CAPABILITY_COUNT] = { 0 };
	check_written(text, row_seen, lmkd_seen, cap_seen);
	for (int k = 0; k < JOB_KEY_COUNT; k++)
		if (!row_seen[k])
			fail_msg("the row %s of common/proto/job-keys.c is written by no writer of the lab "
				 "(a trial that sets everything wrote:\n%s)", job_keys[k].name, text);
	for (int m = 0; m < LMKD_KEY_COUNT; m++)
		if (!lmkd_seen[m])
			fail_msg("the lab does not write %s with killer = lmkd", lmkd_keys[m].name);
	for (int c = 0; c < FAULT_CAPABILITY_COUNT; c++)
		if (!cap_seen[c])
			fail_msg("the lab does not write the fault lines of %s", fault_capability_name[c]);
	free(text);
	profile_clear(&p);
}

/* The agent reads every line the lab wrote, and asks for no key it did not write. */
static void the_agent_reads_what_the_lab_writes(void **state)
{
	(void)state;
	struct profile p;
	load_profile(&p, full_profile);
	char *text = full_spec(&p);
	char *copy = strdup(text);
	struct job job;
	job_read(&job, copy);
	assert_int_equal(job.dropped, 0);
	for (int i = 0; i < job.n; i++)
		if (!job.used[i])
			fail_msg("the lab writes the spec key %s, which the agent never reads (agent-job.c)",
				 job.key[i]);
	for (int i = 0; i < job.n_missing; i++)
		fail_msg("the agent reads the spec key %s, which the lab does not write even for a trial "
			 "that sets everything", job.missing[i]);

	/* and the values come through as the profile and the trial set them */
	const struct job_settings *s = &job.set;
	assert_string_equal(s->thp, "never");
	assert_int_equal(s->min_free_kbytes, 4096);
	assert_int_equal(s->watermark_scale_factor, 150);
	assert_int_equal(s->compact_unevictable_allowed, 0);
	assert_string_equal(s->zram_bytes, "268435456");
	assert_string_equal(s->zram_algorithm, "lzo");
	assert_string_equal(s->memory_max, "402653184");
	assert_string_equal(s->memory_high, "314572800");
	assert_string_equal(s->memory_swap_max, "0");
	assert_string_equal(s->memory_oom_group, "1");
	assert_false(s->use_cgroup);
	assert_true(s->interactive);
	assert_true(s->killer_lmkd);
	for (int m = 0; m < LMKD_KEY_COUNT; m++)
		assert_int_equal(s->lmkd.v[m], p.lmkd.v[m]);
	assert_int_equal(s->lmkd.v[LMKD_PSI_WINDOW_MS], 900);
	assert_int_equal(s->target_order, 4);
	assert_int_equal(s->target_max_blocks, 12);
	assert_true(s->n_faults > 0);
	free(copy);
	free(text);
	profile_clear(&p);
}

/* A plain trial: every line still read; what the agent misses are the
 * optional keys, which take their defaults. */
static void a_plain_trial_leaves_only_the_optional_keys_out(void **state)
{
	(void)state;
	struct profile p;
	load_profile(&p, "description = plain\nmemory = 512M\ncpus = 1\n");
	struct trial_spec spec = { .profile = &p, .use_cgroup = true };
	char *text = trial_job_spec(&spec);
	struct job job;
	job_read(&job, text);
	for (int i = 0; i < job.n; i++)
		if (!job.used[i])
			fail_msg("the agent never reads %s", job.key[i]);
	assert_int_equal(job.n_missing, 2);
	assert_string_equal(job.missing[0], job_keys[JOB_KEY_TARGET_ORDER].name);
	assert_string_equal(job.missing[1], job_keys[JOB_KEY_TARGET_MAX_BLOCKS].name);
	assert_int_equal(job.set.target_order, 3);
	assert_int_equal(job.set.target_max_blocks, -1);
	assert_false(job.set.killer_lmkd);
	assert_int_equal(job.set.n_faults, 0);
	assert_true(job.set.use_cgroup);
	free(text);
	profile_clear(&p);
}

/* A line the agent has no reader for stays unread, and a key it reads that is
 * absent is missing: the two marks the tests above stand on. */
static void the_reader_marks_unknown_and_absent_keys(void **state)
{
	(void)state;
	char text[] = "prepare_timeout=30\nthp=always\n";
	struct job job;
	job_read(&job, text);
	assert_int_equal(job.n, 2);
	assert_false(job.used[0]);
	assert_true(job.used[1]);
	bool zram_missing = false;
	for (int i = 0; i < job.n_missing; i++)
		zram_missing |= !strcmp(job.missing[i], job_keys[JOB_KEY_ZRAM_BYTES].name);
	assert_true(zram_missing);
}

/* Rows are whole, and a row's name finds that row (no family prefix hides a key). */
static void rows_are_whole_and_distinct(void **state)
{
	(void)state;
	for (int k = 0; k < JOB_KEY_COUNT; k++) {
		const struct job_key_def *row = &job_keys[k];
		if (!row->name || !row->writer || !row->reader || !row->meaning)
			fail_msg("row %d of common/proto/job-keys.c lacks a column", k);
		size_t len = strlen(row->name);
		if (row->family != (len && row->name[len - 1] == '.'))
			fail_msg("%s: a family's name, and only its, ends with '.'", row->name);
		char member[128];
		snprintf(member, sizeof(member), "%s%s", row->name, row->family ? "x" : "");
		if (job_key_of(member) != k)
			fail_msg("%s is found as row %d, not its own", member, job_key_of(member));
	}
	for (int m = 0; m < LMKD_KEY_COUNT; m++)
		assert_int_equal(job_key_of(lmkd_keys[m].name), JOB_KEY_LMKD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_is_written_and_every_written_key_has_a_row),
		cmocka_unit_test(the_agent_reads_what_the_lab_writes),
		cmocka_unit_test(a_plain_trial_leaves_only_the_optional_keys_out),
		cmocka_unit_test(the_reader_marks_unknown_and_absent_keys),
		cmocka_unit_test(rows_are_whole_and_distinct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
