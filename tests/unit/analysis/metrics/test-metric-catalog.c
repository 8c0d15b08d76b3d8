/* test-metric-catalog.c - every metric the lab's makers can emit has a row
 * in the catalogue (analysis/metrics/metric_catalog.c) that says what it is
 * and where it comes from.
 *
 * The makers are read as source, as test-workload-metrics reads the
 * workloads': every name a maker call in trial_metrics.c or
 * killer_metrics.c passes as a string literal must find its row, with a
 * meaning and a source; a name made from a format ("%s_stall_count") must
 * meet at least one row (glob_intersects) that has both. The names such a
 * format makes at run time are held to their rows over the real sample
 * trials by test-trial-metrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "common/util.h"
#include "lab/util/glob.h"

static const char *const maker_files[] = { "analysis/metrics/trial_metrics.c",
					   "analysis/metrics/killer_metrics.c", NULL };

/* What the makers' calls pass. */
struct made {
	struct strlist names;	/* literal names */
	struct strlist globs;	/* names made at run time, each conversion a '*' */
	struct strlist computed;	/* calls whose name is neither, their first 40 bytes */
};

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The string literal at P (at its '"'), malloc'd; *END after it. */
static char *literal_at(const char *p, const char **end)
{
	struct strbuf sb = STRBUF_INIT;
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		strbuf_add(&sb, p, 1);
	}
	*end = *p ? p + 1 : p;
	return strbuf_detach(&sb);
}

/* FMT with each printf conversion ("%s", "%lld") as a '*'. */
static char *format_glob(const char *fmt)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			strbuf_add(&sb, p, 1);
			continue;
		}
		p += strspn(p + 1, "-+ #0123456789.lhjzt") + 1;
		strbuf_addstr(&sb, "*");
	}
	return strbuf_detach(&sb);
}

/* The call's second argument, if it is a string literal (ARGS: after the '('). */
static char *second_literal(const char *args, const char *stop)
{
	const char *comma = memchr(args, ',', (size_t)(stop - args));
	if (!comma)
		return NULL;
	const char *arg = comma + 1 + strspn(comma + 1, " \t\n");
	const char *end;
	return *arg == '"' ? literal_at(arg, &end) : NULL;
}

/* The first literal with a '%' between ARGS and STOP, or NULL. */
static char *format_literal(const char *args, const char *stop)
{
	for (const char *p = args; p < stop; p++) {
		if (*p != '"')
			continue;
		const char *end;
		char *lit = literal_at(p, &end);
		if (strchr(lit, '%'))
			return lit;
		free(lit);
		p = end - 1;
	}
	return NULL;
}

/*
 * The maker calls of SOURCE: ADD(set, "name", ...) and metric_set_add(set,
 * "name", ...) pass a name; addf_metric(set, value, unit, source, "fmt", ...)
 * a format; killer_metrics.c's add_by_tier(set, "metric", ...) makes
 * "metric.tier=T", its add_by_reason(set, "metric", ...) "metric.reason=R",
 * its add_by_kind(set, "_suffix", kind, ...) "PREFIX_suffix" for a killer's
 * metric prefix (common/proto/killer-kinds.h). Definitions and prototypes (no literal) count as computed.
 */
static void scan_makers(const char *source, struct made *m)
{
	static const char *const calls[] = { "ADD(", "metric_set_add(", "addf_metric(", "add_by_tier(",
					     "add_by_reason(", "add_by_kind(", NULL };
	for (const char *const *call = calls; *call; call++) {
		for (const char *p = strstr(source, *call); p; p = strstr(p + 1, *call)) {
			if (p > source && ident_char(p[-1]))
				continue;
			if (p - source >= 8 && !strncmp(p - 8, "#define ", 8))
				continue;
			const char *args = p + strlen(*call);
			const char *stop = strchr(args, ';');
			if (!stop)
				stop = args + strlen(args);
			char *name = NULL;
			if (!strcmp(*call, "addf_metric(")) {
				if ((name = format_literal(args, stop))) {
					strlist_push_owned(&m->globs, format_glob(name));
					free(name);
					continue;
				}
			} else if ((name = second_literal(args, stop))) {
				if (!strcmp(*call, "add_by_tier("))
					strlist_push_owned(&m->globs, xasprintf("%s.tier=*", name));
				else if (!strcmp(*call, "add_by_reason("))
					strlist_push_owned(&m->globs, xasprintf("%s.reason=*", name));
				else if (!strcmp(*call, "add_by_kind("))
					strlist_push_owned(&m->globs, xasprintf("*%s", name));
				else if (!strlist_has(&m->names, name))
					strlist_push(&m->names, name);
				free(name);
				continue;
			}
			strlist_push_owned(&m->computed, xstrndup(p, strcspn(p, "\n") < 40 ? strcspn(p, "\n") : 40));
		}
	}
}

