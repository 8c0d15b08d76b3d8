/*
 * Unit tests: a trial's plan (lab/trial/trial-plan.h). lab run and lab boot ask
 * for the machine each its own way (run_plan_trial_asked from the
 * experiment, boot_trial_asked from the options); for the same variant,
 * profile, platform and clock, the plans they resolve are the same.
 * OOMLAB_ACCEL=tcg keeps the accelerator's probe from booting anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/builtin.h"
#include "lab/run/run-plan.h"
#include "lab/trial/trial-plan.h"

static void load_profile(struct profile *p, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	if (profile_parse(p, "t", "configs/profiles/t.conf", text, &err) < 0)
		fail_msg("the test's profile: %s", err.buf);
	strbuf_release(&err);
}

static void load_experiment(struct experiment *e, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	if (experiment_parse(e, "t", "configs/experiments/t.conf", text, &err) < 0)
		fail_msg("the test's experiment: %s", err.buf);
	strbuf_release(&err);
}

static void same_plan(const struct trial_plan *run, const struct trial_plan *boot)
{
	assert_ptr_equal(run->variant, boot->variant);
	assert_ptr_equal(run->profile, boot->profile);
	assert_ptr_equal(run->arch, boot->arch);
	assert_int_equal(run->accel, boot->accel);
	assert_int_equal(run->clock.clock, boot->clock.clock);
	assert_string_equal(run->clock.from ? run->clock.from : "(none)",
			    boot->clock.from ? boot->clock.from : "(none)");
	/* the host tick rate and the QEMU version are measured once a process
	 * (host-ticks.c, qemu-version.c): equal here by construction, so not
	 * compared; the command line they enter is */
	assert_string_equal(run->kernel_cmdline, boot->kernel_cmdline);
}

/*
 * The plans of lab run (an experiment on ARCH/PAGE without a clock of its
 * own) and lab boot (--arch ARCH --page-size PAGE) for the same variant on
 * PROFILE_TEXT with --clock OPTION; checked the same, RUN_PLAN gets run's.
 */
static void resolve_both(const char *arch, const char *page, const char *profile_text,
			 struct clock_choice option, struct trial_plan *run_plan)
{
	struct profile profile;
	load_profile(&profile, profile_text);
	struct experiment e;
	char *text = xasprintf("description = d\nprofile = t\nvariants = stock\nworkload = true\n"
			       "arch = %s\npage_size = %s\n", arch, page);
	load_experiment(&e, text);
	struct platform platform;
	struct strbuf err = STRBUF_INIT;
	if (platform_parse(arch, page, &platform, &err) < 0)
		fail_msg("%s", err.buf);
	struct variant v = { .name = "stock", .cmdline = "numa=off", .target = { .platform = platform } };

	struct trial_asked run = run_plan_trial_asked(&e, &profile, option);
	struct trial_asked boot = boot_trial_asked(&platform, &profile, option);
	struct trial_plan from_run, from_boot;
	if (trial_plan_resolve(&from_run, &run, &v, &err) < 0 || trial_plan_resolve(&from_boot, &boot, &v, &err) < 0)
		fail_msg("%s", err.buf);
	same_plan(&from_run, &from_boot);
	/* the early clock (lab run --dry-run's, lab boot's check) is the plan's */
	struct clock_choice early;
	assert_int_equal(trial_plan_clock(&boot, &early, &err), 0);
	assert_int_equal(early.clock, from_boot.clock.clock);
	*run_plan = from_run;
	run_plan->variant = NULL;
	run_plan->profile = NULL;
	trial_plan_clear(&from_boot);
	experiment_clear(&e);
	free(text);
	strbuf_release(&err);
}

static const char plain_profile[] = "description = d\nmemory = 512M\ncpus = 2\n";
static const char icount_profile[] = "description = d\nmemory = 512M\ncpus = 2\nclock = icount\n";
static const struct clock_choice no_option = { GUEST_CLOCK_REALTIME, NULL };

