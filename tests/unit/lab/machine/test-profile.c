/* Unit tests: machine profiles are parsed strictly, with file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/machine/profile.h"

static int parse(struct profile *p, const char *text, struct strbuf *err)
{
	return profile_parse(p, "t", "t.conf", text, err);
}

static void parses_a_full_profile(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	const char *text = "# comment\ndescription = a phone  # trailing comment\nmemory = 1G\ncpus = 4\n"
			   "numa_nodes = 512M, 512M\nzram_size = 256M\nzram_algorithm = lzo\n"
			   "min_free_kbytes = 4096\nwatermark_scale_factor = 100\nthp = never\n"
			   "compact_unevictable_allowed = 0\nslow_disk_size = 64M\nslow_disk_bps = 256K\n"
			   "slow_disk_iops = 32\ncgroup.memory.max = 384M\ncgroup.memory.high = max\n"
			   "cgroup.memory.swap.max = 0\ncgroup.memory.oom.group = 1\n";
	assert_int_equal(parse(&p, text, &err), 0);
	assert_string_equal(p.description, "a phone");
	assert_int_equal(p.memory, 1ULL << 30);
	assert_int_equal(p.cpus, 4);
	assert_int_equal(p.numa_nodes, 2);
	assert_int_equal(p.node_memory[1], 512ULL << 20);
	assert_int_equal(p.zram_size, 256ULL << 20);
	assert_string_equal(p.zram_algorithm, "lzo");
	assert_int_equal(p.min_free_kbytes, 4096);
	assert_int_equal(p.watermark_scale_factor, 100);
	assert_string_equal(p.thp, "never");
	assert_int_equal(p.compact_unevictable_allowed, 0);
	assert_int_equal(p.slow_disk_bps, 256 * 1024);
	assert_int_equal(p.slow_disk_iops, 32);
	assert_string_equal(p.cgroup_memory_max, "402653184");
	assert_string_equal(p.cgroup_memory_high, "max");
	assert_string_equal(p.cgroup_memory_swap_max, "0");
	assert_int_equal(p.cgroup_memory_oom_group, 1);
	char *text_out = profile_format(&p);
	assert_non_null(strstr(text_out, "cgroup.memory.max=402653184\n"));
	assert_non_null(strstr(text_out, "node1_bytes=536870912\n"));
	free(text_out);
	profile_clear(&p);
}

static void expect_error(const char *text, const char *needle)
{
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, text, &err), -1);
	if (!strstr(err.buf, needle))
		fail_msg("error '%s' lacks '%s'", err.buf, needle);
	assert_null(strchr(err.buf, '\n'));
	profile_clear(&p);
	strbuf_release(&err);
}

static void bad_input_names_file_line_and_reason(void **state)
{
	(void)state;
	expect_error("description = x\nmemory = 512M\nswap = 1G\n", "t.conf:3: unknown key 'swap'");
	expect_error("description = x\nmemory = lots\n", "t.conf:2: memory = lots");
	expect_error("description = x\nmemory = 32M\n", "at least 64M");
	expect_error("description = x\nmemory = 512M\nthp = sometimes\n", "t.conf:3");
	expect_error("description = x\nmemory = 512M\nzram_algorithm = zstd\n", "lzo, lzo-rle or lz4");
	expect_error("description = x\nmemory = 512M\nmemory = 1G\n", "t.conf:3: memory is set twice");
	expect_error("description = x\nmemory 512M\n", "t.conf:2: expected 'key = value'");
	expect_error("description = x\nmemory =\n", "t.conf:2: memory has no value");
	expect_error("description = x\nmemory = 512M\ncpus = 0\n", "t.conf:3");
	expect_error("description = x\nmemory = 512M\nwatermark_scale_factor = 1.5\n", "t.conf:3");
	expect_error("description = x\nmemory = 512M\ncgroup.memory.max = -1\n", "t.conf:3");
	expect_error("memory = 512M\n", "description is required");
	expect_error("description = x\n", "memory is required");
	expect_error("description = x\nmemory = 1G\nnuma_nodes = 512M,256M\n", "add up to 768M");
	expect_error("description = x\nmemory = 1G\ncpus = 1\nnuma_nodes = 512M,512M\n", "need at least");
	expect_error("description = x\nmemory = 1G\ncpus = 2\nnuma_nodes = 768M,256M\n",
		     "numa_nodes must all be one size (768M and 256M given)");
	expect_error("description = x\nmemory = 512M\nclock = instructions\n",
		     "t.conf:3: clock = instructions: clock wants realtime or icount");
	expect_error("description = x\nclock = ICOUNT\nmemory = 512M\n", "t.conf:2: clock = ICOUNT");
	expect_error("description = x\nmemory = 512M\nclock = icount\nclock = realtime\n",
		     "t.conf:4: clock is set twice");
	expect_error("description = x\nmemory = 512M\napic_timer = none\n",
		     "t.conf:3: apic_timer = none: apic_timer wants given");
	expect_error("description = x\napic_timer = Off\nmemory = 512M\n", "t.conf:2: apic_timer = Off");
}

/* cgroup2_options: systemd's unless said; the names the kernel takes, each
 * once, or none; the agent gets them in the job spec. */
