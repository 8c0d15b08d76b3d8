/*
 * Command lines checked on the host before any boot: the experiment's
 * workload and prepare lines, lab boot's command and --prepare.
 *
 * A line is split as the guest's /bin/sh would split it (shell-words.h),
 * with the guest's environment ($OOMLAB_SCRATCH, $OOMLAB_SLOW_DISK, $HOME,
 * ...) and the line's own assignments expanded. Then every simple command's
 * name must be
 *   - a workload of the registry (or oomlab-workload NAME): its arguments are
 *     checked by the workload's own parser, `oomlab-workload --check` with
 *     the profile's memory and NUMA nodes, unless a word is one only the
 *     guest can expand ($(...), $1, a variable the lab does not set), which
 *     is a note;
 *   - another program of the guest (busybox's applets, perf, stress-ng), by
 *     name or path: its arguments are its own;
 *   - shell syntax (if, while, for, {, !, exec, ...) or a builtin (cd,
 *     exit, export, ...), except at the start of a workload line, which the
 *     experiment's script runs with exec.
 * Anything else, an $OOMLAB_ variable the guest does not have, or a quote
 * left open, is an error. After `case`, a here-document or a function
 * definition the rest of the line is shell code and not looked at; nor are
 * programs run through another (sh -c '...', timeout, env).
 */
#ifndef LAB_COMMAND_CHECK_H
#define LAB_COMMAND_CHECK_H

#include <stdbool.h>

#include "common/util.h"
#include "experiment.h"
#include "lab/machine/profile.h"
#include "lab/util/command-lines.h"

/* What the check knows of the guest a profile makes. */
struct guest_view {
	struct strlist programs;    /* paths in the guest */
	struct strlist workloads;   /* the registry's names */
	char *check_binary;         /* oomlab-workload on the host */
	unsigned long long memory;  /* bytes */
	unsigned numa_nodes;
	bool slow_disk;
	bool files;                 /* the user's folders are there (guest-files.h) */
	bool restored;              /* trials restored from a saved boot: $OOMLAB_SEED, $OOMLAB_TRIAL */
};

int guest_view_load(struct guest_view *g, const struct profile *p, struct strbuf *err);
/*
 * The user's files join the guest's programs: every executable by its path
 * under GUEST_FILES_DIR (its top level and bin/ are on PATH). A "#!" script
 * whose interpreter the guest lacks is -1 with one line naming it in ERR,
 * its folder's index in *FOLDER.
 */
struct guest_files;
int guest_view_add_files(struct guest_view *g, const struct guest_files *f, size_t *folder,
			 struct strbuf *err);
void guest_view_clear(struct guest_view *g);

/*
 * Adds TEXT to LINES (KEY = TEXT at LINE of LINES->file), split once with
 * G's variables; G NULL: every variable is one only the guest knows.
 * PROGRAM_FIRST: the line's first command is started with exec (a workload
 * line), so it must be a program.
 */
void command_lines_add(struct command_lines *lines, const struct guest_view *g, const char *key,
		       const char *text, int line, bool program_first);
/* E's prepare line, then its workload lines, into OUT (its file E's path). */
void experiment_command_lines(const struct experiment *e, const struct guest_view *g,
			      struct command_lines *out);

/* Checks one line of the model: 0, or -1 with one line in ERR. What could
 * not be checked is added to NOTES (may be NULL). */
int command_line_check(const struct guest_view *g, const struct command_line *cl,
		       struct strlist *notes, struct strbuf *err);
/* Every line of LINES; the first bad one is one line "FILE:LINE: KEY = VALUE:
 * why" in ERR. Notes are printed. */
int command_lines_check(const struct command_lines *lines, const struct guest_view *g,
			struct strbuf *err);

/* One line, split and checked (lab boot's own lines, the tests). */
int command_check(const struct guest_view *g, const char *line, bool program_first,
		  struct strlist *notes, struct strbuf *err);
/* E's lines, split and checked. */
int experiment_check_commands(const struct experiment *e, const struct guest_view *g,
			      struct strbuf *err);

#endif
