/* Metric names checked before anything is built or booted (metric-check.h). */
#include "metric-check.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/metrics/metric_catalog.h"
#include "common/proto/workload-line.h"
#include "common/run-command.h"
#include "lab/machine/guest-image.h"
#include "lab/util/glob.h"
#include "lab/util/shell-words.h"

/* How many of the closest names an error offers. */
#define CLOSEST 3

int metric_declarations_load(const char *workload_binary, struct strlist *declared, struct strbuf *err)
{
	char *ours = workload_binary ? NULL : guest_workload_binary();
	const char *argv[] = { workload_binary ? workload_binary : ours, "--metrics", NULL };
	struct strlist lines = STRLIST_INIT;
	int rc = capture_lines_or_say(argv, &lines, err);
	free(ours);
	for (size_t i = 0; i < lines.n; i++)
		if (*lines.items[i])
			strlist_push(declared, lines.items[i]);
	strlist_clear(&lines);
	return rc;
}

static void add_once(struct strlist *l, const char *name)
{
	if (!strlist_has(l, name))
		strlist_push(l, name);
}

static void add_lab_names(struct metric_names *m)
{
	size_t n;
	const struct metric_def *rows = metric_catalog_rows(&n);
	/* "*.exit_status" and the other line metrics are each line's program's: push_line_metrics */
	for (size_t i = 0; i < n; i++)
		if (strncmp(rows[i].name, "*.", 2))
			add_once(&m->lab, rows[i].name);
}

/* The metrics every workload line gives, "P.<name>" for its program P: the
 * catalogue's "*.<name>" rows (common/proto/workload-line.h names them). */
static void push_line_metrics(struct strlist *l, const char *program)
{
	size_t n;
	const struct metric_def *rows = metric_catalog_rows(&n);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(rows[i].name, "*.", 2))
			strlist_push_owned(l, xasprintf("%s.%s", program, rows[i].name + 2));
}

/* True when the declared ROW is WORKLOAD's ("<workload>.<row>"). */
static bool row_of(const char *row, const char *workload)
{
	size_t len = strlen(workload);
	return !strncmp(row, workload, len) && row[len] == '.';
}

static bool is_workload(const struct strlist *declared, const char *name)
{
	for (size_t i = 0; i < declared->n; i++)
		if (row_of(declared->items[i], name))
			return true;
	return false;
}

/* Only the guest knows a variable's value: every one is unknown here. */
/* What the lines of an experiment run. */
struct programs {
	struct strlist workloads;   /* lab workloads */
	struct strlist others;      /* other programs, as written and by base name */
	struct strlist statuses;    /* "P.exit_status", ... of the workload lines' programs */
	bool opaque;                /* a program's name only the guest knows */
};

/* The program command C runs, by the line runner's own rule for taskset,
 * time and oomlab-workload (common/proto/workload-line.h). LINE_RUNNERS: C is
 * a workload line's first command, which the runner starts (experiment.c):
 * its program's line metrics are the line's. */
static void command_program(const struct strlist *declared, const struct shell_command *c,
			    bool line_runners, struct programs *p)
{
	size_t k = 0;
	while (!line_runners && k < c->n && c->words[k].known &&
	       str_in_list(c->words[k].text, shell_words_before_command))
		k++;
	size_t n;
	const char **argv = shell_command_known_words(c, k, &n);
	const char *const *program = workload_line_program(argv);
	const char *name = program[0], *base = name ? workload_line_name(program) : NULL;
	/* a program only the guest knows: it may run anything */
	bool cut = k + n < c->n;
	if (!name || (cut && (!strcmp(base, "taskset") || !strcmp(base, "oomlab-workload")))) {
		p->opaque = p->opaque || cut;
	} else {
		if (line_runners)
			push_line_metrics(&p->statuses, base);
		if (is_workload(declared, base)) {
			add_once(&p->workloads, base);
		} else {
			add_once(&p->others, name);
			add_once(&p->others, base);
		}
	}
	free(argv);
}

static void line_programs(const struct strlist *declared, const struct command_line *cl,
			  struct programs *p)
{
	if (cl->bad)
		p->opaque = true;
	for (size_t i = 0; i < cl->split.n; i++)
		command_program(declared, &cl->split.commands[i], cl->program_first && i == 0, p);
	if (cl->split.rest_unsplit)
		p->opaque = true;
}

