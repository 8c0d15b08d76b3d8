/* A trial's plan, resolved once (trial-plan.h). */
#include "trial-plan.h"

#include <stdlib.h>

#include "accel.h"
#include "common/paths.h"
#include "lab/kernel/kbuild.h"
#include "lab/machine/apic-timer.h"
#include "lab/machine/host-ticks.h"
#include "lab/machine/qemu-version.h"

/* The plan of V on PROFILE under ACCEL and CLOCK: the facts that follow,
 * measured or built here and nowhere else. */
static void settle(struct trial_plan *plan, const struct variant *v, const struct profile *profile,
		   struct clock_choice clock, enum qemu_accel accel)
{
	const struct platform *platform = &v->target.platform;
	*plan = (struct trial_plan){ .variant = v, .profile = profile, .arch = arch_facts(platform->arch),
				     .accel = accel, .clock = clock,
				     .qemu_version = qemu_version(platform->arch),
				     .kernel_takes_apic_khz = kernel_has_lab_patch(v) };
	struct qemu_spec q = trial_plan_qemu(plan);
	if (qemu_tells_host_tick_rate(&q))
		q.host_tick_khz = plan->host_tick_khz = host_tick_khz();
	plan->kernel_cmdline = qemu_kernel_cmdline(&q);
}

/* The variant and profile the accelerator's probe boots. */
struct probe {
	const struct variant *variant;
	const struct profile *profile;
};

/* accel.h's probe: a trial of `true` on a plan made for KVM. */
static bool kvm_boots(void *ctx)
{
	const struct probe *probe = ctx;
	char *cache = cache_path("accel-probe.d");
	char *dir = temp_name_beside(cache);
	free(cache);
	remove_tree(dir);
	struct trial_plan plan;
	settle(&plan, probe->variant, probe->profile, (struct clock_choice){ GUEST_CLOCK_REALTIME, NULL },
	       QEMU_ACCEL_KVM);
	struct trial_spec spec = {
		.plan = &plan, .command = "true", .dir = dir,
		.watchdogs = { ACCEL_PROBE_BOOT_SECONDS, ACCEL_PROBE_BOOT_SECONDS,
			       ACCEL_PROBE_BOOT_SECONDS * 2 },
	};
	struct vm_run vm;
	struct strbuf err = STRBUF_INIT;
	bool ok = trial_run(&spec, &vm, &err) == 0 && vm.outcome == VM_OK;
	free(vm.detail);
	strbuf_release(&err);
	trial_plan_clear(&plan);
	remove_tree(dir);
	free(dir);
	return ok;
}

/* The option's clock, else the experiment's, else the profile's, else realtime. */
static struct clock_choice asked_clock(const struct trial_asked *asked)
{
	const struct profile *p = asked->profile;
	return guest_clock_choose(asked->clock_option, asked->clock_experiment,
				  (struct clock_choice){ p->clock, p->clock_given ? p->path : NULL });
}

int trial_plan_clock(const struct trial_asked *asked, struct clock_choice *clock, struct strbuf *err)
{
	*clock = asked_clock(asked);
	return accel_check_clock(clock, &asked->platform, err);
}

int trial_plan_resolve(struct trial_plan *plan, const struct trial_asked *asked, const struct variant *v,
		       struct strbuf *err)
{
	*plan = (struct trial_plan){ 0 };
	struct clock_choice clock = asked_clock(asked);
	struct probe probe = { v, asked->profile };
	enum qemu_accel accel;
	if (accel_for_clock(&clock, &v->target.platform, kvm_boots, &probe, &accel, err) < 0)
		return -1;
	settle(plan, v, asked->profile, clock, accel);
	if (asked->profile->apic_timer == APIC_TIMER_GIVEN && !plan->kernel_takes_apic_khz &&
	    v->target.platform.arch == ARCH_X86_64) {
		strbuf_addf(err, "%s: apic_timer = given, but kernel %s cannot take the rate: it was built "
			    "without the lab's patch (%s); say calibrated",
			    asked->profile->path, v->name, arch_facts(ARCH_X86_64)->lab_patch);
		trial_plan_clear(plan);
		return -1;
	}
	return 0;
}

void trial_plan_clear(struct trial_plan *plan)
{
	free(plan->kernel_cmdline);
	*plan = (struct trial_plan){ 0 };
}
