/* Unit tests of the workload library without a VM: JSON-lines output,
 * argument parsing, statistics, the parsers of the kernel's text files,
 * and the workload table's conventions (--help exits 0, bad arguments
 * exit 2). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "workloads/lib/args.h"
#include "workloads/lib/report.h"
#include "workloads/lib/stats.h"
#include "workloads/lib/sysinfo.h"
#include "workloads/workload.h"

/* ---- JSON lines -------------------------------------------------------- */

/* Runs fn with report output going to a pipe; returns what it wrote. */
static char captured[65536];
static const char *capture(void (*fn)(void))
{
	int fds[2];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	report_set_fd(fds[1]);
	fn();
	report_set_fd(1);
	close(fds[1]);
	n = read(fds[0], captured, sizeof(captured) - 1);
	close(fds[0]);
	captured[n > 0 ? n : 0] = '\0';
	return captured;
}

static void emit_metric(void)
{
	report_set_source("binder-sendvec");
	report_metricl("sendvec_ns_per_rt", 39126.0, "ns", "size", "4", NULL);
}

static void test_metric_line(void **state)
{
	(void)state;
	assert_string_equal(capture(emit_metric),
		"{\"type\":\"metric\",\"workload\":\"binder-sendvec\","
		"\"name\":\"sendvec_ns_per_rt\",\"value\":39126,\"unit\":\"ns\","
		"\"labels\":{\"size\":\"4\"}}\n");
}

static void emit_event(void)
{
	struct jl j;
	uint64_t v[3] = { 1, 2, 300 };

	report_set_source("oom-hog");
	report_begin_event_at(&j, "victim-lost", 123456789);
	jl_i64(&j, "pid", -5);
	jl_dbl(&j, "ratio", 0.25);
	jl_dbl(&j, "nan", 0.0 / 0.0);
	jl_u64_array(&j, "free", v, 3);
	jl_bool(&j, "ok", true);
	report_end(&j);
	report_phase("sweep-4096", true);
}

static void test_event_lines(void **state)
{
	const char *out, *nl;

	(void)state;
	out = capture(emit_event);
	nl = strchr(out, '\n');
	assert_non_null(nl);
	assert_int_equal(nl - out + 1, strlen(
		"{\"type\":\"event\",\"workload\":\"oom-hog\",\"name\":\"victim-lost\","
		"\"t_mono_ns\":123456789,\"pid\":-5,\"ratio\":0.25,\"nan\":null,"
		"\"free\":[1,2,300],\"ok\":true}\n"));
	assert_memory_equal(out,
		"{\"type\":\"event\",\"workload\":\"oom-hog\",\"name\":\"victim-lost\","
		"\"t_mono_ns\":123456789,\"pid\":-5,\"ratio\":0.25,\"nan\":null,"
		"\"free\":[1,2,300],\"ok\":true}\n", nl - out + 1);
	/* the phase event: real timestamp, then the phase */
	{
		static const char pre[] = "{\"type\":\"event\",\"workload\":\"oom-hog\","
					  "\"name\":\"phase-begin\",\"t_mono_ns\":";

		assert_true(strncmp(nl + 1, pre, strlen(pre)) == 0);
	}
	assert_non_null(strstr(nl + 1, "\"phase\":\"sweep-4096\"}\n"));
}

static void test_json_escape(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(jl_escape(buf, sizeof(buf), "a\"b\\c\n\x01"), 17);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\n\\u0001\"");
	assert_int_equal(jl_escape(NULL, 0, "abc"), 5);
	/* truncated output stays NUL-terminated */
	assert_int_equal(jl_escape(buf, 4, "abcdef"), 8);
	assert_int_equal(strlen(buf), 3);
}

static void test_truncation_keeps_json_valid(void **state)
{
	struct jl j;
	char big[3000];
	const char *line;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	jl_begin(&j);
	for (int i = 0; i < 5; i++) {
		jl_obj_begin(&j, "o");
		jl_str(&j, "big", big);
		jl_obj_end(&j);
	}
	jl_str(&j, "tail", "t");
	line = jl_finish(&j);
	assert_true(j.truncated);
	assert_true(strlen(line) < JL_MAX);
	assert_non_null(strstr(line, "\"truncated\":true}\n"));
	/* braces balance */
	{
		int depth = 0;
		bool in_str = false;

		for (const char *p = line; *p; p++) {
			if (*p == '\\' && in_str) {
				p++;
				continue;
			}
			if (*p == '"')
				in_str = !in_str;
			else if (!in_str && *p == '{')
				depth++;
			else if (!in_str && *p == '}')
				depth--;
		}
		assert_int_equal(depth, 0);
	}
}