char *workload_line_metric_prefix(const char *line)
{
	struct shell_line sl = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *prefix = NULL;
	if (shell_line_split(line, NULL, NULL, &sl, &err) == 0 && sl.n) {
		const char **argv = shell_command_known_words(&sl.commands[0], 0, NULL);
		const char *name = argv[0] ? workload_line_name(argv) : "";
		if (*name)
			prefix = xstrdup(name);
		free(argv);
	}
	shell_line_clear(&sl);
	strbuf_release(&err);
	return prefix;
}

void metric_names_of_experiment(const struct command_lines *lines, const struct strlist *declared,
				struct metric_names *m)
{
	struct programs p = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT, false };
	memset(m, 0, sizeof(*m));
	m->scope = "the workloads or the lab can emit";
	for (size_t i = 0; i < lines->n; i++)
		line_programs(declared, &lines->items[i], &p);
	add_lab_names(m);
	/* a program not of the lab may run any workload (sh -c '...', a script) */
	bool any = p.opaque || p.others.n;
	for (size_t i = 0; i < declared->n; i++) {
		const char *name = declared->items[i];
		bool runs = any;
		for (size_t w = 0; !runs && w < p.workloads.n; w++)
			runs = row_of(name, p.workloads.items[w]);
		add_once(runs ? &m->known : &m->elsewhere, name);
	}
	for (size_t i = 0; i < p.statuses.n; i++)
		add_once(&m->known, p.statuses.items[i]);
	for (size_t i = 0; i < p.others.n; i++)
		strlist_push(&m->open, p.others.items[i]);
	strlist_clear(&p.workloads);
	strlist_clear(&p.others);
	strlist_clear(&p.statuses);
}

/* NAME as a glob that matches itself alone. */
static char *literal_glob(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = name; *p; p++) {
		if (strchr("*?[\\", *p))
			strbuf_addstr(&sb, "\\");
		strbuf_add(&sb, p, 1);
	}
	return strbuf_detach(&sb);
}

void metric_names_of_run(const struct strlist *declared, const struct strlist *run_names,
			 struct metric_names *m)
{
	memset(m, 0, sizeof(*m));
	m->scope = "of the run, nor one the workloads or the lab can emit";
	add_lab_names(m);
	for (size_t i = 0; i < declared->n; i++)
		add_once(&m->known, declared->items[i]);
	/* many names, each once already: no add_once */
	for (size_t i = 0; i < run_names->n; i++)
		strlist_push_owned(&m->known, literal_glob(run_names->items[i]));
}

void metric_names_clear(struct metric_names *m)
{
	strlist_clear(&m->lab);
	strlist_clear(&m->known);
	strlist_clear(&m->open);
	strlist_clear(&m->elsewhere);
	memset(m, 0, sizeof(*m));
}

/* The workload a declared NAME is of, malloc'd. */
static char *workload_of(const char *name)
{
	return xstrndup(name, strcspn(name, "."));
}

/* "; closest: a, b, c": the CLOSEST names nearest GLOB (known ones, and
 * "P.*" for a program P not of the lab), nearest first, of those at most half
 * of whose characters differ. */
static void add_closest(const struct metric_names *m, const char *glob, struct strbuf *why)
{
	struct strlist pool = STRLIST_INIT;
	for (size_t i = 0; i < m->lab.n; i++)
		strlist_push(&pool, m->lab.items[i]);
	for (size_t i = 0; i < m->known.n; i++)
		strlist_push(&pool, m->known.items[i]);
	for (size_t i = 0; i < m->open.n; i++)
		strlist_push_owned(&pool, xasprintf("%s.*", m->open.items[i]));
	unsigned *flags = xcalloc(pool.n ? pool.n : 1, sizeof(*flags));
	for (size_t i = 0; i < m->lab.n; i++)
		flags[i] = GLOB_FLAT;
	size_t best[CLOSEST];
	size_t shown = glob_closest((const char *const *)pool.items, flags, pool.n, glob, best, CLOSEST);
	for (size_t i = 0; i < shown; i++)
		strbuf_addf(why, "%s%s", i ? ", " : "; closest: ", pool.items[best[i]]);
	if (!shown)
		strbuf_addstr(why, "; none is close");
	free(flags);
	strlist_clear(&pool);
}

