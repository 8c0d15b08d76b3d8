/* Command lines checked before any boot (command-check.h). */
#include "command-check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/name-rule.h"
#include "common/proto/protocol.h"
#include "common/proto/selftest-line.h"
#include "common/proto/workload-line.h"
#include "common/run-command.h"
#include "lab/machine/guest-files.h"
#include "lab/machine/guest-image.h"
#include "lab/util/shell-words.h"

/* What the check mode prints for $OOMLAB_SLOW_DISK: it checks no device. */
#define SLOW_DISK_STAND_IN "/dev/oomlab-slow-disk"

/* Syntax with nothing to check, or whose words are not a command. */
static const char *const syntax_words[] = { "fi", "done", "}", "esac", "for", "select", "in",
					    NULL };
/* After these the rest of the line is shell code the splitting does not follow. */
static const char *const opaque_words[] = { "case", "function", NULL };
/* The builtins of busybox's ash that are no applet of their own. */
static const char *const builtins[] = { ":", ".", "alias", "bg", "break", "cd", "chdir", "command",
					"continue", "eval", "exit", "export", "fg", "getopts", "hash", "jobs",
					"let", "local", "read", "readonly", "return", "set", "shift",
					"source", "times", "trap", "type", "ulimit", "umask", "unalias",
					"unset", "wait", NULL };


int guest_view_load(struct guest_view *g, const struct profile *p, struct strbuf *err)
{
	memset(g, 0, sizeof(*g));
	g->check_binary = guest_workload_binary();
	g->memory = p->memory;
	g->numa_nodes = p->numa_nodes ? p->numa_nodes : 1;
	g->slow_disk = p->slow_disk_size > 0;
	if (guest_programs(&g->programs, &g->workloads, err) < 0) {
		guest_view_clear(g);
		return -1;
	}
	return 0;
}

int guest_view_add_files(struct guest_view *g, const struct guest_files *f, size_t *folder,
			 struct strbuf *err)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->files[i].executable)
			strlist_push_owned(&g->programs, guest_files_path(f->files[i].path));
	g->files = g->files || guest_files_any(f);
	for (size_t i = 0; i < f->n; i++) {
		const char *interp = f->files[i].interpreter;
		if (!interp || strlist_has(&g->programs, interp))
			continue;
		strbuf_addf(err, "%s: its interpreter %s is not in the guest (it has busybox's "
			    "/bin/sh and the files' own executables)", f->files[i].host, interp);
		if (folder)
			*folder = f->files[i].folder;
		return -1;
	}
	return 0;
}

void guest_view_clear(struct guest_view *g)
{
	strlist_clear(&g->programs);
	strlist_clear(&g->workloads);
	free(g->check_binary);
	memset(g, 0, sizeof(*g));
}

struct lookup_ctx {
	const struct guest_view *g;
	char *missing;         /* an $OOMLAB_ variable the guest does not have */
};

static int guest_variable(void *data, const char *name, const char **value)
{
	struct lookup_ctx *ctx = data;
	static const struct {
		const char *name, *value;
	} env[] = { { "PATH", GUEST_ENV_PATH }, { "HOME", GUEST_ENV_HOME }, { "TERM", GUEST_ENV_TERM },
		    { "OOMLAB_SCRATCH", GUEST_ENV_SCRATCH } };
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		if (!strcmp(name, env[i].name)) {
			*value = env[i].value;
			return 1;
		}
	if (!strcmp(name, "OOMLAB_SLOW_DISK") && ctx->g->slow_disk) {
		*value = SLOW_DISK_STAND_IN;
		return 1;
	}
	/* stand-ins: the check splits the line, it runs nothing with them */
	if (ctx->g->restored && (!strcmp(name, GUEST_ENV_SEED) || !strcmp(name, GUEST_ENV_TRIAL))) {
		*value = !strcmp(name, GUEST_ENV_SEED) ? "1" : "restore-1";
		return 1;
	}
	if (starts_with(name, "OOMLAB_") && !ctx->missing)
		ctx->missing = xstrdup(name);
	return 0;
}