/* ---- argument parsing -------------------------------------------------- */

static void test_parse_sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(wl_parse_size_str("4096", 0, &v), 0);
	assert_true(v == 4096);
	assert_int_equal(wl_parse_size_str("64K", 0, &v), 0);
	assert_true(v == 65536);
	assert_int_equal(wl_parse_size_str("4MiB", 0, &v), 0);
	assert_true(v == 4u << 20);
	assert_int_equal(wl_parse_size_str("1.5G", 0, &v), 0);
	assert_true(v == 3ull << 29);
	assert_int_equal(wl_parse_size_str("50%", 1000, &v), 0);
	assert_true(v == 500);
	assert_int_equal(wl_parse_size_str("50%", 0, &v), -EINVAL);
	assert_int_equal(wl_parse_size_str("12Q", 0, &v), -EINVAL);
	assert_int_equal(wl_parse_size_str("-1", 0, &v), -EINVAL);
	assert_int_equal(wl_parse_size_str("", 0, &v), -EINVAL);
}

static void test_parse_durations(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(wl_parse_duration_str("10", &v), 0);
	assert_true(v == 10000000000ull);
	assert_int_equal(wl_parse_duration_str("2.5s", &v), 0);
	assert_true(v == 2500000000ull);
	assert_int_equal(wl_parse_duration_str("500ms", &v), 0);
	assert_true(v == 500000000ull);
	assert_int_equal(wl_parse_duration_str("3us", &v), 0);
	assert_true(v == 3000);
	assert_int_equal(wl_parse_duration_str("2m", &v), 0);
	assert_true(v == 120000000000ull);
	assert_int_equal(wl_parse_duration_str("5 s", &v), -EINVAL);
	assert_int_equal(wl_parse_duration_str("s", &v), -EINVAL);
}

static void test_parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(wl_parse_u64_str("0x10", &v), 0);
	assert_true(v == 16);
	assert_int_equal(wl_parse_u64_str("12a", &v), -EINVAL);
	assert_int_equal(wl_parse_u64_str("99999999999999999999999", &v), -ERANGE);
}

/* The converters of the workloads' option tables: ranges, units, '%'. */
static void test_option_converters(void **state)
{
	uint64_t bytes = 0, ns = 0;
	char err[OPT_ERR_MAX];
	struct opt size = WL_OPT_SIZE(0, "map-size", &bytes, "SIZE", 4096, 1 << 22, "");
	struct opt dur = WL_OPT_DURATION(0, "time", &ns, "DUR", "");

	(void)state;
	assert_int_equal(wl_opt_size(&size, "64K", err, sizeof(err)), 0);
	assert_true(bytes == 65536);
	assert_int_equal(wl_opt_size(&size, "8M", err, sizeof(err)), -1);
	assert_string_equal(err, "must be between 4096 and 4194304 bytes, got '8M'");
	assert_int_equal(wl_opt_size(&size, "50%", err, sizeof(err)), -1);   /* no '%' here */
	assert_non_null(strstr(err, "needs a size like"));
	assert_int_equal(wl_opt_duration(&dur, "250ms", err, sizeof(err)), 0);
	assert_true(ns == 250000000ull);
	assert_int_equal(wl_opt_duration(&dur, "soon", err, sizeof(err)), -1);

	uint64_t items[3];
	struct wl_size_list list = { items, 0, 3 };
	struct opt sizes = { OPTION_CALL, 0, "sizes", &list, "LIST", "", 0, 0, wl_opt_size_list, NULL };
	assert_int_equal(wl_opt_size_list(&sizes, "4,4K,1M", err, sizeof(err)), 0);
	assert_int_equal(list.n, 3);
	assert_true(items[1] == 4096 && items[2] == 1 << 20);
	assert_int_equal(wl_opt_size_list(&sizes, "4,8,16,32", err, sizeof(err)), -1);
	assert_string_equal(err, "takes at most 3 items");
	assert_int_equal(wl_opt_size_list(&sizes, "4,0", err, sizeof(err)), -1);
	assert_int_equal(wl_opt_size_list(&sizes, ",", err, sizeof(err)), -1);
}

