/*
 * psi.h - pressure stall information (/proc/pressure/memory, a cgroup's
 * memory.pressure):
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=12345
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=6789      (total in us)
 */
#ifndef OOMLAB_PSI_H
#define OOMLAB_PSI_H

#include <stdbool.h>

struct psi {
	bool have_some, have_full;
	double some_avg10, some_avg60, some_avg300;
	double full_avg10, full_avg60, full_avg300;
	unsigned long long some_total_us, full_total_us;
};

/* false when neither a "some" nor a "full" line is there. */
bool psi_parse(const char *text, struct psi *out);

#endif
