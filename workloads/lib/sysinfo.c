/* Kernel text interfaces; see sysinfo.h. */
#include "sysinfo.h"

#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/base/alloc-grow.h"
#include "common/kernel-text/binder-stats.h"
#include "common/kernel-text/kv.h"

int wl_pathf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

void wl_strlcpy0(char *dst, const char *src, size_t cap)
{
	size_t l = strlen(src);

	if (!cap)
		return;
	if (l >= cap)
		l = cap - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

ssize_t wl_read_text(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	int fd;

	if (!cap)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < cap) {
		ssize_t r = read(fd, buf + len, cap - 1 - len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	close(fd);
	return (ssize_t)len;
}

ssize_t wl_read_text_alloc(const char *path, char **out)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int fd;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(buf);
		return -e;
	}
	for (;;) {
		ssize_t r;

		/* room to read into, and for the NUL */
		if (!ALLOC_GROW_TRY(buf, len + 2, cap)) {
			free(buf);
			close(fd);
			return -ENOMEM;
		}
		r = read(fd, buf + len, cap - 1 - len);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

int wl_write_text(const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t w;

	if (fd < 0)
		return -errno;
	do {
		w = write(fd, s, len);
	} while (w < 0 && errno == EINTR);
	if (w < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)w == len ? 0 : -EIO;
}

int wl_copy_file(const char *from, const char *to, unsigned mode)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = 0;
	if (in < 0)
		return -errno;
	unlink(to);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0)
		rc = -errno;
	char buf[65536];
	while (rc == 0) {
		ssize_t got = read(in, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got < 0 ? -errno : 0;
			break;
		}
		for (ssize_t done = 0; rc == 0 && done < got;) {
			ssize_t w = write(out, buf + done, (size_t)(got - done));
			if (w < 0 && errno != EINTR)
				rc = -errno;
			done += w > 0 ? w : 0;
		}
	}
	close(in);
	if (out >= 0 && close(out) < 0 && rc == 0)
		rc = -errno;
	/* the mode as asked, whatever the umask took */
	if (rc == 0 && chmod(to, mode) < 0)
		rc = -errno;
	return rc;
}

int wl_read_u64(const char *path, uint64_t *out)
{
	char buf[128];
	ssize_t r = wl_read_text(path, buf, sizeof(buf));
	char *end;

	if (r < 0)
		return (int)r;
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	*out = strtoull(buf, &end, 10);
	return 0;
}

int wl_read_line(const char *path, char *buf, size_t cap)
{
	ssize_t r = wl_read_text(path, buf, cap);
	char *nl;

	if (r < 0)
		return (int)r;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}


/* --- buddyinfo ------------------------------------------------------- */

/* "Node 0, zone    DMA32   1   2   3 ..." */

int wl_kv_get(const char *text, const char *key, uint64_t *out)
{
	long long v;
	if (!kv_find(text, key, &v) || v < 0)
		return -ENOENT;
	*out = (uint64_t)v;
	return 0;
}

int wl_read_buddyinfo(struct buddyinfo *bi)
{
	char buf[8192];
	ssize_t r = wl_read_text("/proc/buddyinfo", buf, sizeof(buf));

	if (r < 0)
		return (int)r;
	return buddyinfo_parse(buf, bi);
}

bool wl_buddy_zone_selected(const struct buddy_zone *z, const char *zones)
{
	const char *p;
	size_t zl = strlen(z->zone);

	if (!zones || !*zones)
		return strcmp(z->zone, "DMA") != 0;
	if (!strcmp(zones, "all"))
		return true;
	for (p = zones; *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);

		if (l == zl && !strncmp(p, z->zone, l))
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

uint64_t wl_buddy_blocks_ge(const struct buddyinfo *bi, const char *zones, int min_order)
{
	uint64_t n = 0;

	for (int i = 0; i < bi->nzones; i++) {
		const struct buddy_zone *z = &bi->z[i];

		if (!wl_buddy_zone_selected(z, zones))
			continue;
		for (int o = min_order < 0 ? 0 : min_order; o < z->norders; o++)
			n += z->free[o];
	}
	return n;
}

uint64_t wl_buddy_pages_ge(const struct buddyinfo *bi, const char *zones, int min_order)
{
	uint64_t n = 0;

	for (int i = 0; i < bi->nzones; i++) {
		const struct buddy_zone *z = &bi->z[i];

		if (!wl_buddy_zone_selected(z, zones))
			continue;
		for (int o = min_order < 0 ? 0 : min_order; o < z->norders; o++)
			n += z->free[o] << o;
	}
	return n;
}

double wl_buddy_unusable_index(const struct buddyinfo *bi, const char *zones, int order)
{
	uint64_t all = wl_buddy_pages_ge(bi, zones, 0);
	uint64_t usable = wl_buddy_pages_ge(bi, zones, order);

	if (!all)
		return 1.0;
	return (double)(all - usable) / (double)all;
}

/* --- slab ------------------------------------------------------------ */


static int slub_attr(const char *dir, const char *attr, uint64_t *out)
{
	char path[512];

	if (wl_pathf(path, sizeof(path), "%s/%s", dir, attr))
		return -ENAMETOOLONG;
	return wl_read_u64(path, out);
}

int wl_read_slub_cache(const char *root, const char *name, struct slub_cache *out)
{
	char path[512], link[256], dir[512];
	ssize_t l;
	uint64_t v;

	memset(out, 0, sizeof(*out));
	wl_strlcpy0(out->name, name, sizeof(out->name));
	if (wl_pathf(path, sizeof(path), "%s/%s", root, name))
		return -ENAMETOOLONG;
	l = readlink(path, link, sizeof(link) - 1);
	if (l >= 0) {
		const char *base;

		link[l] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		out->alias = true;
		wl_strlcpy0(out->target, base, sizeof(out->target));
	} else if (errno == EINVAL) {
		wl_strlcpy0(out->target, name, sizeof(out->target));
	} else {
		return -errno;
	}
	if (wl_pathf(dir, sizeof(dir), "%s/%s", root, out->target))
		return -ENAMETOOLONG;
	if (slub_attr(dir, "object_size", &out->object_size))
		return -ENOENT;
	slub_attr(dir, "slab_size", &out->slab_size);
	slub_attr(dir, "objs_per_slab", &out->objs_per_slab);
	slub_attr(dir, "order", &out->order);
	if (slub_attr(dir, "aliases", &v) == 0)
		out->naliases = (int)v;
	if (slub_attr(dir, "objects", &out->objects) == 0 &&
	    slub_attr(dir, "total_objects", &out->total_objects) == 0 &&
	    slub_attr(dir, "slabs", &out->slabs) == 0)
		out->have_debug_counts = true;
	return 0;
}

int wl_slub_aliases_of(const char *root, const char *target, char *buf, size_t cap)
{
	DIR *d = opendir(root);
	struct dirent *de;
	size_t len = 0;
	int n = 0;

	if (cap)
		buf[0] = '\0';
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[512], link[256];
		const char *base;
		ssize_t l;

		if (de->d_name[0] == '.')
			continue;
		if (wl_pathf(path, sizeof(path), "%s/%s", root, de->d_name))
			continue;
		l = readlink(path, link, sizeof(link) - 1);
		if (l < 0)
			continue;
		link[l] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		if (strcmp(base, target))
			continue;
		n++;
		if (cap && len + strlen(de->d_name) + 2 < cap)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s",
						len ? "," : "", de->d_name);
	}
	closedir(d);
	return n;
}

