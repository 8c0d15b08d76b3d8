/* lab report: one self-contained HTML file with the comparison and figures of a run. */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/verdict/compare_family.h"
#include "analysis/report/report_complaints.h"
#include "analysis/report/report_figures.h"
#include "analysis/report/report_html.h"
#include "builtin.h"
#include "lab/util/version.h"
#include "lab/run/metric-check.h"
#include "lab/cli/options.h"
#include "lab/machine/qemu.h"
#include "analysis/run/run-data.h"

static const char report_usage[] =
	"usage: lab report RUN [RUN...] [-o FILE.html] [options]\n"
	"\n"
	"Writes one self-contained HTML file (no network needed to open it) about\n"
	"the named runs (run ids under results/, or run folders): the comparison\n"
	"table of lab compare, figures drawn by gnuplot as inline SVG (OOM kills per\n"
	"variant, stall latency CDFs, the OOM reaper timeline, sendVec time per\n"
	"payload size, binder throughput and latency percentiles, buddyinfo before\n"
	"the workload, available memory over the trial), the trials and the\n"
	"environment. A figure this run has no data for is left out with a one-line\n"
	"note. Prints on stdout which figures were drawn.\n"
	"\n";

static const char report_tail[] =
	"Exit status 0 whatever the verdicts, 2 on bad input, 1 when the file cannot\n"
	"be written. Colour only on a terminal, never with NO_COLOR.\n";

static const char *trial_env(const struct run_trial *t, const char *key)
{
	return json_string_value(json_object_get(json_object_get(t->trial, "environment"), key));
}

/* "key" or "profile.key" values of an environment, as text. */
static char *value_text(json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	return s ? s : xstrdup("");
}

static void flatten(json_t *obj, const char *prefix, struct strlist *keys, struct strlist *vals)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		char *key = prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
		if (json_is_object(v)) {
			flatten(v, key, keys, vals);
			free(key);
		} else {
			strlist_push_owned(keys, key);
			strlist_push_owned(vals, value_text(v));
		}
	}
}

static const struct run_trial *first_trial(const struct run_data *rd)
{
	for (size_t i = 0; i < rd->n; i++)
		if (rd->trials[i].trial && !strcmp(rd->trials[i].outcome, "ok"))
			return &rd->trials[i];
	for (size_t i = 0; i < rd->n; i++)
		if (rd->trials[i].trial)
			return &rd->trials[i];
	return NULL;
}

static void write_summary(FILE *out, const struct run_data *rd, size_t filled)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "Run");
	if (rd->dirs.n > 1)
		strbuf_addstr(&sb, "s");
	size_t r;
	json_t *run;
	json_array_foreach(rd->runs, r, run) {
		const char *id = json_string_value(json_object_get(run, "run_id"));
		strbuf_addf(&sb, "%s %s", r ? "," : "", id ? id : rd->dirs.items[r]);
	}
	json_t *first = json_array_get(rd->runs, 0);
	json_int_t created = json_integer_value(json_object_get(first, "created_unix"));
	if (created) {
		time_t tt = (time_t)created;
		char when[64];
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&tt));
		strbuf_addf(&sb, " (started %s)", when);
	}
	strbuf_addf(&sb, ": %zu trial%s of %zu group%s (", rd->n, rd->n == 1 ? "" : "s", rd->labels.n,
		    rd->labels.n == 1 ? "" : "s");
	for (size_t g = 0; g < rd->labels.n; g++) {
		size_t n = 0, ok = 0;
		for (size_t i = 0; i < rd->n; i++)
			if (!strcmp(rd->trials[i].label, rd->labels.items[g])) {
				n++;
				ok += !strcmp(rd->trials[i].outcome, "ok");
			}
		strbuf_addf(&sb, "%s%s: %zu, %zu ok", g ? "; " : "", rd->labels.items[g], n, ok);
	}
	strbuf_addf(&sb, "), baseline %s, profile %s.", rd->baseline ? rd->baseline : "?",
		    rd->profile ? rd->profile : "?");
	const char *desc = NULL;
	const char *text = json_string_value(json_object_get(first, "experiment_text"));
	if (text && (desc = strstr(text, "description"))) {
		const char *eq = strchr(desc, '=');
		const char *nl = eq ? strchr(eq, '\n') : NULL;
		if (eq) {
			char *d = nl ? xstrndup(eq + 1, (size_t)(nl - eq - 1)) : xstrdup(eq + 1);
			strbuf_addf(&sb, " Experiment: %s.", trim(d));
			free(d);
		}
	}
	html_para(out, NULL, sb.buf);
	strbuf_release(&sb);

	/* The timing claim: what the numbers of an emulated phone mean. */
	size_t tcg = 0, kvm = 0;
	for (size_t i = 0; i < rd->n; i++) {
		const char *a = trial_env(&rd->trials[i], "accelerator");
		if (a && !strcmp(a, qemu_accel_name(QEMU_ACCEL_TCG)))
			tcg++;
		else if (a)
			kvm++;
	}
	size_t icount = 0;
	for (size_t i = 0; i < rd->n; i++)
		icount += rd->trials[i].clock && !strcmp(rd->trials[i].clock, "icount");
	if (icount)
		html_para(out, "warn",
			  "Timing: guest time counts instructions (trial.json environment.clock = "
			  "icount): QEMU runs the guest on one host thread and every instruction is "
			  "1 ns of guest time, whatever the host's load; an idle guest skips to its "
			  "next timer. Absolute times are not phone times. The lab claims ratios "
			  "between variants measured in one run, not absolute figures.");
	else if (tcg)
		html_para(out, "warn",
			  "Timing: these trials ran under TCG emulation (trial.json "
			  "environment.accelerator = tcg). Absolute times are not phone times: QEMU "
			  "emulates every instruction. The lab claims ratios between variants measured "
			  "in one run, not absolute figures.");
	if (kvm)
		html_para(out, "warn",
			  "Timing: trials under KVM ran at this host's speed, not a phone's. The lab "
			  "claims ratios between variants measured in one run, not absolute figures.");
	if (filled) {
		char *msg = xasprintf("%zu trial%s had no metrics in trial.json (written before the lab "
				      "computed them): their metrics were computed from the trial "
				      "folders for this report.",
				      filled, filled == 1 ? "" : "s");
		html_para(out, "note", msg);
		free(msg);
	}
}

