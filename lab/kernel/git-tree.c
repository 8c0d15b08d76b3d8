/* A commit's tree from a local git repository (git-tree.h). */
#include "git-tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/run-command.h"

/* More changed files than this: exported again in full rather than in parts. */
#define MAX_CHANGED 5000
/* Paths per `git archive` call, well inside the argument limit. */
#define PATHS_PER_CALL 400

int git_capture(const char *repo, const char *const *args, struct strbuf *out)
{
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "git");
	strlist_push(&argv, "-C");
	strlist_push(&argv, repo);
	for (const char *const *a = args; *a; a++)
		strlist_push(&argv, *a);
	int rc = capture_command(strlist_argv(&argv), NULL, out);
	strlist_clear(&argv);
	return rc;
}

int git_capture_lines(const char *repo, const char *const *args, struct strlist *lines)
{
	struct strbuf out = STRBUF_INIT;
	int rc = git_capture(repo, args, &out);
	strlist_add_lines(lines, strbuf_str(&out), out.len);
	strbuf_release(&out);
	return rc;
}

static char *first_line_of(struct strbuf *out)
{
	return xstrdup(strbuf_first_line(out));
}

int git_resolve(const char *repo, const char *ref, char **tree, char **commit, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	*tree = *commit = NULL;
	const char *is_repo[] = { "rev-parse", "--git-dir", NULL };
	if (git_capture(repo, is_repo, &out) != 0) {
		strbuf_addf(err, "%s is not a git repository", repo);
		strbuf_release(&out);
		return -1;
	}
	char *want_tree = xasprintf("%s^{tree}", ref), *want_commit = xasprintf("%s^{commit}", ref);
	const char *t[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", want_tree, NULL };
	const char *c[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", want_commit, NULL };
	strbuf_reset(&out);
	int rc = -1;
	if (git_capture(repo, t, &out) != 0) {
		strbuf_addf(err, "no ref '%s' in %s", ref, repo);
	} else {
		*tree = first_line_of(&out);
		strbuf_reset(&out);
		/* a ref may name a tree, which has no commit */
		*commit = git_capture(repo, c, &out) == 0 ? first_line_of(&out) : xstrdup("");
		rc = 0;
	}
	free(want_tree);
	free(want_commit);
	strbuf_release(&out);
	return rc;
}

bool git_tree_has(const char *repo, const char *tree, const char *path)
{
	char *spec = xasprintf("%s:%s", tree, path);
	const char *args[] = { "cat-file", "-e", spec, NULL };
	struct strbuf out = STRBUF_INIT;
	bool has = git_capture(repo, args, &out) == 0;
	strbuf_release(&out);
	free(spec);
	return has;
}

/* git archive TREE [-- PATHS] into DEST, the files timed now. */
static int archive_into(const char *repo, const char *tree, const struct strlist *paths, size_t from,
			size_t count, const char *dest, struct strbuf *err)
{
	char *tar = xasprintf("%s.export.tar", dest);
	struct strlist args = STRLIST_INIT;
	strlist_push(&args, "archive");
	strlist_push(&args, "--format=tar");
	strlist_push_owned(&args, xasprintf("--output=%s", tar));
	strlist_push(&args, tree);
	if (paths) {
		strlist_push(&args, "--");
		for (size_t i = from; i < from + count; i++)
			strlist_push(&args, paths->items[i]);
	}
	struct strbuf out = STRBUF_INIT;
	int rc = git_capture(repo, strlist_argv(&args), &out);
	if (rc != 0) {
		strbuf_addf(err, "git archive of %s in %s failed: %s", tree, repo, strbuf_first_line(&out));
	} else {
		const char *untar[] = { "tar", "-x", "-m", "-f", tar, "-C", dest, NULL };
		strbuf_reset(&out);
		if ((rc = capture_command(untar, NULL, &out)) != 0)
			strbuf_addf(err, "unpacking %s failed: %s", tar, strbuf_first_line(&out));
	}
	unlink(tar);
	free(tar);
	strlist_clear(&args);
	strbuf_release(&out);
	return rc == 0 ? 0 : -1;
}

/* The changes from OLD to NEW: paths to write, paths to delete. -1 when too many. */
static int changes(const char *repo, const char *old, const char *tree, struct strlist *write,
		   struct strlist *gone)
{
	const char *args[] = { "diff-tree", "-r", "-z", "--no-renames", "--name-status", old, tree, NULL };
	struct strbuf out = STRBUF_INIT;
	if (git_capture(repo, args, &out) != 0) {
		strbuf_release(&out);
		return -1;	/* the old tree is gone from the repository: export in full */
	}
	/* "STATUS\0PATH\0" records */
	for (size_t pos = 0; pos < out.len;) {
		const char *status = out.buf + pos;
		pos += strlen(status) + 1;
		if (pos >= out.len)
			break;
		const char *path = out.buf + pos;
		pos += strlen(path) + 1;
		strlist_push(*status == 'D' ? gone : write, path);
	}
	strbuf_release(&out);
	return write->n + gone->n > MAX_CHANGED ? -1 : 0;
}

int git_tree_export(const char *repo, const char *tree, const char *dest, const char *state,
		    struct strbuf *err)
{
	char *held = read_file(state, NULL);
	if (held)
		trim(held);
	if (held && !strcmp(held, tree) && is_dir(dest)) {
		free(held);
		return 0;
	}
	unlink(state);
	struct strlist write = STRLIST_INIT, gone = STRLIST_INIT;
	bool in_parts = held && is_dir(dest) && changes(repo, held, tree, &write, &gone) == 0;
	int rc = 0;
	if (in_parts) {
		for (size_t i = 0; i < gone.n; i++) {
			char *path = xasprintf("%s/%s", dest, gone.items[i]);
			unlink(path);
			free(path);
		}
		for (size_t i = 0; rc == 0 && i < write.n; i += PATHS_PER_CALL) {
			size_t count = write.n - i < PATHS_PER_CALL ? write.n - i : PATHS_PER_CALL;
			rc = archive_into(repo, tree, &write, i, count, dest, err);
		}
	} else {
		remove_tree(dest);
		if (mkdir_p(dest, 0755) < 0) {
			strbuf_addf(err, "cannot create %s: %s", dest, strerror(errno));
			rc = -1;
		} else {
			rc = archive_into(repo, tree, NULL, 0, 0, dest, err);
		}
	}
	if (rc == 0 && write_file_str(state, tree) < 0) {
		strbuf_addf(err, "cannot write %s: %s", state, strerror(errno));
		rc = -1;
	}
	free(held);
	strlist_clear(&write);
	strlist_clear(&gone);
	return rc;
}
