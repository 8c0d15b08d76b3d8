/* test-kernel-complaints.c - analysis/parse/kernel_complaints.c on kernel
 * logs written in Linux 6.12's formats (tests/samples/complaints/, see
 * tests/samples/README.md): one report of each kind, an OOM report and
 * ordinary lines between them; and on real boots (fragmented/, warn-binder/).
 *
 * The expected values were read off the sample files by hand; the commands
 * that count them are in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/parse/kernel_complaints.h"
#include "common/kernel-text/console.h"
#include "tests/unit/samples.h"

static struct kernel_complaints read_dir(const char *rel)
{
	struct kernel_complaints c;
	char *dir = sample_path(rel);
	assert_true(kernel_complaints_read_trial(dir, &c));
	free(dir);
	return c;
}

static const struct kernel_complaint *nth_of(const struct kernel_complaints *c, enum complaint_kind kind,
					     size_t nth)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].kind == kind && nth-- == 0)
			return &c->items[i];
	fail_msg("no complaint %zu of kind %s", nth, complaint_kind_name(kind));
	return NULL;
}

/* all/kmsg.log: the start lines, found with
 *   grep -cE ';WARNING: CPU: ' = 2, ';BUG: sleeping function' = 1,
 *   ';WARNING: possible circular' = 1, ';BUG: KFENCE' = 1, ';BUG kmalloc' = 1,
 *   'page allocation failure|vmalloc error' = 2, 'soft lockup' = 1,
 *   'INFO: task .* blocked' = 1, 'detected stalls' = 1, 'BUG: KASAN' = 1,
 *   'NULL pointer dereference' = 1 (its "Oops:" line is the same oops),
 *   'BUG: using smp_processor_id' = 1; no bad page, no hard lockup.
 * "invoked oom-killer" has a stack too and is no complaint. */
static void test_counts(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/all");
	size_t counts[COMPLAINT_KINDS];
	kernel_complaints_count(&c, counts);
	assert_int_equal(c.n, 14);
	assert_int_equal(counts[COMPLAINT_WARNING], 2);
	assert_int_equal(counts[COMPLAINT_SLEEP_IN_ATOMIC], 1);
	assert_int_equal(counts[COMPLAINT_LOCKDEP], 1);
	assert_int_equal(counts[COMPLAINT_KFENCE], 1);
	assert_int_equal(counts[COMPLAINT_KASAN], 1);
	assert_int_equal(counts[COMPLAINT_SLUB], 1);
	assert_int_equal(counts[COMPLAINT_ALLOC_FAILURE], 2);
	assert_int_equal(counts[COMPLAINT_SOFT_LOCKUP], 1);
	assert_int_equal(counts[COMPLAINT_HUNG_TASK], 1);
	assert_int_equal(counts[COMPLAINT_RCU_STALL], 1);
	assert_int_equal(counts[COMPLAINT_OOPS], 1);
	assert_int_equal(counts[COMPLAINT_OTHER_BUG], 1);
	assert_int_equal(counts[COMPLAINT_BAD_PAGE], 0);
	assert_int_equal(counts[COMPLAINT_HARD_LOCKUP], 0);
	/* every one of them from kmsg.log: the console adds nothing it had */
	for (size_t i = 0; i < c.n; i++)
		assert_string_equal(c.items[i].source, "kmsg");
	kernel_complaints_release(&c);
}

/* all/kmsg.log, the WARN_ON at usec 2514002:
 *   WARNING: CPU: 0 PID: 46 at drivers/android/binder.c:6021 binder_open+0x3d/0x3a0
 *   RIP: 0010:binder_open+0x3d/0x3a0, then reliable frames misc_open, chrdev_open,
 *   do_dentry_open, vfs_open, path_openat, do_filp_open, do_sys_openat2 (8 kept);
 * the WARN() at 3001002 whose text came after "[ cut here ]":
 *   list_add corruption. next->prev should be prev ... */
