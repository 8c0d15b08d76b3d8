/* store_scan.c - what is in a run folder: its trial folders, and a
 * fingerprint that changes whenever one of them is added or rewritten. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* A trial folder's name: digits only (000, 001, ...). */
static bool trial_name(const char *name, unsigned *index)
{
	if (!*name || strlen(name) > 9 || strspn(name, "0123456789") != strlen(name))
		return false;
	*index = (unsigned)strtoul(name, NULL, 10);
	return true;
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

static void scan_group(struct store_run_scan *scan, const char *run_dir, const char *label,
		       size_t *alloc)
{
	char *group_dir = xasprintf("%s/%s", run_dir, label);
	DIR *d = opendir(group_dir);
	if (!d) {
		free(group_dir);
		return;
	}
	see(scan, group_dir, false);
	struct dirent *de;
	while ((de = readdir(d))) {
		unsigned index;
		if (!trial_name(de->d_name, &index) || !subdir(group_dir, de))
			continue;
		if (scan->n_trials == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 16;
			scan->trials = xrealloc(scan->trials, *alloc * sizeof(*scan->trials));
		}
		struct store_trial_dir *t = &scan->trials[scan->n_trials++];
		t->label = xstrdup(label);
		t->index = index;
		t->path = xasprintf("%s/%s", group_dir, de->d_name);
		see(scan, t->path, false);
		char *record = xasprintf("%s/trial.json", t->path);
		see(scan, record, true);
		free(record);
	}
	closedir(d);
	free(group_dir);
}

static int compare_trials(const void *a, const void *b)
{
	const struct store_trial_dir *x = a, *y = b;
	int c = strcmp(x->label, y->label);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

int store_scan_run(const char *run_dir, struct store_run_scan *scan, struct strbuf *err)
{
	memset(scan, 0, sizeof(*scan));
	DIR *d = opendir(run_dir);
	if (!d) {
		strbuf_addf(err, "cannot read the run folder %s: %s", run_dir, strerror(errno));
		return STORE_EINPUT;
	}
	char *run_json = xasprintf("%s/run.json", run_dir);
	see(scan, run_json, true);
	free(run_json);
	size_t alloc = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (subdir(run_dir, de))
			scan_group(scan, run_dir, de->d_name, &alloc);
	closedir(d);
	if (scan->n_trials)
		qsort(scan->trials, scan->n_trials, sizeof(*scan->trials), compare_trials);
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
