/* Experiments the lab writes itself (experiment-compose.h). */
#include "experiment-compose.h"

#include <string.h>

#include "metric-check.h"

static bool sets_key(const char *line, const char *const *keys)
{
	while (*line == ' ' || *line == '\t')
		line++;
	for (const char *const *k = keys; *k; k++) {
		size_t n = strlen(*k);
		if (!strncmp(line, *k, n) && line[n] && strchr(" \t=", line[n]))
			return true;
	}
	return false;
}

char *experiment_text_without(const char *text, const char *const *keys)
{
	struct strbuf out = STRBUF_INIT;
	char *copy = xstrdup(text);
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!next && !*line)
			break;
		if (!sets_key(line, keys))
			strbuf_addf(&out, "%s\n", line);
	}
	free(copy);
	return strbuf_detach(&out);
}

static void add_asked(struct strbuf *out, const struct experiment_asked *asked)
{
	if (asked->variants.n) {
		strbuf_addstr(out, "variants =");
		for (size_t i = 0; i < asked->variants.n; i++)
			strbuf_addf(out, " %s", asked->variants.items[i]);
		strbuf_addstr(out, "\n");
	}
	if (asked->baseline)
		strbuf_addf(out, "baseline = %s\n", asked->baseline);
	for (size_t i = 0; i < asked->workloads.n; i++)
		strbuf_addf(out, "workload = %s\n", asked->workloads.items[i]);
	for (size_t i = 0; i < asked->files.n; i++)
		strbuf_addf(out, "files = %s\n", asked->files.items[i]);
}

char *experiment_text_asked(const char *text, const struct experiment_asked *asked)
{
	const char *keys[4] = { NULL };
	size_t n = 0;
	if (asked->variants.n)
		keys[n++] = "variants";
	if (asked->baseline || asked->variants.n)
		keys[n++] = "baseline";
	if (asked->workloads.n)
		keys[n++] = "workload";
	char *kept = experiment_text_without(text, keys);
	struct strbuf out = STRBUF_INIT;
	strbuf_addf(&out, "%s# lab run's options\n", kept);
	free(kept);
	add_asked(&out, asked);
	return strbuf_detach(&out);
}

char *experiment_text_given(const struct experiment_asked *asked, const char *profile)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "# written by lab run from its options (--variant, -w)\ndescription =");
	for (size_t i = 0; i < asked->variants.n; i++)
		if (!asked->baseline || strcmp(asked->variants.items[i], asked->baseline))
			strbuf_addf(&out, " %s", asked->variants.items[i]);
	strbuf_addf(&out, " against %s:", asked->baseline ? asked->baseline : asked->variants.items[0]);
	for (size_t i = 0; i < asked->workloads.n; i++)
		strbuf_addf(&out, "%s %s", i ? ";" : "", asked->workloads.items[i]);
	strbuf_addf(&out, "\nprofile = %s\nuntil_decided = yes\nmax_trials = %d\n", profile,
		    GIVEN_MAX_TRIALS);
	/* the headline: the trial's OOM kills and whatever each line reports */
	strbuf_addstr(&out, "metrics = trial_ok oom_kills");
	struct strlist prefixes = STRLIST_INIT;
	bool opaque = false;
	for (size_t i = 0; i < asked->workloads.n; i++) {
		char *w = workload_line_metric_prefix(asked->workloads.items[i]);
		if (!w && !opaque) {
			/* a line the host cannot split: every line's own metrics */
			strbuf_addstr(&out, " *.exit_status *.oom_kills *.memory_peak_bytes *.wall_seconds");
			opaque = true;
		} else if (w && !strlist_has(&prefixes, w)) {
			strbuf_addf(&out, " %s.*", w);
			strlist_push(&prefixes, w);
		}
		free(w);
	}
	strlist_clear(&prefixes);
	strbuf_addstr(&out, "\n");
	add_asked(&out, asked);
	return strbuf_detach(&out);
}
