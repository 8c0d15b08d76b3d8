/* Argument helpers; see args.h. */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int wl_usage_error(const char *name, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", name, msg);
	return WL_EXIT_USAGE;
}

void wl_err(const char *name, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", name, msg);
}

int wl_parse_u64_str(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int wl_parse_size_str(const char *s, uint64_t pct_base, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v) || v < 0)
		return -ERANGE;
	if (*end == '%') {
		if (!pct_base || end[1])
			return -EINVAL;
		*out = (uint64_t)(v / 100.0 * (double)pct_base);
		return 0;
	}
	switch (tolower((unsigned char)*end)) {
	case '\0': mult = 1; break;
	case 'b': mult = 1; end++; break;
	case 'k': mult = 1ull << 10; end++; break;
	case 'm': mult = 1ull << 20; end++; break;
	case 'g': mult = 1ull << 30; end++; break;
	case 't': mult = 1ull << 40; end++; break;
	default: return -EINVAL;
	}
	if (mult > 1) {
		/* Accept K, KB, KiB (all binary). */
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'b' || *end == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	if (v * (double)mult > 1.8e19)
		return -ERANGE;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

int wl_parse_duration_str(const char *s, uint64_t *out_ns)
{
	char *end;
	double v, mult;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v) || v < 0)
		return -ERANGE;
	if (!*end || !strcmp(end, "s"))
		mult = 1e9;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (!strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ns"))
		mult = 1;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60e9;
	else if (!strcmp(end, "h"))
		mult = 3600e9;
	else
		return -EINVAL;
	if (v * mult > 1.8e19)
		return -ERANGE;
	*out_ns = (uint64_t)(v * mult);
	return 0;
}

int wl_parse_u64(const char *name, const char *opt, const char *arg,
		 uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int r = wl_parse_u64_str(arg, &v);

	if (r == -ERANGE || (r == 0 && (v < min || v > max))) {
		wl_usage_error(name, "%s must be between %llu and %llu, got '%s'",
			       opt, (unsigned long long)min,
			       (unsigned long long)max, arg);
		return -1;
	}
	if (r) {
		wl_usage_error(name, "%s needs a non-negative integer, got '%s'",
			       opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int wl_parse_int(const char *name, const char *opt, const char *arg,
		 long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = arg && *arg ? strtol(arg, &end, 0) : 0;
	if (!arg || !*arg || *end || isspace((unsigned char)*arg)) {
		wl_usage_error(name, "%s needs an integer, got '%s'", opt,
			       arg ? arg : "");
		return -1;
	}
	if (errno == ERANGE || v < min || v > max) {
		wl_usage_error(name, "%s must be between %ld and %ld, got '%s'",
			       opt, min, max, arg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int wl_parse_size(const char *name, const char *opt, const char *arg,
		  uint64_t pct_base, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int r = wl_parse_size_str(arg, pct_base, &v);

	if (r) {
		wl_usage_error(name, "%s needs a size like 4096, 64K, 16M%s, got '%s'",
			       opt, pct_base ? " or 50%" : "", arg);
		return -1;
	}
	if (v < min || v > max) {
		wl_usage_error(name, "%s must be between %llu and %llu bytes, got '%s'",
			       opt, (unsigned long long)min,
			       (unsigned long long)max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int wl_parse_duration(const char *name, const char *opt, const char *arg,
		      uint64_t *out_ns)
{
	if (wl_parse_duration_str(arg, out_ns)) {
		wl_usage_error(name, "%s needs a duration like 10, 2.5s, 500ms, got '%s'",
			       opt, arg);
		return -1;
	}
	return 0;
}

int wl_parse_double(const char *name, const char *opt, const char *arg,
		    double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = arg && *arg ? strtod(arg, &end) : 0;
	if (!arg || !*arg || *end || errno || !isfinite(v)) {
		wl_usage_error(name, "%s needs a number, got '%s'", opt,
			       arg ? arg : "");
		return -1;
	}
	if (v < min || v > max) {
		wl_usage_error(name, "%s must be between %g and %g, got '%s'",
			       opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int wl_parse_size_list(const char *name, const char *opt, const char *arg,
		       uint64_t *out, int max_items)
{
	char buf[1024];
	char *save = NULL, *tok;
	int n = 0;

	if (!arg || strlen(arg) >= sizeof(buf)) {
		wl_usage_error(name, "%s: list too long", opt);
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= max_items) {
			wl_usage_error(name, "%s takes at most %d items", opt,
				       max_items);
			return -1;
		}
		if (wl_parse_size_str(tok, 0, &out[n]) || out[n] == 0) {
			wl_usage_error(name, "%s: bad size '%s' in '%s'", opt,
				       tok, arg);
			return -1;
		}
		n++;
	}
	if (!n) {
		wl_usage_error(name, "%s needs at least one size", opt);
		return -1;
	}
	return n;
}

void wl_common_init(struct wl_common *c)
{
	c->node = -1;
	c->help = false;
}

void wl_getopt_reset(void)
{
	optind = 0;     /* glibc: 0 forces full reinitialisation */
	opterr = 0;
}

int wl_common_opt(const char *name, int c, const char *arg, char *const argv[],
		  struct wl_common *com)
{
	switch (c) {
	case WL_OPT_HELP:
		com->help = true;
		return 1;
	case WL_OPT_NODE:
		return wl_parse_int(name, "--node", arg, 0, 1023, &com->node) ?
		       -1 : 1;
	case ':':
		if (optopt)
			wl_usage_error(name, "option -%c needs an argument",
				       optopt);
		else
			wl_usage_error(name, "option %s needs an argument",
				       argv[optind - 1]);
		return -1;
	case '?':
		if (optopt)
			wl_usage_error(name, "unknown option -%c", optopt);
		else
			wl_usage_error(name, "unknown option %s",
				       argv[optind - 1]);
		return -1;
	default:
		return 0;
	}
}

int wl_numa_max_node(void)
{
	if (numa_available() < 0)
		return 0;
	return numa_max_node();
}

int wl_numa_bind(int node)
{
	struct bitmask *bm;

	if (numa_available() < 0)
		return node == 0 ? 0 : -ENOSYS;
	if (node > numa_max_node() ||
	    !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)node))
		return -ENODEV;
	if (numa_run_on_node(node) < 0)
		return errno ? -errno : -EINVAL;
	bm = numa_allocate_nodemask();
	if (!bm)
		return -ENOMEM;
	numa_bitmask_setbit(bm, (unsigned)node);
	errno = 0;
	numa_set_membind(bm);
	numa_bitmask_free(bm);
	if (errno)
		return -errno;
	return 0;
}

int wl_common_apply(const char *name, const struct wl_common *com, int argc,
		    char *const argv[], const char *usage, bool *done)
{
	*done = false;
	if (optind < argc) {
		*done = true;
		return wl_usage_error(name, "unexpected argument '%s'", argv[optind]);
	}
	if (com->help) {
		fputs(usage, stdout);
		fflush(stdout);
		*done = true;
		return WL_EXIT_OK;
	}
	if (com->node >= 0) {
		int r = wl_numa_bind(com->node);

		if (r == -ENODEV || r == -ENOSYS) {
			*done = true;
			return wl_usage_error(name, "--node %d: no such NUMA node (nodes 0..%d)",
					      com->node, wl_numa_max_node());
		}
		if (r) {
			*done = true;
			wl_err(name, "--node %d: binding failed: %s", com->node,
			       strerror(-r));
			return WL_EXIT_FAIL;
		}
	}
	return WL_EXIT_OK;
}
