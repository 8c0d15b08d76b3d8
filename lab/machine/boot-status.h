/*
 * lab boot's exit status (its --help says them). lab boot is run by scripts
 * and by `git bisect run`, which reads 0 as good, 1-127 but 125 as bad, 125
 * as skip and anything above 127 as "stop the bisection". So: the command's
 * status as it is (a command may exit 125 to skip on purpose); the kernel's
 * own failures (panic, hang, no boot) are bad; a kernel that does not build
 * cannot be tested (skip); and what says nothing of the kernel (a host that
 * killed QEMU, bad input, the lab's own errors, a status that never came)
 * stops a bisection rather than mark a commit.
 */
#ifndef LAB_BOOT_STATUS_H
#define LAB_BOOT_STATUS_H

#include "vm.h"

#define BOOT_EXIT_PANIC 123
#define BOOT_EXIT_HANG 124
#define BOOT_EXIT_NOT_BUILT 125
#define BOOT_EXIT_BOOT_FAILURE 126
/* the guest wrote past a channel's cap: the command's doing, not the kernel's */
#define BOOT_EXIT_FLOODED 253
#define BOOT_EXIT_BAD_INPUT 254
#define BOOT_EXIT_LAB_ERROR 255

/* The status of a boot that ended as VM says: its command's, or its
 * outcome's (128 + the signal for host-killed, SIGTERM's when unknown). */
int boot_exit_status(const struct vm_run *vm);

#endif
