/* store_scan.c - what is in a run folder: its trial folders, and a
 * fingerprint that changes whenever one of them is added or rewritten. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/run-folder.h"
#include "store_errors.h"
#include "store_internal.h"

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static void see(struct store_run_scan *scan, const char *path, bool count)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return;
	if (mtime_ns(&st) > scan->mtime_ns)
		scan->mtime_ns = mtime_ns(&st);
	if (count)
		scan->files++;
}

static bool subdir(const char *parent, const struct dirent *de)
{
	if (de->d_name[0] == '.')
		return false;
	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return false;
	char *path = xasprintf("%s/%s", parent, de->d_name);
	bool dir = is_dir(path);
	free(path);
	return dir;
}

struct scanning {
	struct store_run_scan *scan;
	size_t alloc;
};

static void add_trial(const char *label, unsigned index, const char *path, void *ctx)
{
	struct scanning *s = ctx;
	struct store_run_scan *scan = s->scan;
	ALLOC_GROW(scan->trials, scan->n_trials + 1, s->alloc);
	struct store_trial_dir *t = &scan->trials[scan->n_trials++];
	t->label = xstrdup(label);
	t->index = index;
	t->path = xstrdup(path);
	see(scan, t->path, false);
	char *record = xasprintf("%s/trial.json", t->path);
	see(scan, record, true);
	free(record);
}

static void scan_group(struct scanning *s, const char *run_dir, const char *label)
{
	char *group_dir = xasprintf("%s/%s", run_dir, label);
	see(s->scan, group_dir, false);
	free(group_dir);
	run_folder_each_trial(run_dir, label, add_trial, s);
}

static int compare_groups(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int store_scan_run(const char *run_dir, struct store_run_scan *scan, struct strbuf *err)
{
	memset(scan, 0, sizeof(*scan));
	DIR *d = opendir(run_dir);
	if (!d) {
		strbuf_addf(err, "cannot read the run folder %s: %s", run_dir, strerror(errno));
		return STORE_EINPUT;
	}
	char *run_json = xasprintf("%s/" RUN_JSON, run_dir);
	see(scan, run_json, true);
	free(run_json);
	/* Every subfolder is a group (the import names those run.json does not
	 * list); groups by name, trials by index. */
	struct strlist groups = STRLIST_INIT;
	struct dirent *de;
	while ((de = readdir(d)))
		if (subdir(run_dir, de))
			strlist_push(&groups, de->d_name);
	closedir(d);
	if (groups.n)
		qsort(groups.items, groups.n, sizeof(*groups.items), compare_groups);
	struct scanning s = { scan, 0 };
	for (size_t i = 0; i < groups.n; i++)
		scan_group(&s, run_dir, groups.items[i]);
	strlist_clear(&groups);
	return 0;
}

void store_run_scan_clear(struct store_run_scan *scan)
{
	for (size_t i = 0; i < scan->n_trials; i++) {
		free(scan->trials[i].label);
		free(scan->trials[i].path);
	}
	free(scan->trials);
	memset(scan, 0, sizeof(*scan));
}
