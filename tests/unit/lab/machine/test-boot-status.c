/* lab boot's exit status against what git bisect run makes of it
 * (lab/machine/boot-status.h): 0 good, 1-127 but 125 bad, 125 skip, above 127 abort. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lab/machine/boot-status.h"

enum bisect { GOOD, BAD, SKIP, ABORT };

/* What git bisect run does with STATUS (git-bisect(1), "bisect run"). */
static enum bisect bisect_reads(int status)
{
	if (status == 0)
		return GOOD;
	if (status == 125)
		return SKIP;
	if (status >= 1 && status <= 127)
		return BAD;
	return ABORT;
}

static int status_of(enum vm_outcome outcome, int exit_status, int qemu_signal)
{
	struct vm_run vm = { .outcome = outcome, .exit_status = exit_status,
			     .qemu_signal = qemu_signal };
	return boot_exit_status(&vm);
}

static void the_kernel_s_failures_are_bad(void **state)
{
	(void)state;
	assert_int_equal(status_of(VM_PANIC, -1, 0), 123);
	assert_int_equal(bisect_reads(status_of(VM_PANIC, -1, 0)), BAD);
	assert_int_equal(status_of(VM_HANG, -1, 0), 124);
	assert_int_equal(bisect_reads(status_of(VM_HANG, -1, 0)), BAD);
	assert_int_equal(status_of(VM_BOOT_FAILURE, -1, 0), 126);
	assert_int_equal(bisect_reads(status_of(VM_BOOT_FAILURE, -1, 0)), BAD);
	/* a kernel that does not build is the one skip (not an outcome of a boot) */
	assert_int_equal(bisect_reads(BOOT_EXIT_NOT_BUILT), SKIP);
	/* no outcome of a boot is git's skip: a panic once was */
	for (int o = VM_OK; o <= VM_FLOODED; o++)
		if (o != VM_OK && o != VM_FAILED)
			assert_int_not_equal(bisect_reads(status_of((enum vm_outcome)o, -1, 9)), SKIP);
}

static void the_command_s_status_passes(void **state)
{
	(void)state;
	assert_int_equal(status_of(VM_OK, 0, 0), 0);
	assert_int_equal(status_of(VM_FAILED, 7, 0), 7);
	/* a command that asks to be skipped is */
	assert_int_equal(status_of(VM_FAILED, 125, 0), 125);
	/* a status that never came is neither good nor bad */
	assert_int_equal(bisect_reads(status_of(VM_FAILED, -1, 0)), ABORT);
}

static void what_says_nothing_of_the_kernel_aborts(void **state)
{
	(void)state;
	assert_int_equal(status_of(VM_HOST_KILLED, -1, SIGKILL), 128 + SIGKILL);
	assert_int_equal(status_of(VM_HOST_KILLED, -1, 0), 128 + SIGTERM);
	assert_int_equal(bisect_reads(status_of(VM_HOST_KILLED, -1, SIGKILL)), ABORT);
	/* a guest that floods a channel: its command's doing */
	assert_int_equal(status_of(VM_FLOODED, -1, 0), 253);
	assert_int_equal(bisect_reads(status_of(VM_FLOODED, -1, 0)), ABORT);
	assert_int_not_equal(BOOT_EXIT_FLOODED, BOOT_EXIT_BAD_INPUT);
	assert_int_equal(bisect_reads(BOOT_EXIT_BAD_INPUT), ABORT);
	assert_int_equal(bisect_reads(BOOT_EXIT_LAB_ERROR), ABORT);
	assert_int_not_equal(BOOT_EXIT_BAD_INPUT, BOOT_EXIT_LAB_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_kernel_s_failures_are_bad),
		cmocka_unit_test(the_command_s_status_passes),
		cmocka_unit_test(what_says_nothing_of_the_kernel_aborts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
