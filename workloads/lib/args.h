/* Argument helpers shared by the workloads.
 *
 * Conventions: a bad argument prints one line "NAME: <what is wrong>" on
 * stderr and the workload exits 2 (WL_EXIT_USAGE); --help prints the usage
 * and exits 0 (wl_parse_args() below).
 */
#ifndef OOMLAB_ARGS_H
#define OOMLAB_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/cli/parse-options.h"

#define WL_EXIT_OK     0
#define WL_EXIT_FAIL   1
#define WL_EXIT_USAGE  2

/* Print "name: <msg>\n" on stderr; returns WL_EXIT_USAGE. */
int wl_usage_error(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print "name: <msg>\n" on stderr (runtime failure, not usage). */
void wl_err(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Pure helpers without printing (for tests and internal use):
 * return 0 or -EINVAL / -ERANGE. */
int wl_parse_size_str(const char *s, uint64_t pct_base, uint64_t *out);
int wl_parse_duration_str(const char *s, uint64_t *out_ns);
int wl_parse_u64_str(const char *s, uint64_t *out);

/* Each workload parses its options from one table (common/cli/parse-options.h),
 * which also makes its --help, and which ends with the option every
 * workload has:
 *   --node N      bind CPU and memory to NUMA node N
 */
struct wl_common {
	int node;           /* -1 = no binding */
};
#define WL_NODE_OPTION(com) \
	OPT_INT(0, "node", &(com)->node, "N", 0, 1023, "bind CPU and memory to NUMA node N")

/* Parses ARGV with OPTS: --help prints USAGE, the options, NAME's metric
 * rows (common/proto/workload-metrics.h) and TAIL (may be NULL: what the rows
 * do not say, events, labels, exit status) on stdout; a bad option or a stray argument is one line "NAME: ..."
 * and the code 2; then the NUMA binding is applied (no such node: 2).
 * *done is set when the workload must return the code given at once;
 * otherwise the code is 0. */
int wl_parse_args(const char *name, int argc, char **argv, const struct opt *opts,
		  const char *usage, const char *tail, struct wl_common *com, bool *done);
/* The same for a workload with operands ("selftest SUITE/TEST ARGS..."): the
 * first operand and everything after it, its own options included, are
 * moved to ARGV[1..]; *OPERANDS says how many. */
int wl_parse_args_operands(const char *name, int argc, char **argv, const struct opt *opts,
			   const char *usage, const char *tail, struct wl_common *com, bool *done,
			   int *operands);

/* For oomlab-workload --describe: from now on --help writes the usage's
 * head, the option table and the tail as records for the lab
 * (common/proto/workload-describe.h) instead of the usage. */
void wl_set_describe(void);

/* OPTION_CALL converters for the tables, with the range in min and max:
 * sizes (4096, 64K, 16M), sizes that may also be a share of MemTotal (50%),
 * and durations (10, 2.5s, 500ms) into nanoseconds. */
int wl_opt_size(const struct opt *o, const char *value, char *err, size_t err_size);
int wl_opt_mem_size(const struct opt *o, const char *value, char *err, size_t err_size);
int wl_opt_duration(const struct opt *o, const char *value, char *err, size_t err_size);
/* A comma-separated list of sizes ("4,8,64K") into a struct wl_size_list. */
struct wl_size_list {
	uint64_t *items;
	int n, max;
};
int wl_opt_size_list(const struct opt *o, const char *value, char *err, size_t err_size);
#define WL_OPT_SIZE(s, l, t, a, lo, hi, h)     { OPTION_CALL, s, l, t, a, h, lo, hi, wl_opt_size, NULL }
#define WL_OPT_MEM_SIZE(s, l, t, a, lo, hi, h) { OPTION_CALL, s, l, t, a, h, lo, hi, wl_opt_mem_size, NULL }
#define WL_OPT_DURATION(s, l, t, a, h)         { OPTION_CALL, s, l, t, a, h, 0, 0, wl_opt_duration, NULL }

/* NUMA: bind the calling process (CPU + memory) to node; 0 or -errno.
 * Errors: -ENOSYS (no NUMA support), -ENODEV (no such node). */
int wl_numa_bind(int node);
int wl_numa_max_node(void);

#endif