static void cgroup2_options_are_systemds_unless_the_file_says(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\n", &err), 0);
	assert_string_equal(p.cgroup2_options, "nsdelegate,memory_recursiveprot");
	profile_clear(&p);
	const char *good[] = { "nsdelegate", "none", "memory_localevents,nsdelegate,favordynmods" };
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		char text[160];
		snprintf(text, sizeof(text), "description = d\nmemory = 256M\ncgroup2_options = %s\n", good[i]);
		assert_int_equal(parse(&p, text, &err), 0);
		assert_string_equal(p.cgroup2_options, good[i]);
		strbuf_reset(&spec);
		profile_job_spec(&p, &spec);
		char line[160];
		snprintf(line, sizeof(line), "cgroup2_options=%s\n", good[i]);
		if (!strstr(spec.buf, line))
			fail_msg("job spec lacks '%s'", line);
		profile_clear(&p);
	}
	expect_error("description = x\nmemory = 512M\ncgroup2_options = nsdelegate,memory_recursive\n",
		     "t.conf:3: cgroup2_options = nsdelegate,memory_recursive: cgroup2_options wants "
		     "cgroup2's options joined by commas, each once, or none: 'memory_recursive' is not one");
	expect_error("description = x\nmemory = 512M\ncgroup2_options = nsdelegate,nsdelegate\n",
		     "'nsdelegate' is not one of nsdelegate | favordynmods | memory_localevents | "
		     "memory_recursiveprot | memory_hugetlb_accounting | pids_localevents | none");
	expect_error("description = x\nmemory = 512M\ncgroup2_options = nsdelegate,\n", "'' is not one");
	expect_error("description = x\nmemory = 512M\ncgroup2_options = none,nsdelegate\n",
		     "'none' is not one");
	strbuf_release(&spec);
	strbuf_release(&err);
}

/* apic_timer: unsaid, given for a kernel that takes the rate and calibrated
 * for one that does not; said, the same on both clocks and kernels. */
static void apic_timer_is_the_clocks_unless_the_file_says(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\n", &err), 0);
	assert_int_equal(p.apic_timer, APIC_TIMER_DEFAULT);
	assert_string_equal(apic_timer_name(p.apic_timer), "default");
	for (int takes = 0; takes < 2; takes++) {
		enum apic_timer want = takes ? APIC_TIMER_GIVEN : APIC_TIMER_CALIBRATED;
		assert_int_equal(apic_timer_for(p.apic_timer, GUEST_CLOCK_REALTIME, takes), want);
		assert_int_equal(apic_timer_for(p.apic_timer, GUEST_CLOCK_ICOUNT, takes), want);
	}
	profile_clear(&p);
	const char *words[] = { "off", "calibrated", "given" };
	const enum apic_timer want[] = { APIC_TIMER_OFF, APIC_TIMER_CALIBRATED, APIC_TIMER_GIVEN };
	for (int i = 0; i < 3; i++) {
		char *text = xasprintf("description = d\nmemory = 256M\napic_timer = %s # said\n", words[i]);
		assert_int_equal(parse(&p, text, &err), 0);
		assert_int_equal(p.apic_timer, want[i]);
		assert_string_equal(apic_timer_name(p.apic_timer), words[i]);
		for (int takes = 0; takes < 2; takes++) {
			assert_int_equal(apic_timer_for(p.apic_timer, GUEST_CLOCK_REALTIME, takes), want[i]);
			assert_int_equal(apic_timer_for(p.apic_timer, GUEST_CLOCK_ICOUNT, takes), want[i]);
		}
		profile_clear(&p);
		free(text);
	}
	strbuf_release(&err);
}

