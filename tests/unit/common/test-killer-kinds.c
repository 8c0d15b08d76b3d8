/* test-killer-kinds.c - the kinds of killer (common/proto/killer-kinds.h):
 * every row is complete, every side's table has an entry for every row
 * that needs one, and a profile takes each kind by name and refuses a name
 * that is none, one line naming file and line with the nearest name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/metrics/metric_catalog.h"
#include "analysis/parse/killer_lines.h"
#include "common/proto/killer-kinds.h"
#include "lab/machine/profile.h"
#include "workloads/killers/killer-run.h"

/* One kill line each userspace kind writes (its KIND-lines.h's format):
 * a kind without one here fails every_row_is_complete. */
static const char *const kill_line[KILLER_KIND_COUNT] = {
	[KILLER_KIND_LMKD] = "lmkd: Kill 'app-03' (1234), oom_score_adj 900 (cached) to free 45678kB rss, "
			     "512kB swap; reason: LOW_MEM; psi some 12.50 full 1.25; t_mono_ns 2100000000, "
			     "sent by 2100000400",
	[KILLER_KIND_OOMD] = "oomd: Killed /sys/fs/cgroup/workload/app-03 (3 processes): memory pressure "
			     "72.15% > 60% for 30012ms in /sys/fs/cgroup/workload, pgscan 1234, memory "
			     "45678kB; t_mono_ns 123456789",
};

static bool given(const char *s)
{
	return s && *s;
}

/* A catalogue row with a meaning and a source for NAME. */
static void catalogued(const char *prefix, const char *suffix)
{
	char name[64];
	snprintf(name, sizeof(name), "%s%s", prefix, suffix);
	const struct metric_def *d = metric_catalog_find(name);
	if (!d || !given(d->meaning) || !given(d->source))
		fail_msg("%s: no described row in the metric catalogue", name);
	assert_string_equal(d->name, name);
}

static void every_row_is_complete(void **state)
{
	(void)state;
	for (int k = 0; k < KILLER_KIND_COUNT; k++) {
		const struct killer_kind_def *d = &killer_kinds[k];
		print_message("kind %s\n", d->name ? d->name : "(no name)");
		assert_true(given(d->name));
		assert_int_equal(killer_kind_of_name(d->name), k);
		assert_true(given(d->meaning));
		assert_true(given(d->doc));
		if (access(d->doc, R_OK) != 0)
			fail_msg("%s: its doc %s cannot be read (the tests run from the checkout)", d->name,
				 d->doc);
		assert_true(d->n_keys <= KILLER_KEYS_MAX);
		if (!killer_is_userspace((enum killer_kind)k)) {
			/* nothing to start, count or set: the kernel's killer */
			assert_null(d->started);
			assert_null(d->kmsg_prefix);
			assert_null(d->metric_prefix);
			assert_null(d->key_prefix);
			assert_int_equal(d->n_keys, 0);
			assert_null(killer_run((enum killer_kind)k));
			assert_false(killer_lines_known((enum killer_kind)k));
			continue;
		}
		assert_true(given(d->started));
		/* a comm is at most 15 bytes: a longer one would never match the trace's */
		assert_true(strlen(d->comm) > 0 && strlen(d->comm) < 16);
		assert_true(given(d->kmsg_prefix));
		assert_true(given(d->metric_prefix));
		assert_true(given(d->key_prefix));
		/* the guest runs it, the analysis reads its kill lines, the catalogue says its metrics */
		assert_non_null(killer_run((enum killer_kind)k));
		assert_true(killer_lines_known((enum killer_kind)k));
		assert_non_null(kill_line[k]);
		assert_true(strncmp(kill_line[k], d->kmsg_prefix, strlen(d->kmsg_prefix)) == 0);
		assert_true(killer_kill_line((enum killer_kind)k, kill_line[k]));
		for (int other = 0; other < KILLER_KIND_COUNT; other++)
			if (other != k)
				assert_false(killer_kill_line((enum killer_kind)other, kill_line[k]));
		catalogued(d->metric_prefix, "_kills");
		catalogued(d->metric_prefix, "_kills_trace");
		for (size_t i = 0; i < d->n_keys; i++) {
			const struct killer_key *key = &d->keys[i];
			assert_true(strncmp(key->name, d->key_prefix, strlen(d->key_prefix)) == 0);
			assert_true(key->min <= key->fallback && key->fallback <= key->max);
			assert_true(given(key->range_text));
			assert_true(given(key->meaning));
			int at, kind = killer_key_of_name(key->name, &at);
			assert_int_equal(kind, k);
			assert_int_equal(at, (int)i);
		}
	}
	/* names, comms and prefixes are each one kind's */
	for (int a = 0; a < KILLER_KIND_COUNT; a++)
		for (int b = a + 1; b < KILLER_KIND_COUNT; b++) {
			assert_string_not_equal(killer_kinds[a].name, killer_kinds[b].name);
			if (killer_kinds[a].comm && killer_kinds[b].comm) {
				assert_string_not_equal(killer_kinds[a].comm, killer_kinds[b].comm);
				assert_string_not_equal(killer_kinds[a].kmsg_prefix, killer_kinds[b].kmsg_prefix);
				assert_string_not_equal(killer_kinds[a].metric_prefix,
							killer_kinds[b].metric_prefix);
				assert_string_not_equal(killer_kinds[a].key_prefix, killer_kinds[b].key_prefix);
			}
		}
	assert_int_equal(killer_kind_of_name("lmkd2"), -1);
	assert_string_equal(killer_kinds[KILLER_KIND_KERNEL].name, "kernel");
}

