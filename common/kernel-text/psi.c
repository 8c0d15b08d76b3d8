/* Pressure stall information (psi.h). */
#include "psi.h"

#include <stdio.h>
#include <string.h>

bool psi_parse(const char *text, struct psi *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char copy[256], kind[8];
		double a10, a60, a300;
		unsigned long long total;
		/* a PSI line is short; a longer one is not one */
		if (len < sizeof(copy)) {
			memcpy(copy, line, len);
			copy[len] = '\0';
			if (sscanf(copy, "%7s avg10=%lf avg60=%lf avg300=%lf total=%llu", kind, &a10,
				   &a60, &a300, &total) == 5) {
				if (!strcmp(kind, "some")) {
					out->have_some = true;
					out->some_avg10 = a10;
					out->some_avg60 = a60;
					out->some_avg300 = a300;
					out->some_total_us = total;
				} else if (!strcmp(kind, "full")) {
					out->have_full = true;
					out->full_avg10 = a10;
					out->full_avg60 = a60;
					out->full_avg300 = a300;
					out->full_total_us = total;
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return out->have_some || out->have_full;
}

/* The percentage of the SPAN_US stalled, from a total before and after; -1 when unknown. */
static double stalled_pct(bool had, uint64_t before, bool has, uint64_t after, double span_us)
{
	return had && has && after >= before && span_us > 0 ? 100.0 * (double)(after - before) / span_us
							     : -1.0;
}

void psi_rate_step(struct psi_rate *r, uint64_t t_ns, bool has_some, uint64_t some_us, bool has_full,
		   uint64_t full_us, double *some_pct, double *full_pct)
{
	double span_us = r->have_prev && t_ns > r->prev_t_ns ? (double)(t_ns - r->prev_t_ns) / 1000.0 : 0;
	*some_pct = stalled_pct(r->prev_has_some, r->prev_some_us, has_some, some_us, span_us);
	*full_pct = stalled_pct(r->prev_has_full, r->prev_full_us, has_full, full_us, span_us);
	*r = (struct psi_rate){ true, has_some, has_full, t_ns, some_us, full_us };
}
