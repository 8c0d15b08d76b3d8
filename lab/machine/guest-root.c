/* Where each architecture's guest programs and their libraries are (guest-root.h). */
#include "guest-root.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/paths.h"
#include "common/run-command.h"

#define ARM64_ROOT "arm64-root"

char *guest_root_bash(enum guest_arch arch)
{
	if (arch == host_arch())
		return xstrdup("/bin/bash-static");
	return xasprintf("%s/" ARM64_ROOT "/bin/bash-static", cache_root());
}

int guest_root_find(struct guest_root *r, enum guest_arch arch, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	r->arch = arch;
	if (arch == host_arch()) {
		r->agent = xasprintf("%s/guest/oomlab-agent", build_dir());
		r->workload = xasprintf("%s/guest/oomlab-workload", build_dir());
		r->busybox = xstrdup("/bin/busybox");
		r->perf = xstrdup("/usr/bin/perf");
		r->stress_ng = xstrdup("/usr/bin/stress-ng");
	} else {
		const char *name = arch_facts(arch)->name;
		r->agent = xasprintf("%s/guest-%s/oomlab-agent", build_dir(), name);
		r->workload = xasprintf("%s/guest-%s/oomlab-workload", build_dir(), name);
		r->busybox = xasprintf("%s/" ARM64_ROOT "/bin/busybox", cache_root());
		r->perf = xasprintf("%s/" ARM64_ROOT "/usr/bin/perf", cache_root());
		r->stress_ng = xasprintf("%s/" ARM64_ROOT "/usr/bin/stress-ng", cache_root());
	}
	const char *const paths[] = { r->agent, r->workload, r->busybox, r->perf, r->stress_ng };
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!path_exists(paths[i])) {
			strbuf_addf(err, "%s is missing (%s)", paths[i],
				    i < 2 ? "make lab builds the guest programs"
					  : "scripts/install-deps installs it");
			return -1;
		}
	return 0;
}

static void add_entry(struct strlist *libs, const char *guest, const char *file)
{
	char *entry = xasprintf("%s\t%s", guest, file);
	if (!strlist_has(libs, entry))
		strlist_push(libs, entry);
	free(entry);
}

/*
 * Where the guest's loader finds a library the host's loader found at
 * HOST_PATH: the same path in the folders it searches by default (the guest
 * has no ld.so.cache), else its folder of the triplet, under its file name
 * (the soname it was looked up by): a library from /usr/local/lib, an
 * RPATH or $ORIGIN is found there all the same.
 */
static char *guest_library_path(const char *host_path, const char *triplet)
{
	const char *base = strrchr(host_path, '/') + 1;
	size_t dir_len = (size_t)(base - 1 - host_path);
	const char *const prefixes[] = { "/lib", "/usr/lib" };
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(host_path, prefixes[i], n))
			continue;
		if (dir_len == n || (dir_len == n + 1 + strlen(triplet) && host_path[n] == '/' &&
				     !strncmp(host_path + n + 1, triplet, strlen(triplet))))
			return xstrdup(host_path);
	}
	return xasprintf("/usr/lib/%s/%s", triplet, base);
}

/* The host's libraries of the host's own programs, as ldd resolves them. */
static int ldd_libraries(const struct guest_root *r, const char *program, struct strlist *libs,
			 struct strbuf *err)
{
	const char *argv[] = { "ldd", program, NULL };
	struct strlist lines = STRLIST_INIT;
	if (capture_lines_or_say(argv, &lines, err) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < lines.n && rc == 0; i++) {
		char *line = lines.items[i];
		char *arrow = strstr(line, "=>");
		if (arrow && strstr(arrow, "not found")) {
			char *name = trim(line);
			name[strcspn(name, " \t")] = '\0';
			strbuf_addf(err, "%s needs %s, which the host's loader does not find", program, name);
			rc = -1;
			break;
		}
		char *slash = strchr(line, '/');
		if (!slash)
			continue;
		char *end = slash + strcspn(slash, " \t(");
		*end = '\0';
		char *real = realpath(slash, NULL);
		if (!real) {
			strbuf_addf(err, "%s needs %s, which does not resolve", program, slash);
			rc = -1;
			break;
		}
		/* The interpreter (no "=>") stays where PT_INTERP names it; a library
		 * keeps the path ldd found it at, where the guest's loader looks. The
		 * content is the real file's. */
		char *guest = arrow ? guest_library_path(slash, arch_facts(r->arch)->triplet) : xstrdup(slash);
		add_entry(libs, guest, real);
		free(guest);
		free(real);
	}
	strlist_clear(&lines);
	return rc;
}