int metric_names_check(const struct metric_names *m, const char *glob, const char **open,
		       struct strbuf *why)
{
	*open = NULL;
	const char *malformed = glob_malformed(glob);
	if (malformed) {
		strbuf_addf(why, "'%s' is not a valid glob: %s", glob, malformed);
		return -1;
	}
	for (size_t i = 0; i < m->lab.n; i++)
		if (glob_intersects(m->lab.items[i], GLOB_FLAT, glob))
			return 0;
	for (size_t i = 0; i < m->known.n; i++)
		if (glob_intersects(m->known.items[i], 0, glob))
			return 0;
	for (size_t i = 0; i < m->open.n; i++) {
		char *theirs = xasprintf("%s.*", m->open.items[i]);
		bool yes = glob_intersects(theirs, 0, glob);
		free(theirs);
		if (yes) {
			*open = m->open.items[i];
			return 0;
		}
	}
	strbuf_addf(why, "'%s' matches no metric %s", glob, m->scope);
	for (size_t i = 0; i < m->elsewhere.n; i++)
		if (glob_intersects(m->elsewhere.items[i], 0, glob)) {
			char *w = workload_of(m->elsewhere.items[i]);
			strbuf_addf(why, " (it is %s's, and no workload or prepare line runs %s)", w, w);
			free(w);
			break;
		}
	add_closest(m, glob, why);
	return -1;
}

/* One name or glob of E's KEY at LINE. */
static int check_one(const struct experiment *e, const struct metric_names *m, const char *key,
		     int line, const char *glob, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	const char *open;
	int rc = metric_names_check(m, glob, &open, &why);
	if (rc < 0)
		strbuf_addf(err, "%s:%d: %s: %s", e->path, line, key, why.buf);
	else if (open)
		note("%s:%d: %s: '%s' is left to %s, which is not a lab workload: its metrics are "
		     "known only once it runs", e->path, line, key, glob, open);
	strbuf_release(&why);
	return rc;
}

int experiment_check_metrics(const struct experiment *e, const struct command_lines *lines,
			     const struct strlist *declared, struct strbuf *err)
{
	struct metric_names m;
	metric_names_of_experiment(lines, declared, &m);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < e->metrics.n; i++)
		rc = check_one(e, &m, "metrics", e->metrics_line, e->metrics.items[i], err);
	if (rc == 0 && e->primary)
		rc = check_one(e, &m, "primary", e->primary_line, e->primary, err);
	for (size_t i = 0; rc == 0 && i < e->parametric.n; i++)
		rc = check_one(e, &m, "parametric", e->parametric_line, e->parametric.items[i], err);
	for (size_t i = 0; rc == 0 && i < e->margin_globs.n; i++) {
		const char *glob = e->margin_globs.items[i];
		char *key = strcmp(glob, "*") ? xasprintf("equivalence.%s", glob) : xstrdup("equivalence");
		rc = check_one(e, &m, key, e->margin_lines[i], glob, err);
		free(key);
	}
	metric_names_clear(&m);
	return rc;
}

int run_check_metric_globs(const struct run_data *rd, const struct strlist *declared,
			   const struct strlist *globs, struct strbuf *err)
{
	if (!globs || !globs->n)
		return 0;
	struct strlist names = STRLIST_INIT;
	run_data_metric_names(rd, &names);
	struct metric_names m;
	metric_names_of_run(declared, &names, &m);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < globs->n; i++) {
		struct strbuf why = STRBUF_INIT;
		const char *open;
		rc = metric_names_check(&m, globs->items[i], &open, &why);
		if (rc < 0)
			strbuf_addf(err, "--metric %s", why.buf);
		strbuf_release(&why);
	}
	metric_names_clear(&m);
	strlist_clear(&names);
	return rc;
}

int run_check_metric_options(const struct run_data *rd, const struct strlist *globs, struct strbuf *err)
{
	if (!globs || !globs->n)
		return 0;   /* no --metric: no workload binary to start */
	/* without a built workload binary, the run's names and the lab's still count */
	struct strlist declared = STRLIST_INIT;
	struct strbuf ignored = STRBUF_INIT;
	metric_declarations_load(NULL, &declared, &ignored);
	strbuf_release(&ignored);
	int rc = run_check_metric_globs(rd, &declared, globs, err);
	strlist_clear(&declared);
	return rc;
}