static void clock_is_realtime_unless_the_file_says(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\n", &err), 0);
	assert_int_equal(p.clock, GUEST_CLOCK_REALTIME);
	assert_false(p.clock_given);
	char *text = profile_format(&p);
	assert_non_null(strstr(text, "clock=realtime\n"));
	free(text);
	profile_clear(&p);
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\nclock = icount # counted\n", &err), 0);
	assert_int_equal(p.clock, GUEST_CLOCK_ICOUNT);
	assert_true(p.clock_given);
	text = profile_format(&p);
	assert_non_null(strstr(text, "clock=icount\n"));
	free(text);
	profile_clear(&p);
}

static void defaults_when_unset(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\n", &err), 0);
	assert_int_equal(p.cpus, 2);
	assert_int_equal(p.numa_nodes, 1);
	assert_int_equal(p.node_memory[0], 256ULL << 20);
	assert_int_equal(p.zram_size, 0);
	assert_int_equal(p.slow_disk_size, 0);
	assert_int_equal(p.min_free_kbytes, -1);
	assert_string_equal(p.cgroup_memory_max, "max");
	profile_clear(&p);
}

static void shipped_profiles_all_load(void **state)
{
	(void)state;
	setenv("OOMLAB_ROOT", ".", 1);
	struct strlist names = STRLIST_INIT;
	profile_names(&names);
	const char *required[] = { "tiny-256m", "phone-512m", "phone-1g", "numa-2node", NULL };
	for (const char **r = required; *r; r++)
		assert_true(strlist_has(&names, *r));
	for (size_t i = 0; i < names.n; i++) {
		struct profile p;
		struct strbuf err = STRBUF_INIT;
		if (profile_load(&p, names.items[i], &err) < 0)
			fail_msg("%s", err.buf);
		profile_clear(&p);
	}
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(profile_load(&p, "numa-2node", &err), 0);
	assert_int_equal(p.numa_nodes, 2);
	profile_clear(&p);
	assert_int_equal(profile_load(&p, "phone-512m", &err), 0);
	assert_int_equal(p.memory, 512ULL << 20);
	assert_true(p.zram_size > 0);
	profile_clear(&p);
	/* phone-512m's Android Go twin under lmkd, with lmkd's low-RAM defaults */
	assert_int_equal(profile_load(&p, "phone-512m-lmkd", &err), 0);
	assert_int_equal(p.killer, KILLER_KIND_LMKD);
	assert_int_equal(p.lmkd.v[LMKD_PSI_PARTIAL_STALL_MS], 200);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_PERCENT], 30);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT], 50);
	assert_int_equal(p.memory, 512ULL << 20);
	/* per-app memcgs, no hard limit over the apps: their pressure is global */
	assert_string_equal(p.cgroup_memory_max, "max");
	profile_clear(&p);
	assert_int_equal(profile_load(&p, "no-such-profile", &err), -1);
	assert_non_null(strstr(err.buf, "phone-512m"));
	strlist_clear(&names);
}

/* A user's profile in $XDG_CONFIG_HOME/oomlab/profiles/ is listed and loads
 * beside the shipped ones; one of a shipped name is refused, naming both. */
static void users_profiles_beside_the_shipped_a_clash_refused(void **state)
{
	(void)state;
	setenv("OOMLAB_ROOT", ".", 1);
	char home[] = "/tmp/oomlab-profile-test.XXXXXX";
	assert_non_null(mkdtemp(home));
	char *dir = xasprintf("%s/oomlab/profiles", home);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	char *mine = xasprintf("%s/mine.conf", dir), *clash = xasprintf("%s/tiny-256m.conf", dir);
	assert_int_equal(write_file_str(mine, "description = mine\nmemory = 300M\n"), 0);
	setenv("XDG_CONFIG_HOME", home, 1);

	struct strlist names = STRLIST_INIT;
	profile_names(&names);
	assert_true(strlist_has(&names, "mine"));
	assert_true(strlist_has(&names, "tiny-256m"));
	strlist_clear(&names);
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	if (profile_load(&p, "mine", &err) < 0)
		fail_msg("%s", err.buf);
	assert_int_equal(p.memory, 300ULL << 20);
	assert_string_equal(p.path, mine);
	profile_clear(&p);

	/* by its path: known by it, so that a run's --resume finds it again */
	if (profile_load(&p, mine, &err) < 0)
		fail_msg("%s", err.buf);
	assert_string_equal(p.name, mine);
	assert_int_equal(p.memory, 300ULL << 20);
	profile_clear(&p);
	assert_int_equal(profile_load(&p, "./configs/profiles/tiny-256m.conf", &err), 0);
	assert_true(p.name[0] == '/' && strstr(p.name, "/configs/profiles/tiny-256m.conf"));
	profile_clear(&p);
	assert_int_equal(profile_load(&p, "/nonexistent/my.conf", &err), -1);
	assert_non_null(strstr(err.buf, "profile /nonexistent/my.conf: No such file or directory"));
	strbuf_release(&err);

	assert_int_equal(write_file_str(clash, "description = mine too\nmemory = 300M\n"), 0);
	assert_int_equal(profile_load(&p, "tiny-256m", &err), -1);
	assert_non_null(strstr(err.buf, "profile 'tiny-256m' is both the lab's (./configs/profiles/tiny-256m.conf)"));
	assert_non_null(strstr(err.buf, clash));

	setenv("XDG_CONFIG_HOME", "/nonexistent-oomlab-test", 1);
	strbuf_release(&err);
	remove_tree(home);
	free(mine);
	free(clash);
	free(dir);
}