static void a_profile_takes_each_kind(void **state)
{
	(void)state;
	for (int k = 0; k < KILLER_KIND_COUNT; k++) {
		const struct killer_kind_def *d = &killer_kinds[k];
		char *text = xasprintf("description = d\nmemory = 256M\nkiller = %s\n", d->name);
		struct profile p;
		struct strbuf err = STRBUF_INIT;
		if (profile_parse(&p, "t", "t.conf", text, &err) < 0)
			fail_msg("killer = %s: %s", d->name, err.buf);
		assert_int_equal(p.killer, k);
		/* what the guest is sent: the kind, and each of its keys at its default */
		char *spec = profile_format(&p);
		char *want = xasprintf("\nkiller=%s\n", d->name);
		assert_non_null(strstr(spec, want));
		free(want);
		for (size_t i = 0; i < d->n_keys; i++) {
			want = xasprintf("\n%s=%ld\n", d->keys[i].name, d->keys[i].fallback);
			if (!strstr(spec, want))
				fail_msg("killer = %s: the spec lacks %s", d->name, want + 1);
			free(want);
		}
		/* and no other kind's */
		for (int o = 0; o < KILLER_KIND_COUNT; o++)
			if (o != k && killer_kinds[o].key_prefix) {
				want = xasprintf("\n%s", killer_kinds[o].key_prefix);
				assert_null(strstr(spec, want));
				free(want);
			}
		free(spec);
		free(text);
		profile_clear(&p);
		strbuf_release(&err);
	}
}

static void expect_error(const char *text, const char *want)
{
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(profile_parse(&p, "t", "t.conf", text, &err), -1);
	if (strcmp(err.buf, want))
		fail_msg("error '%s', not '%s'", err.buf, want);
	profile_clear(&p);
	strbuf_release(&err);
}

static void a_name_that_is_no_kind_is_refused(void **state)
{
	(void)state;
	expect_error("description = d\nmemory = 256M\nkiller = omd\n",
		     "t.conf:3: killer = omd: killer wants one of kernel, lmkd, oomd (lab keys profile); "
		     "did you mean 'oomd'?");
	expect_error("description = d\n\nkiller = lmk\nmemory = 256M\n",
		     "t.conf:3: killer = lmk: killer wants one of kernel, lmkd, oomd (lab keys profile); "
		     "did you mean 'lmkd'?");
	/* nothing near: the kinds alone */
	expect_error("description = d\nmemory = 256M\nkiller = systemd-oomd-daemon\n",
		     "t.conf:3: killer = systemd-oomd-daemon: killer wants one of kernel, lmkd, oomd "
		     "(lab keys profile)");
}

static void a_kinds_keys_need_that_kind(void **state)
{
	(void)state;
	expect_error("description = d\nmemory = 256M\nkiller = lmkd\noomd.memory_pressure_limit_percent = 50\n",
		     "t.conf:4: oomd.memory_pressure_limit_percent is set but killer is not oomd "
		     "(add killer = oomd)");
	expect_error("description = d\nmemory = 256M\nkiller = oomd\noomd.memory_pressure_duration_ms = 10\n",
		     "t.conf:4: oomd.memory_pressure_duration_ms = 10: oomd.memory_pressure_duration_ms "
		     "wants milliseconds from 1000 to 600000");
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(profile_parse(&p, "t", "t.conf",
				       "description = d\nmemory = 256M\noomd.memory_pressure_limit_percent = 40\n"
				       "killer = oomd\n", &err), 0);
	char *spec = profile_format(&p);
	assert_non_null(strstr(spec, "\noomd.memory_pressure_limit_percent=40\n"));
	assert_non_null(strstr(spec, "\noomd.memory_pressure_duration_ms=30000\n"));
	free(spec);
	profile_clear(&p);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_is_complete),
		cmocka_unit_test(a_profile_takes_each_kind),
		cmocka_unit_test(a_name_that_is_no_kind_is_refused),
		cmocka_unit_test(a_kinds_keys_need_that_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
