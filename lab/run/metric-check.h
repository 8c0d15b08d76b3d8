/*
 * Metric names checked before anything is built or booted: every entry of an
 * experiment's `metrics`, its `primary`, `parametric` and `equivalence.GLOB`
 * globs, and lab compare's and lab report's --metric globs, against the names
 * that can come out of the run:
 *   - the lab's own (analysis/metrics/metric_catalog.c, names and globs);
 *   - each lab workload's, as it declares them in its own file (struct
 *     workload's metrics, printed by `oomlab-workload --metrics`): those of
 *     the workloads the experiment's workload and prepare lines run;
 *   - "P.exit_status" for each program P a workload line runs (the harness
 *     reports it, experiment_command);
 *   - under "P." anything, for a program P that is not a lab workload: its
 *     metrics are known only once it runs, so a name there passes with a
 *     note. Such a program may also run lab workloads (sh -c '...'): with one,
 *     every workload's declared names count;
 *   - for lab compare and lab report, the names the run's trials have too.
 * A glob passes when some name could match both (glob_intersects; the lab's
 * own names are flat, so a '*' of its catalogue takes no '.'). A
 * malformed glob ('[' left open) or one that matches no name is one line
 * with the closest names, exit 2 for the caller.
 */
#ifndef LAB_METRIC_CHECK_H
#define LAB_METRIC_CHECK_H

#include "analysis/run/run-data.h"
#include "common/util.h"
#include "experiment.h"
#include "lab/util/command-lines.h"

struct metric_names {
	struct strlist lab;        /* the lab's own names and globs: flat (GLOB_FLAT) */
	struct strlist known;      /* the others that can come out */
	struct strlist open;       /* programs that are not lab workloads: "P." is theirs */
	struct strlist elsewhere;  /* declared names of workloads no line runs */
	const char *scope;         /* what they are, after "matches no metric " in an error */
};

/* Every lab workload's declared names, "<workload>.<row>", from the workload
 * binary's --metrics (NULL: the lab's own, guest_workload_binary()). */
int metric_declarations_load(const char *workload_binary, struct strlist *declared, struct strbuf *err);

/* The W of a workload line's metrics "W.*" (workload_line_name of its first
 * command), or NULL when the host cannot tell (malloc'd). */
char *workload_line_metric_prefix(const char *line);
/* The names a run of LINES (an experiment's, experiment_command_lines) can
 * have, given every workload's DECLARED names. */
void metric_names_of_experiment(const struct command_lines *lines, const struct strlist *declared,
				struct metric_names *m);
/* The names lab compare and report take: the lab's, every workload's and the run's. */
void metric_names_of_run(const struct strlist *declared, const struct strlist *run_names,
			 struct metric_names *m);
void metric_names_clear(struct metric_names *m);

/* 0 when GLOB is well formed and can match a name of M (*OPEN: NULL, or the
 * program not of the lab under whose prefix alone it passed); else -1 with
 * "'GLOB' ..." and why in WHY, closest names included. */
int metric_names_check(const struct metric_names *m, const char *glob, const char **open,
		       struct strbuf *why);

/* Every metric name and glob of E, whose command lines are LINES: 0, or -1
 * with one line "FILE:LINE: KEY: 'NAME' ..." in ERR. A name that passed only
 * under a program's own prefix is a note. */
int experiment_check_metrics(const struct experiment *e, const struct command_lines *lines,
			     const struct strlist *declared, struct strbuf *err);

/* lab compare's and lab report's --metric GLOBS against RD's names, the lab's
 * and the workloads' DECLARED ones: 0, or -1 with "--metric 'GLOB' ..." in ERR. */
int run_check_metric_globs(const struct run_data *rd, const struct strlist *declared,
			   const struct strlist *globs, struct strbuf *err);
/* The same with the workloads' declarations loaded from the built workload
 * binary, only when there are GLOBS to check (compare's and report's --metric). */
int run_check_metric_options(const struct run_data *rd, const struct strlist *globs, struct strbuf *err);

#endif