static void killer_is_kernel_unless_the_file_says(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\n", &err), 0);
	assert_int_equal(p.killer, KILLER_KIND_KERNEL);
	char *text = profile_format(&p);
	assert_non_null(strstr(text, "\nkiller=kernel\n"));
	assert_null(strstr(text, "lmkd."));
	free(text);
	profile_clear(&p);
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\nkiller = lmkd\n"
				   "lmkd.psi_partial_stall_ms = 200\nlmkd.kill_timeout_ms = 0\n", &err), 0);
	assert_int_equal(p.killer, KILLER_KIND_LMKD);
	assert_int_equal(p.lmkd.v[LMKD_PSI_PARTIAL_STALL_MS], 200);
	assert_int_equal(p.lmkd.v[LMKD_KILL_TIMEOUT_MS], 0);
	/* the rest at lmkd's documented defaults */
	assert_int_equal(p.lmkd.v[LMKD_PSI_COMPLETE_STALL_MS], 700);
	assert_int_equal(p.lmkd.v[LMKD_PSI_WINDOW_MS], 1000);
	assert_int_equal(p.lmkd.v[LMKD_SWAP_FREE_LOW_PERCENT], 10);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_PERCENT], 100);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT], 10);
	text = profile_format(&p);
	assert_non_null(strstr(text, "\nkiller=lmkd\n"));
	assert_non_null(strstr(text, "\nlmkd.psi_partial_stall_ms=200\n"));
	assert_non_null(strstr(text, "\nlmkd.psi_window_ms=1000\n"));
	free(text);
	profile_clear(&p);
}