static void write_trials(FILE *out, const struct run_data *rd)
{
	static const char *const head[] = { "group", "trial", "outcome", "wall s", "metrics",
					    "accelerator", "clock", "detail" };
	const size_t cols = sizeof(head) / sizeof(head[0]);
	char **cells = xcalloc(rd->n * cols + 1, sizeof(*cells));
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		json_t *o = json_object_get(t->trial, "outcome");
		char **row = &cells[i * cols];
		row[0] = xstrdup(t->label);
		row[1] = xasprintf("%03u", t->index);
		row[2] = xstrdup(t->outcome);
		json_t *wall = json_object_get(o, "wall_seconds_total");
		row[3] = json_is_number(wall) ? xasprintf("%.1f", json_number_value(wall)) : xstrdup("");
		row[4] = xasprintf("%zu%s", json_array_size(json_object_get(t->trial, "metrics")),
				   json_is_true(json_object_get(t->trial, "metrics_derived"))
					   ? " (computed)" : "");
		const char *a = trial_env(t, "accelerator");
		row[5] = xstrdup(a ? a : "");
		row[6] = xstrdup(t->clock ? t->clock : "");
		const char *d = json_string_value(json_object_get(o, "detail"));
		const char *nl = d ? strchr(d, '\n') : NULL;
		row[7] = d ? (nl ? xstrndup(d, (size_t)(nl - d)) : xstrdup(d)) : xstrdup("");
	}
	html_table(out, "trials", head, cols, (const char *const *)cells, rd->n);
	for (size_t i = 0; i < rd->n * cols; i++)
		free(cells[i]);
	free(cells);
}

