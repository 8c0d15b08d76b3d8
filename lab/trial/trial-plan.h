/*
 * A trial's plan (struct trial_plan, trial.h): the machine it boots,
 * resolved once, by trial_plan_resolve, from what a command was asked (the
 * variant, the profile, the experiment's and the options' clock): the
 * platform's facts, the accelerator (accel.h), the clock (clock.h), the host
 * counter's rate when the kernel command line tells it (host-ticks.h), the
 * QEMU version (qemu-version.h) and the kernel command line (qemu.h).
 * lab run resolves a plan for each group before its trials start, and so do
 * its --resume, lab bisect's runs and a Slurm run's jobs, which are lab
 * run; lab boot resolves one. trial_run only reads it.
 */
#ifndef LAB_TRIAL_PLAN_H
#define LAB_TRIAL_PLAN_H

#include "lab/kernel/platform.h"
#include "lab/kernel/variant.h"
#include "lab/machine/clock.h"
#include "lab/machine/profile.h"
#include "trial.h"

/* What a command asks of its trials' machine. */
struct trial_asked {
	struct platform platform;             /* --arch and --page-size, or the experiment's */
	const struct profile *profile;
	struct clock_choice clock_option;     /* --clock, or the clock a resumed run kept; from NULL: none */
	struct clock_choice clock_experiment; /* the experiment's clock; from NULL: none (lab boot) */
};

/*
 * The clock ASKED gives (the option's, else the experiment's, else the
 * profile's, else realtime) into *CLOCK, and icount refused where the lab
 * would run guests under KVM as far as that is known without booting
 * (accel_check_clock): for the checks before anything is built, and for
 * what a run says and records before its trials. -1 with one line in ERR.
 */
int trial_plan_clock(const struct trial_asked *asked, struct clock_choice *clock, struct strbuf *err);
/*
 * PLAN for a trial of variant V (of ASKED's platform): the clock as
 * trial_plan_clock gives it, the accelerator for it (the first boot on a
 * machine with /dev/kvm may boot V once under KVM to find out, accel.h), the
 * host counter's rate when the command line tells it, the QEMU version and
 * the kernel command line. -1 with one line in ERR (icount where KVM runs).
 */
int trial_plan_resolve(struct trial_plan *plan, const struct trial_asked *asked, const struct variant *v,
		       struct strbuf *err);
void trial_plan_clear(struct trial_plan *plan);

#endif
