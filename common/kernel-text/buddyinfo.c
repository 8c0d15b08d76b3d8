/* /proc/buddyinfo (buddyinfo.h). */
#include "buddyinfo.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int buddyinfo_parse(const char *text, struct buddyinfo *bi)
{
	memset(bi, 0, sizeof(*bi));
	for (const char *p = text; p && *p;) {
		int node, off = 0;
		char zone[16];
		if (sscanf(p, "Node %d, zone %15s%n", &node, zone, &off) == 2 &&
		    bi->nzones < BUDDY_MAX_ZONES) {
			struct buddy_zone *z = &bi->z[bi->nzones];
			z->node = node;
			snprintf(z->zone, sizeof(z->zone), "%s", zone);
			const char *q = p + off;
			while (z->norders < BUDDY_MAX_ORDERS) {
				while (*q == ' ' || *q == '\t')
					q++;
				if (!isdigit((unsigned char)*q))
					break;
				char *end;
				z->free[z->norders++] = strtoull(q, &end, 10);
				q = end;
			}
			if (z->norders > 0)
				bi->nzones++;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return bi->nzones ? bi->nzones : -EINVAL;
}
