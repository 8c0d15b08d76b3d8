/*
 * The QEMU command line of a lab VM, built from a profile and the paths of
 * one boot. Kept apart from running QEMU so it can be unit-tested and
 * saved verbatim with every trial.
 */
#ifndef LAB_QEMU_H
#define LAB_QEMU_H

#include <stdbool.h>

#include "clock.h"
#include "lab/kernel/platform.h"
#include "profile.h"
#include "common/util.h"

/* QEMU's accelerator. UNSET (zero) is "not chosen yet": accel.h chooses. */
enum qemu_accel { QEMU_ACCEL_UNSET, QEMU_ACCEL_TCG, QEMU_ACCEL_KVM };

/* "tcg" or "kvm", as trial.json's environment.accelerator and OOMLAB_ACCEL
 * write them ("" for UNSET). */
const char *qemu_accel_name(enum qemu_accel a);
/* NAME ("tcg" or "kvm") into *A; false for anything else. */
bool qemu_accel_parse(const char *name, enum qemu_accel *a);
/* Whether CLOCK can run under A: the instruction counter is TCG's (KVM has
 * none). The one statement of that rule; accel.c explains a refusal. */
bool qemu_accel_runs_clock(enum qemu_accel a, enum guest_clock clock);

struct qemu_spec {
	const struct profile *profile;
	struct platform platform;  /* zero: x86_64/4k (microvm); arm64: virt, -cpu max */
	enum qemu_accel accel;
	enum guest_clock clock;    /* icount only with TCG (qemu_accel_runs_clock) */
	const char *kernel;        /* bzImage, arm64's Image */
	const char *initrd;
	const char *cmdline_extra; /* the variant's, may be "" */
	bool kernel_takes_apic_khz; /* built with the lab's patch (apic-timer.h) */
	const char *tools_image;   /* erofs with perf, stress-ng, workloads */
	const char *slow_disk;     /* raw image, or NULL */
	const char *scratch_disk;  /* ext4 image, or NULL */
	const char *channel_dir;   /* where the channel files and the console go (common/proto) */
	unsigned long host_tick_khz; /* the host counter's rate, measured by the trial's plan
				      * (trial-plan.h) when qemu_tells_host_tick_rate(); 0: unknown */
	bool interactive;          /* serial console on our terminal instead of a file */
	/* Boot once, restore per trial (vm-snapshot.h): the saving boot and its
	 * restores have a QMP socket; a restore starts
	 * paused for the saved VM, appends to channel files that hold the
	 * saved boot's start, and gives QEMU's own random source a seed (TCG's
	 * RDRAND, so that a restore with the same seed replays). */
	bool snapshot;
	bool restore;
	unsigned long long restore_seed;
};

/* Whether the kernel command line tells the host counter's rate as the
 * guest's TSC rate (x86_64 under TCG with the realtime clock): the trial's
 * plan measures host_tick_khz only then. */
bool qemu_tells_host_tick_rate(const struct qemu_spec *spec);
/* The kernel command line every lab guest gets, plus the variant's extra. */
char *qemu_kernel_cmdline(const struct qemu_spec *spec);
/* Appends the full argv to out (argv[0] is the platform's QEMU, arch_facts()->qemu),
 * with KERNEL_CMDLINE (qemu_kernel_cmdline's, built once by the trial's plan) as -append. */
void qemu_build_argv(const struct qemu_spec *spec, const char *kernel_cmdline, struct strlist *out);

#endif