static void realtime_by_default_with_the_hosts_tick_rate(void **state)
{
	(void)state;
	struct trial_plan plan;
	resolve_both("x86_64", "4k", plain_profile, no_option, &plan);
	assert_int_equal(plan.accel, QEMU_ACCEL_TCG);
	assert_int_equal(plan.clock.clock, GUEST_CLOCK_REALTIME);
	assert_string_equal(plan.clock.from, "default");
	assert_string_equal(plan.arch->name, "x86_64");
	assert_non_null(strstr(plan.qemu_version, "QEMU"));
	/* measured once, told on the command line (host-ticks.h) */
	if (host_arch() == ARCH_X86_64) {
		assert_true(plan.host_tick_khz > 0);
		char *told = xasprintf(" tsc_early_khz=%lu tsc=reliable", plan.host_tick_khz);
		assert_non_null(strstr(plan.kernel_cmdline, told));
		free(told);
	}
	assert_true(ends_with(plan.kernel_cmdline, " numa=off"));
	trial_plan_clear(&plan);
}

static void the_profiles_clock(void **state)
{
	(void)state;
	struct trial_plan plan;
	resolve_both("x86_64", "4k", icount_profile, no_option, &plan);
	assert_int_equal(plan.clock.clock, GUEST_CLOCK_ICOUNT);
	assert_string_equal(plan.clock.from, "configs/profiles/t.conf");
	/* icount's TSC counts virtual nanoseconds: nothing is measured */
	assert_int_equal(plan.host_tick_khz, 0);
	assert_non_null(strstr(plan.kernel_cmdline, " tsc_early_khz=1000000 tsc=reliable"));
	trial_plan_clear(&plan);
}

static void the_options_clock_over_the_profiles(void **state)
{
	(void)state;
	struct trial_plan plan;
	resolve_both("x86_64", "4k", plain_profile, (struct clock_choice){ GUEST_CLOCK_ICOUNT, "--clock" }, &plan);
	assert_int_equal(plan.clock.clock, GUEST_CLOCK_ICOUNT);
	assert_string_equal(plan.clock.from, "--clock");
	trial_plan_clear(&plan);
	resolve_both("x86_64", "4k", icount_profile, (struct clock_choice){ GUEST_CLOCK_REALTIME, "--clock" }, &plan);
	assert_int_equal(plan.clock.clock, GUEST_CLOCK_REALTIME);
	trial_plan_clear(&plan);
}

static void arm64_is_emulated(void **state)
{
	(void)state;
	struct trial_plan plan;
	resolve_both("arm64", "16k", plain_profile, no_option, &plan);
	assert_int_equal(plan.accel, QEMU_ACCEL_TCG);
	assert_string_equal(plan.arch->name, "arm64");
	/* arm64's counter is not told: nothing is measured */
	assert_int_equal(plan.host_tick_khz, 0);
	assert_null(strstr(plan.kernel_cmdline, "tsc_early_khz"));
	trial_plan_clear(&plan);
}

/* icount where the lab would run KVM: refused, before the build and at the plan. */
static void icount_under_kvm_is_refused(void **state)
{
	(void)state;
	setenv("OOMLAB_ACCEL", "kvm", 1);
	struct profile profile;
	load_profile(&profile, icount_profile);
	struct platform platform = { host_arch(), 4 };
	struct variant v = { .name = "stock", .cmdline = "", .target = { .platform = platform } };
	struct trial_asked asked = boot_trial_asked(&platform, &profile, no_option);
	struct strbuf err = STRBUF_INIT;
	struct clock_choice clock;
	assert_int_equal(trial_plan_clock(&asked, &clock, &err), -1);
	assert_non_null(strstr(err.buf, "clock = icount (configs/profiles/t.conf) needs TCG"));
	strbuf_reset(&err);
	struct trial_plan plan;
	assert_int_equal(trial_plan_resolve(&plan, &asked, &v, &err), -1);
	assert_non_null(strstr(err.buf, "OOMLAB_ACCEL=kvm asks for KVM"));
	strbuf_release(&err);
	setenv("OOMLAB_ACCEL", "tcg", 1);
}

int main(void)
{
	setenv("OOMLAB_ACCEL", "tcg", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(realtime_by_default_with_the_hosts_tick_rate),
		cmocka_unit_test(the_profiles_clock),
		cmocka_unit_test(the_options_clock_over_the_profiles),
		cmocka_unit_test(arm64_is_emulated),
		cmocka_unit_test(icount_under_kvm_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