/* The program NAME runs in the guest (a path there), or NULL. */
static const char *resolve(const struct guest_view *g, const char *name, char *buf, size_t size)
{
	if (strchr(name, '/'))
		return strlist_has(&g->programs, name) ? name : NULL;
	const char *dirs = GUEST_ENV_PATH;
	while (*dirs) {
		size_t len = strcspn(dirs, ":");
		snprintf(buf, size, "%.*s/%s", (int)len, dirs, name);
		if (strlist_has(&g->programs, buf))
			return buf;
		dirs += len + (dirs[len] == ':');
	}
	return NULL;
}

/* The workload a guest path is the link of, or NULL. */
static const char *workload_of(const struct guest_view *g, const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	return starts_with(path, "/usr/bin/") && strlist_has(&g->workloads, base) ? base : NULL;
}

static void list_workloads(const struct guest_view *g, struct strbuf *sb)
{
	for (size_t i = 0; i < g->workloads.n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", g->workloads.items[i]);
}

/* The test word of `selftest [OPTIONS] SUITE/TEST` or `selftest [OPTIONS] SUITE`, as
 * selftest-build.c finds it, against the name rule (name-rule.h). */
static int selftest_name_check(const struct shell_command *c, size_t k, struct strbuf *err)
{
	/* a word only the guest knows stands as "": no option, so the name */
	const char **args = xcalloc(c->n - k + 1, sizeof(*args));
	for (size_t i = k; i < c->n; i++)
		args[i - k] = c->words[i].known ? c->words[i].text : "";
	k += selftest_operand(args);
	free(args);
	if (k >= c->n)
		return 0;   /* no test named: the workload's own check says so */
	const struct shell_word *w = &c->words[k];
	if (!w->known) {
		strbuf_addstr(err, "selftest: the test's name is a word only the guest can expand; "
				   "write SUITE/TEST out");
		return -1;
	}
	/* SUITE/TEST, or SUITE alone: the whole suite */
	const char *why = name_rule_refusal(w->text, NAME_PATH);
	if (why) {
		char *shown = name_rule_shown(w->text);
		strbuf_addf(err, "selftest %s: %s", shown, why);
		free(shown);
		return -1;
	}
	return 0;
}

/* WORKLOAD's arguments through its own parser on the host. */
static int check_arguments(const struct guest_view *g, const char *workload,
			   const struct shell_command *c, size_t first_arg, struct strlist *notes,
			   struct strbuf *err)
{
	/* a selftest's name becomes a path on the host (selftest-build.h): it is
	 * checked here whatever the other words hold */
	if (!strcmp(workload, "selftest") && selftest_name_check(c, first_arg, err) < 0)
		return -1;
	for (size_t k = first_arg; k < c->n; k++)
		if (!c->words[k].known) {
			if (notes)
				strlist_push_owned(notes, xasprintf("the arguments of %s hold a word only the "
								    "guest can expand: not checked", workload));
			return 0;
		}
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, g->check_binary);
	strlist_push(&argv, "--check");
	strlist_push_owned(&argv, xasprintf("--mem-total=%llu", g->memory));
	strlist_push_owned(&argv, xasprintf("--numa-nodes=%u", g->numa_nodes));
	strlist_push(&argv, "--");
	strlist_push(&argv, workload);
	for (size_t k = first_arg; k < c->n; k++)
		strlist_push(&argv, c->words[k].text);
	struct strbuf out = STRBUF_INIT;
	int status = capture_command(strlist_argv(&argv), NULL, &out);
	int rc = 0;
	if (status == 2) {
		strbuf_addstr(err, strbuf_first_line(&out));
		rc = -1;
	} else if (status != 0) {
		strbuf_addf(err, "%s --check %s failed (status %d): %s", g->check_binary, workload, status,
			    strbuf_first_line(&out));
		rc = -1;
	}
	strbuf_release(&out);
	strlist_clear(&argv);
	return rc;
}

