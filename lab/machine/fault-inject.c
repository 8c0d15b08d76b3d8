/* Fault injection keys: parsing, and the job spec lines that arm them (fault-inject.h). */
#include "fault-inject.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job-spec.h"
#include "lab/kernel/kconfig.h"
#include "lab/kernel/variant.h"
#include "lab/keys/kvfile.h"

static const char *const page_alloc_options[] = { "CONFIG_FAULT_INJECTION_DEBUG_FS",
						  "CONFIG_FAIL_PAGE_ALLOC", NULL };
static const char *const slab_options[] = { "CONFIG_FAULT_INJECTION_DEBUG_FS", "CONFIG_FAILSLAB", NULL };

/* The highest order the page allocator has (MAX_PAGE_ORDER on every lab platform). */
#define FAULT_MAX_ORDER 10

const char *const *fault_capability_options(enum fault_capability cap)
{
	return cap == FAULT_PAGE_ALLOC ? page_alloc_options : slab_options;
}

int fault_capability_of_key(const char *key)
{
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++)
		if (!strcmp(key, fault_capability_name[i]))
			return i;
	return -1;
}

bool fault_key_member(size_t i, struct key_info *out)
{
	static const char *const meaning[FAULT_CAPABILITY_COUNT] = {
		[FAULT_PAGE_ALLOC] = "page allocations of the workload fail on purpose (the kernel's "
				     "fault injection)",
		[FAULT_SLAB] = "slab allocations of the workload fail on purpose (the kernel's fault "
			       "injection)",
	};
	static const char *const range[FAULT_CAPABILITY_COUNT] = {
		[FAULT_PAGE_ALLOC] = "probability P (0 to 100), interval N, times N, space BYTES, "
				     "min-order K, ignore-gfp-wait yes|no",
		[FAULT_SLAB] = "probability P (0 to 100), interval N, times N, space BYTES, "
			       "ignore-gfp-wait yes|no",
	};
	if (i >= FAULT_CAPABILITY_COUNT)
		return false;
	*out = (struct key_info){ .name = fault_capability_name[i], .type = "faults",
				  .fallback = "(off)", .range = range[i], .meaning = meaning[i] };
	return true;
}

static bool whole(const char *text, unsigned long lo, unsigned long hi, unsigned long *v)
{
	return parse_ulong(text, v) && *v >= lo && *v <= hi;
}

/* One "word value" item into F; -1 with the reason. */
static int parse_item(enum fault_capability cap, char *item, struct fault_injection *f, bool *seen_p,
		      struct strbuf *err)
{
	char *value = item + strcspn(item, " \t");
	if (*value)
		*value++ = '\0';
	value = trim(value);
	unsigned long v;
	if (!*item || !*value) {
		strbuf_addf(err, "'%s' wants a word and its value, such as 'probability 10'", item);
		return -1;
	}
	if (!strcmp(item, "probability")) {
		size_t len = strlen(value);
		if (len > 1 && value[len - 1] == '%')
			value[len - 1] = '\0';
		if (!whole(value, 0, 100, &v)) {
			strbuf_addf(err, "probability wants a whole percent from 0 to 100, not '%s' "
				    "(for rarer failures add 'interval N')", value);
			return -1;
		}
		f->probability = (unsigned)v;
		*seen_p = true;
	} else if (!strcmp(item, "interval")) {
		if (!whole(value, 1, 1000000000, &v)) {
			strbuf_addf(err, "interval wants a whole number from 1, not '%s'", value);
			return -1;
		}
		f->interval = v;
	} else if (!strcmp(item, "times")) {
		if (!whole(value, 1, FAULT_TIMES_UNLIMITED - 1, &v)) {
			strbuf_addf(err, "times wants a whole number from 1 to %ld, not '%s'",
				    FAULT_TIMES_UNLIMITED - 1, value);
			return -1;
		}
		f->times = (long)v;
	} else if (!strcmp(item, "space")) {
		/* the kernel keeps it in an int */
		if (!parse_size(value, &f->space) || f->space > 0x7fffffffULL) {
			strbuf_addf(err, "space wants a size in bytes below 2G (4096, 64K, 1M), not '%s'",
				    value);
			return -1;
		}
	} else if (!strcmp(item, "min-order")) {
		if (cap != FAULT_PAGE_ALLOC) {
			strbuf_addf(err, "min-order is fail_page_alloc's, not %s's", fault_capability_name[cap]);
			return -1;
		}
		if (!whole(value, 0, FAULT_MAX_ORDER, &v)) {
			strbuf_addf(err, "min-order wants an order from 0 to %d, not '%s'", FAULT_MAX_ORDER,
				    value);
			return -1;
		}
		f->min_order = (int)v;
	} else if (!strcmp(item, "ignore-gfp-wait")) {
		if (strcmp(value, "yes") && strcmp(value, "no")) {
			strbuf_addf(err, "ignore-gfp-wait wants yes or no, not '%s'", value);
			return -1;
		}
		f->ignore_gfp_wait = !strcmp(value, "yes");
	} else {
		strbuf_addf(err, "no such word '%s' (probability, interval, times, space, %signore-gfp-wait)",
			    item, cap == FAULT_PAGE_ALLOC ? "min-order, " : "");
		return -1;
	}
	return 0;
}

