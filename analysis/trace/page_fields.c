/* page_fields.c - page allocator fields, printed or raw (page_fields.h). */
#include "page_fields.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 6.12's bits (include/linux/gfp_types.h), for raw gfp_flags. */
static const struct {
	const char *name;
	unsigned long long bit;
} gfp_bits[] = {
	{ "__GFP_ZERO", 1ull << 8 },
	{ "__GFP_NOWARN", 1ull << 13 },
	{ "__GFP_NORETRY", 1ull << 16 },
	{ "__GFP_COMP", 1ull << 18 },
};

static bool is_null_page(const char *page)
{
	/* "(nil)" from glibc's %p, or all zeros from perf's own formatting */
	if (!strcmp(page, "(nil)"))
		return true;
	page += strncmp(page, "0x", 2) ? 0 : 2;
	return page[strspn(page, "0")] == '\0';
}

bool page_alloc_failed(const struct perf_sample *s)
{
	const char *page = perf_field(s, "page"), *pfn = perf_field(s, "pfn");
	if (!pfn)
		return false;
	if (!page) /* raw: the kernel's -1UL */
		return !strcmp(pfn, "0xffffffffffffffff") || !strcmp(pfn, "-1");
	long long n;
	return is_null_page(page) && perf_field_long(s, "pfn", &n) && n == 0;
}

bool gfp_flags_have(const char *flags, const char *flag)
{
	if (!flags)
		return false;
	if (isdigit((unsigned char)flags[0])) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(flags, &end, 0);
		if (errno || end == flags)
			return false;
		for (size_t i = 0; i < sizeof(gfp_bits) / sizeof(gfp_bits[0]); i++)
			if (!strcmp(gfp_bits[i].name, flag))
				return (v & gfp_bits[i].bit) != 0;
		return false;
	}
	size_t len = strlen(flag);
	for (const char *p = flags; (p = strstr(p, flag)); p += len)
		if ((p == flags || p[-1] == '|') && (p[len] == '|' || p[len] == '\0'))
			return true;
	return false;
}
