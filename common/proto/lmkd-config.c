/* The low-memory killer's settings (lmkd-config.h). */
#include "lmkd-config.h"

#include <stddef.h>

/*
 * Defaults, from the ro.lmk.* properties of Android's lmkd README
 * (android.googlesource.com/platform/system/memory/lmkd, README.md):
 * - psi_partial_stall_ms: "Default for low-RAM devices = 200, for high-end
 *   devices = 70" (ro.lmk.psi_partial_stall_ms); a low-RAM profile (an
 *   Android Go phone, configs/profiles/phone-512m-lmkd.conf) sets 200.
 * - psi_complete_stall_ms: 700 (ro.lmk.psi_complete_stall_ms).
 * - psi_window_ms: 1000, the window lmkd registers both PSI triggers with
 *   (its PSI_WINDOW_SIZE_MS, no property); the kernel takes 500 ms to 10 s
 *   (Documentation/accounting/psi.rst).
 * - swap_free_low_percent: 10 (ro.lmk.swap_free_low_percentage; 10 for
 *   low-RAM and 20 for high-end devices before lmkd's 2025 README, 10 for
 *   every device since).
 * - thrashing_limit_percent: 100 (ro.lmk.thrashing_limit, high-end; 30 on
 *   low-RAM devices): workingset refaults as a percentage of the file LRU.
 * - thrashing_limit_decay_percent: 10 (ro.lmk.thrashing_limit_decay,
 *   high-end; 50 on low-RAM devices): how much the limit drops after a kill
 *   that did not end the thrashing.
 * - kill_timeout_ms: 100 (ro.lmk.kill_timeout_ms; 0 before lmkd's 2025 README).
 * - per_app_memcg: ro.config.per_app_memcg, whose default is the device's
 *   ro.config.low_ram (lmkd.cpp's init, property_get_bool): 0 here, 1 on a
 *   low-RAM device. With it lmkd files a process registered at 600-699
 *   (the launcher, "should be perceptible") at 200 (register_oom_adj_proc();
 *   docs/FIDELITY-LMKD.md 4.2).
 */
const struct killer_key lmkd_keys[LMKD_KEY_COUNT] = {
	[LMKD_PSI_PARTIAL_STALL_MS] = {
		"lmkd.psi_partial_stall_ms", "ms", 70, 1, 10000, "wants milliseconds from 1 to 10000",
		"a partial (some) memory stall this long in a window wakes the killer: it then polls "
		"for a second and kills only for one of Android lmkd's reasons" },
	[LMKD_PSI_COMPLETE_STALL_MS] = {
		"lmkd.psi_complete_stall_ms", "ms", 700, 1, 10000, "wants milliseconds from 1 to 10000",
		"a complete (full) memory stall this long in a window kills down to foreground "
		"(NOT_RESPONDING)" },
	[LMKD_PSI_WINDOW_MS] = {
		"lmkd.psi_window_ms", "ms", 1000, 500, 10000,
		"wants milliseconds from 500 to 10000 (the kernel's PSI window range)",
		"the window both PSI triggers measure their stall in" },
	[LMKD_SWAP_FREE_LOW_PERCENT] = {
		"lmkd.swap_free_low_percent", "percent", 10, 0, 100, "wants a percentage from 0 (off) to 100",
		"free swap (the smaller of SwapFree and MemFree + Inactive(file)) below this share of "
		"SwapTotal is low: with thrashing or low memory it kills services too (0: off)" },
	[LMKD_THRASHING_LIMIT_PERCENT] = {
		"lmkd.thrashing_limit_percent", "percent", 100, 0, 1000,
		"wants a percentage from 0 (off) to 1000",
		"file refaults above this share of the file LRU are thrashing: with low swap, low "
		"memory or direct reclaim it kills services too, at 3x perceptible apps (0: off)" },
	[LMKD_THRASHING_LIMIT_DECAY_PERCENT] = {
		"lmkd.thrashing_limit_decay_percent", "percent", 10, 0, 100, "wants a percentage from 0 to 100",
		"how much the thrashing limit drops after a kill that did not end the thrashing" },
	[LMKD_KILL_TIMEOUT_MS] = {
		"lmkd.kill_timeout_ms", "ms", 100, 0, 10000, "wants milliseconds from 0 to 10000",
		"the longest wait for a victim to die before the next decision (0: no limit)" },
	[LMKD_PER_APP_MEMCG] = {
		"lmkd.per_app_memcg", "0 or 1", 0, 0, 1, "wants 0 or 1",
		"1: the device gives each app a memcg (ro.config.per_app_memcg, on with "
		"lmkd.low_ram), and lmkd files the launcher (adj 600-699) at 200, as perceptible" },
};

void lmkd_config_defaults(struct lmkd_config *c)
{
	for (int k = 0; k < LMKD_KEY_COUNT; k++)
		c->v[k] = lmkd_keys[k].fallback;
}

/* The keys whose low-RAM default differs (lmkd.cpp DEF_*_LOWRAM, update_props()). */
static const struct {
	enum lmkd_key key;
	long value;
} low_ram[] = {
	{ LMKD_PSI_PARTIAL_STALL_MS, 200 },
	{ LMKD_THRASHING_LIMIT_PERCENT, 30 },
	{ LMKD_THRASHING_LIMIT_DECAY_PERCENT, 50 },
	{ LMKD_PER_APP_MEMCG, 1 },
};

long lmkd_low_ram_default(enum lmkd_key k)
{
	for (size_t i = 0; i < sizeof(low_ram) / sizeof(low_ram[0]); i++)
		if (low_ram[i].key == k)
			return low_ram[i].value;
	return lmkd_keys[k].fallback;
}

void lmkd_config_low_ram(struct lmkd_config *c, const int *set_line)
{
	for (int k = 0; k < LMKD_KEY_COUNT; k++)
		if (!set_line || !set_line[k])
			c->v[k] = lmkd_low_ram_default((enum lmkd_key)k);
}

int lmkd_config_conflict(const struct lmkd_config *c, const char **why)
{
	const enum lmkd_key stalls[] = { LMKD_PSI_PARTIAL_STALL_MS, LMKD_PSI_COMPLETE_STALL_MS };
	for (size_t i = 0; i < sizeof(stalls) / sizeof(stalls[0]); i++)
		if (c->v[stalls[i]] > c->v[LMKD_PSI_WINDOW_MS]) {
			*why = "is longer than lmkd.psi_window_ms: a stall cannot exceed its window";
			return stalls[i];
		}
	if (c->v[LMKD_PSI_PARTIAL_STALL_MS] > c->v[LMKD_PSI_COMPLETE_STALL_MS]) {
		*why = "is longer than lmkd.psi_complete_stall_ms: the partial stall is the lower level";
		return LMKD_PSI_PARTIAL_STALL_MS;
	}
	return -1;
}
