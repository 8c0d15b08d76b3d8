/*
 * ktap.h - the test results the kernel's selftests print (KTAP, and the TAP
 * 13 that kselftest.h and kselftest_harness.h write), one line at a time:
 *
 *   TAP version 13
 *   1..3
 *   # a diagnostic line
 *   ok 1 global.binderfs_stress
 *   not ok 2 test_memcg_oom_group_leaf_events
 *   ok 3 # SKIP test_memcg_swap_max        (kselftest: the name as the reason)
 *   ok 4 check_compaction # SKIP no huge pages
 *   1..0 # SKIP cgroup v2 isn't mounted    (the whole test skipped)
 *
 * Only the top level counts: indented lines are a subtest's own results.
 */
#ifndef OOMLAB_KTAP_H
#define OOMLAB_KTAP_H

#include <stdbool.h>
#include <stddef.h>

enum ktap_result { KTAP_PASS, KTAP_FAIL, KTAP_SKIP };

#define KTAP_NAME_MAX   80
#define KTAP_REASON_MAX 160

struct ktap_case {
	unsigned number;
	enum ktap_result result;
	/* A metric-safe name: letters, digits, '_', '-', '.', ':' (others '_'),
	 * digit runs as "N" so that "reaping 3MB" names the same case in
	 * every trial; "caseN" when the line names none. */
	char name[KTAP_NAME_MAX];
	char reason[KTAP_REASON_MAX];  /* a skip's or a failure's reason, "" for none */
	char description[KTAP_REASON_MAX]; /* as the line gave it */
};

struct ktap_run {
	struct ktap_case *cases;
	size_t n, cap;
	long planned;                  /* the plan's count, -1 before one came */
	bool whole_skip;               /* "1..0 # SKIP": nothing ran */
	char whole_reason[KTAP_REASON_MAX];
	char last_diagnostic[KTAP_REASON_MAX]; /* the last "# ..." line: a bare skip's reason */
};

void ktap_init(struct ktap_run *r);
/* One line of output (with or without its newline). */
void ktap_feed(struct ktap_run *r, const char *line);
/* Cases the plan promised that never came (a crash, an OOM kill): 0 when all did. */
size_t ktap_missing(const struct ktap_run *r);
void ktap_clear(struct ktap_run *r);
const char *ktap_result_name(enum ktap_result result);   /* "pass", "fail", "skip" */

/*
 * The line of a test's output that explains how it ended, for a run that
 * stopped on it: kselftest's first line ("TAP version 13") says nothing,
 * its last ("# Totals: pass:0 fail:1 ...") little. Of text that is KTAP or
 * TAP (a version line or a plan came first), the line is, in this order:
 *   - the last "Bail out!" line (ksft_exit_fail_msg()'s words);
 *   - else the last "#" diagnostic that is not kselftest's own count
 *     ("# Totals:", "# Planned tests != run tests", the harness's
 *     "# PASSED:"/"# FAILED: N / M tests passed.") nor a bare "#";
 *   - else the last "not ok" line;
 *   - else none.
 * The line is quoted as printed, blanks around it trimmed, at most
 * KTAP_REASON_MAX - 1 bytes. Indented lines (a subtest's) count too.
 */
struct ktap_explainer {
	bool is_ktap;
	char bail_out[KTAP_REASON_MAX];
	char diagnostic[KTAP_REASON_MAX];
	char not_ok[KTAP_REASON_MAX];
};

void ktap_explainer_init(struct ktap_explainer *e);
/* One line of output, LEN bytes (no newline needed). */
void ktap_explainer_feed(struct ktap_explainer *e, const char *line, size_t len);
/* The explaining line, or NULL (not KTAP, or nothing said). */
const char *ktap_explaining_line(const struct ktap_explainer *e);

#endif
