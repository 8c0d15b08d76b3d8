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
#include "common/proto/killer-kinds.h"
#include "common/proto/lmkd-config.h"
#include "lab/machine/profile.h"
#include "lab/trial/trial.h"
#include "workloads/agent/agent-job.h"

/* A profile that sets every setting the spec carries, both fault
 * capabilities included; the killer's lines come from full_killer(). */
static const char full_profile[] =
	"description = everything\nmemory = 1G\ncpus = 2\nnuma_nodes = 512M, 512M\n"
	"zram_size = 256M\nzram_algorithm = lzo\nmin_free_kbytes = 4096\n"
	"watermark_scale_factor = 150\nthp = never\ncompact_unevictable_allowed = 0\n"
	"slow_disk_size = 64M\ncgroup.memory.max = 384M\ncgroup.memory.high = 300M\n"
	"cgroup.memory.swap.max = 0\ncgroup.memory.oom.group = 1\n"
	"fail_page_alloc = probability 20, min-order 3\nfailslab = probability 5, times 100\n";

/* full_profile with killer KIND and, for lmkd, two of its keys set. */
static char *full_killer(enum killer_kind kind)
{
	return xasprintf("%skiller = %s\n%s", full_profile, killer_kinds[kind].name,
			 kind == KILLER_KIND_LMKD ? "lmkd.psi_window_ms = 900\nlmkd.kill_timeout_ms = 55\n"
						  : "");
}

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
	struct trial_plan plan = { .profile = p };
	struct trial_spec spec = { .plan = &plan, .use_cgroup = false, .interactive = true, .save = true,
				   .has_target = true, .target_order = 4, .target_max_free_blocks = 12 };
	return trial_job_spec(&spec);
}

/* Each written line's row; fails on a line no row names or whose value is
 * not of the row's type, or a killer key of another kind than KIND. Marks the
 * rows, KIND's keys and the capabilities seen. */
static void check_written(const char *text, enum killer_kind kind, bool row_seen[JOB_KEY_COUNT],
			  bool key_seen[KILLER_KEYS_MAX], bool cap_seen[FAULT_CAPABILITY_COUNT])
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
		if (k == JOB_KEY_LMKD || k == JOB_KEY_OOMD) {
			int m, owner = killer_key_of_name(line, &m);
			if (owner != (int)kind)
				fail_msg("the lab writes %s with killer = %s, which is no key of that kind",
					 line, killer_kinds[kind].name);
			key_seen[m] = true;
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
	bool row_seen[JOB_KEY_COUNT] = { 0 };
	for (int kind = 0; kind < KILLER_KIND_COUNT; kind++) {
		struct profile p;
		char *profile = full_killer((enum killer_kind)kind);
		load_profile(&p, profile);
		char *text = full_spec(&p);
		bool key_seen[KILLER_KEYS_MAX] = { 0 }, cap_seen[FAULT_CAPABILITY_COUNT] = { 0 };
		check_written(text, (enum killer_kind)kind, row_seen, key_seen, cap_seen);
		for (size_t m = 0; m < killer_kinds[kind].n_keys; m++)
			if (!key_seen[m])
				fail_msg("the lab does not write %s with killer = %s",
					 killer_kinds[kind].keys[m].name, killer_kinds[kind].name);
		for (int c = 0; c < FAULT_CAPABILITY_COUNT; c++)
			if (!cap_seen[c])
				fail_msg("the lab does not write the fault lines of %s", fault_capability_name[c]);
		free(text);
		free(profile);
		profile_clear(&p);
	}
	for (int k = 0; k < JOB_KEY_COUNT; k++)
		if (!row_seen[k])
			fail_msg("the row %s of common/proto/job-keys.c is written by no writer of the lab "
				 "(for a trial that sets everything, with any killer)", job_keys[k].name);
}

/* The agent reads every line the lab wrote, and asks for no key it did not
 * write, with every kind of killer. */
static void the_agent_reads_what_the_lab_writes(void **state)
{
	(void)state;
	for (int kind = 0; kind < KILLER_KIND_COUNT; kind++) {
		struct profile p;
		char *profile = full_killer((enum killer_kind)kind);
		load_profile(&p, profile);
		char *text = full_spec(&p);
		char *copy = strdup(text);
		struct job job;
		job_read(&job, copy);
		assert_int_equal(job.dropped, 0);
		for (int i = 0; i < job.n; i++)
			if (!job.used[i])
				fail_msg("the lab writes the spec key %s, which the agent never reads "
					 "(agent-job.c)", job.key[i]);
		for (int i = 0; i < job.n_missing; i++)
			fail_msg("the agent reads the spec key %s, which the lab does not write even for a "
				 "trial that sets everything", job.missing[i]);

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
		assert_true(s->restore_point);
		assert_int_equal(s->killer, kind);
		for (size_t m = 0; m < killer_kinds[kind].n_keys; m++)
			assert_int_equal(s->killer_v[m], p.killer_v[kind][m]);
		if (kind == KILLER_KIND_LMKD)
			assert_int_equal(s->killer_v[LMKD_PSI_WINDOW_MS], 900);
		assert_int_equal(s->target_order, 4);
		assert_int_equal(s->target_max_blocks, 12);
		assert_true(s->n_faults > 0);
		free(copy);
		free(text);
		free(profile);
		profile_clear(&p);
	}
}

/* A plain trial: every line still read; what the agent misses are the
 * optional keys, which take their defaults. */
static void a_plain_trial_leaves_only_the_optional_keys_out(void **state)
{
	(void)state;
	struct profile p;
	load_profile(&p, "description = plain\nmemory = 512M\ncpus = 1\n");
	struct trial_plan plan = { .profile = &p };
	struct trial_spec spec = { .plan = &plan, .use_cgroup = true };
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
	assert_int_equal(job.set.killer, KILLER_KIND_KERNEL);
	assert_int_equal(job.set.n_faults, 0);
	assert_true(job.set.use_cgroup);
	assert_false(job.set.restore_point);
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
	/* each killer's keys are the family its row's key_prefix names */
	for (int kind = 0; kind < KILLER_KIND_COUNT; kind++)
		for (size_t m = 0; m < killer_kinds[kind].n_keys; m++) {
			int k = job_key_of(killer_kinds[kind].keys[m].name);
			if (k < 0 || !job_keys[k].family || strcmp(job_keys[k].name, killer_kinds[kind].key_prefix))
				fail_msg("%s: no family row of job-keys.c is its kind's prefix %s",
					 killer_kinds[kind].keys[m].name, killer_kinds[kind].key_prefix);
		}
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
