/* kill_signals.c - SIGKILLs by sender (kill_signals.h). */
#include "kill_signals.h"

#include <string.h>

#include "common/proto/killer-kinds.h"

void kill_signals_sample(struct kill_signals *k, const struct perf_sample *s)
{
	long long sig;
	if (strcmp(s->event, SIGNAL_GENERATE_EVENT) || !perf_field_long(s, "sig", &sig) || sig != 9)
		return;
	for (int kind = 0; kind < KILLER_KIND_COUNT; kind++)
		if (killer_kinds[kind].comm && !strcmp(s->comm, killer_kinds[kind].comm))
			k->by_kind[kind]++;
}