static void test_warnings(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/all");
	const struct kernel_complaint *w = nth_of(&c, COMPLAINT_WARNING, 0);
	assert_int_equal(w->usec, 2514002);
	assert_string_equal(w->function, "binder_open");
	assert_string_equal(w->summary, "drivers/android/binder.c:6021");
	assert_null(w->message);
	assert_int_equal(w->n_frames, COMPLAINT_FRAMES);
	static const char *const top[] = { "binder_open", "misc_open", "chrdev_open", "do_dentry_open",
					   "vfs_open", "path_openat", "do_filp_open", "do_sys_openat2" };
	for (size_t i = 0; i < COMPLAINT_FRAMES; i++)
		assert_string_equal(w->frames[i], top[i]);
	char *sig = kernel_complaint_signature(w);
	assert_string_equal(sig, "warning|drivers/android/binder.c:6021|binder_open");
	free(sig);

	w = nth_of(&c, COMPLAINT_WARNING, 1);
	assert_string_equal(w->function, "__list_add_valid_or_report");
	assert_non_null(w->message);
	assert_true(starts_with(w->message, "list_add corruption. next->prev should be prev"));
	assert_string_equal(w->frames[0], "__list_add_valid_or_report");
	assert_string_equal(w->frames[1], "binder_inc_node_nilocked");
	kernel_complaints_release(&c);
}

/* The debug checkers' reports in all/kmsg.log, each with the first frame of
 * its stack past the checker (dump_stack_lvl, __might_resched, vfree's own
 * frame is kept: it is the sleeping function). */
static void test_debug_reports(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/all");
	const struct kernel_complaint *k = nth_of(&c, COMPLAINT_SLEEP_IN_ATOMIC, 0);
	assert_string_equal(k->summary, "sleeping function called from invalid context at mm/vmalloc.c:3419");
	assert_string_equal(k->function, "vfree");
	assert_string_equal(k->frames[1], "binder_alloc_deferred_release");

	/* lockdep: the chain's stacks give way to the "Call Trace:" of stack backtrace */
	k = nth_of(&c, COMPLAINT_LOCKDEP, 0);
	assert_string_equal(k->summary, "possible circular locking dependency detected");
	assert_string_equal(k->function, "binder_alloc_mmap_handler");
	assert_string_equal(k->frames[1], "binder_mmap");

	/* KFENCE prints its stack without "Call Trace:"; only the first block counts */
	k = nth_of(&c, COMPLAINT_KFENCE, 0);
	assert_string_equal(k->summary, "use-after-free read");
	assert_string_equal(k->function, "binder_free_buf_locked");
	assert_int_equal(k->n_frames, 8);
	assert_string_equal(k->frames[7], "ret_from_fork_asm");

	k = nth_of(&c, COMPLAINT_KASAN, 0);
	assert_string_equal(k->summary, "slab-use-after-free");
	assert_string_equal(k->function, "binder_thread_release");
	assert_string_equal(k->frames[0], "binder_thread_release");
	assert_string_equal(k->frames[1], "binder_ioctl");
	assert_int_equal(k->n_frames, 2);

	k = nth_of(&c, COMPLAINT_SLUB, 0);
	assert_string_equal(k->summary, "kmalloc-64: Right Redzone overwritten");
	assert_string_equal(k->function, "binder_thread_release");

	k = nth_of(&c, COMPLAINT_OTHER_BUG, 0);
	assert_string_equal(k->summary, "using smp_processor_id() in preemptible [N] code: binder-sendvec/N");
	assert_string_equal(k->function, "binder_alloc_new_buf");
	kernel_complaints_release(&c);
}

/* Allocation failures: the order and the flags by name, the caller past the
 * allocator; the OOM report after the first one (Mem-Info, "invoked
 * oom-killer" with its own Call Trace) adds nothing. */
static void test_alloc_failures(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/all");
	const struct kernel_complaint *k = nth_of(&c, COMPLAINT_ALLOC_FAILURE, 0);
	assert_int_equal(k->order, 3);
	assert_string_equal(k->gfp, "GFP_KERNEL|__GFP_COMP|__GFP_ZERO");
	assert_string_equal(k->summary, "order:3 GFP_KERNEL|__GFP_COMP|__GFP_ZERO");
	assert_string_equal(k->function, "binder_alloc_mmap_handler");
	assert_int_equal(k->n_frames, 4);
	assert_string_equal(k->frames[3], "do_mmap");

	k = nth_of(&c, COMPLAINT_ALLOC_FAILURE, 1);
	assert_int_equal(k->order, -1);
	assert_string_equal(k->gfp, "GFP_KERNEL|__GFP_HIGHMEM|__GFP_ZERO");
	assert_string_equal(k->summary, "vmalloc: failed to allocate pages GFP_KERNEL|__GFP_HIGHMEM|__GFP_ZERO");
	assert_string_equal(k->function, "binder_alloc_mmap_handler");
	kernel_complaints_release(&c);
}

