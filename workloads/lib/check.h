/* The check mode of the workloads (oomlab-workload --check): before any
 * boot, the lab runs each workload line's arguments through the workload's
 * own option table and checks on the host, so a bad line is rejected by the
 * same code that would reject it in the guest.
 *
 * In check mode a workload parses and checks its arguments as in the guest,
 * leaving out what only the guest can tell (whether a file or device exists
 * there, its zones), and calls wl_start() when they are good: there the
 * process exits 0, before anything is set up, opened or run. A bad argument
 * is the usual one line "NAME: ..." and exit 2.
 */
#ifndef OOMLAB_CHECK_H
#define OOMLAB_CHECK_H

#include <stdbool.h>
#include <stdint.h>

/* What the checks need to know of the guest (the machine profile). */
struct wl_guest_shape {
	uint64_t mem_total;     /* bytes: '%' sizes are shares of it; 0: the host's */
	int numa_nodes;         /* --node N must be below it */
};

/* Enters check mode for the rest of the process. */
void wl_check_mode(const struct wl_guest_shape *guest);
/* NULL outside check mode. */
const struct wl_guest_shape *wl_checking(void);
/* Every workload calls this once its arguments are checked, before it acts:
 * in check mode the process exits 0 here; otherwise SIGTERM and SIGINT set
 * wl_stop from now on (wl_stop_on_signals). */
void wl_start(void);

#endif
