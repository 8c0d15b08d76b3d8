/* store_internal.h - what the store_*.c files share; not for other callers.
 * It stands alone, without store.h: store.c calls the schema and the scan,
 * which include this and store_errors.h but not store.h, so that nothing
 * they use calls them back (tests/check-layers). */
#ifndef OOMLAB_STORE_INTERNAL_H
#define OOMLAB_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "common/util.h"
#include "store_sql.h"

/* Creates the schema of a new database or migrates an older one (store_schema.c). */
int store_schema_ensure(struct store *s, struct strbuf *err);
#define STORE_SCHEMA_VERSION 3
/* PRAGMA application_id of an oomlab store: "OOML". */
#define STORE_APPLICATION_ID 0x4f4f4d4c

/* A run folder on disk (store_scan.c). */
struct store_trial_dir {
	char *label;		/* the group folder's name */
	unsigned index;		/* the trial folder's number */
	char *path;		/* <run_dir>/<label>/<index> */
};

struct store_run_scan {
	struct store_trial_dir *trials;	/* by label, then index */
	size_t n_trials;
	/* Changes whenever a trial is added, removed or (re)written: the newest
	 * mtime of run.json, group and trial folders and trial.json files, and
	 * how many trial.json files there are. */
	int64_t mtime_ns, files;
};

/* Lists RUN_DIR's trial folders: <label>/<NNN>/ with NNN all digits. */
int store_scan_run(const char *run_dir, struct store_run_scan *scan, struct strbuf *err);
void store_run_scan_clear(struct store_run_scan *scan);

#endif
