/* Applying a variant's patches to the shared source tree, and undoing them. */
#include "patchset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/run-command.h"

static char *strip_component(const char *path)
{
	/* "b/drivers/x.c\t2024-01-01 ..." -> "drivers/x.c" */
	size_t len = strcspn(path, "\t\n");
	char *copy = xstrndup(path, len);
	trim(copy);
	char *slash = strchr(copy, '/');
	char *result = xstrdup(slash ? slash + 1 : copy);
	free(copy);
	return result;
}

int patch_targets(const char *patch_path, struct strlist *files, struct strbuf *err)
{
	char *text = read_file(patch_path, NULL);
	if (!text) {
		strbuf_addf(err, "%s: cannot read: %s", patch_path, strerror(errno));
		return -1;
	}
	char *old_path = NULL;
	size_t found = 0;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (starts_with(line, "--- ")) {
			free(old_path);
			old_path = xstrdup(line + 4);
		} else if (starts_with(line, "+++ ") && old_path) {
			/* A deleted file has +++ /dev/null: the old name is the target. */
			const char *target = starts_with(line + 4, "/dev/null") ? old_path : line + 4;
			char *stripped = strip_component(target);
			if (!strlist_has(files, stripped))
				strlist_push(files, stripped);
			free(stripped);
			free(old_path);
			old_path = NULL;
			found++;
		}
	}
	free(old_path);
	free(text);
	if (!found) {
		strbuf_addf(err, "%s: not a patch (no ---/+++ file headers)", patch_path);
		return -1;
	}
	return 0;
}

char *describe_patch_failure(const char *output)
{
	char *copy = xstrdup(output);
	char *file = NULL, *result = NULL, *first = NULL;
	for (char *line = copy, *next; line && !result; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line)
			continue;
		if (!first)
			first = line;
		int hunk, at;
		if (starts_with(line, "checking file ") || starts_with(line, "patching file ")) {
			free(file);
			file = xstrdup(strchr(line + 9, ' ') + 1);
		} else if (sscanf(line, "Hunk #%d FAILED at %d", &hunk, &at) == 2) {
			result = xasprintf("hunk #%d FAILED at line %d of %s", hunk, at,
					   file ? file : "(unknown file)");
		} else if (strstr(line, "can't find file to patch")) {
			result = xasprintf("a file it patches does not exist in the tree (%s)", line);
		} else if (strstr(line, "Reversed (or previously applied) patch detected")) {
			result = xasprintf("already applied or reversed in %s",
					   file ? file : "(unknown file)");
		} else if (strstr(line, "malformed patch") || strstr(line, "Only garbage")) {
			result = xstrdup(line);
		}
	}
	if (!result)
		result = xstrdup(first ? first : "patch failed without saying why");
	free(file);
	free(copy);
	return result;
}

static int copy_with_mode(const char *from, const char *to)
{
	struct stat st;
	if (stat(from, &st) < 0)
		return -1;
	char *dir = xstrdup(to);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdir_p(dir, 0755);
	}
	free(dir);
	/* copy_file writes a new file, so its modification time is now. */
	if (copy_file(from, to) < 0)
		return -1;
	return chmod(to, st.st_mode & 01777);   /* no setuid or setgid bit (the tree is anyone's) */
}

int tree_restore(const char *tree, const char *state_dir, struct strbuf *err)
{
	char *list_path = xasprintf("%s/files", state_dir);
	char *list = read_file(list_path, NULL);
	free(list_path);
	if (!list) {
		remove_tree(state_dir);
		return 0;
	}
	int rc = 0;
	for (char *line = list, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strlen(line) < 3)
			continue;
		char *in_tree = xasprintf("%s/%s", tree, line + 2);
		char *backup = xasprintf("%s/backup/%s", state_dir, line + 2);
		if (line[0] == 'M' && copy_with_mode(backup, in_tree) < 0) {
			strbuf_addf(err, "cannot restore %s from %s: %s", in_tree, backup, strerror(errno));
			rc = -1;
		} else if (line[0] == 'A' && unlink(in_tree) < 0 && errno != ENOENT) {
			strbuf_addf(err, "cannot remove %s: %s", in_tree, strerror(errno));
			rc = -1;
		}
		free(in_tree);
		free(backup);
	}
	free(list);
	if (rc == 0)
		remove_tree(state_dir);
	return rc;
}

