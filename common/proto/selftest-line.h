/*
 * How the host reads a `selftest` workload line (workloads/selftest.c):
 * `selftest [OPTIONS] SUITE/TEST [ARGS]` or `selftest [OPTIONS] SUITE`.
 * The command check and the selftests' build both find the test's name
 * past the options; which options take a separate value is said here once.
 */
#ifndef OOMLAB_SELFTEST_LINE_H
#define OOMLAB_SELFTEST_LINE_H

#include <stdbool.h>

/* WORD is one of selftest's options whose value is the next word
 * ("--node 1", "--timeout 60s"; "--timeout=60s" is one word). */
bool selftest_option_takes_value(const char *word);

#endif
