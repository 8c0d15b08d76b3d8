/* test-lmkd-procfs.c - what lmkd reads of /proc (workloads/lmkd/lmkd-procfs.c),
 * on files captured with cat from a real host (tests/samples/lmkd-procfs/,
 * Linux 6.18, 4 KiB pages) and on hand-cut pieces of the same formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/unit/samples.h"
#include "workloads/lmkd/lmkd-procfs.h"

/*
 * The expectations, from the sample with awk:
 *   awk '/^Node/{z=$4} /^ +(min|low|high|present) /{print z,$1,$2}
 *        /protection:/{print z,$0} /^ +nr_free_(pages|cma) /{print z,$1,$2}' zoneinfo
 * DMA: min 16 low 20 high 24 present 3998 protection max 15050 free 3840;
 * DMA32: 3385/4231/5077, present 782336, max 12032, free 772755;
 * Normal: 13493/16866/20239, present 5505024, max 0, free 2005688;
 * Movable and Device: present 0 (their min 32 must not count).
 */
static void zoneinfo_sums_watermark_and_largest_protection(void **state)
{
	(void)state;
	char *text = sample_read("lmkd-procfs/zoneinfo");
	struct lmkd_watermarks w;
	struct lmkd_parse_error err = { 0 };
	assert_int_equal(lmkd_parse_zoneinfo(text, &w, &err), 0);
	assert_int_equal(w.zones, 3);
	assert_int_equal(w.min, (16 + 15050) + (3385 + 12032) + (13493 + 0));
	assert_int_equal(w.low, (20 + 15050) + (4231 + 12032) + (16866 + 0));
	assert_int_equal(w.high, (24 + 15050) + (5077 + 12032) + (20239 + 0));
	assert_int_equal(w.free, 3840 + 772755 + 2005688);
	assert_int_equal(w.free_cma, 0);
	free(text);
}

/* The per-cpu lines under "pagesets" are not the zone's; a zone with
 * present 0 is not summed; protection's largest entry is taken wherever it is. */
static void zoneinfo_stops_at_pagesets_and_skips_empty_zones(void **state)
{
	(void)state;
	const char *text =
		"Node 0, zone   Normal\n"
		"  per-node stats\n"
		"      nr_inactive_file 10\n"
		"  pages free     500\n"
		"        min      10\n"
		"        low      20\n"
		"        high     30\n"
		"        present  1000\n"
		"        protection: (0, 7, 3, 0)\n"
		"      nr_free_pages 500\n"
		"      nr_free_cma  40\n"
		"  pagesets\n"
		"    cpu: 0\n"
		"              count: 5\n"
		"              high 99999\n"
		"        min      88888\n"
		"Node 0, zone  Movable\n"
		"  pages free     0\n"
		"        min      32\n"
		"        low      32\n"
		"        high     32\n"
		"        present  0\n"
		"        protection: (0, 900, 0, 0)\n";
	struct lmkd_watermarks w;
	struct lmkd_parse_error err = { 0 };
	assert_int_equal(lmkd_parse_zoneinfo(text, &w, &err), 0);
	assert_int_equal(w.zones, 1);
	assert_int_equal(w.min, 17);
	assert_int_equal(w.low, 27);
	assert_int_equal(w.high, 37);
	assert_int_equal(w.free, 500);
	assert_int_equal(w.free_cma, 40);
}

static void zoneinfo_bad_input_names_the_line(void **state)
{
	(void)state;
	struct lmkd_watermarks w;
	struct lmkd_parse_error err = { 0 };
	assert_int_equal(lmkd_parse_zoneinfo("Node 0, zone DMA\n  min 1\n  low x\n", &w, &err), -1);
	assert_int_equal(err.line, 3);
	assert_int_equal(lmkd_parse_zoneinfo("Node 0, zone DMA\n min 1\n protection: (0, 2\n", &w, &err), -1);
	assert_int_equal(err.line, 3);
	/* populated, no high watermark: the zone's header line */
	assert_int_equal(lmkd_parse_zoneinfo("x\nNode 0, zone DMA\n min 1\n low 2\n present 5\n", &w, &err), -1);
	assert_int_equal(err.line, 2);
	assert_int_equal(lmkd_parse_zoneinfo("MemFree: 1 kB\n", &w, &err), -1);
	assert_int_equal(err.line, 0);
	assert_int_equal(lmkd_parse_zoneinfo("Node 0, zone DMA\n min 1\n present 0\n", &w, &err), -1);
	assert_string_equal(err.why, "no populated zone");
}

