/* The lab's systemd-oomd settings (oomd-config.h). */
#include "oomd-config.h"

/*
 * systemd's defaults: oomd.conf(5) says DefaultMemoryPressureLimit= is 60%
 * and DefaultMemoryPressureDurationSec= 30s (systemd src/oom/oomd-manager.h:
 * DEFAULT_MEM_PRESSURE_LIMIT_PERCENT 60, DEFAULT_MEM_PRESSURE_DURATION_USEC
 * 30 s). A unit's ManagedOOMMemoryPressureLimit= and
 * ManagedOOMMemoryPressureDurationSec= override them; here the profile does.
 */
const struct killer_key oomd_keys[OOMD_KEY_COUNT] = {
	[OOMD_PRESSURE_LIMIT_PERCENT] = {
		"oomd.memory_pressure_limit_percent", "percent", 60, 1, 99, "wants a percentage from 1 to 99",
		"the workload cgroup's memory pressure (PSI full avg10) above this share is over the "
		"limit (systemd's DefaultMemoryPressureLimit=)" },
	[OOMD_PRESSURE_DURATION_MS] = {
		"oomd.memory_pressure_duration_ms", "ms", 30000, 1000, 600000,
		"wants milliseconds from 1000 to 600000",
		"how long the pressure stays over the limit before a kill "
		"(systemd's DefaultMemoryPressureDurationSec=)" },
};