static void lmkd_keys_out_of_range_name_file_and_line(void **state)
{
	(void)state;
	const char *head = "description = d\nmemory = 256M\nkiller = lmkd\n";
	struct { const char *line, *needle; } cases[] = {
		{ "lmkd.psi_partial_stall_ms = 0", "t.conf:4: lmkd.psi_partial_stall_ms = 0:" },
		{ "lmkd.psi_complete_stall_ms = 10001", "t.conf:4: lmkd.psi_complete_stall_ms = 10001:" },
		{ "lmkd.psi_window_ms = 499", "t.conf:4: lmkd.psi_window_ms = 499:" },
		{ "lmkd.psi_window_ms = 10001", "t.conf:4: lmkd.psi_window_ms = 10001:" },
		{ "lmkd.swap_free_low_percent = 101", "t.conf:4: lmkd.swap_free_low_percent = 101:" },
		{ "lmkd.thrashing_limit_percent = -1", "t.conf:4: lmkd.thrashing_limit_percent = -1:" },
		{ "lmkd.thrashing_limit_decay_percent = 1.5", "t.conf:4: lmkd.thrashing_limit_decay_percent" },
		{ "lmkd.kill_timeout_ms = soon", "t.conf:4: lmkd.kill_timeout_ms = soon:" },
		{ "lmkd.no_such_key = 1", "t.conf:4: unknown key 'lmkd.no_such_key'" },
		/* a default the file did not set: the window's line made the conflict */
		{ "lmkd.psi_window_ms = 500", "t.conf:4: lmkd.psi_complete_stall_ms = 700 is longer" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("%s%s\n", head, cases[i].line);
		expect_error(text, cases[i].needle);
		free(text);
	}
	/* the ends of each range are taken */
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\nkiller = lmkd\n"
				   "lmkd.psi_window_ms = 10000\nlmkd.psi_partial_stall_ms = 1\n"
				   "lmkd.psi_complete_stall_ms = 10000\nlmkd.swap_free_low_percent = 0\n"
				   "lmkd.thrashing_limit_percent = 1000\nlmkd.kill_timeout_ms = 10000\n", &err), 0);
	profile_clear(&p);
	expect_error("description = d\nmemory = 256M\nkiller = lmk\n", "t.conf:3: killer = lmk: killer wants");
	expect_error("description = d\nmemory = 256M\nkiller = lmkd\nlmkd.psi_partial_stall_ms = 800\n",
		     "t.conf:4: lmkd.psi_partial_stall_ms = 800 is longer than lmkd.psi_complete_stall_ms");
	expect_error("description = d\nmemory = 256M\nlmkd.psi_partial_stall_ms = 200\n",
		     "t.conf:3: lmkd.psi_partial_stall_ms is set but killer is not lmkd");
	expect_error("description = d\nmemory = 256M\nkiller = kernel\nlmkd.kill_timeout_ms = 5\n",
		     "t.conf:4: lmkd.kill_timeout_ms is set but killer is not lmkd");
	expect_error("description = d\nmemory = 256M\nlmkd.low_ram = yes\n",
		     "t.conf:3: lmkd.low_ram is set but killer is not lmkd");
	expect_error("description = d\nmemory = 256M\nkiller = lmkd\nlmkd.low_ram = 1\n",
		     "t.conf:4: lmkd.low_ram = 1: lmkd.low_ram wants yes");
	/* low-RAM's 200 ms partial stall against a window the file shortened: the later line */
	expect_error("description = d\nmemory = 256M\nkiller = lmkd\nlmkd.low_ram = yes\n"
		     "lmkd.psi_complete_stall_ms = 150\n",
		     "t.conf:5: lmkd.psi_partial_stall_ms = 200 is longer than lmkd.psi_complete_stall_ms");
}

/* lmkd.low_ram = yes: Android's low-RAM defaults for every lmkd.* key the
 * file does not set, wherever the key stands; a key the file sets wins */
static void low_ram_defaults_unless_the_file_says(void **state)
{
	(void)state;
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\nkiller = lmkd\n"
				   "lmkd.thrashing_limit_percent = 70\nlmkd.low_ram = yes\n", &err), 0);
	assert_true(p.lmkd_low_ram);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_PERCENT], 70);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_DECAY_PERCENT], 50);
	assert_int_equal(p.lmkd.v[LMKD_PSI_PARTIAL_STALL_MS], 200);
	assert_int_equal(p.lmkd.v[LMKD_PSI_COMPLETE_STALL_MS], 700);
	char *text = profile_format(&p);
	assert_non_null(strstr(text, "\nlmkd.thrashing_limit_decay_percent=50\n"));
	free(text);
	profile_clear(&p);
	assert_int_equal(parse(&p, "description = d\nmemory = 256M\nkiller = lmkd\nlmkd.low_ram = no\n", &err), 0);
	assert_int_equal(p.lmkd.v[LMKD_THRASHING_LIMIT_PERCENT], 100);
	assert_int_equal(p.lmkd.v[LMKD_PSI_PARTIAL_STALL_MS], 70);
	profile_clear(&p);
	strbuf_release(&err);
}

int main(void)
{
	/* the tester's own ~/.config/oomlab stays out of these tests */
	setenv("XDG_CONFIG_HOME", "/nonexistent-oomlab-test", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_a_full_profile),
		cmocka_unit_test(bad_input_names_file_line_and_reason),
		cmocka_unit_test(defaults_when_unset),
		cmocka_unit_test(low_ram_defaults_unless_the_file_says),
		cmocka_unit_test(clock_is_realtime_unless_the_file_says),
		cmocka_unit_test(apic_timer_is_the_clocks_unless_the_file_says),
		cmocka_unit_test(shipped_profiles_all_load),
		cmocka_unit_test(users_profiles_beside_the_shipped_a_clash_refused),
		cmocka_unit_test(killer_is_kernel_unless_the_file_says),
		cmocka_unit_test(cgroup2_options_are_systemds_unless_the_file_says),
		cmocka_unit_test(lmkd_keys_out_of_range_name_file_and_line),
	};
	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
