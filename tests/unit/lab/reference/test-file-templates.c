/* Unit tests: the files lab new writes (lab/reference/file-templates.h). The
 * experiment names every key of the table the parser uses (lab keys
 * experiment) and parses as written; with a variant named it is that variant
 * against stock, its profile is one the lab has, and its workload line
 * passes the host's check before a boot (the real oomlab-workload, built
 * first by the Makefile). Every default it writes, uncommented, parses too.
 * The profile the same. Run from the checkout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/machine/profile.h"
#include "lab/reference/file-templates.h"
#include "lab/run/command-check.h"
#include "lab/run/experiment.h"
#include "workloads/workload.h"

/* Whether TEXT has a line that begins with START. */
static bool has_line_starting(const char *text, const char *start)
{
	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, start, strlen(start)))
			return true;
	return false;
}

/* Every key T lists is a line of TEXT: "KEY = " when required, else "#KEY =". */
static void expect_every_key(const struct key_table *t, const char *text)
{
	size_t n;
	struct key_info *keys = key_table_list(t, &n);
	for (size_t i = 0; i < n; i++) {
		bool required = !strcmp(keys[i].fallback, KEY_REQUIRED);
		char *line = xasprintf("%s%s =", required ? "" : "#", keys[i].name);
		if (!has_line_starting(text, line))
			fail_msg("the %s template has no line '%s' for the key %s", t->kind, line,
				 keys[i].name);
		free(line);
	}
	assert_true(n >= 2);
	free(keys);
}

static char *experiment_text(const char *variant)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	if (experiment_template(&sb, "my-check", "my-check.conf", variant, &err) < 0)
		fail_msg("%s", err.buf);
	strbuf_release(&err);
	return strbuf_detach(&sb);
}

static void parse_experiment(struct experiment *e, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	if (experiment_parse(e, "my-check", "my-check.conf", text, &err) < 0)
		fail_msg("the template does not parse: %s", err.buf);
	strbuf_release(&err);
}

static void the_experiment_names_every_key(void **state)
{
	(void)state;
	char *text = experiment_text("binder-kcalloc");
	expect_every_key(&experiment_keys, text);
	free(text);
}

static void the_experiment_parses_as_my_variant_against_stock(void **state)
{
	(void)state;
	struct experiment e;
	char *text = experiment_text("binder-kcalloc");
	parse_experiment(&e, text);
	assert_int_equal(e.variants.n, 2);
	assert_string_equal(e.variants.items[0], "stock");
	assert_string_equal(e.variants.items[1], "binder-kcalloc");
	assert_string_equal(e.baseline, "stock");
	assert_string_equal(e.profile, TEMPLATE_PROFILE);
	assert_int_equal(e.workloads.n, 1);
	assert_string_equal(e.workloads.items[0], TEMPLATE_WORKLOAD);
	experiment_clear(&e);
	free(text);
	/* without a variant: the placeholder, which the file tells to replace */
	text = experiment_text(NULL);
	parse_experiment(&e, text);
	assert_string_equal(e.variants.items[1], TEMPLATE_VARIANT);
	assert_non_null(strstr(text, "Replace " TEMPLATE_VARIANT));
	experiment_clear(&e);
	free(text);
}

/* The profile exists, and the workload line passes the check lab run makes
 * before it boots, in a guest of that profile with every workload. */
static void the_experiment_runs_here(void **state)
{
	(void)state;
	struct experiment e;
	struct profile p;
	struct guest_view g = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *text = experiment_text("binder-kcalloc");
	setenv("OOMLAB_ROOT", ".", 1);
	parse_experiment(&e, text);
	if (profile_load(&p, e.profile, &err) < 0)
		fail_msg("%s", err.buf);
	for (const struct workload *w = workload_table; w->name; w++) {
		strlist_push(&g.workloads, w->name);
		strlist_push_owned(&g.programs, xasprintf("/usr/bin/%s", w->name));
	}
	strlist_push(&g.programs, "/bin/sh");
	g.check_binary = xstrdup("build/guest/oomlab-workload");
	g.memory = p.memory;
	g.numa_nodes = p.numa_nodes ? p.numa_nodes : 1;
	g.slow_disk = p.slow_disk_size > 0;
	if (experiment_check_commands(&e, &g, &err) < 0)
		fail_msg("the template's workload is refused: %s", err.buf);
	guest_view_clear(&g);
	profile_clear(&p);
	experiment_clear(&e);
	strbuf_release(&err);
	free(text);
}