int fault_injection_parse(enum fault_capability cap, const char *text, struct fault_injection *out,
			  struct strbuf *err)
{
	struct fault_injection f = { .armed = true, .interval = 1, .times = -1, .min_order = -1 };
	char *copy = xstrdup(text), *save = NULL;
	bool seen_probability = false;
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save))
		rc = parse_item(cap, trim(tok), &f, &seen_probability, err);
	free(copy);
	if (rc == 0 && !seen_probability) {
		strbuf_addf(err, "%s needs a probability, such as 'probability 10'", fault_capability_name[cap]);
		rc = -1;
	}
	if (rc == 0)
		*out = f;
	return rc;
}

const char *fault_key_set(struct fault_plan *plan, const char *file, const char *key, const char *value,
			  int line)
{
	static char why[256];
	int cap = fault_capability_of_key(key);
	if (cap < 0)
		return kvfile_unknown_key;
	struct strbuf err = STRBUF_INIT;
	int rc = fault_injection_parse((enum fault_capability)cap, value, &plan->cap[cap], &err);
	if (rc < 0)
		snprintf(why, sizeof(why), "%s", err.buf);
	strbuf_release(&err);
	if (rc < 0)
		return why;
	plan->cap[cap].file = file;
	plan->cap[cap].line = line;
	return NULL;
}

void fault_plan_merge(struct fault_plan *plan, const struct fault_plan *over)
{
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++)
		if (over->cap[i].armed)
			plan->cap[i] = over->cap[i];
}

bool fault_plan_armed(const struct fault_plan *plan)
{
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++)
		if (plan->cap[i].armed)
			return true;
	return false;
}

/* The spec line "fault.<capability>.<attribute>=VALUE" (common/proto/job-keys.h). */
static void put_attr(struct strbuf *spec, const char *capability, const char *attr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put_attr(struct strbuf *spec, const char *capability, const char *attr, const char *fmt, ...)
{
	char key[128], value[64];
	snprintf(key, sizeof(key), "%s%s.%s", job_keys[JOB_KEY_FAULT].name, capability, attr);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	job_spec_put_member(spec, JOB_KEY_FAULT, key, "%s", value);
}

void fault_plan_spec(const struct fault_plan *plan, struct strbuf *spec)
{
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++) {
		const struct fault_injection *f = &plan->cap[i];
		if (!f->armed)
			continue;
		const char *name = fault_capability_name[i];
		/* the probability last: nothing fails before the rest is in place */
		put_attr(spec, name, "probability", "0");
		put_attr(spec, name, "task-filter", "Y");
		put_attr(spec, name, "verbose", "0");
		put_attr(spec, name, "ignore-gfp-wait", "%c", f->ignore_gfp_wait ? 'Y' : 'N');
		if (i == FAULT_PAGE_ALLOC) {
			/* and highmem's too: none on 64-bit, so the kernel's Y spares nothing */
			put_attr(spec, name, "ignore-gfp-highmem", "N");
			if (f->min_order >= 0)
				put_attr(spec, name, "min-order", "%d", f->min_order);
		}
		put_attr(spec, name, "interval", "%lu", f->interval);
		put_attr(spec, name, "space", "%llu", f->space);
		put_attr(spec, name, "times", "%ld", f->times < 0 ? FAULT_TIMES_UNLIMITED : f->times);
		put_attr(spec, name, "probability", "%u", f->probability);
	}
}