/* Lockups, stalls, hung tasks and the oops: RIP first where there are registers. */
static void test_stalls_and_oops(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/all");
	const struct kernel_complaint *k = nth_of(&c, COMPLAINT_SOFT_LOCKUP, 0);
	assert_int_equal(k->usec, 30100000);
	/* the frames below the spinning one are all kept */
	assert_string_equal(k->function, "queued_spin_lock_slowpath");
	assert_string_equal(k->frames[1], "_raw_spin_lock");
	assert_string_equal(k->frames[2], "copy_process");

	k = nth_of(&c, COMPLAINT_HUNG_TASK, 0);
	assert_string_equal(k->summary, "task oom-hog blocked");
	assert_string_equal(k->function, "folio_wait_bit_common");

	k = nth_of(&c, COMPLAINT_RCU_STALL, 0);
	assert_string_equal(k->summary, "rcu_preempt detected stalls on CPUs/tasks");
	assert_string_equal(k->function, "queued_spin_lock_slowpath");

	k = nth_of(&c, COMPLAINT_OOPS, 0);
	assert_string_equal(k->summary, "kernel NULL pointer dereference");
	assert_string_equal(k->function, "binder_transaction");
	assert_string_equal(k->frames[1], "binder_ioctl");
	kernel_complaints_release(&c);
}

/* cut/kmsg.log is all/kmsg.log up to the soft lockup (awk -F, '$3 < 30100000'):
 * the reports after it are on the console only (cut/console.log holds the
 * lines of level <= 4, as loglevel=5 prints them), and are taken from there:
 * the soft lockup, hung task, RCU stall, KASAN, oops and other-bug reports. */
static void test_console_fills_in(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("complaints/cut");
	assert_int_equal(c.n, 14);
	size_t from_console = 0;
	for (size_t i = 0; i < c.n; i++)
		from_console += !strcmp(c.items[i].source, "console");
	assert_int_equal(from_console, 6);
	const struct kernel_complaint *k = nth_of(&c, COMPLAINT_HUNG_TASK, 0);
	assert_string_equal(k->source, "console");
	assert_string_equal(k->function, "folio_wait_bit_common");
	k = nth_of(&c, COMPLAINT_WARNING, 0);
	assert_string_equal(k->source, "kmsg");
	kernel_complaints_release(&c);
}

/* A real boot: fragmented/kmsg.log (binder-kcalloc, binder-mmap on a
 * fragmented machine) has one complaint, the order-3 failure of the page
 * array (grep -c 'page allocation failure' = 1, line 413), whose stack runs
 * through the allocator into binder_alloc_mmap_handler (line 427); the OOM
 * kill that follows is no complaint. memcg-kill/, reaper-stock/ and binder/
 * have none (grep -cE 'WARNING|BUG|allocation failure|blocked for|stall' = 0). */
static void test_real_logs(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("fragmented");
	assert_int_equal(c.n, 1);
	const struct kernel_complaint *k = &c.items[0];
	assert_int_equal(k->kind, COMPLAINT_ALLOC_FAILURE);
	assert_int_equal(k->usec, 6577128);
	assert_int_equal(k->order, 3);
	assert_string_equal(k->gfp, "GFP_KERNEL|__GFP_COMP|__GFP_ZERO");
	assert_string_equal(k->function, "binder_alloc_mmap_handler");
	assert_string_equal(k->frames[1], "__mmap_region");
	kernel_complaints_release(&c);
	static const char *const quiet[] = { "memcg-kill", "reaper-stock", "binder" };
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		c = read_dir(quiet[i]);
		assert_int_equal(c.n, 0);
		kernel_complaints_release(&c);
	}
}

