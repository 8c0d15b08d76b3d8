/*
 * The lab's systemd-oomd (workloads/killers/oomd/, killer = oomd) as a profile sets
 * it: one `oomd.*` key per setting, at systemd-oomd's documented defaults
 * (oomd.conf(5): DefaultMemoryPressureLimit=60%,
 * DefaultMemoryPressureDurationSec=30s; docs/FIDELITY-OOMD.md).
 */
#ifndef OOMLAB_OOMD_CONFIG_H
#define OOMLAB_OOMD_CONFIG_H

#include "killer-key.h"

/* The killer's process name (comm): the trace counts its SIGKILLs by it. */
#define OOMD_COMM "oomlab-oomd"

enum oomd_key {
	OOMD_PRESSURE_LIMIT_PERCENT,
	OOMD_PRESSURE_DURATION_MS,
	OOMD_KEY_COUNT
};

extern const struct killer_key oomd_keys[OOMD_KEY_COUNT];

#endif
