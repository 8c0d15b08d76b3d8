/* Remembered configurations (config-memo.h). */
#include "config-memo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/run-command.h"
#include "lab/util/hash.h"

/* Bump when what a key covers changes: old entries are then never found. */
#define CONFIG_MEMO_RECIPE "oomlab-config-memo-3"
#define CONFIG_MEMO_FOLDER "configs"

bool config_memo_path_matters(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	/* the top Makefile and an arch's export what Kconfig's tests run */
	bool top_makefile = !strcmp(path, "Makefile") ||
			    (starts_with(path, "arch/") && !strcmp(base, "Makefile") &&
			     strchr(path + strlen("arch/"), '/') == slash);
	bool scripts = starts_with(path, "scripts/kconfig/") ||
		       (starts_with(path, "scripts/") && strchr(path + strlen("scripts/"), '/') == NULL);
	return starts_with(base, "Kconfig") || top_makefile || scripts || strstr(path, "configs/") != NULL;
}

/* A tool's version as Kconfig's $(shell ...) tests see it: its output, or
 * that it is not there (the status), hashed under LABEL. */
static void add_tool(struct hasher *h, const char *label, const char *tool)
{
	const char *argv[] = { tool, "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	int status = capture_command(argv, NULL, &out);
	char *said = xasprintf("%d\n%s", status, out.buf);
	hasher_add_str(h, label, said);
	free(said);
	strbuf_release(&out);
}

/* Adds to FILES every regular file below TOP/REL ("" for TOP) that
 * configuring reads; dot-files and dot-folders (.git) are passed over, and
 * a link to a folder is not followed. */
static void find_config_inputs(const char *top, const char *rel, struct strlist *files)
{
	char *dir_path = *rel ? xasprintf("%s/%s", top, rel) : xstrdup(top);
	DIR *d = opendir(dir_path);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *path = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		bool dir = de->d_type == DT_DIR, file = de->d_type == DT_REG;
		if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
			char *full = xasprintf("%s/%s", top, path);
			struct stat st;
			if (stat(full, &st) == 0) {
				dir = de->d_type == DT_UNKNOWN && S_ISDIR(st.st_mode);
				file = S_ISREG(st.st_mode);
			}
			free(full);
		}
		if (dir)
			find_config_inputs(top, path, files);
		else if (file && config_memo_path_matters(path))
			strlist_push(files, path);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir_path);
}

/* Hashes TREE's configuration inputs, path and content, in name order. */
static int add_config_inputs(struct hasher *h, const char *tree, struct strbuf *err)
{
	struct strlist files = STRLIST_INIT;
	find_config_inputs(tree, "", &files);
	strlist_sort(&files);
	int rc = 0;
	if (files.n == 0) {
		strbuf_addf(err, "%s: no Kconfig file in it", tree);
		rc = -1;
	}
	for (size_t i = 0; i < files.n && rc == 0; i++) {
		char *full = xasprintf("%s/%s", tree, files.items[i]);
		size_t len;
		char *data = read_file(full, &len);
		if (!data) {
			strbuf_addf(err, "%s: cannot read: %s", full, strerror(errno));
			rc = -1;
		} else {
			hasher_add_str(h, "path", files.items[i]);
			hasher_add_field(h, "content", data, len);
		}
		free(data);
		free(full);
	}
	strlist_clear(&files);
	return rc;
}

int config_memo_key(const struct platform *platform, const struct kconfig *wanted, const char *tree,
		    char key[65], struct strbuf *err)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, "recipe", CONFIG_MEMO_RECIPE);
	char *name = platform_name(platform);
	hasher_add_str(h, "platform", name);
	free(name);
	char *text = kconfig_format(wanted);
	hasher_add_str(h, "wanted", text);
	free(text);
	/* Kconfig asks the compiler, the linker and pahole/rustc (their
	 * versions and cc-option tests become options) */
	const struct arch_facts *f = arch_facts(platform->arch);
	char *ld = xasprintf("%sld", f->cross_prefix);
	add_tool(h, "cc", f->compiler);
	add_tool(h, "ld", ld);
	add_tool(h, "pahole", "pahole");
	add_tool(h, "rustc", "rustc");
	free(ld);
	int rc = add_config_inputs(h, tree, err);
	hasher_finish(h, key);
	return rc;
}

static char *memo_path(const char *key)
{
	char *relative = xasprintf(CONFIG_MEMO_FOLDER "/%s.config", key);
	char *path = cache_path(relative);
	free(relative);
	return path;
}

char *config_memo_load(const char *key)
{
	char *path = memo_path(key);
	char *text = read_file(path, NULL);
	free(path);
	return text;
}

void config_memo_store(const char *key, const char *dotconfig)
{
	char *text = read_file(dotconfig, NULL);
	if (!text)
		return;
	char *dir = cache_path(CONFIG_MEMO_FOLDER), *path = memo_path(key);
	char *tmp = xasprintf("%s.tmp-%d", path, (int)getpid());
	mkdir_p(dir, 0755);
	if (write_file_str(tmp, text) < 0 || rename(tmp, path) < 0)
		unlink(tmp);
	free(tmp);
	free(path);
	free(dir);
	free(text);
}
