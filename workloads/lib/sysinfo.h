/* Reading the kernel's text interfaces the workloads report: /proc/buddyinfo,
 * /proc/meminfo, /proc/vmstat, /proc/slabinfo, /sys/kernel/slab/<cache>/,
 * binder stats, cgroup v2 files.  The formats are parsed by
 * common/kernel-text/ (the lab parses the same files with the same code);
 * the wl_read_* helpers read the live files. */
#ifndef OOMLAB_SYSINFO_H
#define OOMLAB_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/kernel-text/buddyinfo.h"
#include "common/kernel-text/slabinfo.h"

/* snprintf that reports truncation: 0 or -ENAMETOOLONG. */
int wl_pathf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copy with truncation, always NUL-terminated. */
void wl_strlcpy0(char *dst, const char *src, size_t cap);

/* Whole file into buf (NUL-terminated); returns length or -errno. */
ssize_t wl_read_text(const char *path, char *buf, size_t cap);
/* Same, into a malloc'd buffer (*out, free it); returns length or -errno. */
ssize_t wl_read_text_alloc(const char *path, char **out);
int wl_write_text(const char *path, const char *s);     /* 0 or -errno */
/* FROM's bytes into a new file TO with MODE (replacing one there); 0 or -errno. */
int wl_copy_file(const char *from, const char *to, unsigned mode);
int wl_read_u64(const char *path, uint64_t *out);       /* first number */
int wl_read_line(const char *path, char *buf, size_t cap); /* first line */

/* The value on KEY's first line of a "key value" or "Key:  value kB" file
 * (common/kernel-text/kv.h); 0 or -ENOENT. */
int wl_kv_get(const char *text, const char *key, uint64_t *out);

/* --- buddyinfo (common/kernel-text/buddyinfo.h) ------------------------ */
int wl_read_buddyinfo(struct buddyinfo *bi);
/* Zone filter: NULL or "" = all zones except DMA; "all"; or a comma list
 * of zone names ("DMA32,Normal"). */
bool wl_buddy_zone_selected(const struct buddy_zone *z, const char *zones);
/* Sum over selected zones of free blocks with order >= min_order. */
uint64_t wl_buddy_blocks_ge(const struct buddyinfo *bi, const char *zones, int min_order);
/* Free pages (4 KiB units) in blocks of order >= min_order. */
uint64_t wl_buddy_pages_ge(const struct buddyinfo *bi, const char *zones, int min_order);
/* Unusable free space index for `order` (0..1, as in
 * Documentation/admin-guide/sysctl/vm.rst's extfrag discussion): share of
 * free pages that sit in blocks smaller than 2^order. */
double wl_buddy_unusable_index(const struct buddyinfo *bi, const char *zones, int order);

/* --- slabinfo: common/kernel-text/slabinfo.h ---------------------------- */

/* /sys/kernel/slab/<name>: SLUB's view, following an alias symlink. */
struct slub_cache {
	char name[64];            /* as asked */
	char target[64];          /* directory it resolves to (":0000128" if merged) */
	bool alias;               /* name is a symlink (merged cache) */
	int naliases;             /* the "aliases" attribute */
	uint64_t object_size;     /* payload size */
	uint64_t slab_size;       /* object + metadata + padding */
	uint64_t objs_per_slab;
	uint64_t order;           /* slab = PAGE_SIZE << order */
	uint64_t objects;         /* active objects (SLUB_DEBUG) */
	uint64_t total_objects;   /* (SLUB_DEBUG) */
	uint64_t slabs;           /* (SLUB_DEBUG) */
	bool have_debug_counts;
};
int wl_read_slub_cache(const char *sysfs_root, const char *name, struct slub_cache *out);
/* Lists names in sysfs_root that are symlinks to `target` (merged caches).
 * Writes a comma-separated list into buf; returns the count. */
int wl_slub_aliases_of(const char *sysfs_root, const char *target, char *buf, size_t cap);

/* --- binder stats ("proc: active 3 total 7") -------------------------- */
enum binder_obj {
	BOBJ_PROC, BOBJ_THREAD, BOBJ_NODE, BOBJ_REF, BOBJ_DEATH,
	BOBJ_TRANSACTION, BOBJ_TRANSACTION_COMPLETE, BOBJ_FREEZE,
	BOBJ_COUNT
};
extern const char *const binder_obj_names[BOBJ_COUNT];
struct binder_objstats {
	bool present[BOBJ_COUNT];
	int64_t active[BOBJ_COUNT];
	int64_t total[BOBJ_COUNT];
};
/* The known object types of the global section (common/kernel-text/
 * binder-stats.h); lines absent mean zero (present[] false).  Returns how
 * many types were there. */
int wl_parse_binder_stats(const char *text, struct binder_objstats *out);
int wl_read_binder_stats(const char *path, struct binder_objstats *out);

/* --- processes and cgroups ------------------------------------------ */
int wl_set_oom_score_adj(pid_t pid, int adj);          /* 0 = self */
/* cgroup v2 path of pid (0 = self) relative to the cgroup2 mount,
 * e.g. "/" or "/oomlab/workload"; 0 or -errno. */
int wl_own_cgroup(pid_t pid, char *buf, size_t cap);
/* Directory where cgroup2 is mounted (from /proc/self/mountinfo),
 * usually /sys/fs/cgroup; 0 or -ENOENT. */
int wl_cgroup2_mount(char *buf, size_t cap);
/* MemTotal in bytes (0 if unknown). */
uint64_t wl_mem_total_bytes(void);
/* The kernel's page size (4096 on x86_64; 4096, 16384 or 65536 on arm64). */
size_t wl_page_size(void);

#endif
