/* lab boot's exit status (boot-status.h). */
#include "boot-status.h"

#include <signal.h>

int boot_exit_status(const struct vm_run *vm)
{
	switch (vm->outcome) {
	case VM_OK:
	case VM_FAILED:
		/* a command whose status never came: neither good nor bad */
		return vm->exit_status >= 0 ? vm->exit_status : BOOT_EXIT_LAB_ERROR;
	case VM_PANIC:
		return BOOT_EXIT_PANIC;
	case VM_HANG:
		return BOOT_EXIT_HANG;
	case VM_HOST_KILLED:
		return 128 + (vm->qemu_signal > 0 ? vm->qemu_signal : SIGTERM);
	case VM_FLOODED:
		return BOOT_EXIT_FLOODED;
	case VM_BOOT_FAILURE:
		break;
	}
	return BOOT_EXIT_BOOT_FAILURE;
}
