/* One memory cgroup per app (app_memcg.h). */
#include "app_memcg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysinfo.h"

#define SYSTEM_GROUP "apps-system"

int app_memcg_path(const struct app_memcg *m, unsigned a, char *buf, size_t cap)
{
	return wl_pathf(buf, cap, "%s/app-%02u", m->dir, a);
}

/* Moves every process of FROM's cgroup.procs to TO's; how many, or -errno.
 * A process that exits meanwhile is skipped; a fork meanwhile is caught by
 * reading again until FROM is empty. */
static int move_all(const char *from, const char *to)
{
	char src[600], dst[600];
	int moved = 0;

	if (wl_pathf(src, sizeof(src), "%s/cgroup.procs", from) ||
	    wl_pathf(dst, sizeof(dst), "%s/cgroup.procs", to))
		return -ENAMETOOLONG;
	for (int round = 0; round < 50; round++) {
		char *text = NULL, *save = NULL;
		int r = (int)wl_read_text_alloc(src, &text), here = 0;

		if (r < 0)
			return r;
		for (char *tok = strtok_r(text, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
			here++;
			r = wl_write_text(dst, tok);
			if (r && r != -ESRCH) {
				free(text);
				return r;
			}
			moved += !r;
		}
		free(text);
		if (!here)
			return moved;
	}
	return -EAGAIN;
}

static bool has_word(const char *path, const char *word)
{
	char line[512];
	size_t n = strlen(word);

	if (wl_read_line(path, line, sizeof(line)))
		return false;
	for (const char *p = line; (p = strstr(p, word)); p += n)
		if ((p == line || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int app_memcg_setup(struct app_memcg *m, unsigned napps, char *err, size_t cap)
{
	char mnt[256], own[256], path[600], sys[600];
	int r;

	memset(m, 0, sizeof(*m));
	m->napps = napps;
	if (wl_cgroup2_mount(mnt, sizeof(mnt)) || wl_own_cgroup(0, own, sizeof(own))) {
		snprintf(err, cap, "--memcg per-app: no cgroup v2 mount, or no cgroup of our own");
		return -1;
	}
	bool root = !strcmp(own, "/");
	if (wl_pathf(m->dir, sizeof(m->dir), "%s%s", mnt, root ? "" : own) ||
	    wl_pathf(path, sizeof(path), "%s/cgroup.controllers", m->dir) ||
	    wl_pathf(sys, sizeof(sys), "%s/" SYSTEM_GROUP, m->dir)) {
		snprintf(err, cap, "--memcg per-app: the cgroup path is too long");
		return -1;
	}
	if (!has_word(path, "memory")) {
		snprintf(err, cap, "--memcg per-app: %s has no memory controller to hand to the apps",
			 m->dir);
		return -1;
	}
	wl_pathf(path, sizeof(path), "%s/cgroup.subtree_control", m->dir);
	if (!has_word(path, "memory")) {
		/* the root may hold processes and hand out controllers; any other
		 * cgroup must be empty first */
		if (!root) {
			if (mkdir(sys, 0755) == 0)
				m->made_system = true;
			else if (errno != EEXIST) {
				snprintf(err, cap, "--memcg per-app: mkdir %s: %s", sys, strerror(errno));
				return -1;
			}
			r = move_all(m->dir, sys);
			if (r < 0) {
				snprintf(err, cap, "--memcg per-app: moving %s's processes to %s: %s",
					 m->dir, sys, strerror(-r));
				app_memcg_teardown(m);
				return -1;
			}
			m->moved = (unsigned)r;
		}
		r = wl_write_text(path, "+memory");
		if (r) {
			snprintf(err, cap, "--memcg per-app: +memory in %s: %s", path, strerror(-r));
			app_memcg_teardown(m);
			return -1;
		}
		m->enabled = true;
	}
	for (unsigned a = 0; a < napps; a++) {
		char dir[600], max[640];

		r = app_memcg_path(m, a, dir, sizeof(dir)) ? -ENAMETOOLONG
		    : wl_pathf(max, sizeof(max), "%s/memory.max", dir) ? -ENAMETOOLONG
		    : mkdir(dir, 0755) && errno != EEXIST ? -errno
		    : wl_write_text(max, "max");
		if (r) {
			snprintf(err, cap, "--memcg per-app: making %s with no memory.max: %s", dir,
				 strerror(-r));
			app_memcg_teardown(m);
			return -1;
		}
	}
	return 0;
}

int app_memcg_enter(const struct app_memcg *m, unsigned a)
{
	char dir[600], procs[640];

	if (app_memcg_path(m, a, dir, sizeof(dir)) ||
	    wl_pathf(procs, sizeof(procs), "%s/cgroup.procs", dir))
		return -ENAMETOOLONG;
	return wl_write_text(procs, "0");
}

void app_memcg_teardown(struct app_memcg *m)
{
	char path[600], sys[600];

	if (!m->dir[0])
		return;
	for (unsigned a = 0; a < m->napps; a++) {
		if (app_memcg_path(m, a, path, sizeof(path)))
			continue;
		/* a group empties some time after its last process exits */
		for (int i = 0; i < 200 && rmdir(path) < 0 && errno == EBUSY; i++)
			usleep(10000);
	}
	if (m->enabled && !wl_pathf(path, sizeof(path), "%s/cgroup.subtree_control", m->dir))
		wl_write_text(path, "-memory");
	if (!wl_pathf(sys, sizeof(sys), "%s/" SYSTEM_GROUP, m->dir)) {
		if (m->moved || m->made_system)
			move_all(sys, m->dir);
		if (m->made_system)
			for (int i = 0; i < 200 && rmdir(sys) < 0 && errno == EBUSY; i++)
				usleep(10000);
	}
	m->dir[0] = '\0';
}