json_t *fault_plan_json(const struct fault_plan *plan)
{
	json_t *o = json_object();
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++) {
		const struct fault_injection *f = &plan->cap[i];
		if (!f->armed)
			continue;
		json_t *c = json_pack("{s:i, s:I, s:I, s:b}", "probability", (int)f->probability,
				      "interval", (json_int_t)f->interval, "space", (json_int_t)f->space,
				      "ignore_gfp_wait", f->ignore_gfp_wait);
		json_object_set_new(c, "times", f->times < 0 ? json_null() : json_integer(f->times));
		if (i == FAULT_PAGE_ALLOC)
			json_object_set_new(c, "min_order",
					    f->min_order < 0 ? json_null() : json_integer(f->min_order));
		json_object_set_new(o, fault_capability_name[i], c);
	}
	return o;
}

int fault_plan_check_kernel(const struct fault_plan *plan, const struct variant *v,
			    const struct kconfig *base, struct strbuf *err)
{
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++) {
		const struct fault_injection *f = &plan->cap[i];
		if (!f->armed)
			continue;
		struct kconfig wanted = KCONFIG_INIT;
		for (const char *const *o = fault_capability_options((enum fault_capability)i); *o; o++)
			kconfig_set(&wanted, *o, "y", NULL);
		struct strlist lacking = STRLIST_INIT;
		struct strbuf why = STRBUF_INIT;
		int rc = variant_lacking_options(v, base, &wanted, &lacking, &why);
		kconfig_clear(&wanted);
		/* where it was asked: a file's line, or an option (line 0) */
		char *where = f->line > 0 ? xasprintf("%s:%d", f->file, f->line) : xstrdup(f->file);
		if (rc < 0)
			strbuf_addf(err, "%s: %s: %s", where, fault_capability_name[i], why.buf);
		else if (lacking.n) {
			strbuf_addf(err, "%s: %s needs the kernel's fault injection; variant '%s' lacks ",
				    where, fault_capability_name[i], v->name);
			for (size_t k = 0; k < lacking.n; k++)
				strbuf_addf(err, "%s%s", k ? ", " : "", lacking.items[k]);
			rc = -1;
		}
		free(where);
		strlist_clear(&lacking);
		strbuf_release(&why);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int fault_plan_parse_options(struct fault_plan *asked, const char *const text[FAULT_CAPABILITY_COUNT],
			     struct strbuf *err)
{
	/* the names outlive the plan's users: one string each for the whole process */
	static const char *const as_file[FAULT_CAPABILITY_COUNT] = {
		[FAULT_PAGE_ALLOC] = "--fail-page-alloc",
		[FAULT_SLAB] = "--failslab",
	};
	memset(asked, 0, sizeof(*asked));
	for (int i = 0; i < FAULT_CAPABILITY_COUNT; i++) {
		if (!text[i])
			continue;
		struct strbuf why = STRBUF_INIT;
		if (fault_injection_parse((enum fault_capability)i, text[i], &asked->cap[i], &why) < 0) {
			strbuf_addf(err, "%s: %s", as_file[i], why.buf);
			strbuf_release(&why);
			return -1;
		}
		asked->cap[i].file = as_file[i];
	}
	return 0;
}
