/* lab export: a run's trials for other tools (Perfetto, perf, spreadsheets). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/export/export_perfetto.h"
#include "analysis/export/export_table.h"
#include "builtin.h"
#include "lab/cli/options.h"
#include "lab/trial/perf-events.h"
#include "analysis/run/run-data.h"
#include "common/json-file.h"

static const char export_usage[] =
	"usage: lab export RUN [RUN...] --format F -o DIR\n"
	"\n"
	"Writes the trials of the named runs (run ids under results/, or run\n"
	"folders) into DIR, in one of these formats:\n"
	"\n"
	"  perfetto   DIR/<group>/<trial>.trace.json per trial: Chrome Trace Event\n"
	"             JSON that ui.perfetto.dev and chrome://tracing open. Reclaim\n"
	"             and compaction stalls and binder page allocations as slices on\n"
	"             their threads, OOM victims and reaper steps as instants and a\n"
	"             lane per victim, memory and PSI counters from the heartbeats,\n"
	"             the workloads' phases and events. Times in us of the guest's\n"
	"             CLOCK_MONOTONIC.\n"
	"  perf       DIR/<group>/<trial>/perf.data (as recorded, pipe format) and\n"
	"             perf.script, for perf report -i and perf script -i\n"
	"  csv        DIR/metrics.csv: one row per trial and metric, with the\n"
	"             group, variant, profile and hashes (RFC 4180)\n"
	"  json       DIR/metrics.json: the same rows, and the list of trials\n"
	"\n"
	"With several runs each run's files go under DIR/<run-id>/. Trials whose\n"
	"trial.json has no metrics get them computed from their folder.\n"
	"\n";

static const char export_tail[] =
	"Prints on stdout what was written; exit status 2 on bad input, 1 when a\n"
	"file cannot be written.\n";

static const char *run_id_of(const struct run_data *rd, const struct run_trial *t)
{
	for (size_t r = 0; r < rd->dirs.n; r++) {
		size_t len = strlen(rd->dirs.items[r]);
		if (!strncmp(t->dir, rd->dirs.items[r], len) && t->dir[len] == '/') {
			const char *id = json_string_value(
				json_object_get(json_array_get(rd->runs, r), "run_id"));
			return id ? id : "run";
		}
	}
	return "run";
}

/* DIR[/run-id]/group */
static char *group_dir(const struct run_data *rd, const struct run_trial *t, const char *out)
{
	if (rd->dirs.n > 1)
		return xasprintf("%s/%s/%s", out, run_id_of(rd, t), t->label);
	return xasprintf("%s/%s", out, t->label);
}

static json_t *trial_meta(const struct run_data *rd, const struct run_trial *t)
{
	json_t *env = json_object_get(t->trial, "environment");
	json_t *o = json_object();
	json_object_set_new(o, "run_id", json_string(run_id_of(rd, t)));
	json_object_set_new(o, "group", json_string(t->label));
	json_object_set_new(o, "trial", json_integer(t->index));
	json_object_set_new(o, "outcome", json_string(t->outcome));
	static const char *const keys[] = { "variant", "variant_hash", "accelerator", "timing_note" };
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_t *v = json_object_get(env, keys[k]);
		if (v)
			json_object_set(o, keys[k], v);
	}
	if (rd->profile)
		json_object_set_new(o, "profile", json_string(rd->profile));
	return o;
}

static int export_perfetto(const struct run_data *rd, const char *out)
{
	int failed = 0;
	printf("%-16s %-5s %-8s %8s %7s %7s %8s %7s  %s\n", "group", "trial", "outcome", "events",
	       "stalls", "victims", "counters", "phases", "file");
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		char *gdir = group_dir(rd, t, out);
		char *path = xasprintf("%s/%03u.trace.json", gdir, t->index);
		if (mkdir_p(gdir, 0755) < 0) {
			failed = error("export: cannot make %s: %s", gdir, strerror(errno));
			free(gdir);
			free(path);
			continue;
		}
		json_t *meta = trial_meta(rd, t);
		struct perfetto_counts counts;
		json_t *trace = perfetto_trace(t->dir, meta, &counts);
		json_decref(meta);
		if (perfetto_trace_write(trace, path) < 0)
			failed = error("export: cannot write %s: %s", path, strerror(errno));
		else
			printf("%-16s %03u   %-8s %8zu %7zu %7zu %8zu %7zu  %s\n", t->label, t->index,
			       t->outcome, counts.events, counts.stalls, counts.victims,
			       counts.counters, counts.phases, path);
		note("export: %s/%03u: %zu events from%s%s%s%s", t->label, t->index, counts.events,
		     counts.have_perf ? " perf.script" : "", counts.have_kmsg ? " kmsg.log" : "",
		     counts.have_ctl ? " ctl.jsonl" : "", counts.have_out ? " out.log" : "");
		json_decref(trace);
		free(gdir);
		free(path);
	}
	return failed;
}