/* What a key needs beside it, as the parser's whole-file checks have it
 * (the experiment's keys of that kind have no default written): a killer's
 * own keys, killer = that kind (common/proto/killer-kinds.h). */
static const char *needs(const char *key)
{
	static char line[64];
	for (int k = 0; k < KILLER_KIND_COUNT; k++)
		if (killer_kinds[k].key_prefix &&
		    !strncmp(key, killer_kinds[k].key_prefix, strlen(killer_kinds[k].key_prefix))) {
			snprintf(line, sizeof(line), "killer = %s\n", killer_kinds[k].name);
			return line;
		}
	return "";
}

/* TEXT with the line "#KEY = VALUE" at AT uncommented, and what it needs. */
static char *uncommented(const char *text, const char *at)
{
	struct strbuf sb = STRBUF_INIT;
	char *key = xstrndup(at + 1, strcspn(at + 1, " "));
	strbuf_add(&sb, text, (size_t)(at - text));
	strbuf_addstr(&sb, at + 1);
	strbuf_addf(&sb, "\n%s", needs(key));
	free(key);
	return strbuf_detach(&sb);
}

/* Each "#KEY = DEFAULT" line of TEXT, uncommented alone, still parses
 * (PARSE); how many there were. */
static size_t each_default_parses(const char *text, bool (*parse)(const char *text, struct strbuf *err))
{
	size_t tried = 0;
	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eq = strstr(p, " = ");
		if (p[0] != '#' || p[1] == ' ' || !eq || eq > strchr(p, '\n'))
			continue;   /* a comment of words, or a key without a default written */
		char *with = uncommented(text, p);
		struct strbuf err = STRBUF_INIT;
		if (!parse(with, &err))
			fail_msg("uncommented, '%.*s' does not parse: %s", (int)(strchr(p, '\n') - p - 1),
				 p + 1, err.buf);
		strbuf_release(&err);
		free(with);
		tried++;
	}
	return tried;
}

static bool experiment_parses(const char *text, struct strbuf *err)
{
	struct experiment e;
	bool ok = experiment_parse(&e, "my-check", "my-check.conf", text, err) == 0;
	if (ok)
		experiment_clear(&e);
	return ok;
}

static bool profile_parses(const char *text, struct strbuf *err)
{
	struct profile p;
	bool ok = profile_parse(&p, "small", "small.conf", text, err) == 0;
	if (ok)
		profile_clear(&p);
	return ok;
}

static void its_defaults_parse_uncommented(void **state)
{
	(void)state;
	char *text = experiment_text("binder-kcalloc");
	/* aa, debug, trials, until_decided, trial_timeout, prepare, target_order,
	 * perf_events, arch, page_size */
	assert_true(each_default_parses(text, experiment_parses) >= 10);
	free(text);
}

static void the_profile_names_every_key_and_parses(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	if (profile_template(&sb, "small", &err) < 0)
		fail_msg("%s", err.buf);
	expect_every_key(&profile_keys, sb.buf);
	struct profile p;
	if (profile_parse(&p, "small", "small.conf", sb.buf, &err) < 0)
		fail_msg("the profile template does not parse: %s", err.buf);
	assert_int_equal(p.memory, 512ull << 20);
	profile_clear(&p);
	/* cpus, zram_size, zram_algorithm, slow_disk_*, cgroup.memory.*, killer, clock, ... */
	assert_true(each_default_parses(sb.buf, profile_parses) >= 10);
	strbuf_release(&sb);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_experiment_names_every_key),
		cmocka_unit_test(the_experiment_parses_as_my_variant_against_stock),
		cmocka_unit_test(the_experiment_runs_here),
		cmocka_unit_test(its_defaults_parse_uncommented),
		cmocka_unit_test(the_profile_names_every_key_and_parses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
