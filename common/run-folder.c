/* A run folder on disk (run-folder.h). */
#include "run-folder.h"
#include "proto/name-rule.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "folder.h"
#include "json-file.h"

int run_folder_create(const char *dir, json_t *run, struct strbuf *err)
{
	char *other = run_folder_is_run(dir) ? NULL : folder_first_entry(dir);
	if (other) {
		strbuf_addf(err, "%s holds other files (%s) and no run: a run goes into a new or empty "
			    "folder", dir, other);
		free(other);
		return RUN_FOLDER_FOREIGN;
	}
	if (mkdir_p(dir, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	char *path = xasprintf("%s/" RUN_JSON, dir), *tmp = xasprintf("%s.new.%d", path, (int)getpid());
	/* in run.json's one layout (json-file.h); the reason below names run.json */
	char *text = json_file_text(run, JSON_FILE_PLAIN, JSON_FILE_NO_NEWLINE);
	int rc = text && write_file_str(tmp, text) == 0 ? 0 : -1;
	free(text);
	/* link() claims the name only if nobody has: the folder's first run wins */
	if (rc == 0 && link(tmp, path) < 0) {
		if (errno == EEXIST)
			rc = RUN_FOLDER_TAKEN;
		else if (errno != EPERM && errno != EOPNOTSUPP)
			rc = -1;
		else   /* a file system without hard links: not atomic, but whole */
			rc = path_exists(path) ? RUN_FOLDER_TAKEN : rename(tmp, path);
	}
	if (rc < 0)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	if (rc == RUN_FOLDER_TAKEN) {
		json_t *other = json_load_file(path, 0, NULL);
		const char *id = json_string_value(json_object_get(other, "run_id"));
		strbuf_addf(err, "%s holds run %s already", dir, id ? id : "(unreadable run.json)");
		json_decref(other);
	}
	unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

int run_folder_update(const char *dir, json_t *run, struct strbuf *err)
{
	char *path = xasprintf("%s/" RUN_JSON, dir);
	int rc = json_file_write(path, run, err);
	free(path);
	return rc;
}

bool run_folder_is_run(const char *dir)
{
	char *path = xasprintf("%s/" RUN_JSON, dir);
	bool is = path_exists(path);
	free(path);
	return is;
}

/* The run id and group labels of RUN become paths (export, merge, the store):
 * each follows the one name rule, or the run is refused. */
static bool run_names_refused(const json_t *run, struct strbuf *err)
{
	json_t *id = json_object_get(run, "run_id");
	const char *why = id && !json_is_string(id) ? "not a string"
			  : id ? name_rule_refusal(json_string_value(id), NAME_PLAIN) : NULL;
	if (why) {
		char *shown = name_rule_shown(json_string_value(id));
		strbuf_addf(err, RUN_JSON ": run_id '%s': %s", shown, why);
		free(shown);
		return true;
	}
	size_t i;
	json_t *group;
	json_array_foreach(json_object_get(run, "groups"), i, group) {
		const char *label = run_folder_group_label(group);
		if (label && (why = name_rule_refusal(label, NAME_PLAIN))) {
			char *shown = name_rule_shown(label);
			strbuf_addf(err, RUN_JSON ": group %zu's label '%s': %s", i + 1, shown, why);
			free(shown);
			return true;
		}
	}
	return false;
}

json_t *run_folder_load_text(const char *dir, char **text, struct strbuf *err)
{
	char *path = xasprintf("%s/" RUN_JSON, dir);
	size_t len;
	char *raw = read_file(path, &len);
	json_t *run = NULL;
	json_error_t jerr;
	if (!raw)
		strbuf_addstr(err, errno == ENOENT ? "no " RUN_JSON : strerror(errno));
	else if (!(run = json_loadb(raw, len, 0, &jerr)))
		strbuf_addf(err, RUN_JSON ":%d: %s", jerr.line, jerr.text);
	else if (!json_is_object(run)) {
		strbuf_addstr(err, RUN_JSON " is not a JSON object");
		json_decref(run);
		run = NULL;
	}
	if (run && run_names_refused(run, err)) {
		json_decref(run);
		run = NULL;
	}
	free(path);
	if (run && text)
		*text = raw;
	else
		free(raw);
	return run;
}

json_t *run_folder_load(const char *dir, struct strbuf *err)
{
	return run_folder_load_text(dir, NULL, err);
}

bool run_folder_trial_name(const char *name, unsigned *index)
{
	size_t len = strlen(name);
	if (!len || len > 9 || strspn(name, "0123456789") != len)
		return false;
	*index = (unsigned)strtoul(name, NULL, 10);
	return true;
}

struct trial_entry {
	unsigned index;
	char *path;
};

static int by_index(const void *a, const void *b)
{
	const struct trial_entry *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

size_t run_folder_each_trial(const char *run_dir, const char *group, run_trial_fn fn, void *ctx)
{
	char *group_dir = xasprintf("%s/%s", run_dir, group);
	struct strlist names = STRLIST_INIT;
	folder_list(group_dir, 0, &names);
	struct trial_entry *list = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < names.n; i++) {
		unsigned index;
		if (!run_folder_trial_name(names.items[i], &index))
			continue;
		char *path = xasprintf("%s/%s", group_dir, names.items[i]);
		if (!is_dir(path)) {
			free(path);
			continue;
		}
		ALLOC_GROW(list, n + 1, alloc);
		list[n++] = (struct trial_entry){ index, path };
	}
	strlist_clear(&names);
	if (n)
		qsort(list, n, sizeof(*list), by_index);
	for (size_t i = 0; i < n; i++) {
		fn(group, list[i].index, list[i].path, ctx);
		free(list[i].path);
	}
	free(list);
	free(group_dir);
	return n;
}

const char *run_folder_group_label(const json_t *group)
{
	const char *label = json_string_value(json_object_get(group, "label"));
	if (!label || !*label)
		label = json_string_value(json_object_get(group, "variant"));
	return label && *label ? label : NULL;
}

void run_folder_group_labels(const json_t *run, struct strlist *labels)
{
	size_t i;
	json_t *group;
	json_array_foreach(json_object_get(run, "groups"), i, group) {
		const char *label = run_folder_group_label(group);
		if (label && !strlist_has(labels, label))
			strlist_push(labels, label);
	}
}

static void count_trial(const char *group, unsigned index, const char *path, void *ctx)
{
	(void)group, (void)index, (void)path;
	++*(size_t *)ctx;
}

void run_folder_unlisted_groups(const char *run_dir, const struct strlist *labels, struct strlist *unlisted)
{
	struct strlist names = STRLIST_INIT;
	folder_list(run_dir, 0, &names);
	for (size_t i = 0; i < names.n; i++) {
		if (names.items[i][0] == '.' || strlist_has(labels, names.items[i]))
			continue;
		size_t trials = 0;
		run_folder_each_trial(run_dir, names.items[i], count_trial, &trials);
		if (trials)
			strlist_push(unlisted, names.items[i]);
	}
	strlist_clear(&names);
}
