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
#include "common/json-file.h"
#include "common/proto/name-rule.h"
#include "common/proto/protocol.h"
#include "common/proto/workload-line.h"
#include "perf-events.h"

/* Whether a files.bin record's NAME stays inside files/: relative, no empty,
 * "." or ".." part (the guest chooses it). */
static bool record_name_ok(const char *name)
{
	if (!*name || name[0] == '/')
		return false;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p && !*++p)
			return false;   /* a trailing '/' */
	}
	return true;
}

/* FILES afresh: what is there (a folder, or a link) removed, so that nothing
 * written below follows a link the lab did not make. A file in the way stays
 * and mkdir fails: that is a write failure. */
static int fresh_folder(const char *files)
{
	struct stat st;
	if (lstat(files, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) && remove_tree(files) < 0)
		return -1;
	return mkdir(files, 0755);
}

/* Makes the folders of PATH below OUT (a folder made by this lab just now:
 * nothing under it is a link), then creates PATH itself, never through a
 * link and never over something there (a second record of one name replaces
 * the first one's file, which this lab made). */
static int create_record_file(const char *out, const char *path)
{
	char *copy = xstrdup(path);
	for (char *p = copy + strlen(out) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST) {
			free(copy);
			return -1;
		}
		*p = '/';
	}
	free(copy);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && unlink(path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd;
}

int trial_split_files(const char *dir, struct strbuf *err)
{
	char *bin = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_FILES]);
	char *out = xasprintf("%s/files", dir);
	size_t len = 0;
	char *data = read_file(bin, &len);
	int rc = 0;
	/* files/ is derived from files.bin: made afresh from it (without files.bin,
	 * a folder already split, or a sample's, stays as it is) */
	if (data ? fresh_folder(out) < 0 : mkdir_p(out, 0755) < 0) {
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
		if (!record_name_ok(rec.name)) {
			char *shown = name_rule_shown(rec.name);
			strbuf_addf(err, "%s: record at byte %zu: '%s' is no path inside files/", bin, pos,
				    shown);
			free(shown);
			rc = -1;
			break;
		}
		size_t body = pos + rec.data;
		bool complete = body + rec.size <= len;
		size_t have = complete ? (size_t)rec.size : len - body;
		char *path = xasprintf("%s/%s%s", out, rec.name, complete ? "" : ".partial");
		int fd = create_record_file(out, path);
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
	size_t named = 0, more = 0;
	struct workload_lines lines;
	workload_lines_from_json(json_object_get(full, "workload_lines"), &lines);
	for (size_t i = 0; i < lines.n; i++) {
		const struct workload_line *l = &lines.v[i];
		if (l->ended && l->exit_status == 0)
			continue;
		if (named == LINES_NAMED) {
			more++;
			continue;
		}
		named++;
		strbuf_addf(&sb, "; line %ld (%s) ", l->line, l->workload);
		if (!l->ended)
			strbuf_addstr(&sb, "did not end");
		else if (l->signal)
			strbuf_addf(&sb, "was killed by signal %d (%s)", l->signal, strsignal(l->signal));
		else
			strbuf_addf(&sb, "exited with status %d", l->exit_status);
		if (l->explaining_text && l->ended && !l->signal)
			strbuf_addf(&sb, ": %s", l->explaining_text);
	}
	workload_lines_clear(&lines);
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
	int rc = json_file_write_as(path, record, JSON_INDENT(2) | JSON_SORT_KEYS, JSON_FILE_NO_NEWLINE,
				    err);
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