/* The sonames a program needs and its interpreter, from readelf's dynamic section and headers. */
static int elf_needs(const char *file, struct strlist *needed, char **interp, struct strbuf *err)
{
	const char *argv[] = { "readelf", "-dlW", file, NULL };
	struct strlist lines = STRLIST_INIT;
	if (capture_lines_or_say(argv, &lines, err) != 0)
		return -1;
	for (size_t i = 0; i < lines.n; i++) {
		char *line = lines.items[i];
		char *p = strstr(line, "(NEEDED)");
		char *open = p ? strchr(p, '[') : NULL;
		if (open) {
			strlist_push_owned(needed, xstrndup(open + 1, strcspn(open + 1, "]")));
			continue;
		}
		p = strstr(line, "program interpreter: ");
		if (p && interp && !*interp) {
			p += strlen("program interpreter: ");
			*interp = xstrndup(p, strcspn(p, "]"));
		}
	}
	strlist_clear(&lines);
	return 0;
}

/* The file of SONAME for the foreign architecture: the unpacked root first, then multiarch. */
static char *foreign_library(const struct guest_root *r, const char *soname)
{
	const char *triplet = arch_facts(r->arch)->triplet;
	char *dirs[] = {
		xasprintf("%s/" ARM64_ROOT "/usr/lib/%s", cache_root(), triplet),
		xasprintf("%s/" ARM64_ROOT "/lib/%s", cache_root(), triplet),
		xasprintf("/usr/lib/%s", triplet),
		xasprintf("/lib/%s", triplet),
	};
	char *found = NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *path = xasprintf("%s/%s", dirs[i], soname);
		if (!found && path_exists(path))
			found = realpath(path, NULL);
		free(path);
		free(dirs[i]);
	}
	return found;
}

static int foreign_libraries(const struct guest_root *r, const char *program, struct strlist *libs,
			     struct strbuf *err)
{
	const char *triplet = arch_facts(r->arch)->triplet;
	struct strlist todo = STRLIST_INIT, seen = STRLIST_INIT;
	char *interp = NULL;
	int rc = elf_needs(program, &todo, &interp, err);
	if (rc == 0 && interp) {
		char *real = realpath(interp, NULL);
		if (!real) {
			strbuf_addf(err, "%s's interpreter %s is not installed (scripts/install-deps "
				    "installs libc6:%s)", program, interp, arch_facts(r->arch)->name);
			rc = -1;
		} else {
			add_entry(libs, interp, real);
			free(real);
		}
	}
	/* Breadth first through what each library needs in turn. */
	for (size_t i = 0; rc == 0 && i < todo.n; i++) {
		const char *soname = todo.items[i];
		if (strlist_has(&seen, soname))
			continue;
		strlist_push(&seen, soname);
		char *file = foreign_library(r, soname);
		if (!file) {
			strbuf_addf(err, "%s needs %s, which no %s package installed or unpacked has "
				    "(scripts/install-deps)", program, soname, arch_facts(r->arch)->name);
			rc = -1;
			break;
		}
		char *guest = xasprintf("/lib/%s/%s", triplet, soname);
		add_entry(libs, guest, file);
		free(guest);
		rc = elf_needs(file, &todo, NULL, err);
		free(file);
	}
	free(interp);
	strlist_clear(&todo);
	strlist_clear(&seen);
	return rc;
}

int guest_root_libraries(const struct guest_root *r, const char *program, struct strlist *libs,
			 struct strbuf *err)
{
	if (r->arch == host_arch())
		return ldd_libraries(r, program, libs, err);
	return foreign_libraries(r, program, libs, err);
}

void guest_root_clear(struct guest_root *r)
{
	free(r->agent);
	free(r->workload);
	free(r->busybox);
	free(r->perf);
	free(r->stress_ng);
	memset(r, 0, sizeof(*r));
}
