/* What lmkd reads of /proc, from the files' text (lmkd-procfs.h). */
#include "lmkd-procfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernel-text/kv.h"

static int fail(struct lmkd_parse_error *err, int line, const char *why)
{
	err->line = line;
	err->why = why;
	return -1;
}

/* One zone of /proc/zoneinfo as it is read. */
struct zone {
	int header_line;                /* 0: no zone open */
	bool in_pagesets;
	bool has[3];                    /* min, low, high */
	long long wmark[3], present, max_protection, free, free_cma;
};

/* Adds a populated zone to OUT; -1 when it lacks a watermark. */
static int close_zone(const struct zone *z, struct lmkd_watermarks *out, struct lmkd_parse_error *err)
{
	if (!z->header_line || z->present <= 0)
		return 0;
	if (!z->has[0] || !z->has[1] || !z->has[2])
		return fail(err, z->header_line, "a populated zone without its min, low and high watermarks");
	out->min += z->wmark[0] + z->max_protection;
	out->low += z->wmark[1] + z->max_protection;
	out->high += z->wmark[2] + z->max_protection;
	out->free += z->free;
	out->free_cma += z->free_cma;
	out->zones++;
	return 0;
}

static bool parse_ll(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno)
		return false;
	*out = v;
	return true;
}

/* "(0, 3018, 15050, 15050, 15050)": its largest entry. */
static bool parse_protection(const char *s, long long *max)
{
	s = strchr(s, '(');
	if (!s)
		return false;
	*max = 0;
	for (s++;;) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (end == s || errno)
			return false;
		if (v > *max)
			*max = v;
		for (s = end; *s == ' '; s++)
			;
		if (*s == ')')
			return true;
		if (*s != ',')
			return false;
		s++;
	}
}

static const char *const zone_fields[] = { "min", "low", "high" };

/* One line of a zone: TEXT is the line without its leading blanks. */
static int zone_line(struct zone *z, const char *word, const char *rest, int line,
		     struct lmkd_parse_error *err)
{
	if (z->in_pagesets)
		return 0;
	if (!strcmp(word, "pagesets")) {
		z->in_pagesets = true;
		return 0;
	}
	if (!strcmp(word, "protection:"))
		return parse_protection(rest, &z->max_protection) ? 0 :
			fail(err, line, "a protection: line that is not \"(N, N, ...)\"");
	long long *slot = NULL;
	for (int i = 0; i < 3; i++)
		if (!strcmp(word, zone_fields[i])) {
			slot = &z->wmark[i];
			z->has[i] = true;
		}
	if (!strcmp(word, "present"))
		slot = &z->present;
	else if (!strcmp(word, "nr_free_pages"))
		slot = &z->free;
	else if (!strcmp(word, "nr_free_cma"))
		slot = &z->free_cma;
	if (slot && !parse_ll(rest, slot))
		return fail(err, line, "a zone field without a number");
	return 0;
}

int lmkd_parse_zoneinfo(const char *text, struct lmkd_watermarks *out, struct lmkd_parse_error *err)
{
	memset(out, 0, sizeof(*out));
	struct zone z = { 0 };
	bool any = false;
	int line = 0;
	for (const char *p = text; p && *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512], word[64];
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = nl ? nl + 1 : NULL;
		int node, at = 0;
		char name[32];
		if (sscanf(buf, "Node %d, zone %31s", &node, name) == 2) {
			if (close_zone(&z, out, err) < 0)
				return -1;
			memset(&z, 0, sizeof(z));
			z.header_line = line + 1;
			any = true;
			continue;
		}
		if (!z.header_line || sscanf(buf, " %63s %n", word, &at) < 1)
			continue;
		if (zone_line(&z, word, buf + at, line + 1, err) < 0)
			return -1;
	}
	if (close_zone(&z, out, err) < 0)
		return -1;
	if (!any || !out->zones)
		return fail(err, 0, any ? "no populated zone" : "no \"Node N, zone NAME\" line");
	return 0;
}

/* A table of the keys a kv file must or may have, and where each goes. */
struct field {
	const char *key;
	long long *slot;
	bool required;
	bool seen;
};

struct fields {
	struct field *f;
	size_t n;
};

static void take(const struct kv_pair *pair, void *ctx)
{
	struct fields *fs = ctx;
	for (size_t i = 0; i < fs->n; i++)
		if (!fs->f[i].seen && !strcmp(fs->f[i].key, pair->key)) {
			*fs->f[i].slot = pair->value;
			fs->f[i].seen = true;
		}
}

static const char *missing(const struct fields *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].required && !fs->f[i].seen)
			return fs->f[i].key;
	return NULL;
}

int lmkd_parse_meminfo(const char *text, long page_kb, struct lmkd_meminfo *out,
		       struct lmkd_parse_error *err)
{
	memset(out, 0, sizeof(*out));
	struct field f[] = {
		{ "MemFree", &out->free, true, false },
		{ "CmaFree", &out->cma_free, false, false },
		{ "Active(file)", &out->active_file, true, false },
		{ "Inactive(file)", &out->inactive_file, true, false },
		{ "SwapTotal", &out->swap_total, true, false },
		{ "SwapFree", &out->swap_free, true, false },
		{ "Active(anon)", &out->active_anon, false, false },
		{ "Inactive(anon)", &out->inactive_anon, false, false },
		{ "Shmem", &out->shmem, false, false },
	};
	struct fields fs = { f, sizeof(f) / sizeof(f[0]) };
	if (page_kb <= 0)
		return fail(err, 0, "a page size under 1 kB");
	kv_each(text, take, &fs);
	const char *gone = missing(&fs);
	if (gone) {
		static char why[64];
		snprintf(why, sizeof(why), "no %s line", gone);
		return fail(err, 0, why);
	}
	for (size_t i = 0; i < fs.n; i++)
		*f[i].slot /= page_kb;
	return 0;
}

int lmkd_parse_vmstat(const char *text, struct lmkd_vmstat *out, struct lmkd_parse_error *err)
{
	memset(out, 0, sizeof(*out));
	long long old_refault = 0;
	struct field f[] = {
		{ "nr_inactive_file", &out->nr_inactive_file, true, false },
		{ "nr_active_file", &out->nr_active_file, true, false },
		{ "workingset_refault_file", &out->workingset_refault_file, false, false },
		{ "workingset_refault", &old_refault, false, false },
		{ "pgscan_kswapd", &out->pgscan_kswapd, true, false },
		{ "pgscan_direct", &out->pgscan_direct, true, false },
		{ "pgrefill", &out->pgrefill, true, false },
	};
	struct fields fs = { f, sizeof(f) / sizeof(f[0]) };
	kv_each(text, take, &fs);
	const char *gone = missing(&fs);
	if (!gone && !f[2].seen && !f[3].seen)
		gone = "workingset_refault_file";
	if (gone) {
		static char why[64];
		snprintf(why, sizeof(why), "no %s line", gone);
		return fail(err, 0, why);
	}
	/* lmkd takes the old name's value when it is there and not 0 */
	if (old_refault)
		out->workingset_refault_file = old_refault;
	return 0;
}
