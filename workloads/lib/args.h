/* Argument helpers shared by the workloads.
 *
 * Conventions: a bad argument prints one line "NAME: <what is wrong>" on
 * stderr and the workload exits 2 (WL_EXIT_USAGE); --help prints the usage
 * and exits 0.  The parse helpers print that line themselves and return -1.
 */
#ifndef OOMLAB_ARGS_H
#define OOMLAB_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#define WL_EXIT_OK     0
#define WL_EXIT_FAIL   1
#define WL_EXIT_USAGE  2

/* Print "name: <msg>\n" on stderr; returns WL_EXIT_USAGE. */
int wl_usage_error(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print "name: <msg>\n" on stderr (runtime failure, not usage). */
void wl_err(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parsers: 0 on success, -1 (after printing the error line) otherwise.
 * `opt` is the option's name as the user typed it, e.g. "--iterations". */
int wl_parse_u64(const char *name, const char *opt, const char *arg,
		 uint64_t min, uint64_t max, uint64_t *out);
int wl_parse_int(const char *name, const char *opt, const char *arg,
		 long min, long max, int *out);
/* Sizes: a number with an optional K, M, G suffix (powers of 1024; "KiB",
 * "k", "MB" are accepted as the same) and an optional "%" form when
 * pct_base is nonzero (e.g. "50%" of MemTotal). */
int wl_parse_size(const char *name, const char *opt, const char *arg,
		  uint64_t pct_base, uint64_t min, uint64_t max, uint64_t *out);
/* Durations: a number with optional ns, us, ms, s, m, h suffix (default
 * seconds); result in nanoseconds. */
int wl_parse_duration(const char *name, const char *opt, const char *arg,
		      uint64_t *out_ns);
int wl_parse_double(const char *name, const char *opt, const char *arg,
		    double min, double max, double *out);
/* Comma-separated list of sizes, e.g. "4,8,64K". Returns count or -1. */
int wl_parse_size_list(const char *name, const char *opt, const char *arg,
		       uint64_t *out, int max_items);

/* Pure helpers without printing (for tests and internal use):
 * return 0 or -EINVAL / -ERANGE. */
int wl_parse_size_str(const char *s, uint64_t pct_base, uint64_t *out);
int wl_parse_duration_str(const char *s, uint64_t *out_ns);
int wl_parse_u64_str(const char *s, uint64_t *out);

/* getopt_long driver with the conventions above.  Each workload lists its
 * options in a struct option array that must include WL_COMMON_OPTS; the
 * common ones are handled here:
 *   --help (-h)   print usage, exit 0
 *   --node N      bind CPU and memory to NUMA node N (applied by
 *                 wl_common_apply())
 */
enum { WL_OPT_NODE = 0x1000, WL_OPT_HELP = 'h' };
#define WL_COMMON_OPTS \
	{ "help", no_argument, 0, WL_OPT_HELP }, \
	{ "node", required_argument, 0, WL_OPT_NODE }

struct wl_common {
	int node;           /* -1 = no binding */
	bool help;
};

void wl_common_init(struct wl_common *c);
/* Call for each option returned by getopt_long.  Returns:
 *   1  the option was a common one and has been handled,
 *   0  not a common option (the caller handles it),
 *  -1  error already printed (exit 2).
 * It also turns getopt's '?' and ':' into the one-line error. */
int wl_common_opt(const char *name, int c, const char *arg, char *const argv[],
		  struct wl_common *com);
/* After parsing: an argument left after the options (argv[optind]) is a
 * usage error (2); if --help, prints `usage` on stdout and returns 0; then
 * applies the NUMA binding (no such node -> 2). *done is set when the
 * workload must return the code given; otherwise the code is 0. */
int wl_common_apply(const char *name, const struct wl_common *com, int argc,
		    char *const argv[], const char *usage, bool *done);

/* Reset getopt state (the workloads may be called several times in one
 * process, e.g. by unit tests). */
void wl_getopt_reset(void);

/* NUMA: bind the calling process (CPU + memory) to node; 0 or -errno.
 * Errors: -ENOSYS (no NUMA support), -ENODEV (no such node). */
int wl_numa_bind(int node);
int wl_numa_max_node(void);

#endif
