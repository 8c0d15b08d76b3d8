/* The experiment lab run's options ask for (run-asked.h). */
#include "run-asked.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment-compose.h"

static bool any_asked(const struct run_asked *a)
{
	return a->variant_args.n || a->baseline || a->workloads.n || a->files.n;
}

static char *cwd_or_root(void)
{
	char cwd[PATH_MAX];
	return xstrdup(getcwd(cwd, sizeof(cwd)) ? cwd : "/");
}

int run_asked_experiment(struct experiment *e, const char *experiment, const struct run_asked *asked,
			 const char *profile, struct given_variants *given, struct strbuf *err)
{
	memset(given, 0, sizeof(*given));
	if (!any_asked(asked))
		return experiment_load(e, experiment ? experiment : DEFAULT_EXPERIMENT, err);
	struct experiment from;
	memset(&from, 0, sizeof(from));
	if (experiment && experiment_load(&from, experiment, err) < 0)
		return -1;
	if (!experiment && !asked->variant_args.n) {
		strbuf_addstr(err, "run: without -x, --variant NAME=SPEC says what is compared (with "
			      "the baseline, stock unless --baseline)");
		return -1;
	}
	if (!experiment && !asked->workloads.n) {
		strbuf_addstr(err, "run: without -x, -w LINE says what each trial runs (a workload, or "
			      "a program of --files)");
		return -1;
	}
	const char *baseline = asked->baseline ? asked->baseline
				: experiment ? from.baseline : DEFAULT_BASELINE;
	int rc = -1;
	char *text = NULL, *path = NULL, *base = NULL;
	struct experiment_asked a = { .variants = STRLIST_INIT, .baseline = baseline,
				      .workloads = asked->workloads, .files = STRLIST_INIT };
	if (given_variants_stage(given, &asked->variant_args, baseline, err) < 0)
		goto out;
	if (asked->variant_args.n) {
		bool baseline_given = false;
		for (size_t i = 0; i < given->n; i++)
			baseline_given |= !strcmp(given->items[i].name, baseline);
		if (!baseline_given)
			strlist_push(&a.variants, baseline);
		for (size_t i = 0; i < given->n; i++)
			strlist_push(&a.variants, given->items[i].name);
	}
	char *cwd = cwd_or_root();
	for (size_t i = 0; i < asked->files.n; i++) {
		const char *f = asked->files.items[i];
		strlist_push_owned(&a.files, f[0] == '/' ? xstrdup(f) : xasprintf("%s/%s", cwd, f));
	}
	if (experiment) {
		text = experiment_text_asked(from.text, &a);
		path = xasprintf("%s (with lab run's options)", from.path);
		base = from.files_base ? xstrdup(from.files_base) : cwd_or_root();
	} else {
		text = experiment_text_given(&a, profile ? profile : GIVEN_PROFILE);
		path = xstrdup("lab run's options");
		base = xstrdup(cwd);
	}
	free(cwd);
	rc = experiment_parse_at(e, experiment ? from.name : GIVEN_EXPERIMENT, path, base, text, err);
out:
	free(text);
	free(path);
	free(base);
	strlist_clear(&a.variants);
	strlist_clear(&a.files);
	experiment_clear(&from);
	return rc;
}
