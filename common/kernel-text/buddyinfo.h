/*
 * buddyinfo.h - /proc/buddyinfo: free blocks per order, per zone
 *
 *   Node 0, zone      DMA      1      1      1      0      2 ...
 *   Node 0, zone    DMA32  53157      1      0      0      1 ...
 *
 * read by the guest's fragment workload and by the lab's report (the
 * state before the workload).
 */
#ifndef OOMLAB_BUDDYINFO_H
#define OOMLAB_BUDDYINFO_H

#include <stdint.h>

#define BUDDY_MAX_ORDERS 16
#define BUDDY_MAX_ZONES  32

struct buddy_zone {
	int node;
	char zone[16];
	int norders;
	uint64_t free[BUDDY_MAX_ORDERS];     /* free blocks per order */
};

struct buddyinfo {
	int nzones;
	struct buddy_zone z[BUDDY_MAX_ZONES];
};

/* The zones of TEXT: their number, or -EINVAL when there is none. */
int buddyinfo_parse(const char *text, struct buddyinfo *bi);

#endif