static void write_environment(FILE *out, const struct run_data *rd)
{
	const struct run_trial *t = first_trial(rd);
	json_t *run = json_array_get(rd->runs, 0);
	struct strlist keys = STRLIST_INIT, vals = STRLIST_INIT;
	static const char *const run_keys[] = { "run_id", "lab_version", "experiment", "experiment_file",
						"profile", "baseline", "trials_per_group", "seed",
						"created_unix" };
	for (size_t k = 0; k < sizeof(run_keys) / sizeof(run_keys[0]); k++) {
		json_t *v = json_object_get(run, run_keys[k]);
		if (!v)
			continue;
		strlist_push_owned(&keys, xasprintf("run.%s", run_keys[k]));
		strlist_push_owned(&vals, value_text(v));
	}
	/* the lab that wrote this report, beside the one that ran the run */
	strlist_push(&keys, "report.lab_version");
	strlist_push(&vals, lab_version());
	json_t *shard = json_object_get(run, "shard");
	if (shard) {
		strlist_push(&keys, "run.shard");
		strlist_push_owned(&vals, xasprintf("%lld of %lld",
						    (long long)json_integer_value(json_object_get(shard, "k")),
						    (long long)json_integer_value(json_object_get(shard, "n"))));
	}
	size_t g;
	json_t *grp;
	json_array_foreach(json_object_get(run, "groups"), g, grp) {
		strlist_push_owned(&keys, xasprintf("group %s", json_string_value(json_object_get(grp, "label"))));
		strlist_push_owned(&vals, xasprintf("variant %s, hash %s",
						    json_string_value(json_object_get(grp, "variant")),
						    json_string_value(json_object_get(grp, "hash"))));
	}
	if (t) {
		struct strlist ek = STRLIST_INIT, ev = STRLIST_INIT;
		flatten(json_object_get(t->trial, "environment"), NULL, &ek, &ev);
		for (size_t i = 0; i < ek.n; i++) {
			/* what differs between trials is said once, below */
			if (!strcmp(ek.items[i], "variant") || !strcmp(ek.items[i], "variant_hash"))
				continue;
			strlist_push_owned(&keys, xasprintf("trial.%s", ek.items[i]));
			strlist_push(&vals, ev.items[i]);
		}
		strlist_clear(&ek);
		strlist_clear(&ev);
	}
	html_para(out, "note", t ? "The run (run.json) and the environment of its first ok trial "
				   "(trial.json):"
				 : "The run (run.json); no trial has a trial.json:");
	html_kv_table(out, "kv", (const char *const *)keys.items, (const char *const *)vals.items,
		      keys.n);

	/* Environment values that are not the same in every trial (variant aside). */
	struct strlist diff = STRLIST_INIT;
	static const char *const ignore[] = { "variant", "variant_hash", "started_unix",
					      "host_loadavg_at_start", "command" };
	for (size_t i = 0; t && i < rd->n; i++) {
		if (!rd->trials[i].trial || &rd->trials[i] == t)
			continue;
		json_t *a = json_object_get(t->trial, "environment");
		json_t *b = json_object_get(rd->trials[i].trial, "environment");
		const char *k;
		json_t *v;
		json_object_foreach(b, k, v) {
			bool skip = false;
			for (size_t j = 0; j < sizeof(ignore) / sizeof(ignore[0]); j++)
				skip |= !strcmp(k, ignore[j]);
			if (!skip && !json_equal(v, json_object_get(a, k)) && !strlist_has(&diff, k))
				strlist_push(&diff, k);
		}
	}
	if (diff.n) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "Not the same in every trial: ");
		for (size_t i = 0; i < diff.n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", diff.items[i]);
		strbuf_addstr(&sb, " (see each trial's trial.json).");
		html_para(out, "warn", sb.buf);
		strbuf_release(&sb);
	}
	strlist_clear(&diff);
	strlist_clear(&keys);
	strlist_clear(&vals);

	const char *text = json_string_value(json_object_get(run, "experiment_text"));
	if (text) {
		fputs("<p class=\"note\">The experiment file as loaded:</p>\n<pre>", out);
		html_put(out, text);
		fputs("</pre>\n", out);
	}
}

static void write_report(FILE *out, const struct run_data *rd, const struct compare_family *family,
			 bool have_table, const struct report_figures *figs, size_t filled)
{
	char *title = xasprintf("oomlab report: %s on %s", rd->experiment ? rd->experiment : "run",
				rd->profile ? rd->profile : "?");
	html_begin(out, title);
	free(title);
	write_summary(out, rd, filled);
	fputs("<nav><a href=\"#figures\">figures</a><a href=\"#comparison\">comparison</a>"
	      "<a href=\"#complaints\">kernel complaints</a><a href=\"#trials\">trials</a>"
	      "<a href=\"#environment\">environment</a></nav>\n",
	      out);

	html_section_begin(out, "figures", "Figures");
	for (size_t i = 0; i < figs->n; i++) {
		const struct report_figure *f = &figs->v[i];
		if (f->svg)
			html_figure(out, f->id, f->title, f->svg, f->caption);
		else
			html_figure_absent(out, f->id, f->title, f->absent);
	}
	html_section_end(out);

	html_section_begin(out, "comparison", "Comparison of the variants");
	if (have_table) {
		if (family->headline)
			html_para(out, "family", "The experiment's headline metrics: the family Holm's "
				  "correction runs over, as in lab compare.");
		compare_format_html(out, &family->table);
	} else
		html_para(out, "absent", "No metric to compare in this run.");
	html_section_end(out);

	html_section_begin(out, "complaints", "What the kernel complained about");
	report_complaints_write(out, rd);
	html_section_end(out);

	html_section_begin(out, "trials", "Trials");
	write_trials(out, rd);
	html_section_end(out);

	html_section_begin(out, "environment", "Environment");
	write_environment(out, rd);
	html_section_end(out);

	time_t now = time(NULL);
	char when[64];
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	char *footer = xasprintf("Written by lab report at %s from %s.", when, rd->dirs.items[0]);
	html_end(out, footer);
	free(footer);
}

