/* Where things live: the lab's own files, the user's, the cache and the results. */
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static char *root, *cache, *results, *build, *exe;
/* Where the lab's own files were found beside the binary: the data root
 * (kernels/, configs/) and the folder of the guest programs; NULL until
 * find_layout(), and data NULL when neither layout matched. */
static char *layout_data, *layout_guest;
static bool layout_done;

/* DIR holds the lab's data: kernels/ and configs/ both. */
static bool holds_data(const char *dir)
{
	char *k = xasprintf("%s/kernels", dir), *c = xasprintf("%s/configs", dir);
	bool found = is_dir(k) && is_dir(c);
	free(k);
	free(c);
	return found;
}

/*
 * Where the lab's files are, found from the binary's own place (/proc/self/exe),
 * never from a path compiled in: the same binary then runs from its checkout,
 * installed under any PREFIX, and staged under DESTDIR before it is installed
 * (tests/integration/install.sh runs it there), with no rebuild at install.
 *   installed (make install): PREFIX/bin/lab, its data in PREFIX/share/oomlab,
 *     its guest programs in PREFIX/lib/oomlab/guest{,-ARCH}/;
 *   a checkout: <repo>/build/lab, the data in the first folder above it that
 *     holds kernels/ and configs/, the guest programs in build/guest{,-ARCH}/.
 */
static void find_layout(void)
{
	if (layout_done)
		return;
	layout_done = true;
	char *bindir = xstrdup(lab_binary());
	char *slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	layout_guest = xstrdup(bindir);
	char *share = xasprintf("%s/../share/oomlab", bindir);
	char real[PATH_MAX];
	if (holds_data(share) && realpath(share, real)) {
		char *lib = xasprintf("%s/../lib/oomlab", bindir), guest[PATH_MAX];
		layout_data = xstrdup(real);
		free(layout_guest);
		layout_guest = xstrdup(realpath(lib, guest) ? guest : lib);
		free(lib);
	} else {
		char *dir = xstrdup(lab_binary());
		for (char *s = strrchr(dir, '/'); s && s != dir; s = strrchr(dir, '/')) {
			*s = '\0';
			if (holds_data(dir)) {
				layout_data = xstrdup(dir);
				break;
			}
		}
		free(dir);
	}
	free(share);
	free(bindir);
}

const char *repo_root(void)
{
	if (root)
		return root;
	const char *env = getenv("OOMLAB_ROOT");
	if (env && *env) {
		root = xstrdup(env);
		return root;
	}
	find_layout();
	if (layout_data) {
		root = xstrdup(layout_data);
		return root;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		die("cannot find the lab's files (kernels/, configs/): set OOMLAB_ROOT");
	root = xstrdup(cwd);
	return root;
}

char *repo_path(const char *relative)
{
	return xasprintf("%s/%s", repo_root(), relative);
}

char *user_config_path(const char *relative)
{
	/* read each time, not kept: a test sets XDG_CONFIG_HOME between two looks */
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	/* XDG: a relative XDG_CONFIG_HOME is invalid and ignored */
	if (xdg && *xdg == '/')
		return xasprintf("%s/oomlab/%s", xdg, relative);
	if (home && *home)
		return xasprintf("%s/.config/oomlab/%s", home, relative);
	return NULL;
}

const char *cache_root(void)
{
	if (cache)
		return cache;
	const char *env = getenv("OOMLAB_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	if (env && *env)
		cache = xstrdup(env);
	else if (xdg && *xdg)
		cache = xasprintf("%s/oomlab", xdg);
	else if (home && *home)
		cache = xasprintf("%s/.cache/oomlab", home);
	else
		die("no cache directory: set OOMLAB_CACHE, XDG_CACHE_HOME or HOME");
	if (mkdir_p(cache, 0755) < 0)
		die("cannot create the cache directory %s", cache);
	return cache;
}

char *cache_path(const char *relative)
{
	return xasprintf("%s/%s", cache_root(), relative);
}

const char *results_root(void)
{
	if (results)
		return results;
	const char *env = getenv("OOMLAB_RESULTS");
	if (env && *env) {
		results = xstrdup(env);
		return results;
	}
	/* the folder the lab was started in, whether that is its checkout or not */
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		die("cannot tell the current folder, whose results/ holds the runs: set OOMLAB_RESULTS");
	results = xasprintf("%s/results", cwd);
	return results;
}

const char *lab_binary(void)
{
	if (exe)
		return exe;
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		die("cannot find the lab binary");
	path[n] = '\0';
	exe = xstrdup(path);
	return exe;
}

const char *build_dir(void)
{
	if (build)
		return build;
	find_layout();
	build = xstrdup(layout_guest);
	return build;
}

const char *path_unplain(const char *path)
{
	return strpbrk(path, " \t\n,'\"\\");
}

void path_plain_or_die(const char *command, const char *what, const char *path)
{
	const char *bad = path_unplain(path);
	if (!bad)
		return;
	const char *name = *bad == ' ' || *bad == '\t' ? "a blank" : *bad == '\n' ? "a newline"
			   : *bad == ',' ? "a comma" : *bad == '\\' ? "a backslash" : "a quote";
	die_usage("%s: %s %s has %s, which QEMU's options and the initramfs list cannot carry: "
		  "choose a folder without it", command, what, path, name);
}