static int export_perf(const struct run_data *rd, const char *out)
{
	int failed = 0;
	size_t copied = 0;
	printf("%-16s %-5s %-8s %10s %9s  %s\n", "group", "trial", "outcome", "perf.data", "script",
	       "folder");
	for (size_t i = 0; i < rd->n; i++) {
		const struct run_trial *t = &rd->trials[i];
		char *gdir = group_dir(rd, t, out);
		char *tdir = xasprintf("%s/%03u", gdir, t->index);
		char *data = xasprintf("%s/perf.data", t->dir);
		char *script = xasprintf("%s/perf.script", t->dir);
		char *odata = xasprintf("%s/perf.data", tdir);
		char *oscript = xasprintf("%s/perf.script", tdir);
		struct stat st;
		bool have_data = stat(data, &st) == 0;
		size_t data_len = have_data ? (size_t)st.st_size : 0;
		if (!have_data || !data_len) {
			note("export: %s/%03u has no perf data (%s)", t->label, t->index,
			     have_data ? "perf.data is empty" : "no perf.data");
			printf("%-16s %03u   %-8s %10s %9s  %s\n", t->label, t->index, t->outcome, "-",
			       "-", "(no perf data)");
			goto next;
		}
		if (mkdir_p(tdir, 0755) < 0 || copy_file(data, odata) < 0) {
			failed = error("export: cannot copy %s to %s: %s", data, tdir, strerror(errno));
			goto next;
		}
		const char *how = "copied";
		if (path_exists(script)) {
			if (copy_file(script, oscript) < 0)
				failed = error("export: cannot copy %s: %s", script, strerror(errno));
		} else {
			/* decode it here, the way the lab decodes a trial's */
			struct strbuf err = STRBUF_INIT;
			if (perf_decode(tdir, &err) < 0) {
				warning("export: %s/%03u: %s", t->label, t->index, err.buf);
				how = "none";
			} else {
				how = "decoded";
			}
			strbuf_release(&err);
		}
		char *stderr_src = xasprintf("%s/files/perf.stderr", t->dir);
		char *stderr_dst = xasprintf("%s/perf.record.stderr", tdir);
		if (path_exists(stderr_src))
			copy_file(stderr_src, stderr_dst);
		free(stderr_src);
		free(stderr_dst);
		printf("%-16s %03u   %-8s %10zu %9s  %s\n", t->label, t->index, t->outcome, data_len,
		       how, tdir);
		copied++;
next:
		free(gdir);
		free(tdir);
		free(data);
		free(script);
		free(odata);
		free(oscript);
	}
	if (mkdir_p(out, 0755) == 0) {
		char *readme = xasprintf("%s/README.txt", out);
		write_file_str(readme,
			       "perf data of each trial, as the guest recorded it (perf record in\n"
			       "pipe mode, CLOCK_MONOTONIC, possibly cut short if the guest died):\n"
			       "\n"
			       "  perf report -i GROUP/TRIAL/perf.data --stdio\n"
			       "  perf script -i GROUP/TRIAL/perf.data --ns\n"
			       "\n"
			       "perf.script is the lab's decoding of it:\n"
			       "  perf script --ns --show-lost-events -F comm,pid,tid,cpu,time,event,trace\n"
			       "perf.record.stderr holds perf record's own messages in the guest.\n");
		free(readme);
	}
	note("export: perf data of %zu of %zu trials in %s", copied, rd->n, out);
	return failed;
}

static int export_table(const struct run_data *rd, const char *out, bool csv)
{
	if (mkdir_p(out, 0755) < 0)
		return error("export: cannot make %s: %s", out, strerror(errno));
	char *path = xasprintf("%s/metrics.%s", out, csv ? "csv" : "json");
	struct strbuf err = STRBUF_INIT;
	size_t rows = 0;
	int rc;
	if (csv) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		if (!mem || export_table_csv(mem, rd, &rows) < 0 || fclose(mem) != 0)
			die("export: the table could not be put together");
		rc = write_file_atomic(path, text, len);
		if (rc < 0)
			strbuf_addf(&err, "cannot write %s: %s", path, strerror(errno));
		free(text);
	} else {
		json_t *doc = export_table_json(rd, &rows);
		rc = json_file_write_as(path, doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17), JSON_FILE_NEWLINE,
					&err);
		json_decref(doc);
	}
	if (rc < 0)
		rc = error("export: %s", strbuf_str(&err));
	else
		printf("%s: %zu rows (trials x metrics) of %zu trials\n", path, rows, rd->n);
	strbuf_release(&err);
	free(path);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	enum { PERFETTO, PERF, CSV, JSON };
	static const char *const formats[] = { [PERFETTO] = "perfetto", [PERF] = "perf", [CSV] = "csv",
					       [JSON] = "json", NULL };
	const char *out = NULL;
	int format = -1;
	struct strlist runs = STRLIST_INIT;
	const struct opt opts[] = {
		OPT_CHOICE('f', "format", &format, "F", formats, "perfetto, perf, csv or json (required)"),
		OPT_STRING('o', "out", &out, "DIR", "the folder to write into (required; made if missing)"),
		OPT_FLAG('q', "quiet", &quiet, "no progress on stderr (errors still)"),
		OPT_END(),
	};
	int n = lab_parse_options("export", argc, argv, opts, export_usage, export_tail);
	if (format < 0)
		die_usage("export: --format is required: perfetto, perf, csv or json");
	if (!out || !*out)
		die_usage("export: --out DIR is required");
	if (path_exists(out) && !is_dir(out))
		die_usage("export: --out %s is a file, not a folder", out);
	for (int i = 1; i <= n; i++)
		strlist_push(&runs, argv[i]);
	if (!runs.n)
		die_usage("export: name a run (see lab results)");

	struct run_data rd = { 0 };
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < runs.n; i++)
		if (run_data_add(&rd, runs.items[i], &err) < 0)
			die_usage("export: %s", err.buf);
	if (mkdir_p(out, 0755) < 0)
		die("export: cannot make %s: %s", out, strerror(errno));
	int failed;
	if (format == PERFETTO) {
		failed = export_perfetto(&rd, out);
	} else if (format == PERF) {
		failed = export_perf(&rd, out);
	} else {
		size_t filled = rd.derived;
		if (filled)
			note("export: %zu trial%s without metrics in trial.json: computed from the "
			     "folder%s", filled, filled == 1 ? "" : "s", filled == 1 ? "" : "s");
		failed = export_table(&rd, out, format == CSV);
	}
	run_data_free(&rd);
	strlist_clear(&runs);
	strbuf_release(&err);
	return failed ? 1 : 0;
}
