/* The kernel selftests an experiment runs, built from the variant's tree (selftest-build.h). */
#include "selftest-build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/folder.h"
#include "common/paths.h"
#include "common/proto/protocol.h"
#include "common/proto/selftest-line.h"
#include "common/proto/workload-line.h"
#include "common/run-command.h"
#include "guest-root.h"
#include "lab/kernel/kbuild.h"
#include "lab/util/glob.h"
#include "lab/util/hash.h"
#include "lab/util/progress.h"
#include "lab/util/shell-words.h"

/* Bumped when the way tests are built changes, so that old builds are not taken. */
#define SELFTEST_RECIPE "2"
#define SELFTESTS "tools/testing/selftests"
/* procps' pgrep on the host (scripts/install-deps: procps) */
#define PGREP "/usr/bin/pgrep"

/* A workload line's "test" without '/' names a whole suite. */
static bool is_suite(const char *test)
{
	return !strchr(test, '/');
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The test a command names when its program is selftest (as a workload
 * line's is found, common/proto/workload-line.h), or NULL: `selftest
 * [OPTIONS] SUITE/TEST ...` or `selftest [OPTIONS] SUITE [CATEGORY...]`
 * (selftest-line.h); a suite's further words go into CATEGORIES. Words the
 * host cannot know end the command. */
static char *command_test(const struct shell_command *c, struct strlist *categories)
{
	const char **argv = shell_command_known_words(c, 0, NULL);
	const char *const *w = workload_line_program(argv);
	char *test = NULL;
	if (w[0] && !strcmp(base_name(w[0]), "selftest")) {
		const char *const *at = w + 1 + selftest_operand(w + 1);
		test = *at ? xstrdup(*at) : NULL;
		for (size_t k = 1; test && is_suite(test) && at[k]; k++)
			if (!strlist_has(categories, at[k]))
				strlist_push(categories, at[k]);
	}
	free(argv);
	return test;
}

void selftests_named(const struct command_lines *lines, struct selftest_list *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < lines->n; i++) {
		/* a line that cannot be split: the command check says what is wrong */
		const struct shell_line *sl = &lines->items[i].split;
		for (size_t c = 0; c < sl->n; c++) {
			struct strlist categories = STRLIST_INIT;
			char *test = command_test(&sl->commands[c], &categories);
			struct selftest_named *seen = NULL;
			for (size_t k = 0; test && k < out->n && !seen; k++)
				if (!strcmp(out->items[k].test, test))
					seen = &out->items[k];
			if (test && !seen) {
				ALLOC_GROW(out->items, out->n + 1, out->alloc);
				seen = &out->items[out->n++];
				*seen = (struct selftest_named){ .test = test, .file = lines->file,
								 .line = lines->items[i].line,
								 .categories = STRLIST_INIT };
				test = NULL;
			}
			/* a suite named twice: every category of both lines is checked */
			for (size_t k = 0; seen && k < categories.n; k++)
				if (!strlist_has(&seen->categories, categories.items[k]))
					strlist_push(&seen->categories, categories.items[k]);
			strlist_clear(&categories);
			free(test);
		}
	}
}

void selftest_list_clear(struct selftest_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].test);
		strlist_clear(&l->items[i].categories);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

char *selftest_dir(const struct variant *v)
{
	struct hasher *h = hasher_new();
	char key[65];
	hasher_add_str(h, "recipe", SELFTEST_RECIPE);
	hasher_add_str(h, "source", v->source.id ? v->source.id : "");
	hasher_add_str(h, "arch", arch_facts(v->target.platform.arch)->name);
	for (size_t i = 0; i < v->patches.n; i++) {
		size_t len = 0;
		char *bytes = read_file(v->patches.items[i], &len);
		hasher_add_str(h, "patch", base_name(v->patches.items[i]));
		hasher_add_field(h, "bytes", bytes ? bytes : "", bytes ? len : 0);
		free(bytes);
	}
	hasher_finish(h, key);
	return xasprintf("%s/selftests/%.16s", cache_root(), key);
}

/* Where a message about NAMED starts: "FILE:LINE: " or "FILE: ". */
static void place(struct strbuf *err, const struct selftest_named *named)
{
	if (named->line > 0)
		strbuf_addf(err, "%s:%d: ", named->file, named->line);
	else
		strbuf_addf(err, "%s: ", named->file);
}

struct build_ctx {
	const struct variant *v;
	const struct selftest_list *list;
	const char *dir;       /* the finished folder */
	const char *log;
	struct progress *pr;
};

static void remove_new_names(const char *folder, const struct strlist *before)
{
	struct strlist after = STRLIST_INIT;
	folder_list(folder, 0, &after);
	for (size_t i = 0; i < after.n; i++)
		if (!strlist_has(before, after.items[i])) {
			char *path = xasprintf("%s/%s", folder, after.items[i]);
			remove_tree(path);
			free(path);
		}
	strlist_clear(&after);
}

/* make -C SUITE's folder OUTPUT=STAGE/SUITE ... STAGE/SUITE/PROGRAM for each
 * of PROGRAMS, statically linked; with more than one, in one make that goes
 * on past a program that fails (-k), as many at once as the host has cores.
 * 0 when make succeeded and every program is there. */
static int make_programs(const struct build_ctx *ctx, const char *tree, const char *headers,
			 const char *stage, const char *suite, const struct strlist *programs)
{
	const struct arch_facts *f = arch_facts(ctx->v->target.platform.arch);
	char *folder = xasprintf("%s/" SELFTESTS "/%s", tree, suite);
	struct strlist args = STRLIST_INIT;
	strlist_push(&args, "make");
	strlist_push(&args, "-C");
	strlist_push(&args, folder);
	strlist_push_owned(&args, xasprintf("OUTPUT=%s/%s", stage, suite));
	strlist_push_owned(&args, xasprintf("KHDR_INCLUDES=-isystem %s", headers));
	strlist_push(&args, "LDFLAGS=-static");
	if (ctx->v->target.platform.arch != ARCH_X86_64) {
		strlist_push_owned(&args, xasprintf("ARCH=%s", f->kernel_arch));
		strlist_push_owned(&args, xasprintf("CROSS_COMPILE=%s", f->cross_prefix));
	}
	if (programs->n > 1) {
		strlist_push(&args, "-k");
		strlist_push_owned(&args, xasprintf("-j%ld", sysconf(_SC_NPROCESSORS_ONLN)));
	}
	for (size_t i = 0; i < programs->n; i++)
		strlist_push_owned(&args, xasprintf("%s/%s/%s", stage, suite, programs->items[i]));
	const char **argv = xcalloc(args.n + 1, sizeof(*argv));
	for (size_t i = 0; i < args.n; i++)
		argv[i] = args.items[i];
	const char *env[] = { "LC_ALL=C", NULL };
	struct strlist before = STRLIST_INIT;
	folder_list(folder, 0, &before);
	char *output = xasprintf("%s/%s", stage, suite);
	mkdir_p(output, 0755);
	struct child_process cp = { .argv = argv, .env = env, .out_path = ctx->log, .err_to_out = true };
	int status = run_command(&cp);
	/* mm's check_config.sh writes local_config.{h,mk} into the shared tree */
	remove_new_names(folder, &before);
	strlist_clear(&before);
	for (size_t i = 0; status == 0 && i < programs->n; i++) {
		char *built = xasprintf("%s/%s", output, programs->items[i]);
		if (access(built, X_OK) < 0)
			status = -1;
		free(built);
	}
	free(output);
	free(argv);
	strlist_clear(&args);
	free(folder);
	return status;
}

/* One test (SUITE/TEST) by make_programs. */
static int make_test(const struct build_ctx *ctx, const char *tree, const char *headers,
		     const char *stage, const char *test)
{
	char *suite = xstrndup(test, (size_t)(strrchr(test, '/') - test));
	struct strlist one = STRLIST_INIT;
	strlist_push(&one, strrchr(test, '/') + 1);
	int status = make_programs(ctx, tree, headers, stage, suite, &one);
	strlist_clear(&one);
	free(suite);
	return status;
}

/* Copies FROM to the cache's TO whole or not at all, with MODE. */
static int copy_into_cache(const char *from, const char *to, mode_t mode, struct strbuf *err)
{
	char *tmp = xasprintf("%s.tmp-%d", to, (int)getpid());
	int rc = 0;
	if (copy_file(from, tmp) < 0 || chmod(tmp, mode) < 0 || rename(tmp, to) < 0) {
		strbuf_addf(err, "cannot put %s into %s: %s", from, to, strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	return rc;
}

/* Where one build happens: the tree, its headers and the staging folder. */
struct built_in {
	const struct build_ctx *ctx;
	const char *tree, *headers, *stage;
};

/* What build_into_cache() made of one test. */
enum built { BUILT, NOT_BUILT /* its build failed: the log says why */, NOT_CACHED /* ERR says why */ };

/* TEST (SUITE/TEST) built into the staging folder, then its program alone
 * into the cache, whole or not at all. */
static enum built build_into_cache(const struct built_in *b, const char *test, struct strbuf *err)
{
	char *built = xasprintf("%s/%s", b->ctx->dir, test);
	enum built rc = BUILT;
	char *staged = xasprintf("%s/%s", b->stage, test);
	if (!path_exists(built)) {
		progress_step(b->ctx->pr, test, 0);
		/* a suite's programs were made together first (build_suite) */
		if (access(staged, X_OK) < 0 &&
		    make_test(b->ctx, b->tree, b->headers, b->stage, test) != 0) {
			rc = NOT_BUILT;
		} else {
			char *from = xasprintf("%s/%s", b->stage, test);
			char *folder = xstrndup(built, (size_t)(strrchr(built, '/') - built));
			mkdir_p(folder, 0755);
			if (copy_into_cache(from, built, 0755, err) < 0)
				rc = NOT_CACHED;
			free(from);
			free(folder);
		}
	}
	free(staged);
	free(built);
	return rc;
}

static int build_test(const struct built_in *b, const struct selftest_named *named,
		      struct strbuf *err)
{
	enum built rc = build_into_cache(b, named->test, err);
	if (rc == NOT_BUILT) {
		char *last = kbuild_log_tail(b->ctx->log);
		place(err, named);
		strbuf_addf(err, "selftest %s: its build failed: %s (full log: %s)", named->test, last,
			    b->ctx->log);
		free(last);
	}
	return rc == BUILT ? 0 : -1;
}

/* The words of VARS (e.g. "$(TEST_GEN_PROGS)") as SUITE's Makefile, through
 * selftests/lib.mk, sets them, each without its folder, into OUT. */
static int suite_make_words(const struct built_in *b, const char *suite, const char *vars,
			    struct strlist *out)
{
	char *folder = xasprintf("%s/" SELFTESTS "/%s", b->tree, suite);
	char *output = xasprintf("OUTPUT=%s/%s", b->stage, suite);
	char *eval = xasprintf("--eval=oomlab-words: ; @echo %s", vars);
	const char *argv[] = { "make", "-s", "--no-print-directory", "-C", folder, output, eval,
			       "oomlab-words", NULL };
	struct strlist before = STRLIST_INIT;
	folder_list(folder, 0, &before);
	struct strbuf text = STRBUF_INIT;
	int rc = capture_command(argv, NULL, &text);
	remove_new_names(folder, &before);   /* as make_test: nothing left in the tree */
	strlist_clear(&before);
	for (char *w = strtok(text.buf, " \t\n"); rc == 0 && w; w = strtok(NULL, " \t\n"))
		if (!strlist_has(out, base_name(w)))
			strlist_push(out, base_name(w));
	strbuf_release(&text);
	free(folder);
	free(output);
	free(eval);
	return rc;
}

/* The categories of the runner script at PATH, in the order they first
 * appear: each CATEGORY="NAME" it sets before a run_test. */
static int runner_categories(const char *path, struct strlist *out)
{
	char *text = read_file(path, NULL);
	if (!text)
		return -1;
	static const char key[] = "CATEGORY=\"";
	for (const char *p = strstr(text, key); p; p = strstr(p, key)) {
		p += strlen(key);
		size_t len = strcspn(p, "\"\n");
		char *name = xstrndup(p, len);
		if (len && p[len] == '"' && !strlist_has(out, name))
			strlist_push_owned(out, name);
		else
			free(name);
	}
	free(text);
	return 0;
}

/* The program or script names of a suite: which ones, and how they run. */
struct suite_parts {
	struct strlist programs;   /* to build */
	struct strlist scripts;    /* a runner suite's: copied from the tree */
	struct strlist lines;      /* the list's lines, once known */
	bool runner;               /* run by SELFTEST_RUNNER */
};

/* The lines a runner suite's list has: SELFTEST_RUNNER_LINE CATEGORY for each category. */
static int runner_lines(const struct built_in *b, const char *suite, struct suite_parts *parts)
{
	char *script = xasprintf("%s/" SELFTESTS "/%s/" SELFTEST_RUNNER, b->tree, suite);
	struct strlist categories = STRLIST_INIT;
	int rc = runner_categories(script, &categories);
	for (size_t i = 0; rc == 0 && i < categories.n; i++)
		strlist_push_owned(&parts->lines,
				   xasprintf(SELFTEST_RUNNER_LINE "%s", categories.items[i]));
	strlist_clear(&categories);
	free(script);
	return rc == 0 && parts->lines.n ? 0 : -1;
}

/*
 * What a suite is made of: its TEST_GEN_PROGS; or, when TEST_PROGS names
 * SELFTEST_RUNNER (mm), the programs of TEST_GEN_FILES and TEST_GEN_PROGS,
 * the scripts of TEST_PROGS and TEST_FILES and the runner's categories.
 */
static int suite_parts_read(const struct built_in *b, const char *suite, struct suite_parts *parts)
{
	struct strlist progs = STRLIST_INIT;
	int rc = suite_make_words(b, suite, "$(TEST_PROGS)", &progs);
	parts->runner = rc == 0 && strlist_has(&progs, SELFTEST_RUNNER);
	strlist_clear(&progs);
	if (rc < 0)
		return -1;
	if (!parts->runner)
		return suite_make_words(b, suite, "$(TEST_GEN_PROGS)", &parts->programs);
	if (suite_make_words(b, suite, "$(TEST_GEN_FILES) $(TEST_GEN_PROGS)", &parts->programs) < 0 ||
	    suite_make_words(b, suite, "$(TEST_PROGS) $(TEST_FILES)", &parts->scripts) < 0)
		return -1;
	return runner_lines(b, suite, parts);
}

static void suite_parts_clear(struct suite_parts *parts)
{
	strlist_clear(&parts->programs);
	strlist_clear(&parts->scripts);
	strlist_clear(&parts->lines);
}

/* A runner suite's scripts, from the tree, and the static bash that runs
 * them, into the cache's suite folder. The scripts are not executable
 * there: the guest's runner makes its copy of them so, beside its bash. */
static int copy_runner(const struct built_in *b, const char *suite, const struct suite_parts *parts,
		       struct strbuf *err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < parts->scripts.n; i++) {
		char *from = xasprintf("%s/" SELFTESTS "/%s/%s", b->tree, suite, parts->scripts.items[i]);
		char *to = xasprintf("%s/%s/%s", b->ctx->dir, suite, parts->scripts.items[i]);
		rc = copy_into_cache(from, to, 0644, err);
		free(from);
		free(to);
	}
	enum guest_arch arch = b->ctx->v->target.platform.arch;
	char *bash = guest_root_bash(arch);
	char *to = xasprintf("%s/%s/" SELFTEST_RUNNER_BASH, b->ctx->dir, suite);
	if (rc == 0 && !path_exists(bash)) {
		strbuf_addf(err, "selftest %s: %s is missing (scripts/install-deps installs bash-static)",
			    suite, bash);
		rc = -1;
	} else if (rc == 0) {
		rc = copy_into_cache(bash, to, 0755, err);
	}
	free(bash);
	free(to);
	/* procps' pgrep, dynamically linked: its libraries come along as a
	 * user's program's do (guest-files.h); only the host's architecture has one */
	to = xasprintf("%s/%s/" SELFTEST_RUNNER_PGREP, b->ctx->dir, suite);
	if (rc == 0 && arch == host_arch() && path_exists(PGREP))
		rc = copy_into_cache(PGREP, to, 0755, err);
	else if (rc == 0)
		note("selftest %s: no pgrep for %s guests: mm's charge_reserved_hugetlb.sh will fail",
		     suite, arch_facts(arch)->name);
	free(to);
	return rc;
}

/* The categories NAMED asks of its suite, each one of the runner's (the
 * categories of LIST's lines, when they are a runner's). */
static int check_categories(const struct selftest_named *named, const char *list,
			    struct strbuf *err)
{
	if (!named->categories.n)
		return 0;
	const size_t skip = strlen(SELFTEST_RUNNER_LINE);
	struct strlist categories = STRLIST_INIT;
	char *text = read_file(list, NULL);
	for (char *l = text ? strtok(text, "\n") : NULL; l; l = strtok(NULL, "\n"))
		if (!strncmp(l, SELFTEST_RUNNER_LINE, skip))
			strlist_push(&categories, l + skip);
	free(text);
	int rc = 0;
	if (!categories.n) {
		place(err, named);
		strbuf_addf(err, "selftest %s: a suite without a runner script takes no categories "
			    "('%s'); name a test (selftest %s/TEST)", named->test,
			    named->categories.items[0], named->test);
		rc = SELFTEST_NOT_IN_TREE;
	}
	for (size_t i = 0; rc == 0 && i < named->categories.n; i++) {
		if (strlist_has(&categories, named->categories.items[i]))
			continue;
		struct strbuf known = STRBUF_INIT, near = STRBUF_INIT;
		for (size_t k = 0; k < categories.n; k++)
			strbuf_addf(&known, "%s%s", k ? " " : "", categories.items[k]);
		place(err, named);
		strbuf_addf(err, "selftest %s: its " SELFTEST_RUNNER " has no category '%s'",
			    named->test, named->categories.items[i]);
		if (glob_suggest(&near, (const char *const *)categories.items, categories.n,
				 named->categories.items[i], 1))
			strbuf_addf(err, "; did you mean %s?", near.buf);
		strbuf_addf(err, " (it has: %s)", known.buf);
		strbuf_release(&known);
		strbuf_release(&near);
		rc = SELFTEST_NOT_IN_TREE;
	}
	strlist_clear(&categories);
	return rc;
}

/*
 * A whole suite (selftest-build.h). A program that does not build is left
 * out and named (the log keeps why); the list (SELFTEST_SUITE_LIST) is
 * written last, so a suite is in the cache once its list is.
 */
static int build_suite(const struct built_in *b, const struct selftest_named *named,
		       struct strbuf *err)
{
	const char *suite = named->test;
	char *list = xasprintf("%s/%s/" SELFTEST_SUITE_LIST, b->ctx->dir, suite);
	struct suite_parts parts = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT, false };
	struct strlist built = STRLIST_INIT, failed = STRLIST_INIT;
	int rc = 0;
	if (path_exists(list))
		goto out;
	if (suite_parts_read(b, suite, &parts) < 0 || !parts.programs.n) {
		place(err, named);
		strbuf_addf(err, "selftest %s: its Makefile lists no TEST_GEN_PROGS and it has no "
			    SELFTEST_RUNNER "; name its tests one by one (selftest %s/TEST)", suite,
			    suite);
		rc = SELFTEST_NOT_IN_TREE;   /* the input's mistake, as a missing test */
		goto out;
	}
	/* every program not yet cached, in one make: one that fails is made
	 * again alone below, so that the log ends with its own error */
	struct strlist missing = STRLIST_INIT;
	for (size_t i = 0; i < parts.programs.n; i++) {
		char *cached = xasprintf("%s/%s/%s", b->ctx->dir, suite, parts.programs.items[i]);
		if (!path_exists(cached))
			strlist_push(&missing, parts.programs.items[i]);
		free(cached);
	}
	if (missing.n > 1) {
		progress_step(b->ctx->pr, suite, 0);
		make_programs(b->ctx, b->tree, b->headers, b->stage, suite, &missing);
	}
	strlist_clear(&missing);
	for (size_t i = 0; rc == 0 && i < parts.programs.n; i++) {
		char *test = xasprintf("%s/%s", suite, parts.programs.items[i]);
		enum built r = build_into_cache(b, test, err);
		if (r == NOT_CACHED)
			rc = -1;
		else
			strlist_push(r == NOT_BUILT ? &failed : &built, parts.programs.items[i]);
		free(test);
	}
	if (rc == 0 && !built.n) {
		place(err, named);
		strbuf_addf(err, "selftest %s: none of its %zu programs built (full log: %s)", suite,
			    parts.programs.n, b->ctx->log);
		rc = -1;
	}
	if (rc == 0 && failed.n) {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < failed.n; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", failed.items[i]);
		note("selftest %s: %zu of %zu programs did not build and are left out: %s (why: %s)",
		     suite, failed.n, parts.programs.n, names.buf, b->ctx->log);
		strbuf_release(&names);
	}
	if (rc == 0 && parts.runner)
		rc = copy_runner(b, suite, &parts, err);
	if (rc == 0) {
		const struct strlist *lines = parts.runner ? &parts.lines : &built;
		struct strbuf text = STRBUF_INIT;
		for (size_t i = 0; i < lines->n; i++)
			strbuf_addf(&text, "%s\n", lines->items[i]);
		/* write_file_str is atomic: the list is whole or absent */
		if (write_file_str(list, text.buf) < 0) {
			strbuf_addf(err, "cannot write %s: %s", list, strerror(errno));
			rc = -1;
		}
		strbuf_release(&text);
	}
out:
	suite_parts_clear(&parts);
	strlist_clear(&built);
	strlist_clear(&failed);
	free(list);
	return rc;
}

static int build_in_tree(const char *tree, const char *ws, void *arg, struct strbuf *err)
{
	struct build_ctx *ctx = arg;
	const struct platform *p = &ctx->v->target.platform;
	/* every name first: a test the tree lacks is the experiment's mistake, before any compiling */
	for (size_t i = 0; i < ctx->list->n; i++) {
		const struct selftest_named *named = &ctx->list->items[i];
		/* a test is its source file; a suite, its folder's Makefile */
		const char *what = is_suite(named->test) ? "/Makefile" : ".c";
		char *source = xasprintf("%s/" SELFTESTS "/%s%s", tree, named->test, what);
		bool there = path_exists(source);
		free(source);
		if (!there) {
			place(err, named);
			strbuf_addf(err, "selftest %s: variant %s's tree has no " SELFTESTS "/%s%s",
				    named->test, ctx->v->name, named->test, what);
			return SELFTEST_NOT_IN_TREE;
		}
	}
	char *obj = xasprintf("%s/obj-headers-%s", ws, arch_facts(p->arch)->name);
	char *headers = xasprintf("%s/usr/include", obj);
	char *stage = xasprintf("%s.tmp-%d", ctx->dir, (int)getpid());
	int rc = 0;
	mkdir_p(obj, 0755);
	progress_step(ctx->pr, "headers", 0);
	if (kbuild_make(tree, obj, p, ctx->log, "headers") != 0) {
		char *last = kbuild_log_tail(ctx->log);
		strbuf_addf(err, "selftests of %s: make headers failed: %s (full log: %s)", ctx->v->name,
			    last, ctx->log);
		free(last);
		rc = -1;
	}
	remove_tree(stage);
	for (size_t i = 0; rc == 0 && i < ctx->list->n; i++) {
		const struct selftest_named *named = &ctx->list->items[i];
		struct built_in built = { ctx, tree, headers, stage };
		rc = is_suite(named->test) ? build_suite(&built, named, err)
					   : build_test(&built, named, err);
	}
	remove_tree(stage);
	free(obj);
	free(headers);
	free(stage);
	return rc;
}

static int build_into(const struct variant *v, const struct selftest_list *list, const char *dir,
		      struct strbuf *err)
{
	size_t missing = 0;
	for (size_t i = 0; i < list->n; i++) {
		const char *test = list->items[i].test;
		char *built = is_suite(test) ? xasprintf("%s/%s/" SELFTEST_SUITE_LIST, dir, test)
					     : xasprintf("%s/%s", dir, test);
		missing += !path_exists(built);
		free(built);
	}
	int rc = 0;
	if (missing) {
		char *log = xasprintf("%s.log", dir);
		unlink(log);
		mkdir_p(dir, 0755);
		struct progress pr;
		char label[128];
		snprintf(label, sizeof(label), "selftests of %s", v->name);
		progress_begin(&pr, label);
		struct build_ctx ctx = { .v = v, .list = list, .dir = dir, .log = log, .pr = &pr };
		rc = kbuild_with_tree(v, &pr, build_in_tree, &ctx, err);
		char took[32];
		format_duration(took, sizeof(took), now_monotonic() - pr.start);
		if (rc == 0)
			progress_end(&pr, "%zu built in %s", missing, took);
		else
			progress_end(&pr, "failed after %s", took);
		free(log);
	}
	return rc;
}

int selftests_prepare(const struct variant *v, const struct selftest_list *list,
		      struct guest_files *files, struct strbuf *err)
{
	char *dir = selftest_dir(v);
	int rc = build_into(v, list, dir, err);
	/* the categories a line names: known from the built suite's list, cached or new */
	for (size_t i = 0; rc == 0 && i < list->n; i++) {
		const struct selftest_named *named = &list->items[i];
		char *suite_list = xasprintf("%s/%s/" SELFTEST_SUITE_LIST, dir, named->test);
		if (is_suite(named->test))
			rc = check_categories(named, suite_list, err);
		free(suite_list);
	}
	if (rc == 0)
		rc = guest_files_add_under(files, dir, GUEST_SELFTESTS_UNDER, err);
	if (rc == 0)
		guest_files_finish(files);
	free(dir);
	return rc;
}
