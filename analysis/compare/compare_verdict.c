/* compare_verdict.c - the table of the verdicts (compare_verdict.h). */
#include "compare_verdict.h"

#include "common/util.h"

/* One row per verdict, at its value's index; the words are stable: JSON,
 * CSV and the report's data-verdict carry them to scripts. */
static const struct compare_verdict_info verdicts[VERDICT_COUNT] = {
	[VERDICT_BETTER] = {
		.verdict = VERDICT_BETTER, .word = "better",
		.significant = true, .decided = true,
		.sgr = "32" /* green */,
		.css_class = "better", .css = "background:#d9f2d9",
	},
	[VERDICT_WORSE] = {
		.verdict = VERDICT_WORSE, .word = "worse",
		.significant = true, .decided = true,
		.sgr = "31" /* red */,
		.css_class = "worse", .css = "background:#f8d7d7",
	},
	[VERDICT_DIFFERS] = {
		.verdict = VERDICT_DIFFERS, .word = "differs",
		.significant = true, .decided = true,
		.sgr = "33" /* yellow */,
		.css_class = "differs", .css = "background:#dde8f8",
	},
	[VERDICT_EQUIVALENT] = {
		.verdict = VERDICT_EQUIVALENT, .word = "equivalent",
		.detail = VERDICT_DETAIL_MARGIN,
		.decided = true,
		.sgr = "36" /* cyan */,
		.css_class = "equivalent", .css = "background:#d9eef2",
	},
	/* plain on the terminal and in the report: the common case */
	[VERDICT_NOT_DETECTED] = {
		.verdict = VERDICT_NOT_DETECTED, .word = "not detected",
		.gloss = "with what could have been missed",
		.detail = VERDICT_DETAIL_MDE,
		.css_class = "notdetected",
	},
	[VERDICT_INCONCLUSIVE] = {
		.verdict = VERDICT_INCONCLUSIVE, .word = "inconclusive",
		.detail = VERDICT_DETAIL_WHY,
		.sgr = "2" /* dim */,
		.css_class = "inconclusive", .css = "color:#777",
	},
};

static const struct compare_verdict_info unknown = {
	.verdict = VERDICT_COUNT, .word = "?", .css_class = "unknown",
};

const struct compare_verdict_info *compare_verdict_info(enum compare_verdict verdict)
{
	if ((unsigned)verdict >= VERDICT_COUNT)
		return &unknown;
	return &verdicts[verdict];
}

const char *compare_verdict_word(enum compare_verdict verdict)
{
	return compare_verdict_info(verdict)->word;
}

bool compare_verdict_decided(enum compare_verdict verdict)
{
	return compare_verdict_info(verdict)->decided;
}

static bool in_set(const struct compare_verdict_info *v, enum compare_verdict_set set)
{
	switch (set) {
	case VERDICTS_ALL:         return true;
	case VERDICTS_DECIDED:     return v->decided;
	case VERDICTS_SIGNIFICANT: return v->significant;
	}
	return false;
}

void compare_verdict_list(struct strbuf *sb, enum compare_verdict_set set, bool glosses)
{
	size_t n = 0, total = 0;

	for (int i = 0; i < VERDICT_COUNT; i++)
		total += in_set(&verdicts[i], set);
	for (int i = 0; i < VERDICT_COUNT; i++) {
		const struct compare_verdict_info *v = &verdicts[i];

		if (!in_set(v, set))
			continue;
		if (n++)
			strbuf_addstr(sb, n == total ? " or " : ", ");
		strbuf_addstr(sb, v->word);
		if (glosses && v->gloss)
			strbuf_addf(sb, " (%s)", v->gloss);
	}
}