/* How many words from C's word K on belong to a runner (taskset, time)
 * before the program it runs; 0 when word K is no runner, or the words the
 * runner reads are not all known. */
static size_t runner_skips(const struct shell_command *c, size_t k)
{
	const char **argv = shell_command_known_words(c, k, NULL);
	size_t skip = (size_t)(workload_line_past_runners(argv) - argv);
	free(argv);
	return skip;
}

/* One simple command; 1 when the rest of the line is not to be looked at. */
static int check_command(const struct guest_view *g, const struct shell_command *c, bool exec_first,
			 struct strlist *notes, struct strbuf *err)
{
	if (exec_first && c->assignments) {
		strbuf_addstr(err, "a workload line starts with its program, not an assignment");
		return -1;
	}
	size_t k = 0;
	while (k < c->n && c->words[k].known &&
	       str_in_list(c->words[k].text, shell_words_before_command)) {
		if (exec_first) {
			strbuf_addf(err, "a workload line starts with its program, not '%s' (shell code "
				    "goes in sh -c '...')", c->words[k].text);
			return -1;
		}
		k++;
	}
	if (k == c->n)
		return 0;
	const struct shell_word *name = &c->words[k];
	if (!name->known) {
		if (notes)
			strlist_push(notes, "a program's name is a word only the guest can expand: not checked");
		return 0;
	}
	char buf[512];
	const char *path = resolve(g, name->text, buf, sizeof(buf));
	bool syntax = str_in_list(name->text, syntax_words) ||
		      str_in_list(name->text, opaque_words) || str_in_list(name->text, builtins);
	if (!path && syntax && !exec_first)
		return str_in_list(name->text, opaque_words);
	if (!path) {
		strbuf_addf(err, "'%s' is neither a workload (", name->text);
		list_workloads(g, err);
		strbuf_addf(err, ") nor a program of the guest%s", exec_first && syntax
			    ? " (a workload line starts with its program; shell code goes in sh -c '...')"
			    : g->files ? " (busybox's applets, perf, stress-ng, the files' executables: "
					 "their top level and bin/ are on PATH)"
			    : " (busybox's applets, perf, stress-ng; a program of your own comes with "
			      "files = DIR or lab boot --files DIR)");
		return -1;
	}
	/* `taskset [-a] MASK CMD...` and `time [-v] CMD...` run CMD (the timing
	 * experiments pin sendVec): CMD is checked as if it stood there
	 * itself, found by the line runner's own rule (workload-line.h). */
	size_t inner = runner_skips(c, k);
	if (inner) {
		struct shell_command rest = *c;
		rest.words = c->words + k + inner;
		rest.n = c->n - k - inner;
		rest.assignments = 0;
		return check_command(g, &rest, false, notes, err);
	}
	const char *workload = workload_of(g, path);
	if (workload)
		return check_arguments(g, workload, c, k + 1, notes, err);
	if (!strcmp(path, "/usr/bin/oomlab-workload") && k + 1 < c->n && c->words[k + 1].known &&
	    c->words[k + 1].text[0] != '-') {
		workload = c->words[k + 1].text;
		if (!strlist_has(&g->workloads, workload)) {
			strbuf_addf(err, "oomlab-workload: unknown workload '%s' (workloads: ", workload);
			list_workloads(g, err);
			strbuf_addstr(err, ")");
			return -1;
		}
		return check_arguments(g, workload, c, k + 2, notes, err);
	}
	return 0;
}

/* Why the guest's shell could not run the line as split (a variable it lacks). */
static char *missing_variable(const char *name)
{
	if (!strcmp(name, "OOMLAB_SLOW_DISK"))
		return xstrdup("$OOMLAB_SLOW_DISK is set only under a profile with a slow disk "
			       "(slow_disk_size), and this one has none");
	if (!strcmp(name, GUEST_ENV_SEED) || !strcmp(name, GUEST_ENV_TRIAL))
		return xasprintf("$%s is set only in trials restored from a saved boot (lab boot "
				 "--restores, an experiment's restores)", name);
	return xasprintf("the guest has no $%s (it sets $OOMLAB_SCRATCH and, with a slow disk, "
			 "$OOMLAB_SLOW_DISK)", name);
}

