/* Finishing a trial (trial-finish.h). */
#include "trial-finish.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/metrics/trial_metrics.h"
#include "analysis/metrics/workload_lines.h"
#include "common/proto/protocol.h"
#include "common/proto/workload-line.h"
#include "perf-events.h"

int trial_split_files(const char *dir, struct strbuf *err)
{
	char *bin = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_FILES]);
	char *out = xasprintf("%s/files", dir);
	size_t len = 0;
	char *data = read_file(bin, &len);
	int rc = 0;
	if (mkdir_p(out, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", out, strerror(errno));
		rc = TRIAL_SPLIT_EWRITE;
	}
	for (size_t pos = 0; data && pos < len && rc == 0;) {
		struct files_record rec;
		if (files_record_parse(data + pos, len - pos, &rec) < 0) {
			strbuf_addf(err, "%s: unreadable record at byte %zu", bin, pos);
			rc = -1;
			break;
		}
		size_t body = pos + rec.data;
		bool complete = body + rec.size <= len;
		size_t have = complete ? (size_t)rec.size : len - body;
		char *path = xasprintf("%s/%s%s", out, rec.name, complete ? "" : ".partial");
		char *parent = xstrdup(path);
		*strrchr(parent, '/') = '\0';
		mkdir_p(parent, 0755);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		ssize_t wrote = fd < 0 ? -1 : write(fd, data + body, have);
		if (wrote != (ssize_t)have) {
			/* a short write is a full disk */
			strbuf_addf(err, "cannot write %s: %s", path, strerror(wrote < 0 ? errno : ENOSPC));
			rc = TRIAL_SPLIT_EWRITE;
		}
		if (fd >= 0 && close(fd) < 0 && rc == 0) {
			strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
			rc = TRIAL_SPLIT_EWRITE;
		}
		free(parent);
		free(path);
		pos = body + have + (complete ? 1 : 0);
	}
	free(data);
	free(bin);
	free(out);
	return rc;
}

/* A trial whose prepare step missed its target, or did not hold it while
 * the workload ran, measured another machine than the experiment asked
 * for: its outcome says so, and the comparison counts it among the trials
 * that ended otherwise, never as a result. */
static void mark_off_target(json_t *full)
{
	json_t *miss = json_object_get(full, "off_target");
	json_t *outcome = json_object_get(full, "outcome");
	const char *was = json_string_value(json_object_get(outcome, "outcome"));
	if (!miss || !was || strcmp(was, "ok"))
		return;
	json_object_set_new(outcome, "outcome", json_string("off-target"));
	json_t *lost = json_object_get(miss, "prepare_lost_status");
	if (lost) {
		long long status = (long long)json_integer_value(lost);
		double at = json_number_value(json_object_get(miss, "prepare_lost_uptime"));
		char how[64];
		if (status < 0)
			snprintf(how, sizeof(how), "still exiting");
		else
			snprintf(how, sizeof(how), "%s %lld", status > 128 ? "signal" : "exit status",
				 status > 128 ? status - 128 : status);
		json_object_set_new(outcome, "detail",
				    json_sprintf("the prepare step ended during the workload (%s, at %.1f s): "
						 "the machine's shape did not hold", how, at));
		return;
	}
	json_object_set_new(outcome, "detail",
			    json_sprintf("%lld free blocks of order >= %lld when the workload started "
					 "(the target: at most %lld)",
					 (long long)json_integer_value(json_object_get(miss, "free_blocks")),
					 (long long)json_integer_value(json_object_get(miss, "order")),
					 (long long)json_integer_value(json_object_get(miss, "max_blocks"))));
}

/* The outcome names the workload lines that did not exit 0 (at most this many). */
#define LINES_NAMED 3

/* An ok or failed trial's detail says which workload lines did not end well
 * and what each said first: "ok" is the command's word, not the lines'. */
static void name_unwell_lines(json_t *full)
{
	json_t *outcome = json_object_get(full, "outcome");
	const char *was = json_string_value(json_object_get(outcome, "outcome"));
	if (!was || (strcmp(was, "ok") && strcmp(was, "failed")))
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, json_string_value(json_object_get(outcome, "detail")) ?: "");
	size_t i, named = 0, more = 0;
	json_t *l;
	json_array_foreach(json_object_get(full, "workload_lines"), i, l) {
		json_int_t status = json_integer_value(json_object_get(l, LINE_EXIT_STATUS));
		json_int_t sig = json_integer_value(json_object_get(l, LINE_SIGNAL));
		if (json_is_true(json_object_get(l, "ended")) && status == 0)
			continue;
		if (named == LINES_NAMED) {
			more++;
			continue;
		}
		named++;
		strbuf_addf(&sb, "; line %lld (%s) ", (long long)json_integer_value(json_object_get(l, LINE_NUMBER)),
			    json_string_value(json_object_get(l, "workload")));
		if (!json_is_true(json_object_get(l, "ended")))
			strbuf_addstr(&sb, "did not end");
		else if (sig)
			strbuf_addf(&sb, "was killed by signal %lld (%s)", (long long)sig, strsignal((int)sig));
		else
			strbuf_addf(&sb, "exited with status %lld", (long long)status);
		const char *text = workload_line_json_text(l);
		if (text && json_is_true(json_object_get(l, "ended")) && !sig)
			strbuf_addf(&sb, ": %s", text);
	}
	if (more)
		strbuf_addf(&sb, "; %zu more line%s did not exit 0", more, more == 1 ? "" : "s");
	if (named)
		json_object_set_new(outcome, "detail", json_string(sb.buf));
	strbuf_release(&sb);
}

static int write_record(const char *dir, const char *name, json_t *record, struct strbuf *err)
{
	/* Sorted keys, and reals in jansson's round-trip precision: a value read
	 * back is written back the same, so finishing again gives the same bytes. */
	char *path = xasprintf("%s/%s", dir, name);
	char *text = json_dumps(record, JSON_INDENT(2) | JSON_SORT_KEYS);
	int rc = text ? write_file_str(path, text) : -1;
	if (rc < 0)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	free(text);
	free(path);
	return rc;
}

int trial_finish(const char *dir, json_t *record, struct strbuf *err)
{
	if (!is_dir(dir)) {
		strbuf_addf(err, "%s: not a trial folder", dir);
		return -1;
	}
	struct strbuf why = STRBUF_INIT;
	int split = trial_split_files(dir, &why);
	if (split == TRIAL_SPLIT_EWRITE) {
		/* metrics from snapshots that did not land would be wrong: not finished */
		strbuf_addstr(err, why.buf);
		strbuf_release(&why);
		return -1;
	}
	if (split < 0)
		warning("%s", why.buf);
	strbuf_reset(&why);
	if (perf_recorded(dir) && perf_decode(dir, &why) < 0)
		warning("%s", why.buf);
	strbuf_reset(&why);
	json_t *computed = NULL;
	if (trial_metrics_compute(dir, &computed, &why) < 0)
		warning("metrics: %s", why.buf);
	strbuf_release(&why);

	/* deep: marking the outcome off-target must not change the record given */
	json_t *full = json_deep_copy(record), *given = json_copy(record);
	const char *key;
	json_t *value;
	json_object_foreach(computed, key, value)
		json_object_del(given, key);
	if (computed)
		json_object_update(full, computed);
	json_decref(computed);
	mark_off_target(full);
	name_unwell_lines(full);
	int rc = write_record(dir, TRIAL_RECORD_GIVEN, given, err);
	if (rc == 0)
		rc = write_record(dir, TRIAL_RECORD, full, err);
	json_decref(given);
	json_decref(full);
	return rc;
}