/* ---- statistics -------------------------------------------------------- */

static void test_summary_percentiles(void **state)
{
	double v[100];
	struct summary s;

	(void)state;
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;            /* 100..1, unsorted */
	wl_summarize(v, 100, &s);
	assert_int_equal(s.n, 100);
	assert_true(s.min == 1 && s.max == 100);
	assert_true(s.p50 == 50 && s.p90 == 90 && s.p95 == 95 && s.p99 == 99);
	assert_true(s.mean == 50.5);
	wl_summarize(v, 0, &s);
	assert_int_equal(s.n, 0);
}

static void test_histogram(void **state)
{
	struct hist *h = malloc(sizeof(*h)), *h2 = malloc(sizeof(*h2));
	uint64_t p50, p99;

	(void)state;
	/* index/lower bound round trip */
	for (uint64_t x = 1; x < (1ull << 40); x = x * 3 + 1) {
		unsigned i = wl_hist_index(x);

		assert_true(wl_hist_lower(i) <= x);
		assert_true(x < wl_hist_lower(i + 1));
	}
	wl_hist_init(h);
	wl_hist_init(h2);
	for (uint64_t i = 1; i <= 1000; i++)
		wl_hist_add(i <= 500 ? h : h2, i * 1000);     /* 1 us .. 1 ms */
	wl_hist_merge(h, h2);
	assert_true(h->count == 1000);
	assert_true(h->min == 1000 && h->max == 1000000);
	p50 = wl_hist_pct(h, 50);
	p99 = wl_hist_pct(h, 99);
	/* within the bucket width (1.6%) of the exact values */
	assert_true(p50 > 500000 * 0.98 && p50 < 500000 * 1.02);
	assert_true(p99 > 990000 * 0.98 && p99 < 990000 * 1.02);
	assert_true(wl_hist_pct(h, 90) <= wl_hist_pct(h, 95));
	assert_true(wl_hist_pct(h, 95) <= p99);
	assert_true(wl_hist_mean(h) == 500500.0);
	free(h);
	free(h2);
}

/* ---- kernel text parsers ---------------------------------------------- */

static const char buddy_text[] =
"Node 0, zone      DMA      1      1      1      0      2      1      1      0      1      1      3 \n"
"Node 0, zone    DMA32  53157      1      0      0      1      0      0      0      0      0      0 \n"
"Node 1, zone   Normal     10      4      2      1      0      0      0      0      0      0      1 \n";

static void test_buddyinfo(void **state)
{
	struct buddyinfo bi;

	(void)state;
	assert_int_equal(buddyinfo_parse(buddy_text, &bi), 3);
	assert_int_equal(bi.z[1].norders, 11);
	assert_true(bi.z[1].free[0] == 53157);
	assert_int_equal(bi.z[2].node, 1);
	assert_string_equal(bi.z[2].zone, "Normal");
	/* default selection skips DMA */
	assert_true(wl_buddy_blocks_ge(&bi, NULL, 3) == 1 + 1 + 1);
	assert_true(wl_buddy_blocks_ge(&bi, "all", 3) == 9 + 1 + 2);
	assert_true(wl_buddy_blocks_ge(&bi, "DMA32", 1) == 2);
	assert_true(wl_buddy_pages_ge(&bi, "Normal", 0) == 10 + 8 + 8 + 8 + 1024);
	assert_true(wl_buddy_unusable_index(&bi, "DMA32", 3) > 0.999);
	assert_int_equal(buddyinfo_parse("garbage\n", &bi), -EINVAL);
}

static const char slab_text[] =
"slabinfo - version: 2.1\n"
"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
"kmalloc-1k            96    112   1024    8    2 : tunables    0    0    0 : slabdata     14     14      0\n"
"kmalloc-128         8448   8480    128   32    1 : tunables    0    0    0 : slabdata    265    265      0\n"
"binder_thread        858    858    304   26    2 : tunables    0    0    0 : slabdata     33     33      0\n";

