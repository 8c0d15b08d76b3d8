/*
 * The host's cycle counter, which QEMU's TCG hands an x86 guest as its TSC
 * under the realtime clock (its rdtsc reads the host's counter; under icount
 * it counts the guest's virtual nanoseconds instead, 1 GHz). The guest
 * kernel measures the TSC against the PIT at boot, and on a loaded host
 * that measurement fails: the kernel then marks the TSC unstable and times
 * everything with jiffies. The lab measures the rate once and tells the
 * guest (tsc_early_khz=, qemu.c).
 */
#ifndef LAB_HOST_TICKS_H
#define LAB_HOST_TICKS_H

/* The host counter's rate in kHz (rdtsc on x86_64, cntvct_el0 on arm64),
 * measured once over 50 ms of CLOCK_MONOTONIC_RAW; 0 on other hosts. */
unsigned long host_tick_khz(void);

#endif
