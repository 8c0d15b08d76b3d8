/* Where things live: the repository the lab runs from, and the cache. */
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static char *root, *cache, *results, *build, *exe;

const char *repo_root(void)
{
	if (root)
		return root;
	const char *env = getenv("OOMLAB_ROOT");
	if (env && *env) {
		root = xstrdup(env);
		return root;
	}
	/* The binary lives in <repo>/build/lab: walk up until kernels/ and configs/ appear. */
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (char *slash = strrchr(exe, '/'); slash && slash != exe; slash = strrchr(exe, '/')) {
			*slash = '\0';
			char *k = xasprintf("%s/kernels", exe), *c = xasprintf("%s/configs", exe);
			bool found = is_dir(k) && is_dir(c);
			free(k);
			free(c);
			if (found) {
				root = xstrdup(exe);
				return root;
			}
		}
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		die("cannot find the oomlab checkout: set OOMLAB_ROOT");
	root = xstrdup(cwd);
	return root;
}

char *repo_path(const char *relative)
{
	return xasprintf("%s/%s", repo_root(), relative);
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
	results = env && *env ? xstrdup(env) : repo_path("results");
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
	build = xstrdup(lab_binary());
	char *slash = strrchr(build, '/');
	if (slash)
		*slash = '\0';
	return build;
}
