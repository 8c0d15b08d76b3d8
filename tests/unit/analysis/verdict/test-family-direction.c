/* test-family-direction.c - a program's metric takes the direction its
 * metric lines declared (trial.json metrics[].better, read by
 * analysis/run/run-data.c, used by analysis/verdict/compare_family.c):
 * its rows can be better or worse only with one, only when every trial
 * declared the same one, and a catalogue metric keeps the catalogue's.
 *
 * Each run: groups stock and new, six ok trials each. The program's metric
 * repro.pages is 100, 101, ... 105 in stock and 200, 201, ... 205 in new,
 * so every new trial is above every stock one: the permutation test's p is
 * its smallest at 6 against 6, 2/924 = 0.0022 (one row in the family:
 * Holm changes nothing), well under 0.05. Seeded and of fixed input, the
 * test cannot fail by chance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/verdict/compare_family.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-family-direction.XXXXXX";

SCRATCH_ROOT_FIXTURES(root)

#define TRIALS 6

/* The run NAME under ROOT with headline metric METRIC, whose value is
 * 100 + i in stock's trial i and 200 + i in new's; its trial.json entry
 * carries WORD(g, i) as "better" (NULL: no key). */
static char *run_folder(const char *name, const char *metric, const char *(*word)(int g, int i))
{
	char *dir = xasprintf("%s/%s", root, name);
	char *meta = xasprintf("{\"run_id\": \"r\", \"experiment\": \"e\", \"profile\": \"p\","
			       " \"baseline\": \"stock\", \"metrics\": [\"%s\"],"
			       " \"groups\": [{\"label\": \"stock\", \"variant\": \"stock\"},"
			       " {\"label\": \"new\", \"variant\": \"new\"}]}\n", metric);

	scratch_put(dir, "run.json", meta);
	free(meta);
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < TRIALS; i++) {
			const char *w = word(g, i);
			char *better = w ? xasprintf(", \"better\": \"%s\"", w) : xstrdup("");
			char *text = xasprintf(
				"{\"environment\": {\"variant\": \"v\"}, \"outcome\": {\"outcome\": \"ok\"},"
				" \"metrics\": [{\"name\": \"%s\", \"value\": %d, \"unit\": \"count\","
				" \"source\": \"out.log\"%s}]}\n",
				metric, (g ? 200 : 100) + i, better);
			char *path = xasprintf("%s/%03d/trial.json", g ? "new" : "stock", i);
			scratch_put(dir, path, text);
			free(path);
			free(text);
			free(better);
		}
	return dir;
}

static const char *higher(int g, int i) { (void)g, (void)i; return "higher"; }
static const char *lower(int g, int i) { (void)g, (void)i; return "lower"; }
static const char *none(int g, int i) { (void)g, (void)i; return NULL; }
/* stock's lines say higher, new's lower */
static const char *split(int g, int i) { (void)i; return g ? "lower" : "higher"; }
/* one trial of new says nothing */
static const char *one_silent(int g, int i) { return g && i == 3 ? NULL : "higher"; }
/* a word trial.json should not hold (an edited file): as good as none */
static const char *odd(int g, int i) { return g && i == 0 ? "bigger" : "lower"; }

/* The family of the run, its one row's verdict and direction, and whether
 * the table has a note that names METRIC and "disagree". */
static void judge(const char *run, const char *metric, enum compare_verdict *verdict,
		  enum metric_better *better, bool *noted)
{
	struct compare_family_spec spec = { .seed = 1 };
	struct run_data rd = { 0 };
	struct compare_family family;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(run_data_add(&rd, run, &err), 0);
	if (compare_family_build(&rd, &spec, &family, &err) != 0)
		fail_msg("%s: %s", run, err.buf);
	assert_int_equal(family.table.n_rows, 1);
	const struct compare_row *row = &family.table.rows[0];
	assert_string_equal(family.table.metrics[row->metric].name, metric);
	assert_true(row->p < 0.01);	/* 2/924: the difference is found */
	*verdict = row->verdict;
	*better = family.table.metrics[row->metric].better;
	*noted = false;
	for (size_t i = 0; i < family.table.n_context_notes; i++)
		if (strstr(family.table.context_notes[i], metric) &&
		    strstr(family.table.context_notes[i], "disagree"))
			*noted = true;
	/* the text table prints the note whole, once */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(compare_format_text(out, &family.table, false), 0);
	fclose(out);
	const char *said = strstr(text, "disagree");
	if (*noted && (!said || !strstr(said, "never better or worse\n") || strstr(said + 1, "disagree")))
		fail_msg("%s: the text table has not the note whole, once:\n%s", run, text);
	if (!*noted && said)
		fail_msg("%s: a note of no disagreement:\n%s", run, text);
	free(text);
	compare_family_free(&family);
	run_data_free(&rd);
	strbuf_release(&err);
}

static void check(const char *name, const char *metric, const char *(*word)(int, int),
		  enum compare_verdict want, enum metric_better want_better, bool want_note)
{
	char *run = run_folder(name, metric, word);
	enum compare_verdict verdict;
	enum metric_better better;
	bool noted;

	judge(run, metric, &verdict, &better, &noted);
	if (verdict != want || better != want_better || noted != want_note)
		fail_msg("%s: %s, %s, note %d; wanted %s, %s, note %d", name, compare_verdict_word(verdict),
			 metric_better_word(better), noted, compare_verdict_word(want),
			 metric_better_word(want_better), want_note);
	free(run);
}

/* new's values are higher: better when higher is, worse when lower is,
 * differs when nothing says */
static void declared_direction_decides(void **state)
{
	(void)state;
	check("higher", "repro.pages", higher, VERDICT_BETTER, BETTER_HIGHER, false);
	check("lower", "repro.pages", lower, VERDICT_WORSE, BETTER_LOWER, false);
	check("none", "repro.pages", none, VERDICT_DIFFERS, BETTER_NEITHER, false);
}

/* trials that disagree: no guess, differs, and one note says why */
static void disagreement_is_no_direction(void **state)
{
	(void)state;
	check("split", "repro.pages", split, VERDICT_DIFFERS, BETTER_NEITHER, true);
	check("one-silent", "repro.pages", one_silent, VERDICT_DIFFERS, BETTER_NEITHER, true);
	check("odd", "repro.pages", odd, VERDICT_DIFFERS, BETTER_NEITHER, true);
}

/* A catalogue metric (*.memory_peak_bytes: lower is better) keeps the
 * catalogue's direction whatever its lines say: new's larger peak is worse. */
static void catalogue_keeps_its_direction(void **state)
{
	(void)state;
	check("catalogue", "repro.memory_peak_bytes", higher, VERDICT_WORSE, BETTER_LOWER, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(declared_direction_decides),
		cmocka_unit_test(disagreement_is_no_direction),
		cmocka_unit_test(catalogue_keeps_its_direction),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
