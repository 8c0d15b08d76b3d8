/* Unit tests: the table of profile keys (lab/machine/profile-keys.c) is what the
 * parser takes: each default a file may write gives the profile a file
 * without the key gives, each range is what the setter takes, and a
 * mistyped key is offered the nearest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/machine/profile.h"
#include "tests/unit/lab/keys/key-checks.h"

/* The least a profile says: its required keys. */
#define BASE "description = x\nmemory = 512M\n"

/* What a key needs beside it: a killer's own keys (lmkd.*, oomd.*), killer = that kind. */
static const char *needs(const char *key)
{
	static char line[64];
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		if (killer_kinds[k].key_prefix && starts_with(key, killer_kinds[k].key_prefix)) {
			snprintf(line, sizeof(line), "killer = %s\n", killer_kinds[k].name);
			return line;
		}
	return "";
}

/* TEXT's profile as profile_format() writes it (every setting), and the
 * APIC timer a boot of it gets on each clock (which trial.c records, not
 * profile_format()); fails the test when TEXT does not parse. */
static char *settings(const char *text)
{
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	if (profile_parse(&p, "t", "t.conf", text, &err) < 0)
		fail_msg("%s: %s", text, err.buf);
	char *format = profile_format(&p);
	char *out = xasprintf("%sapic_timer.realtime=%s\napic_timer.icount=%s\n", format,
			      apic_timer_name(apic_timer_for(p.apic_timer, GUEST_CLOCK_REALTIME, true)),
			      apic_timer_name(apic_timer_for(p.apic_timer, GUEST_CLOCK_ICOUNT, true)));
	free(format);
	profile_clear(&p);
	strbuf_release(&err);
	return out;
}

static void each_default_is_what_no_key_gives(void **state)
{
	(void)state;
	size_t n, compared = 0;
	struct key_info *keys = key_table_list(&profile_keys, &n);
	for (size_t i = 0; i < n; i++) {
		if (keys[i].fallback[0] == '(')
			continue;   /* a description: what holds without the key */
		char *without = xasprintf(BASE "%s", needs(keys[i].name));
		char *with = xasprintf(BASE "%s%s = %s\n", needs(keys[i].name), keys[i].name,
				       keys[i].fallback);
		char *a = settings(without), *b = settings(with);
		expect_same_settings(keys[i].name, keys[i].fallback, b, a);
		compared++;
		free(a), free(b), free(with), free(without);
	}
	/* cpus, zram_size, zram_algorithm, slow_disk_*, cgroup.*, killer, lmkd.*, clock (apic_timer's
	 * default depends on the kernel: test-profile) */
	assert_true(compared >= 20);
	free(keys);
}

static void each_range_is_what_the_setter_takes(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(profile_parse(&p, "t", "t.conf", BASE, &err), 0);
	struct ranges_tried tried = check_ranges(&profile_keys, &p);
	/* cpus, min_free_kbytes, watermark_scale_factor, lmkd.* */
	assert_true(tried.numbers >= 10);
	/* zram_algorithm, thp, compact_unevictable_allowed, oom.group, killer, clock, apic_timer */
	assert_true(tried.words >= 7);
	profile_clear(&p);
}

/* Values for the keys whose row names none (key-checks.h's key_example). */
static const char *const examples[][2] = {
	{ "description", "a phone" },
	{ "memory", "1G" },
	{ "numa_nodes", "256M,256M" },
	{ "fail_page_alloc", "probability 5" },
	{ "failslab", "probability 5, times 3" },
};

static void every_listed_key_is_taken_in_a_file(void **state)
{
	(void)state;
	size_t n;
	struct key_info *keys = key_table_list(&profile_keys, &n);
	for (size_t i = 0; i < n; i++) {
		const char *key = keys[i].name;
		char buf[32];
		const char *v = key_example(&keys[i], examples, sizeof(examples) / sizeof(examples[0]), buf,
					    sizeof(buf));
		char *text = xasprintf("%s = %s\n%s%s%s", key, v, needs(key),
				       strcmp(key, "description") ? "description = x\n" : "",
				       strcmp(key, "memory") ? "memory = 512M\n" : "");
		struct profile p;
		struct strbuf err = STRBUF_INIT;
		if (profile_parse(&p, "t", "t.conf", text, &err) < 0)
			fail_msg("%s is listed, but a file with it does not parse: %s", key, err.buf);
		profile_clear(&p);
		strbuf_release(&err);
		free(text);
	}
	free(keys);
}

static void expect_suggestion(const char *typed, const char *suggestion)
{
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	char *text = xasprintf(BASE "%s = 1\n", typed);
	char *want = xasprintf("t.conf:3: unknown key '%s' (did you mean %s?)", typed, suggestion);
	assert_int_equal(profile_parse(&p, "t", "t.conf", text, &err), -1);
	assert_string_equal(err.buf, want);
	profile_clear(&p);
	strbuf_release(&err);
	free(want);
	free(text);
}

static void a_mistyped_key_is_offered_the_nearest(void **state)
{
	(void)state;
	expect_suggestion("memroy", "'memory'");
	expect_suggestion("cpu", "'cpus'");
	expect_suggestion("lmkd.psi_window", "'lmkd.psi_window_ms'");
	expect_suggestion("failslabs", "'failslab'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_default_is_what_no_key_gives),
		cmocka_unit_test(each_range_is_what_the_setter_takes),
		cmocka_unit_test(every_listed_key_is_taken_in_a_file),
		cmocka_unit_test(a_mistyped_key_is_offered_the_nearest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
