/* The lab's systemd-oomd's kernel log lines (oomd-lines.h). */
#include "oomd-lines.h"

#include <stdio.h>
#include <string.h>

#define KILL_FORMAT OOMD_LINE_PREFIX "Killed %s (%u processes): memory pressure %.2f%% > %ld%% " \
		    "for %lldms in %s, pgscan %llu, memory %llukB; t_mono_ns %llu"

int oomd_format_kill(char *buf, size_t size, const struct oomd_kill_line *k)
{
	return snprintf(buf, size, KILL_FORMAT, k->cgroup, k->processes, k->avg10, k->limit_percent,
			k->over_ms, k->monitored, k->pgscan, k->memory_kb, k->t_mono_ns);
}

bool oomd_parse_kill(const char *text, struct oomd_kill_line *out)
{
	memset(out, 0, sizeof(*out));
	int used = 0;
	/* the paths hold no blank: the lab names its cgroups */
	return sscanf(text,
		      OOMD_LINE_PREFIX "Killed %255s (%u processes): memory pressure %lf%% > %ld%% "
		      "for %lldms in %255[^,], pgscan %llu, memory %llukB; t_mono_ns %llu%n",
		      out->cgroup, &out->processes, &out->avg10, &out->limit_percent, &out->over_ms,
		      out->monitored, &out->pgscan, &out->memory_kb, &out->t_mono_ns, &used) == 9 &&
	       used && !text[used];
}
