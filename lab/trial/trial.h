/*
 * One boot of one variant under one profile, recorded in a folder and
 * finished (trial-finish.h):
 *   trial.json      environment (variant, hashes, QEMU, accelerator, clock,
 *                   watchdogs, host, the user's files)
 *                   and outcome (ok, failed, panic, hang, boot-failure, killed)
 *   qemu.cmdline    the exact QEMU command line
 *   reproduce.sh    boots the same trial again
 *   console.log, ctl.jsonl, out.log, kmsg.log, perf.data, files.bin
 *                   the raw channels as they arrived
 *   files/          the guest's snapshots, split out of files.bin
 *   job.cpio        the job archive (spec and command) of this boot
 */
#ifndef LAB_TRIAL_H
#define LAB_TRIAL_H

/* The throttled disk's image in a trial folder (a saved boot's is copied per restore). */
#define SLOW_DISK_IMAGE "slow-disk.img"

#include <stdbool.h>

#include "lab/kernel/variant.h"
#include "lab/machine/clock.h"
#include "lab/machine/guest-files.h"
#include "lab/machine/profile.h"
#include "lab/machine/qemu.h"
#include "lab/machine/vm.h"

/*
 * The machine a trial boots: resolved once, before the trial, by
 * trial_plan_resolve (trial-plan.h) for lab run (and so --resume, lab
 * bisect's runs and a Slurm run's jobs) and lab boot alike, and only read
 * here. Kept apart from the spec so that choosing the accelerator, whose
 * probe boots a trial, stays above the trial.
 */
struct trial_plan {
	const struct variant *variant;
	const struct profile *profile;
	const struct arch_facts *arch; /* the variant's platform's facts (platform.h) */
	enum qemu_accel accel;
	struct clock_choice clock;
	/* The host counter's rate (host-ticks.h), measured only when the kernel
	 * command line tells it (qemu_tells_host_tick_rate); else 0. */
	unsigned long host_tick_khz;
	const char *qemu_version;      /* the version line of arch->qemu (qemu-version.h) */
	/* The built kernel has the lab's patch (kernel_has_lab_patch): it is
	 * told its APIC timer's rate (apic-timer.h). */
	bool kernel_takes_apic_khz;
	char *kernel_cmdline;          /* QEMU's -append, recorded in trial.json */
};

/* PLAN's machine as QEMU's spec, without a boot's files and folders: what
 * the kernel command line is built from, and what trial_run completes. */
struct qemu_spec trial_plan_qemu(const struct trial_plan *plan);

struct trial_spec {
	const struct trial_plan *plan; /* the machine (trial-plan.h) */
	const char *command;          /* run by /bin/sh -c in the guest */
	const char *dir;              /* the trial folder (created) */
	/* For the realtime clock; trial_run multiplies them by the clock's
	 * slowdown (guest_clock_watchdog_scale), so they stay host seconds. */
	struct vm_watchdogs watchdogs;
	bool stream_output;
	bool interactive;
	bool use_cgroup;              /* run the command inside the workload cgroup */
	const struct strlist *perf_args; /* perf record arguments (events, filters); NULL: no perf */
	const char *prepare;          /* shapes the machine first (e.g. fragment); NULL: none */
	/* The prepare step's target, checked as the workload starts: at most
	 * target_max_free_blocks free blocks of order >= target_order, else the
	 * trial is "off-target". */
	bool has_target;
	int target_order;
	long target_max_free_blocks;
	/* Failures injected into the command's tasks (fault-inject.h); NULL: the profile's. */
	const struct fault_plan *faults;
	/* Trials the lab runs at once beside this one (lab run -j); 0: one. */
	unsigned trials_at_once;
	/* The user's folders on the tools disk (guest-files.h); NULL: none. */
	const struct guest_files *files;
	/* The trial runs the kernel's selftests: it gets the profile's scratch
	 * disk (scratch-disk.h), their working folder. */
	bool scratch_disk;
	/*
	 * Boot once, restore per trial (lab/machine/vm-snapshot.h). save: the
	 * boot stops at the agent's restore point and is saved in DIR
	 * (VM_SNAPSHOT_FILE), its channels, initrd and disks kept for the
	 * restores; it writes snapshot.json, not trial.json. restore_from: the
	 * saving boot's folder (absolute), whose spec this one repeats (the
	 * same plan, command, files and disks): the trial starts from its saved
	 * VM, and the guest gets restore_seed and restore_trial.
	 */
	bool save;
	const char *restore_from;
	unsigned long long restore_seed;
	const char *restore_trial;
};

/* The faults the trial arms: its own, else its profile's. */
const struct fault_plan *trial_faults(const struct trial_spec *spec);
/* The guest's job spec of the trial (common/proto/job-keys.h): its
 * profile's settings, then the trial's own. */
char *trial_job_spec(const struct trial_spec *spec);
/* Runs the trial; fills vm with the outcome. -1 (err) when it could not start. */
int trial_run(const struct trial_spec *spec, struct vm_run *vm, struct strbuf *err);
/* Default watchdogs for a profile under the chosen accelerator. */
struct vm_watchdogs default_watchdogs(void);

#endif