static void print_figures(const struct report_figures *figs, const char *path)
{
	bool colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	printf("%s: %zu figure%s drawn, %zu left out\n", path, figs->drawn,
	       figs->drawn == 1 ? "" : "s", figs->left_out);
	for (size_t i = 0; i < figs->n; i++) {
		const struct report_figure *f = &figs->v[i];
		if (f->svg)
			printf("  %s%-9s%s %-24s %s\n", colour ? "\033[32m" : "", "drawn",
			       colour ? "\033[0m" : "", f->id, f->title);
		else
			printf("  %s%-9s%s %-24s %s\n", colour ? "\033[33m" : "", "left out",
			       colour ? "\033[0m" : "", f->id, f->absent);
	}
}

int report_runs(const struct strlist *runs, const struct report_request *req)
{
	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < runs->n; i++)
		if (run_data_add(&rd, runs->items[i], &err) < 0)
			die_usage("report: %s", err.buf);
	if (req->baseline && !strlist_has(&rd.labels, req->baseline))
		die_usage("report: --baseline: no variant '%s' in the run", req->baseline);
	if (run_check_metric_options(&rd, req->globs, &err) < 0)
		die_usage("report: %s", err.buf);
	char *path = req->out ? xstrdup(req->out) : xasprintf("%s/report.html", rd.dirs.items[0]);
	bool to_stdout = !strcmp(path, "-");
	if (!to_stdout) {
		char *dir = xstrdup(path);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			if (*dir && !is_dir(dir))
				die_usage("report: --out %s: no folder %s", path, dir);
		}
		free(dir);
	}

	size_t filled = rd.derived;
	if (filled)
		note("report: %zu trial%s without metrics in trial.json: computed from the folder%s",
		     filled, filled == 1 ? "" : "s", filled == 1 ? "" : "s");
	/* the same family and verdicts as lab compare with the same options */
	struct compare_family_spec spec = { .baseline = req->baseline, .globs = req->globs,
					    .all = req->all, .seed = req->seed };
	struct compare_family family;
	int trc = compare_family_build(&rd, &spec, &family, &err);
	if (trc == COMPARE_FAMILY_MIXED_CLOCKS || (trc < 0 && ((req->globs && req->globs->n) || req->all)))
		die_usage("report: %s", err.buf);
	note("report: drawing the figures of %zu trials", rd.n);
	struct report_figures figs;
	report_figures_build(&rd, &figs);

	char *html = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&html, &len);
	if (!mem)
		die("report: out of memory");
	write_report(mem, &rd, &family, trc == 0, &figs, filled);
	if (fclose(mem) != 0)
		die("report: the report could not be put together");
	int rc = 0;
	if (to_stdout) {
		if (fwrite(html, 1, len, stdout) != len || fflush(stdout) != 0)
			rc = error("report: writing to stdout: %s", strerror(errno));
	} else if (write_file_atomic(path, html, len) < 0) {
		rc = error("report: cannot write %s: %s", path, strerror(errno));
	} else if (req->list_figures) {
		print_figures(&figs, path);
	}
	free(html);
	report_figures_free(&figs);
	if (trc == 0)
		compare_family_free(&family);
	free(path);
	run_data_free(&rd);
	strbuf_release(&err);
	return rc ? 1 : 0;
}

int cmd_report(int argc, char **argv)
{
	const char *out_path = NULL, *baseline = NULL;
	unsigned long seed = 1;
	bool all = false;
	struct strlist globs = STRLIST_INIT, runs = STRLIST_INIT;
	const struct opt opts[] = {
		OPT_STRING('o', "out", &out_path, "FILE",
			   "the HTML file (default: report.html in the first run's folder); '-' "
			   "writes to stdout"),
		OPT_STRING('b', "baseline", &baseline, "VARIANT",
			   "compare against this variant (default: the run's)"),
		OPT_CALL('m', "metric", &globs, "GLOB", opt_push,
			 "only metrics matching GLOB in the table (repeatable); without it, the "
			 "experiment's headline metrics, as in lab compare (the same rows, family "
			 "and verdicts)"),
		OPT_FLAG('a', "all", &all, "every metric in the table"),
		OPT_ULONG(0, "seed", &seed, "N", 1, ULONG_MAX, "seed of sampled permutations (default 1)"),
		OPT_FLAG('q', "quiet", &quiet, "no progress on stderr (errors still)"),
		OPT_END(),
	};
	int n = lab_parse_options("report", argc, argv, opts, report_usage, report_tail);
	for (int i = 1; i <= n; i++)
		strlist_push(&runs, argv[i]);
	if (!runs.n)
		die_usage("report: name a run (see lab results)");
	if (out_path && !*out_path)
		die_usage("report: --out wants a file name");
	struct report_request req = { .out = out_path, .baseline = baseline, .globs = &globs,
				      .all = all, .seed = seed, .list_figures = true };
	int rc = report_runs(&runs, &req);
	strlist_clear(&globs);
	strlist_clear(&runs);
	return rc;
}
