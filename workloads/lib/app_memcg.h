/* One memory cgroup per app, as a low-RAM Android device gives each app
 * process its own memcg with no hard limit (AOSP libprocessgroup
 * createProcessGroup(), ro.config.per_app_memcg defaulting to
 * ro.config.low_ram; docs/FIDELITY-LMKD.md 4.7): the apps' pressure is then
 * the whole machine's (or that of whatever limit the workload's own cgroup
 * has), not one group's.
 *
 * The groups are DIR/app-NN (NN the app's index, two digits), DIR being the
 * cgroup v2 folder the workload runs in, with the memory controller on and
 * memory.max "max". cgroup v2 lets a (non-root) cgroup that hands a
 * controller to its children hold no process itself, so the processes of
 * DIR (the workload, and whoever shares its cgroup: the shell that runs
 * it) first move to DIR/apps-system; the teardown puts them back.
 */
#ifndef OOMLAB_APP_MEMCG_H
#define OOMLAB_APP_MEMCG_H

#include <stdbool.h>
#include <stddef.h>

struct app_memcg {
	char dir[512];          /* the workload's cgroup ("" : off) */
	unsigned napps;
	unsigned moved;         /* processes moved from DIR to apps-system */
	bool made_system;       /* DIR/apps-system is ours to remove */
	bool enabled;           /* we turned the memory controller on in DIR */
};

/* Makes the groups of NAPPS apps. 0, or -1 with one line in ERR. */
int app_memcg_setup(struct app_memcg *m, unsigned napps, char *err, size_t cap);
/* Moves the calling process into app A's group: 0 or -errno. */
int app_memcg_enter(const struct app_memcg *m, unsigned a);
/* App A's group's folder into BUF: 0 or -ENAMETOOLONG. */
int app_memcg_path(const struct app_memcg *m, unsigned a, char *buf, size_t cap);
/* Once every app has ended: removes the groups, turns the controller off
 * again if it was ours, and moves the processes back to DIR. */
void app_memcg_teardown(struct app_memcg *m);

#endif
