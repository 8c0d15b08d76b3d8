/* What the agent's killer child runs, by kind (killer-run.h). */
#include "killer-run.h"

#include "workloads/lmkd/lmkd.h"
#include "workloads/killers/oomd/oomd.h"

static const killer_run_fn runs[KILLER_KIND_COUNT] = {
	[KILLER_KIND_LMKD] = lmkd_run,
	[KILLER_KIND_OOMD] = oomd_run,
};

killer_run_fn killer_run(enum killer_kind kind)
{
	return (unsigned)kind < KILLER_KIND_COUNT ? runs[kind] : NULL;
}
