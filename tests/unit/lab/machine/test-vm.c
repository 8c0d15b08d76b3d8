/* test-vm.c - how a VM's end is named (lab/machine/vm.c): a QEMU that a signal from
 * outside the lab ended is 'host-killed', never 'boot-failure' or 'failed'; a
 * QEMU that exits by itself before the agent is ready did not boot. The
 * "QEMU" here is sh, ending as each case asks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lab/machine/vm.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-vm.XXXXXX";

/* Runs SCRIPT as the VM's QEMU in ROOT/NAME; the run's outcome in *VM. */
static void run_fake_qemu(const char *name, const char *script, struct vm_run *vm)
{
	char *dir = xasprintf("%s/%s", root, name);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "sh");
	strlist_push(&argv, "-c");
	strlist_push(&argv, script);
	memset(vm, 0, sizeof(*vm));
	vm->argv = &argv;
	vm->dir = dir;
	vm->watchdogs = (struct vm_watchdogs){ 30, 30, 60 };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(vm_run(vm, &err), 0);
	strbuf_release(&err);
	strlist_clear(&argv);
	free(dir);
}

static void outside_kills_are_named(void **state)
{
	(void)state;
	struct vm_run vm;
	/* SIGKILLed by the host (its OOM killer, a user), as in issue 21: status 137 */
	run_fake_qemu("sigkill", "kill -KILL $$", &vm);
	assert_int_equal(vm.outcome, VM_HOST_KILLED);
	assert_string_equal(vm_outcome_name(vm.outcome), "host-killed");
	assert_int_equal(vm.qemu_status, 137);
	assert_int_equal(vm.qemu_signal, SIGKILL);
	assert_string_equal(vm.detail, "QEMU was killed by signal 9 (Killed) from outside the lab; the "
				       "trial says nothing of the kernel");
	free(vm.detail);

	/* SIGTERM: QEMU catches it, says so and exits 0 */
	run_fake_qemu("sigterm", "echo 'qemu-system-x86_64: terminating on signal 15 from pid 4242 "
				 "(kill)' >&2; exit 0", &vm);
	assert_int_equal(vm.outcome, VM_HOST_KILLED);
	assert_int_equal(vm.qemu_status, 0);
	assert_int_equal(vm.qemu_signal, SIGTERM);
	assert_string_equal(vm.detail, "QEMU stopped on a signal from outside the lab (\"qemu-system-x86_64: "
				       "terminating on signal 15 from pid 4242 (kill)\"); the trial says "
				       "nothing of the kernel");
	free(vm.detail);

	/* an earlier boot's words in the same folder (qemu.stderr is appended to) are not this one's */
	run_fake_qemu("exit1-again", "echo 'qemu-system-x86_64: terminating on signal 15 from pid 1 (x)' >&2",
		      &vm);
	free(vm.detail);
	run_fake_qemu("exit1-again", "exit 1", &vm);
	assert_int_equal(vm.outcome, VM_BOOT_FAILURE);
	free(vm.detail);

	/* after the agent's exit line the command's own word stands */
	run_fake_qemu("after-exit", "echo '{\"type\":\"ready\",\"uptime\":1}' >> ctl.jsonl; "
				    "echo '{\"type\":\"exit\",\"status\":3}' >> ctl.jsonl; kill -KILL $$", &vm);
	assert_int_equal(vm.outcome, VM_FAILED);
	assert_int_equal(vm.exit_status, 3);
	free(vm.detail);
}

static void a_qemu_that_exits_early_did_not_boot(void **state)
{
	(void)state;
	struct vm_run vm;
	run_fake_qemu("exit1", "echo 'qemu-system-x86_64: -kernel bzImage: No such file' >&2; exit 1", &vm);
	assert_int_equal(vm.outcome, VM_BOOT_FAILURE);
	assert_string_equal(vm_outcome_name(vm.outcome), "boot-failure");
	assert_int_equal(vm.qemu_signal, 0);
	assert_non_null(strstr(vm.detail, "QEMU exited (status 1) before the agent was ready"));
	free(vm.detail);
	/* ready, then gone without an exit line and no signal: failed, as before */
	run_fake_qemu("gone", "echo '{\"type\":\"ready\",\"uptime\":1}' >> ctl.jsonl; exit 0", &vm);
	assert_int_equal(vm.outcome, VM_FAILED);
	assert_non_null(strstr(vm.detail, "without the agent reporting an exit status"));
	free(vm.detail);
}

static void detail_from_words(void **state)
{
	(void)state;
	int sig = -1;
	assert_null(vm_killed_from_outside(0, NULL, &sig));
	assert_int_equal(sig, 0);
	assert_null(vm_killed_from_outside(0, "qemu: warning: something\n", &sig));
	char *d = vm_killed_from_outside(0, "qemu: warning: x\nqemu-system-aarch64: terminating on signal 1\n"
					    "more\n", &sig);
	assert_int_equal(sig, 1);
	assert_non_null(strstr(d, "(\"qemu-system-aarch64: terminating on signal 1\")"));
	free(d);
}

SCRATCH_ROOT_FIXTURES(root)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(outside_kills_are_named),
		cmocka_unit_test(a_qemu_that_exits_early_did_not_boot),
		cmocka_unit_test(detail_from_words),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
