/* Argument helpers; see args.h. */
#include "args.h"
#include "common/proto/workload-describe.h"
#include "common/proto/workload-metrics.h"
#include "check.h"
#include "sysinfo.h"

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

int wl_opt_size_list(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct wl_size_list *list = o->target;
	char buf[1024];
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(value) >= sizeof(buf)) {
		snprintf(err, err_size, "is too long a list");
		return -1;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= list->max) {
			snprintf(err, err_size, "takes at most %d items", list->max);
			return -1;
		}
		if (wl_parse_size_str(tok, 0, &list->items[n]) || list->items[n] == 0) {
			snprintf(err, err_size, "has a bad size '%s' in '%s'", tok, value);
			return -1;
		}
		n++;
	}
	if (!n) {
		snprintf(err, err_size, "needs at least one size");
		return -1;
	}
	list->n = n;
	return 0;
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

static bool describing;

void wl_set_describe(void)
{
	describing = true;
}

/* TEXT's lines, each a record "KIND<TAB>LINE" (a last line without its end too). */
static void describe_lines(const char *kind, const char *text)
{
	while (text && *text) {
		printf("%s\t", kind);
		for (; *text && *text != '\n'; text++)
			putchar(*text == '\t' ? ' ' : *text);
		putchar('\n');
		text += *text == '\n';
	}
}

/* --help under oomlab-workload --describe: the usage's parts as records. */
static void describe_usage(const char *usage, const struct opt *opts, const char *tail)
{
	describe_lines(DESCRIBE_USAGE, usage);
	print_option_rows(stdout, opts);
	describe_lines(DESCRIBE_NOTES, tail);
}

/* --help's metrics, from the workload's rows (common/proto/workload-metrics.h). */
static void print_metric_rows(FILE *out, const char *name)
{
	const struct metric_row *rows = workload_metric_rows(name);
	if (!rows)
		return;
	fprintf(out, "\nMetrics, as trial.json names them after \"%s.\" [unit] (label sets):\n", name);
	for (const struct metric_row *row = rows; row->name; row++) {
		int col = fprintf(out, "  %s [%s]", row->name, row->unit);
		const char *set;
		for (size_t i = 0; row->labels && (set = metric_row_label_set(row, i)); i++)
			col += fprintf(out, "%s%s", i ? ", " : " (", *set ? set : "none");
		if (row->labels)
			col += fprintf(out, ")");
		fputc(':', out);
		print_wrapped(out, row->meaning, col + 1, 6);
	}
}

/* OPERANDS NULL: a stray argument is an error; else the first operand and
 * everything after it are operands, moved to ARGV[1..], *OPERANDS of them. */
static int parse_args(const char *name, int argc, char **argv, const struct opt *opts,
		      const char *usage, const char *tail, struct wl_common *com, bool *done,
		      int *operands)
{
	char err[OPT_ERR_MAX];
	*done = true;
	int n = operands ? parse_options_until(argc, argv, opts, 0, err)
			 : parse_options(argc, argv, opts, err);
	if (n == OPT_PARSE_ERROR)
		return wl_usage_error(name, "%s", err);
	if (n > 0 && !operands)
		return wl_usage_error(name, "unexpected argument '%s'", argv[1]);
	if (operands)
		*operands = n > 0 ? n : 0;
	const struct wl_guest_shape *guest = wl_checking();
	if (n == OPT_PARSE_HELP) {
		if (guest)
			wl_start();  /* --help is a good line: it prints and exits 0 */
		if (describing) {
			/* the metrics are records of their own (workload_describe) */
			describe_usage(usage, opts, tail);
		} else {
			print_usage(stdout, usage, opts, NULL);
			print_metric_rows(stdout, name);
			if (tail)
				fprintf(stdout, "\n%s", tail);
		}
		fflush(stdout);
		return WL_EXIT_OK;
	}
	if (guest && com->node >= guest->numa_nodes)
		return wl_usage_error(name, "--node %d: no such NUMA node (nodes 0..%d)", com->node,
				      guest->numa_nodes - 1);
	if (com->node >= 0 && !guest) {
		int r = wl_numa_bind(com->node);

		if (r == -ENODEV || r == -ENOSYS)
			return wl_usage_error(name, "--node %d: no such NUMA node (nodes 0..%d)",
					      com->node, wl_numa_max_node());
		if (r) {
			wl_err(name, "--node %d: binding failed: %s", com->node, strerror(-r));
			return WL_EXIT_FAIL;
		}
	}
	*done = false;
	return WL_EXIT_OK;
}

int wl_parse_args(const char *name, int argc, char **argv, const struct opt *opts,
		  const char *usage, const char *tail, struct wl_common *com, bool *done)
{
	return parse_args(name, argc, argv, opts, usage, tail, com, done, NULL);
}

int wl_parse_args_operands(const char *name, int argc, char **argv, const struct opt *opts,
			   const char *usage, const char *tail, struct wl_common *com, bool *done,
			   int *operands)
{
	return parse_args(name, argc, argv, opts, usage, tail, com, done, operands);
}

static int size_option(const struct opt *o, const char *value, uint64_t pct_base, char *err,
		       size_t err_size)
{
	uint64_t v;
	if (wl_parse_size_str(value, pct_base, &v)) {
		snprintf(err, err_size, "needs a size like 4096, 64K, 16M%s, got '%s'",
			 pct_base ? " or 50%" : "", value);
		return -1;
	}
	if ((double)v < o->min || (double)v > o->max) {
		snprintf(err, err_size, "must be between %.0f and %.0f bytes, got '%s'", o->min,
			 o->max, value);
		return -1;
	}
	*(uint64_t *)o->target = v;
	return 0;
}

int wl_opt_size(const struct opt *o, const char *value, char *err, size_t err_size)
{
	return size_option(o, value, 0, err, err_size);
}

int wl_opt_mem_size(const struct opt *o, const char *value, char *err, size_t err_size)
{
	return size_option(o, value, wl_mem_total_bytes(), err, err_size);
}

int wl_opt_duration(const struct opt *o, const char *value, char *err, size_t err_size)
{
	if (wl_parse_duration_str(value, o->target)) {
		snprintf(err, err_size, "needs a duration like 10, 2.5s, 500ms, got '%s'", value);
		return -1;
	}
	return 0;
}