/* A real WARN_ON_ONCE: warn-binder/ is a boot of tests/variants/warn-binder
 * running binder-throughput (kmsg.log line 367, console.log line 5):
 *   WARNING: CPU: 1 PID: 48 at drivers/android/binder.c:6021 binder_open+0x4c/0x3a0
 * RIP binder_open, then the reliable frames do_dentry_open, path_openat,
 * do_filp_open, do_sys_openat2, __x64_sys_openat, do_syscall_64,
 * entry_SYSCALL_64_after_hwframe (grep -v '? ' between Call Trace: and </TASK>).
 * Both logs have it at the same time (7170017 us): it is counted once. */
static void test_real_warning(void **state)
{
	(void)state;
	struct kernel_complaints c = read_dir("warn-binder");
	assert_int_equal(c.n, 1);
	const struct kernel_complaint *k = &c.items[0];
	assert_int_equal(k->kind, COMPLAINT_WARNING);
	assert_int_equal(k->usec, 7170017);
	assert_string_equal(k->source, "kmsg");
	assert_string_equal(k->function, "binder_open");
	assert_string_equal(k->summary, "drivers/android/binder.c:6021");
	static const char *const frames[] = { "binder_open", "do_dentry_open", "path_openat", "do_filp_open",
					      "do_sys_openat2", "__x64_sys_openat", "do_syscall_64",
					      "entry_SYSCALL_64_after_hwframe" };
	assert_int_equal(k->n_frames, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(k->frames[i], frames[i]);
	kernel_complaints_release(&c);
}

static void test_console_lines(void **state)
{
	(void)state;
	uint64_t usec;
	const char *text;
	char a[] = "[    2.514002] WARNING: CPU: 0 PID: 46 at x.c:1 f+0x1/0x2\r\n";
	assert_true(console_parse_line(a, &usec, &text));
	assert_int_equal(usec, 2514002);
	assert_string_equal(text, "WARNING: CPU: 0 PID: 46 at x.c:1 f+0x1/0x2");
	char b[] = "[  126.000004]  __schedule+0x3f2/0x1250";
	assert_true(console_parse_line(b, &usec, &text));
	assert_int_equal(usec, 126000004);
	assert_string_equal(text, " __schedule+0x3f2/0x1250");
	char c[] = "oomlab-agent: ready";
	assert_false(console_parse_line(c, &usec, &text));
	char d[] = "[ 1.5] short";
	assert_false(console_parse_line(d, &usec, &text));
}

/* Lines fed one by one: a report ends at its task stack's end, and the
 * JSON keeps what the report needs. */
static void test_lines_and_json(void **state)
{
	(void)state;
	struct kernel_complaints c;
	kernel_complaints_init(&c);
	kernel_complaints_line(&c, "INFO: task kworker/u4:1:33 blocked for more than 245 seconds.", 10);
	kernel_complaints_line(&c, "Call Trace:", 11);
	kernel_complaints_line(&c, " <TASK>", 12);
	kernel_complaints_line(&c, " __schedule+0x3f2/0x1250", 13);
	kernel_complaints_line(&c, " ? __pfx_x+0x10/0x10", 14);
	kernel_complaints_line(&c, " wb_wait_for_completion+0x5c/0x90", 15);
	kernel_complaints_line(&c, " </TASK>", 16);
	kernel_complaints_line(&c, " sync_inodes_sb+0x1/0x2", 17);
	kernel_complaints_line(&c, "watchdog: Watchdog detected hard LOCKUP on cpu 1", 20);
	kernel_complaints_finish(&c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.items[0].summary, "task kworker/uN:N blocked");
	assert_int_equal(c.items[0].n_frames, 1);
	assert_string_equal(c.items[0].function, "wb_wait_for_completion");
	assert_int_equal(c.items[1].kind, COMPLAINT_HARD_LOCKUP);
	assert_string_equal(c.items[1].function, "");

	json_t *j = kernel_complaints_json(&c, 1);
	assert_int_equal(json_array_size(j), 1);
	json_t *o = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "hung-task");
	assert_int_equal(json_integer_value(json_object_get(o, "usec")), 10);
	assert_int_equal(json_array_size(json_object_get(o, "frames")), 1);
	assert_null(json_object_get(o, "order"));
	json_decref(j);
	kernel_complaints_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_debug_reports),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_stalls_and_oops),
		cmocka_unit_test(test_console_fills_in),
		cmocka_unit_test(test_real_logs),
		cmocka_unit_test(test_real_warning),
		cmocka_unit_test(test_console_lines),
		cmocka_unit_test(test_lines_and_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
