/*
 * The kernel's own selftests an experiment runs (workload lines
 * `selftest SUITE/TEST [ARGS]`, workloads/selftest.c), built from each
 * variant's own tree: its uapi headers (make headers, into the workspace's
 * obj-headers-ARCH), then each test by its suite's own Makefile, statically
 * linked with the platform's compiler, into
 *
 *   <cache>/selftests/<key>/SUITE/TEST
 *
 * where KEY is the tree's identity: the source's, each patch's name and
 * bytes, the architecture and this recipe's version. A variant's config and
 * command line do not change a test program, so variants of one tree share
 * their tests. The folder goes into the guest at GUEST_SELFTESTS_DIR.
 *
 * A whole suite (`selftest SUITE`) is its Makefile's TEST_GEN_PROGS, listed
 * in SUITE/SELFTEST_SUITE_LIST, or, for a suite the kernel runs through a
 * runner script (mm's run_vmtests.sh, SELFTEST_RUNNER), every program of
 * TEST_GEN_FILES and TEST_GEN_PROGS, the scripts of TEST_PROGS and
 * TEST_FILES, a static bash (the runner is a bash script) and, as the list,
 * one line "RUNNER -t CATEGORY" for each category the runner has.
 */
#ifndef LAB_SELFTEST_BUILD_H
#define LAB_SELFTEST_BUILD_H

#include "common/util.h"
#include "guest-files.h"
#include "lab/kernel/variant.h"
#include "lab/util/command-lines.h"

/* A test a workload line names, and that line's place for messages. */
struct selftest_named {
	char *test;         /* "mm/compaction_test" */
	const char *file;   /* the experiment file, or an option's name */
	int line;           /* 0 when there is no line */
	struct strlist categories;   /* a suite's operands: the runner's categories it names */
};

struct selftest_list {
	struct selftest_named *items;
	size_t n, alloc;
};

/* The selftests LINES name, once each, in order, each at its line's place. */
void selftests_named(const struct command_lines *lines, struct selftest_list *out);
void selftest_list_clear(struct selftest_list *l);

/* <cache>/selftests/<key> of V's tree (malloc'd); the tests are SUITE/TEST in it. */
char *selftest_dir(const struct variant *v);
/* What selftests_prepare returns for a test the tree does not have, a suite
 * whose Makefile lists no TEST_GEN_PROGS and has no runner, or a category its
 * runner does not have: the input's mistake. */
#define SELFTEST_NOT_IN_TREE (-2)
/* Builds the tests of LIST that V's folder lacks, then adds them to FILES
 * (the user's folders, if any) under GUEST_SELFTESTS_UNDER and finishes
 * FILES again (its hash then names the tests too). 0, or
 * one line in ERR and SELFTEST_NOT_IN_TREE ("FILE:LINE: selftest mm/x:
 * variant stock's tree has no tools/testing/selftests/mm/x.c") or -1 (a
 * build that failed, its log named; a folder that cannot be read). */
int selftests_prepare(const struct variant *v, const struct selftest_list *list,
		      struct guest_files *files, struct strbuf *err);

#endif
