/*
 * What Android's lmkd reads of /proc each time it decides, from the files'
 * text alone, so that the unit tests can hold the parsing to captured
 * files (tests/samples/lmkd-procfs/) and the decision (lmkd-policy.h) gets
 * lmkd's figures, in pages as lmkd keeps them:
 *
 * - /proc/zoneinfo: for every populated zone (present > 0) its min, low and
 *   high watermarks and the largest entry of its "protection:" line (the
 *   zone's lowmem_reserve); lmkd sums watermark + largest protection over
 *   every populated zone of every node (lmkd.cpp zoneinfo_parse(),
 *   calc_zone_watermarks()). A zone's fields end at its "pagesets" line, as
 *   in lmkd: the per-cpu lines below it have a "high:" of their own.
 *   nr_free_pages and nr_free_cma are summed too, for the log; lmkd's
 *   comparison takes free memory from /proc/meminfo (get_lowest_watermark()).
 * - /proc/meminfo: MemFree, CmaFree, Active(file), Inactive(file), SwapTotal,
 *   SwapFree and, for the swap utilisation (off by default in lmkd),
 *   Active(anon), Inactive(anon), Shmem; kB divided by the page size in kB
 *   as lmkd does (meminfo_parse()).
 * - /proc/vmstat: the file LRU (nr_inactive_file, nr_active_file), file
 *   refaults (workingset_refault_file; workingset_refault before Linux 5.9),
 *   and the reclaim counters lmkd compares between cycles (pgscan_kswapd,
 *   pgscan_direct, pgrefill) (vmstat_parse()).
 *
 * Each parser returns 0, or -1 with *WHY naming what was wrong (and LINE the
 * 1-based line, 0 when the fault is a missing field).
 */
#ifndef OOMLAB_LMKD_PROCFS_H
#define OOMLAB_LMKD_PROCFS_H

struct lmkd_watermarks {
	long long min, low, high;       /* pages: each summed with the zone's largest protection */
	long long free, free_cma;       /* pages: nr_free_pages, nr_free_cma over the same zones */
	int zones;                      /* the populated zones summed */
};

struct lmkd_meminfo {
	long long free, cma_free;       /* pages */
	long long active_file, inactive_file;
	long long swap_total, swap_free;
	long long active_anon, inactive_anon, shmem;
};

struct lmkd_vmstat {
	long long nr_inactive_file, nr_active_file;
	long long workingset_refault_file;
	long long pgscan_kswapd, pgscan_direct, pgrefill;
};

struct lmkd_parse_error {
	int line;                       /* 1-based; 0: the whole file */
	const char *why;
};

int lmkd_parse_zoneinfo(const char *text, struct lmkd_watermarks *out, struct lmkd_parse_error *err);
/* PAGE_KB: the page size in kB (4 on x86_64) */
int lmkd_parse_meminfo(const char *text, long page_kb, struct lmkd_meminfo *out,
		       struct lmkd_parse_error *err);
int lmkd_parse_vmstat(const char *text, struct lmkd_vmstat *out, struct lmkd_parse_error *err);

#endif
