/* The workload table: every guest-side workload is one C file with a main
 * function and a usage text, registered in registry.c (the way stress-ng
 * registers its stressors).  workloads/main.c dispatches on the program
 * name, so `binder-sendvec -> oomlab-workload` symlinks work, and so does
 * `oomlab-workload binder-sendvec ARGS`.
 */
#ifndef OOMLAB_WORKLOAD_H
#define OOMLAB_WORKLOAD_H

#include <stdio.h>

#include "lib/check.h"

struct workload {
	const char *name;                     /* argv[0] / symlink name */
	const char *summary;                  /* one line */
	int (*main)(int argc, char **argv);   /* argv[0] is the name */
	const char *usage;                    /* --help text */
};

extern const struct workload workload_table[];  /* ends with name == NULL */

const struct workload *workload_find(const char *name);
/* Runs w with argv[0] replaced by w->name; sets the report source. */
int workload_run(const struct workload *w, int argc, char **argv);
/* Checks argv as w would in a guest of that shape, without running it
 * (lib/check.h): 0 when good, else w's usage error (2). Does not return
 * when the arguments are good. */
int workload_check(const struct workload *w, const struct wl_guest_shape *guest, int argc,
		   char **argv);
void workload_list(FILE *f);

/* One per workload file. */
#define WORKLOAD_DECLARE(ident) \
	int ident##_main(int argc, char **argv); \
	extern const char ident##_usage[]

WORKLOAD_DECLARE(binder_sendvec);
WORKLOAD_DECLARE(binder_throughput);
WORKLOAD_DECLARE(binder_objects);
WORKLOAD_DECLARE(binder_mmap);
WORKLOAD_DECLARE(spawn);
WORKLOAD_DECLARE(oom_hog);
WORKLOAD_DECLARE(fragment);

#endif