void command_lines_add(struct command_lines *lines, const struct guest_view *g, const char *key,
		       const char *text, int line, bool program_first)
{
	ALLOC_GROW(lines->items, lines->n + 1, lines->alloc);
	struct command_line *cl = &lines->items[lines->n++];
	*cl = (struct command_line){ .key = key, .text = text, .line = line,
				     .program_first = program_first };
	struct lookup_ctx ctx = { g, NULL };
	struct strbuf err = STRBUF_INIT;
	if (shell_line_split(text, g ? guest_variable : NULL, &ctx, &cl->split, &err) < 0) {
		cl->bad = strbuf_detach(&err);
	} else if (ctx.missing) {
		shell_line_clear(&cl->split);
		cl->bad = missing_variable(ctx.missing);
	}
	strbuf_release(&err);
	free(ctx.missing);
}

void experiment_command_lines(const struct experiment *e, const struct guest_view *g,
			      struct command_lines *out)
{
	/* The experiment's script runs each workload line as "run LINE", and run
	 * execs its arguments (experiment_command). */
	*out = (struct command_lines){ .file = e->path };
	/* an experiment of restores gives its lines $OOMLAB_SEED and $OOMLAB_TRIAL */
	struct guest_view view;
	if (g) {
		view = *g;
		view.restored = g->restored || e->restores > 0;
		g = &view;
	}
	if (e->prepare)
		command_lines_add(out, g, "prepare", e->prepare, e->prepare_line, false);
	for (size_t i = 0; i < e->workloads.n; i++)
		command_lines_add(out, g, "workload", e->workloads.items[i], e->workload_lines[i], true);
}

int command_line_check(const struct guest_view *g, const struct command_line *cl,
		       struct strlist *notes, struct strbuf *err)
{
	if (cl->bad) {
		strbuf_addstr(err, cl->bad);
		return -1;
	}
	const struct shell_line *sl = &cl->split;
	if (cl->program_first && !sl->n) {
		strbuf_addstr(err, "no command");
		return -1;
	}
	for (size_t i = 0; i < sl->n; i++) {
		int r = check_command(g, &sl->commands[i], cl->program_first && i == 0, notes, err);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	return 0;
}

int command_check(const struct guest_view *g, const char *line, bool program_first,
		  struct strlist *notes, struct strbuf *err)
{
	struct command_lines lines = { .file = "" };
	command_lines_add(&lines, g, "", line, 0, program_first);
	int rc = command_line_check(g, &lines.items[0], notes, err);
	command_lines_clear(&lines);
	return rc;
}

int command_lines_check(const struct command_lines *lines, const struct guest_view *g,
			struct strbuf *err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < lines->n; i++) {
		const struct command_line *cl = &lines->items[i];
		struct strlist notes = STRLIST_INIT;
		struct strbuf why = STRBUF_INIT;
		rc = command_line_check(g, cl, &notes, &why);
		if (rc < 0)
			strbuf_addf(err, "%s:%d: %s = %s: %s", lines->file, cl->line, cl->key, cl->text,
				    why.buf);
		for (size_t k = 0; rc == 0 && k < notes.n; k++)
			note("%s:%d: %s", lines->file, cl->line, notes.items[k]);
		strlist_clear(&notes);
		strbuf_release(&why);
	}
	return rc;
}

int experiment_check_commands(const struct experiment *e, const struct guest_view *g,
			      struct strbuf *err)
{
	struct command_lines lines;
	experiment_command_lines(e, g, &lines);
	int rc = command_lines_check(&lines, g, err);
	command_lines_clear(&lines);
	return rc;
}