/* From the sample: grep -E '^(MemFree|Inactive\(file\)|...):' meminfo, kB / 4. */
static void meminfo_in_pages(void **state)
{
	(void)state;
	char *text = sample_read("lmkd-procfs/meminfo");
	struct lmkd_meminfo mi;
	struct lmkd_parse_error err = { 0 };
	assert_int_equal(lmkd_parse_meminfo(text, 4, &mi, &err), 0);
	assert_int_equal(mi.free, 20381516 / 4);
	assert_int_equal(mi.inactive_file, 1504648 / 4);
	assert_int_equal(mi.active_file, 1376408 / 4);
	assert_int_equal(mi.swap_total, 0);
	assert_int_equal(mi.swap_free, 0);
	assert_int_equal(mi.cma_free, 0);               /* no CmaFree line: no CMA */
	assert_int_equal(mi.active_anon, 1656 / 4);
	assert_int_equal(mi.inactive_anon, 176996 / 4);
	assert_int_equal(mi.shmem, 9568 / 4);
	free(text);
	assert_int_equal(lmkd_parse_meminfo("MemFree: 8 kB\nCmaFree: 4 kB\nActive(file): 0 kB\n"
					    "Inactive(file): 16 kB\nSwapTotal: 160 kB\nSwapFree: 80 kB\n",
					    16, &mi, &err), 0);
	assert_int_equal(mi.free, 0);                   /* 8 kB of 16 kB pages */
	assert_int_equal(mi.inactive_file, 1);
	assert_int_equal(mi.swap_total, 10);
	assert_int_equal(lmkd_parse_meminfo("MemFree: 8 kB\nSwapTotal: 0 kB\n", 4, &mi, &err), -1);
	assert_string_equal(err.why, "no Active(file) line");
}

/* From the sample: grep -E '^(nr_inactive_file|...) ' vmstat. */
static void vmstat_counters(void **state)
{
	(void)state;
	char *text = sample_read("lmkd-procfs/vmstat");
	struct lmkd_vmstat vs;
	struct lmkd_parse_error err = { 0 };
	assert_int_equal(lmkd_parse_vmstat(text, &vs, &err), 0);
	assert_int_equal(vs.nr_inactive_file, 376162);
	assert_int_equal(vs.nr_active_file, 344102);
	assert_int_equal(vs.workingset_refault_file, 5654737);
	assert_int_equal(vs.pgscan_kswapd, 0);
	assert_int_equal(vs.pgscan_direct, 0);
	assert_int_equal(vs.pgrefill, 0);
	free(text);
	/* before Linux 5.9 the file refaults were workingset_refault */
	assert_int_equal(lmkd_parse_vmstat("nr_inactive_file 1\nnr_active_file 2\nworkingset_refault 7\n"
					   "pgscan_kswapd 3\npgscan_direct 4\npgrefill 5\n", &vs, &err), 0);
	assert_int_equal(vs.workingset_refault_file, 7);
	assert_int_equal(lmkd_parse_vmstat("nr_inactive_file 1\nnr_active_file 2\n"
					   "pgscan_kswapd 3\npgscan_direct 4\npgrefill 5\n", &vs, &err), -1);
	assert_string_equal(err.why, "no workingset_refault_file line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zoneinfo_sums_watermark_and_largest_protection),
		cmocka_unit_test(zoneinfo_stops_at_pagesets_and_skips_empty_zones),
		cmocka_unit_test(zoneinfo_bad_input_names_the_line),
		cmocka_unit_test(meminfo_in_pages),
		cmocka_unit_test(vmstat_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