static void test_slabinfo(void **state)
{
	struct slab_cache c;

	(void)state;
	assert_int_equal(slabinfo_find(slab_text, "kmalloc-128", &c), 0);
	assert_true(c.active_objs == 8448 && c.num_objs == 8480 && c.objsize == 128);
	assert_true(c.objs_per_slab == 32 && c.pages_per_slab == 1 && c.num_slabs == 265);
	assert_int_equal(slabinfo_find(slab_text, "binder_thread", &c), 0);
	/* the seed thread's arithmetic: (296 * 26) / (2 * 4096) = 93.9% */
	assert_true(c.objs_per_slab * 296 * 1000 / (c.pages_per_slab * 4096) == 939);
	assert_int_equal(slabinfo_find(slab_text, "kmalloc-1", &c), -1);
	assert_int_equal(slabinfo_find(slab_text, "binder_node", &c), -1);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A fake /sys/kernel/slab: binder_node and binder_ref merged into
 * :0000128, kmalloc-512 a cache of its own. */
static void test_slub_sysfs(void **state)
{
	char root[] = "/tmp/oomlab-test-slab-XXXXXX", dir[512], list[256];
	struct slub_cache c;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/:0000128", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	put_file(dir, "object_size", "128\n");
	put_file(dir, "slab_size", "128\n");
	put_file(dir, "objs_per_slab", "32\n");
	put_file(dir, "order", "0\n");
	put_file(dir, "aliases", "2\n");
	put_file(dir, "objects", "8448 N0=8448\n");
	put_file(dir, "total_objects", "8480 N0=8480\n");
	put_file(dir, "slabs", "265 N0=265\n");
	snprintf(dir, sizeof(dir), "%s/binder_node", root);
	assert_int_equal(symlink(":0000128", dir), 0);
	snprintf(dir, sizeof(dir), "%s/binder_ref", root);
	assert_int_equal(symlink(":0000128", dir), 0);
	snprintf(dir, sizeof(dir), "%s/kmalloc-512", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	put_file(dir, "object_size", "512\n");
	put_file(dir, "objs_per_slab", "8\n");
	put_file(dir, "order", "0\n");
	put_file(dir, "aliases", "0\n");

	assert_int_equal(wl_read_slub_cache(root, "binder_node", &c), 0);
	assert_true(c.alias);
	assert_string_equal(c.target, ":0000128");
	assert_true(c.object_size == 128 && c.objs_per_slab == 32 && c.order == 0);
	assert_int_equal(c.naliases, 2);
	assert_true(c.have_debug_counts);
	assert_true(c.objects == 8448 && c.total_objects == 8480 && c.slabs == 265);
	assert_int_equal(wl_slub_aliases_of(root, ":0000128", list, sizeof(list)), 2);
	assert_non_null(strstr(list, "binder_node"));
	assert_non_null(strstr(list, "binder_ref"));

	assert_int_equal(wl_read_slub_cache(root, "kmalloc-512", &c), 0);
	assert_false(c.alias);
	assert_string_equal(c.target, "kmalloc-512");
	assert_false(c.have_debug_counts);     /* no SLUB_DEBUG counters */
	assert_int_equal(wl_slub_aliases_of(root, "kmalloc-512", list, sizeof(list)), 0);
	assert_int_equal(wl_read_slub_cache(root, "nope", &c), -ENOENT);

	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	assert_int_equal(system(dir), 0);
}

static const char binder_stats_text[] =
"binder stats:\n"
"BC_TRANSACTION: 24110\n"
"BR_REPLY: 24110\n"
"proc: active 100 total 6735\n"
"thread: active 1456 total 180807\n"
"node: active 5668 total 1027387\n"
"ref: active 7141 total 1214877\n"
"death: active 844 total 468056\n"
"transaction: active 0 total 54736890\n"
"transaction_complete: active 0 total 54736890\n"
"proc 123\n"
"context binder\n"
"  threads: 1\n"
"  proc: active 9 total 9\n"
"  node: active 99 total 99\n";

static void test_binder_stats(void **state)
{
	struct binder_objstats s;

	(void)state;
	assert_int_equal(wl_parse_binder_stats(binder_stats_text, &s), 7);
	assert_true(s.active[BOBJ_PROC] == 100 && s.total[BOBJ_PROC] == 6735);
	assert_true(s.active[BOBJ_NODE] == 5668);          /* not the per-proc 99 */
	assert_true(s.total[BOBJ_TRANSACTION_COMPLETE] == 54736890);
	assert_false(s.present[BOBJ_FREEZE]);
	assert_string_equal(binder_obj_names[BOBJ_DEATH], "death");
}

static void test_kv(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(wl_kv_get("low 0\nhigh 3\nmax 71\noom 2\noom_kill 2\n", "oom", &v), 0);
	assert_true(v == 2);
	assert_int_equal(wl_kv_get("oom_kill 5\n", "oom", &v), -ENOENT);
	assert_int_equal(wl_kv_get("MemTotal:         497856 kB\nMemFree: 1 kB\n", "MemFree", &v), 0);
	assert_true(v == 1);
	assert_int_equal(wl_kv_get("VmRSS:\t  4096 kB\n", "VmRSS", &v), 0);
	assert_true(v == 4096);
}

/* ---- the workload table ------------------------------------------------ */

/* The table holds the list (WORKLOADS), each workload findable by name,
 * and every workload file of workloads/ is in it: one written but not
 * listed would build and never run. Run from the source tree's root. */
static void test_registry(void **state)
{
	int n = 0;

	(void)state;
	for (const struct workload *w = workload_table; w->name; w++) {
		n++;
		assert_non_null(w->summary);
		assert_non_null(w->main);
		assert_true(strncmp(w->usage, "Usage: ", 7) == 0);
		assert_null(strchr(w->summary, '\n'));
		assert_ptr_equal(workload_find(w->name), w);
	}
	assert_int_equal(n, WORKLOAD_COUNT);
	assert_null(workload_find("nope"));

	DIR *d = opendir("workloads");
	assert_non_null(d);
	int files = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".c") || !strcmp(de->d_name, "main.c") ||
		    !strcmp(de->d_name, "registry.c"))
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(len - 2), de->d_name);
		if (!workload_find(name))
			fail_msg("workloads/%s is not in WORKLOADS (common/proto/workload-list.h)", de->d_name);
		files++;
	}
	closedir(d);
	assert_int_equal(files, WORKLOAD_COUNT);
}