static void made_clear(struct made *m)
{
	strlist_clear(&m->names);
	strlist_clear(&m->globs);
	strlist_clear(&m->computed);
}

static bool described(const struct metric_def *d)
{
	return d && d->meaning && *d->meaning && d->source && *d->source;
}

static void every_made_name_has_a_described_row(void **state)
{
	(void)state;
	struct made m = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT };
	for (const char *const *file = maker_files; *file; file++) {
		char *source = read_file(*file, NULL);
		if (!source)
			fail_msg("%s: cannot read it (the tests run from the checkout)", *file);
		scan_makers(source, &m);
		free(source);
	}
	int bad = 0;
	for (size_t i = 0; i < m.names.n; i++) {
		const struct metric_def *d = metric_catalog_find(m.names.items[i]);
		if (!described(d)) {
			print_error("%s: %s in metric_catalog.c\n", m.names.items[i],
				    d ? "its row lacks a meaning or a source" : "no row");
			bad++;
		}
	}
	size_t n_rows;
	const struct metric_def *rows = metric_catalog_rows(&n_rows);
	for (size_t i = 0; i < m.globs.n; i++) {
		bool met = false;
		for (size_t r = 0; r < n_rows && !met; r++)
			met = described(&rows[r]) && glob_intersects(rows[r].name, 0, m.globs.items[i]);
		if (!met) {
			print_error("%s: no row of metric_catalog.c with a meaning and a source meets it\n",
				    m.globs.items[i]);
			bad++;
		}
	}
	/* about 50 literal names and 20 formats today: a scan that found few is broken */
	assert_true(m.names.n > 45);
	assert_true(m.globs.n > 15);
	/* Computed names: ADD's body, addf_metric's prototype, definition and
	 * body, add_by_tier's, add_by_reason's and add_by_kind's definitions and
	 * bodies.
	 * Another call with one would escape this check: give it a literal or a
	 * format. */
	if (m.computed.n != 10) {
		for (size_t i = 0; i < m.computed.n; i++)
			print_error("computed name: %s\n", m.computed.items[i]);
		fail_msg("%zu calls pass a computed name, not the 10 known", m.computed.n);
	}
	assert_int_equal(bad, 0);
	made_clear(&m);
}

/* The scan finds what it should. */
static void the_scan_sees_every_maker(void **state)
{
	(void)state;
	struct made m = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT };
	scan_makers("#define ADD(set, name, value) metric_set_add((set), (name), (value))\n"
		    "ADD(m, \"a_count\", 1, \"count\", \"trace\");\n"
		    "metric_set_add(m, \"b_\\\"q\", x, \"ms\", \"kmsg\");\n"
		    "addf_metric(m, v, \"count\", \"trace\", \"%s_stall_%lld\", k, o);\n"
		    "add_by_tier(m, \"kills\", counts, \"kmsg\");\n"
		    "add_by_reason(m, \"kills\", counts, \"kmsg\");\n"
		    "metric_set_add(m, name, v, \"count\", source);\n"
		    "MY_ADD(m, \"not_this\");\n",
		    &m);
	assert_int_equal(m.names.n, 2);
	assert_string_equal(m.names.items[0], "a_count");
	assert_string_equal(m.names.items[1], "b_\"q");
	assert_int_equal(m.globs.n, 3);
	assert_string_equal(m.globs.items[0], "*_stall_*");
	assert_string_equal(m.globs.items[1], "kills.tier=*");
	assert_string_equal(m.globs.items[2], "kills.reason=*");
	/* the macro's body and the computed name */
	assert_int_equal(m.computed.n, 2);
	made_clear(&m);
}

/* Every row of both tables says what it is and where it comes from. */
static void every_row_is_described(void **state)
{
	(void)state;
	size_t n;
	const struct metric_def *rows = metric_catalog_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!described(&rows[i]))
			fail_msg("metric_catalog.c: %s has no meaning or no source", rows[i].name);
	rows = metric_known_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!described(&rows[i]))
			fail_msg("compare/metric.c: %s has no meaning or no source", rows[i].name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_scan_sees_every_maker),
		cmocka_unit_test(every_made_name_has_a_described_row),
		cmocka_unit_test(every_row_is_described),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