static int back_up_targets(const char *tree, const char *state_dir, const struct strlist *targets,
			   struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;
	for (size_t i = 0; i < targets->n; i++) {
		char *in_tree = xasprintf("%s/%s", tree, targets->items[i]);
		char *backup = xasprintf("%s/backup/%s", state_dir, targets->items[i]);
		bool exists = path_exists(in_tree);
		if (exists && copy_with_mode(in_tree, backup) < 0) {
			strbuf_addf(err, "cannot back up %s: %s", in_tree, strerror(errno));
			free(in_tree);
			free(backup);
			strbuf_release(&list);
			return -1;
		}
		strbuf_addf(&list, "%c %s\n", exists ? 'M' : 'A', targets->items[i]);
		free(in_tree);
		free(backup);
	}
	/* Written last: from here on a crash leaves a tree the next build can undo. */
	char *list_path = xasprintf("%s/files", state_dir);
	int rc = write_file_str(list_path, strbuf_str(&list));
	if (rc < 0)
		strbuf_addf(err, "cannot write %s: %s", list_path, strerror(errno));
	free(list_path);
	strbuf_release(&list);
	return rc;
}

/*
 * A file of the tree that shares its inode with another (a mirror's hard
 * link to the user's tree, or a hard-linked copy of this one) gets one of
 * its own before patch(1) writes it, so that nothing outside the tree changes.
 */
static int unshare_targets(const char *tree, const struct strlist *targets, struct strbuf *err)
{
	for (size_t i = 0; i < targets->n; i++) {
		char *path = xasprintf("%s/%s", tree, targets->items[i]);
		struct stat st;
		int rc = 0;
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1 &&
		    (copy_file(path, path) < 0 || chmod(path, st.st_mode & 01777) < 0)) {
			strbuf_addf(err, "cannot give %s an inode of its own: %s", path, strerror(errno));
			rc = -1;
		}
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int run_patch(const char *tree, const char *patch, bool dry_run, struct strbuf *out)
{
	const char *argv[] = { "patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch",
			       "-r", "-", "-i", patch, dry_run ? "--dry-run" : NULL, NULL };
	return capture_command(argv, tree, out);
}

int tree_apply_patches_then(const char *tree, const char *state_dir, const struct strlist *patches,
			    const char *optional, bool *applied, struct strbuf *why_not,
			    struct strbuf *err)
{
	struct strlist all = STRLIST_INIT;
	for (size_t i = 0; i < patches->n; i++)
		strlist_push(&all, patches->items[i]);
	strlist_push(&all, optional);
	/* one try with it, restored on failure; then PATCHES alone say whose fault it was */
	int rc = tree_apply_patches(tree, state_dir, &all, why_not);
	strlist_clear(&all);
	*applied = rc == 0;
	if (rc < 0)
		rc = tree_apply_patches(tree, state_dir, patches, err);
	return rc;
}

int tree_apply_patches(const char *tree, const char *state_dir, const struct strlist *patches,
		       struct strbuf *err)
{
	if (!patches->n)
		return 0;
	struct strlist targets = STRLIST_INIT;
	for (size_t i = 0; i < patches->n; i++)
		if (patch_targets(patches->items[i], &targets, err) < 0) {
			strlist_clear(&targets);
			return -1;
		}
	remove_tree(state_dir);
	if (mkdir_p(state_dir, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", state_dir, strerror(errno));
		strlist_clear(&targets);
		return -1;
	}
	int rc = back_up_targets(tree, state_dir, &targets, err);
	if (rc == 0)
		rc = unshare_targets(tree, &targets, err);
	strlist_clear(&targets);
	for (size_t i = 0; rc == 0 && i < patches->n; i++) {
		struct strbuf out = STRBUF_INIT;
		/* A dry run first, so a failing patch leaves no half-applied file behind. */
		int status = run_patch(tree, patches->items[i], true, &out);
		if (status == 0) {
			strbuf_reset(&out);
			status = run_patch(tree, patches->items[i], false, &out);
		}
		if (status != 0) {
			char *why = describe_patch_failure(strbuf_str(&out));
			strbuf_addf(err, "%s does not apply: %s", patches->items[i], why);
			free(why);
			rc = -1;
		}
		strbuf_release(&out);
	}
	if (rc < 0) {
		struct strbuf ignored = STRBUF_INIT;
		tree_restore(tree, state_dir, &ignored);
		strbuf_release(&ignored);
	}
	return rc;
}
