/*
 * A run folder on disk (docs/FORMATS.md): run.json, and one trial folder
 * per boot at <group>/<index>/. One rule, for every reader (loading a run
 * for compare, report and export; the results store; merging shards;
 * resuming; listing the results folder): a folder is a run when it has a
 * run.json; a trial folder is a folder, or a link to one, whose name is
 * digits only (at most nine: 000, 001, ...); trials come in index order.
 */
#ifndef OOMLAB_RUN_FOLDER_H
#define OOMLAB_RUN_FOLDER_H

#include <jansson.h>
#include <stdbool.h>

#include "util.h"

#define RUN_JSON "run.json"

/* What run_folder_create() returns when DIR holds a run already. */
#define RUN_FOLDER_TAKEN 1
/* ... and when DIR holds other files and no run: a folder the lab did not
 * make, whose trial folders it would write into (and clear) as its own. */
#define RUN_FOLDER_FOREIGN 2

/* Makes DIR (and its parents) a run folder with RUN as its run.json, unless
 * DIR holds a run already: never two runs in one folder, even when two
 * processes try at once, and never half a run.json. Returns 0,
 * RUN_FOLDER_TAKEN with "DIR holds run ID already" in ERR,
 * RUN_FOLDER_FOREIGN with "DIR holds other files" in ERR, or -1 with the
 * reason in ERR. */
int run_folder_create(const char *dir, json_t *run, struct strbuf *err);
/* Replaces DIR's run.json with RUN, atomically (a reader sees the old one
 * or the new one); 0, or -1 with the reason in ERR. */
int run_folder_update(const char *dir, json_t *run, struct strbuf *err);
/* True when DIR has a run.json. */
bool run_folder_is_run(const char *dir);
/* DIR's run.json as an object (a new reference), or NULL with a one-line
 * reason in ERR ("no run.json", or what is wrong with it). */
json_t *run_folder_load(const char *dir, struct strbuf *err);
/* The same, and the file's text as read in *TEXT (malloc'd) when it loads. */
json_t *run_folder_load_text(const char *dir, char **text, struct strbuf *err);
/* Whether NAME names a trial folder; its index in *INDEX. */
bool run_folder_trial_name(const char *name, unsigned *index);

/*
 * The groups of a run are run.json's (RUN): each "groups" element's
 * "label", else its "variant", in run.json's order, once each. A subfolder
 * that holds trial folders but is no listed group belongs to no group:
 * readers name it and leave its trials out.
 */
/* GROUP's label (an element of run.json's "groups"), NULL when it has none. */
const char *run_folder_group_label(const json_t *group);
/* Appends the run's group labels to LABELS. */
void run_folder_group_labels(const json_t *run, struct strlist *labels);
/* Appends to UNLISTED, sorted, the subfolders of RUN_DIR with trial folders that LABELS lacks. */
void run_folder_unlisted_groups(const char *run_dir, const struct strlist *labels, struct strlist *unlisted);

typedef void (*run_trial_fn)(const char *group, unsigned index, const char *path, void *ctx);
/* Calls FN for every trial folder of GROUP (a subfolder of RUN_DIR), in
 * index order; returns how many there were (0 when GROUP is no folder). */
size_t run_folder_each_trial(const char *run_dir, const char *group, run_trial_fn fn, void *ctx);

#endif