/* --- binder stats ---------------------------------------------------- */

const char *const binder_obj_names[BOBJ_COUNT] = {
	"proc", "thread", "node", "ref", "death", "transaction",
	"transaction_complete", "freeze",
};


static void count_object(const struct binder_stats_line *line, void *ctx)
{
	struct binder_objstats *out = ctx;
	for (int i = 0; line->object && i < BOBJ_COUNT; i++)
		if (!strcmp(line->name, binder_obj_names[i])) {
			out->present[i] = true;
			out->active[i] = (int64_t)line->active;
			out->total[i] = (int64_t)line->total;
		}
}

int wl_parse_binder_stats(const char *text, struct binder_objstats *out)
{
	memset(out, 0, sizeof(*out));
	binder_stats_each(text, count_object, out);
	int found = 0;
	for (int i = 0; i < BOBJ_COUNT; i++)
		found += out->present[i];
	return found;
}

int wl_read_binder_stats(const char *path, struct binder_objstats *out)
{
	char *buf;
	ssize_t r = wl_read_text_alloc(path, &buf);
	int n;

	if (r < 0) {
		memset(out, 0, sizeof(*out));
		return (int)r;
	}
	n = wl_parse_binder_stats(buf, out);
	free(buf);
	return n;
}

/* --- processes and cgroups ------------------------------------------- */

int wl_set_oom_score_adj(pid_t pid, int adj)
{
	char path[64], val[16];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/oom_score_adj");
	snprintf(val, sizeof(val), "%d", adj);
	return wl_write_text(path, val);
}

int wl_own_cgroup(pid_t pid, char *buf, size_t cap)
{
	char path[64], text[4096];
	const char *p;
	ssize_t r;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/cgroup");
	r = wl_read_text(path, text, sizeof(text));
	if (r < 0)
		return (int)r;
	for (p = text; p && *p;) {
		if (!strncmp(p, "0::", 3)) {
			const char *e = strchr(p, '\n');
			size_t l = e ? (size_t)(e - p - 3) : strlen(p + 3);

			if (l + 1 > cap)
				return -ENAMETOOLONG;
			memcpy(buf, p + 3, l);
			buf[l] = '\0';
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

int wl_cgroup2_mount(char *buf, size_t cap)
{
	char *text;
	const char *p;
	ssize_t r = wl_read_text_alloc("/proc/self/mountinfo", &text);

	if (r < 0)
		return (int)r;
	for (p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		const char *sep = strstr(p, " - cgroup2 ");

		if (sep && (!e || sep < e)) {
			char mnt[512];

			/* id parent maj:min root mountpoint ... */
			if (sscanf(p, "%*s %*s %*s %*s %511s", mnt) == 1 &&
			    strlen(mnt) < cap) {
				strcpy(buf, mnt);
				free(text);
				return 0;
			}
		}
		p = e ? e + 1 : NULL;
	}
	free(text);
	return -ENOENT;
}

uint64_t wl_mem_total_bytes(void)
{
	const struct wl_guest_shape *guest = wl_checking();
	char buf[4096];
	uint64_t kb;

	if (guest && guest->mem_total)
		return guest->mem_total;
	if (wl_read_text("/proc/meminfo", buf, sizeof(buf)) < 0 ||
	    wl_kv_get(buf, "MemTotal", &kb))
		return 0;
	return kb * 1024;
}

size_t wl_page_size(void)
{
	static size_t page;
	if (!page) {
		long n = sysconf(_SC_PAGESIZE);
		page = n > 0 ? (size_t)n : 4096;
	}
	return page;
}