/* Runs a workload in a child with stdout/stderr captured; returns the exit
 * status and the first line of stderr. */
static int run_workload(const char *name, char *err, size_t errcap,
			const char *a1, const char *a2, const char *a3)
{
	int efd[2], status;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(efd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[5] = { (char *)name, (char *)a1, (char *)a2, (char *)a3, NULL };
		int argc = a1 ? (a2 ? (a3 ? 4 : 3) : 2) : 1;
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		dup2(efd[1], 2);
		close(efd[0]);
		_exit(workload_run(workload_find(name), argc, argv));
	}
	close(efd[1]);
	n = read(efd[0], err, errcap - 1);
	err[n > 0 ? n : 0] = '\0';
	close(efd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The one workload whose arguments are a program's: selftest SUITE/TEST ARGS. */
static bool takes_operands(const struct workload *w)
{
	return w->main == selftest_main;
}

static void test_workload_conventions(void **state)
{
	char err[4096];

	(void)state;
	for (const struct workload *w = workload_table; w->name; w++) {
		char prefix[64];

		if (takes_operands(w))
			continue;  /* test_selftest_arguments */
		snprintf(prefix, sizeof(prefix), "%s: ", w->name);
		/* --help: exit 0, nothing on stderr */
		assert_int_equal(run_workload(w->name, err, sizeof(err), "--help",
					      NULL, NULL), 0);
		assert_string_equal(err, "");
		/* unknown option: one line "NAME: ...", exit 2 */
		assert_int_equal(run_workload(w->name, err, sizeof(err), "--no-such-option",
					      NULL, NULL), 2);
		assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
		assert_non_null(strstr(err, "--no-such-option"));
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
		/* a stray argument */
		assert_int_equal(run_workload(w->name, err, sizeof(err), "stray", NULL,
					      NULL), 2);
		assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
		assert_non_null(strstr(err, "unexpected argument 'stray'"));
		/* --node needs a number */
		assert_int_equal(run_workload(w->name, err, sizeof(err), "--node", "x",
					      NULL), 2);
		assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
		/* --node of a node that does not exist */
		assert_int_equal(run_workload(w->name, err, sizeof(err), "--node", "1000",
					      NULL), 2);
		assert_non_null(strstr(err, "no such NUMA node"));
	}
	/* a few specific value checks */
	assert_int_equal(run_workload("binder-sendvec", err, sizeof(err), "--sizes",
				      "4,0", NULL), 2);
	assert_int_equal(run_workload("binder-mmap", err, sizeof(err), "--map-size",
				      "5M", NULL), 2);
	assert_int_equal(run_workload("binder-throughput", err, sizeof(err), "-w", "3",
				      "-p"), 2);
	assert_int_equal(run_workload("oom-hog", err, sizeof(err), "--mode", "reaper",
				      NULL), 2);
	assert_non_null(strstr(err, "--disk"));
	assert_int_equal(run_workload("oom-hog", err, sizeof(err), "--mode", "bogus",
				      NULL), 2);
	assert_int_equal(run_workload("fragment", err, sizeof(err), "--target-unusable",
				      "1.5", NULL), 2);
	assert_int_equal(run_workload("spawn", err, sizeof(err), "--method", "clone",
				      NULL), 2);
	assert_int_equal(run_workload("binder-objects", err, sizeof(err), "--struct-size",
				      "node", NULL), 2);
}

/* workload_check() in a child, stdout and stderr captured: the exit status
 * (-1 for a signal), what it printed on stdout and the first line of stderr. */
/* selftest --run-bounded MS PROGRAM ARGS (the runner's wrappers): the exit
 * status of PROGRAM run through it, in a child of the test. */
static int run_bounded_status(const char *ms, const char *script)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { "selftest", "--run-bounded", (char *)ms, "/bin/sh", "-c",
				 (char *)script, NULL };
		signal(SIGPIPE, SIG_IGN); /* as oomlab-workload's main has it */
		_exit(workload_find("selftest")->main(6, argv));
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The bound passes a test's own status through (kselftest's skip is 4), a
 * signal as 128 + it, and one that overruns is killed: 137. No false
 * failure from timing: the overrun sleeps 20 s against a 300 ms bound.
 * The test gets SIGPIPE's default though its bound ignores it: a shell
 * keeps a signal ignored on entry, and test_memcontrol's sock case needs
 * its server to die of SIGPIPE. */
static void test_selftest_run_bounded(void **state)
{
	(void)state;
	assert_int_equal(run_bounded_status("60000", "exit 0"), 0);
	assert_int_equal(run_bounded_status("60000", "exit 4"), 4);
	assert_int_equal(run_bounded_status("60000", "kill -TERM $$"), 128 + SIGTERM);
	assert_int_equal(run_bounded_status("60000", "kill -PIPE $$"), 128 + SIGPIPE);
	assert_int_equal(run_bounded_status("300", "exec sleep 20"), 137);
}

static int run_check(const char *name, int numa_nodes, char *out, size_t outcap, char *err,
		     size_t errcap, const char *a1, const char *a2)
{
	int ofd[2], efd[2], status;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(ofd), 0);
	assert_int_equal(pipe(efd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[4] = { (char *)name, (char *)a1, (char *)a2, NULL };
		int argc = a1 ? (a2 ? 3 : 2) : 1;
		struct wl_guest_shape guest = { 512ull << 20, numa_nodes };

		dup2(ofd[1], 1);
		dup2(efd[1], 2);
		close(ofd[0]);
		close(efd[0]);
		_exit(workload_check(workload_find(name), &guest, argc, argv));
	}
	close(ofd[1]);
	close(efd[1]);
	waitpid(pid, &status, 0);
	n = read(ofd[0], out, outcap - 1);
	out[n > 0 ? n : 0] = '\0';
	n = read(efd[0], err, errcap - 1);
	err[n > 0 ? n : 0] = '\0';
	close(ofd[0]);
	close(efd[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* selftest takes SUITE/TEST and the test's own arguments, options included;
 * it checks the name's form (the lab checks it against the tree). */
static void test_selftest_arguments(void **state)
{
	char out[4096], err[4096];

	(void)state;
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err),
				   "mm/compaction_test", NULL), 0);
	assert_string_equal(err, "");
	/* what follows the test is the test's, even what looks like an option */
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err),
				   "filesystems/binderfs/binderfs_test", "--bogus"), 0);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), NULL, NULL), 2);
	assert_non_null(strstr(err, "selftest: which test?"));
	/* a name without '/' is a whole suite; its further words are its runner's
	 * categories (which exist, the host checks against the built suite),
	 * each a name by the name rule */
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "cgroup", NULL),
			 0);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "mm",
				   "mlock"), 0);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "mm",
				   "../x"), 2);
	assert_non_null(strstr(err, "'../x' is no category of suite mm"));
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "..", NULL), 2);
	assert_non_null(strstr(err, "'..' is no SUITE/TEST or SUITE name"));
	/* --timeout takes a duration */
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "--timeout=90s",
				   "cgroup"), 0);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "--timeout=soon",
				   "cgroup"), 2);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "mm/../../x",
				   NULL), 2);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "/mm/x", NULL),
			 2);
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "--bogus",
				   "mm/x"), 2);
	assert_non_null(strstr(err, "unknown option '--bogus'"));
	assert_int_equal(run_check("selftest", 1, out, sizeof(out), err, sizeof(err), "--node", "1"),
			 2);
	assert_non_null(strstr(err, "no such NUMA node (nodes 0..0)"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
}

/* The check mode: every workload stops at wl_start() with good arguments
 * (binder and cgroup setup would fail on the host and exit 1 instead), and
 * rejects bad ones with its usage error, without printing anything else. */
static void test_check_mode(void **state)
{
	char out[4096], err[4096];

	(void)state;
	for (const struct workload *w = workload_table; w->name; w++) {
		if (takes_operands(w))
			continue;  /* test_selftest_arguments */
		assert_int_equal(run_check(w->name, 1, out, sizeof(out), err, sizeof(err), NULL, NULL), 0);
		assert_string_equal(out, "");
		assert_string_equal(err, "");
		assert_int_equal(run_check(w->name, 1, out, sizeof(out), err, sizeof(err), "--help", NULL),
				 0);
		assert_string_equal(out, "");
		assert_int_equal(run_check(w->name, 1, out, sizeof(out), err, sizeof(err), "--bogus", NULL),
				 2);
		assert_non_null(strstr(err, "unknown option '--bogus'"));
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
		/* --node against the guest's nodes, not the host's */
		assert_int_equal(run_check(w->name, 1, out, sizeof(out), err, sizeof(err), "--node", "1"),
				 2);
		assert_non_null(strstr(err, "no such NUMA node (nodes 0..0)"));
		assert_int_equal(run_check(w->name, 2, out, sizeof(out), err, sizeof(err), "--node", "1"),
				 0);
	}
	/* the workload's own rules between options are checked too */
	assert_int_equal(run_check("oom-hog", 1, out, sizeof(out), err, sizeof(err), "--mode", "reaper"),
			 2);
	assert_non_null(strstr(err, "needs --disk"));
	/* what exists only in the guest is not */
	assert_int_equal(run_check("spawn", 1, out, sizeof(out), err, sizeof(err), "--cmd",
				   "/no/such/program"), 0);
	assert_int_equal(run_workload("spawn", err, sizeof(err), "--cmd", "/no/such/program", NULL), 2);
	assert_int_equal(run_check("binder-mmap", 1, out, sizeof(out), err, sizeof(err),
				   "--map-size", "5M"), 2);
	/* '%' sizes are shares of the guest's memory: 0.001% of 512M is below 8K */
	assert_int_equal(run_check("fragment", 1, out, sizeof(out), err, sizeof(err), "--max-pin",
				   "0.001%"), 2);
	assert_non_null(strstr(err, "must be between 8192"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_line),
		cmocka_unit_test(test_event_lines),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_truncation_keeps_json_valid),
		cmocka_unit_test(test_parse_sizes),
		cmocka_unit_test(test_parse_durations),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_option_converters),
		cmocka_unit_test(test_summary_percentiles),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_buddyinfo),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_slub_sysfs),
		cmocka_unit_test(test_binder_stats),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_workload_conventions),
		cmocka_unit_test(test_check_mode),
		cmocka_unit_test(test_selftest_arguments),
		cmocka_unit_test(test_selftest_run_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
