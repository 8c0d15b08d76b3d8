/*
 * The guest's low-memory killer (workloads/lmkd/) as a profile sets it:
 * `killer = lmkd` (killer-kinds.h) and one `lmkd.*` key per threshold. Defined once
 * for the lab, which checks a profile's values and writes them into the
 * job's spec under the same names, and for the agent, which reads them back.
 *
 * The defaults are Android lmkd's documented ones (its README's ro.lmk.*
 * properties, system/memory/lmkd, as of 2025) for a device that is not
 * low-RAM; lmkd-config.c says where each comes from.
 */
#ifndef OOMLAB_LMKD_CONFIG_H
#define OOMLAB_LMKD_CONFIG_H

#include <stdbool.h>

#include "killer-key.h"

/* The killer's process name (comm): the trace counts its SIGKILLs by it. */
#define LMKD_COMM           "oomlab-lmkd"

enum lmkd_key {
	LMKD_PSI_PARTIAL_STALL_MS,
	LMKD_PSI_COMPLETE_STALL_MS,
	LMKD_PSI_WINDOW_MS,
	LMKD_SWAP_FREE_LOW_PERCENT,
	LMKD_THRASHING_LIMIT_PERCENT,
	LMKD_THRASHING_LIMIT_DECAY_PERCENT,
	LMKD_KILL_TIMEOUT_MS,
	LMKD_PER_APP_MEMCG,
	LMKD_KEY_COUNT
};

/* Its row's keys (killer-kinds.h), each at lmkd's default. */
extern const struct killer_key lmkd_keys[LMKD_KEY_COUNT];

/* The settings the killer runs with, each key's value. */
struct lmkd_config {
	long v[LMKD_KEY_COUNT];
};
/* Every key at its default. */
void lmkd_config_defaults(struct lmkd_config *c);
/*
 * lmkd's defaults on a low-RAM device (ro.config.low_ram, an Android Go
 * phone), which differ from the others for four keys: a partial stall of
 * 200 ms, a thrashing limit of 30 %, a decay of 50 % (lmkd.cpp
 * update_props(), docs/FIDELITY-LMKD.md 1.8) and per-app memcgs on
 * (ro.config.per_app_memcg defaults to ro.config.low_ram). Every key that SET_LINE does
 * not mark as set (non-zero; NULL: none is) takes its low-RAM default, so
 * that a profile's own value wins wherever it stands.
 */
void lmkd_config_low_ram(struct lmkd_config *c, const int *set_line);
/* K's default on a low-RAM device. */
long lmkd_low_ram_default(enum lmkd_key k);
/*
 * The first setting that contradicts another (a stall threshold longer
 * than the window it is measured over: the kernel refuses such a trigger),
 * as the key at fault and why; -1 when none does.
 */
int lmkd_config_conflict(const struct lmkd_config *c, const char **why);

#endif
