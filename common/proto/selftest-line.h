/*
 * How the host reads a `selftest` workload line (workloads/selftest.c):
 * `selftest [OPTIONS] SUITE/TEST [ARGS]` or `selftest [OPTIONS] SUITE`.
 * The command check and the selftests' build both find the test's name
 * here, past the options; which options take a separate value is said
 * here once: test-workload-catalog holds this list to the option table of
 * the built selftest workload (its --describe rows).
 */
#ifndef OOMLAB_SELFTEST_LINE_H
#define OOMLAB_SELFTEST_LINE_H

#include <stddef.h>

/* The options of selftest that take a separate value, NULL-terminated. */
extern const char *const selftest_value_options[];

/* Where in ARGS (selftest's arguments, after its name; NULL-terminated) the
 * test or suite stands: past the options and the values of "--node N" and
 * "--timeout DUR" ("--timeout=DUR" is one word). The index of the NULL
 * when none does. */
size_t selftest_operand(const char *const *args);

#endif
