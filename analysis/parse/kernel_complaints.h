/* kernel_complaints.h - what the kernel complained about in one boot: the
 * reports its checkers print without stopping (or before stopping) the
 * machine, read from kmsg.log and console.log, classified by kind.
 *
 * A report opens with a line of a known form (Linux 6.12's formats, the
 * file that prints each is named in kernel_complaints.c) and takes the lines
 * after it until the next report, the end of its task stack (" </TASK>"),
 * an "---[ end trace" marker or 400 lines:
 *
 *   warning         "WARNING: CPU: 0 PID: 46 at drivers/x.c:12 func+0x1a/0x30"
 *                   (WARN_ON and friends); the text a WARN() printed after
 *                   "[ cut here ]" is its message
 *   sleep-in-atomic "BUG: sleeping function called from invalid context at F:L",
 *                   "BUG: scheduling while atomic: comm/pid/0x..."
 *   lockdep         lockdep's and RCU-lockdep's reports: "WARNING: possible
 *                   circular locking dependency detected", "... recursive
 *                   locking ...", "inconsistent lock state", "suspicious RCU
 *                   usage", "[ BUG: Invalid wait context ]", ...
 *   kasan, kfence   "BUG: KASAN: <type> in func", "BUG: KFENCE: <type> in func"
 *   slub            SLUB's own checks: "BUG kmalloc-64 (Not tainted): Redzone ..."
 *   bad-page        "BUG: Bad page state in process", "Bad page map",
 *                   "Bad rss-counter state", "non-zero pgtables_bytes"
 *   oops            "kernel BUG at F:L!", "BUG: kernel NULL pointer
 *                   dereference", "BUG: unable to handle page fault", "Oops: ..."
 *                   (an "Oops:" line right after one of these is the same oops)
 *   soft-lockup     "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [comm:pid]"
 *   hard-lockup     "watchdog: Watchdog detected hard LOCKUP on cpu 1"
 *   hung-task       "INFO: task comm:pid blocked for more than 120 seconds."
 *   rcu-stall       "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
 *                   "... self-detected stall on CPU", "... expedited stalls ..."
 *   alloc-failure   "comm: page allocation failure: order:3, mode:0x40dc0(GFP_...)",
 *                   "comm: vmalloc error: size N, ..., mode:0x...(GFP_...)"
 *   other-bug       any other line starting "BUG: " (e.g. "BUG: using
 *                   smp_processor_id() in preemptible ...")
 *
 * The stack of a report: the function in its "RIP:" line, then the reliable
 * frames of its "Call Trace:" (those without "? "), or, for reports that
 * print their stack without that header (KFENCE), the first block of frame
 * lines; the checkers' own frames (dump_stack, __warn, report_bug,
 * __might_resched, kasan_report, warn_alloc, ...) left out, offsets cut.
 *
 * Its summary is what stays the same when the same bug fires in another boot
 * (no CPU, pid, address or offset): the report groups complaints by kind and
 * summary (kernel_complaint_signature()).
 */
#ifndef OOMLAB_KERNEL_COMPLAINTS_H
#define OOMLAB_KERNEL_COMPLAINTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "common/kernel-text/kmsg.h"

enum complaint_kind {
	COMPLAINT_WARNING,
	COMPLAINT_SLEEP_IN_ATOMIC,
	COMPLAINT_LOCKDEP,
	COMPLAINT_KASAN,
	COMPLAINT_KFENCE,
	COMPLAINT_SLUB,
	COMPLAINT_BAD_PAGE,
	COMPLAINT_OOPS,
	COMPLAINT_SOFT_LOCKUP,
	COMPLAINT_HARD_LOCKUP,
	COMPLAINT_HUNG_TASK,
	COMPLAINT_RCU_STALL,
	COMPLAINT_ALLOC_FAILURE,
	COMPLAINT_OTHER_BUG,
	COMPLAINT_KINDS
};

/* "warning", "sleep-in-atomic", ...: the KIND of kernel_warnings.kind=KIND. */
const char *complaint_kind_name(enum complaint_kind kind);

#define COMPLAINT_FRAMES 8

struct kernel_complaint {
	enum complaint_kind kind;
	uint64_t usec;          /* printk time of its first line */
	char *title;            /* its first line, as printed */
	char *summary;          /* stable across boots, see above */
	char *function;         /* warning: the function it fired in; others: the first
				 * frame of its stack past the checker, or "" */
	char *message;          /* a WARN()'s own text, or NULL */
	int order;              /* alloc-failure of pages: the order; else -1 */
	char *gfp;              /* alloc-failure: the flags as named ("GFP_KERNEL|__GFP_COMP"), or NULL */
	char *frames[COMPLAINT_FRAMES];
	size_t n_frames;
	const char *source;     /* "kmsg" or "console": where it was read */
};

struct kernel_complaints {
	struct kernel_complaint *items;
	size_t n, alloc;
	/* the report being read, and how far */
	struct kernel_complaint *open;
	size_t open_lines;
	bool cut_here;          /* the line before was "[ cut here ]" */
	char *pending_message;  /* a WARN()'s text, seen before its WARNING line */
	bool in_trace, trace_done, frames_block;
	const char *source;
};

void kernel_complaints_init(struct kernel_complaints *c);
void kernel_complaints_release(struct kernel_complaints *c);
/* Reads one line of kernel text (a kmsg record's text, or a console line
 * without its time stamp) printed at USEC. */
void kernel_complaints_line(struct kernel_complaints *c, const char *text, uint64_t usec);
/* Closes the report being read (at the end of a source). */
void kernel_complaints_finish(struct kernel_complaints *c);

/* A kmsg_record_fn for kmsg_read(); CTX is a struct kernel_complaints. */
void kernel_complaints_kmsg_fn(const struct kmsg_record *rec, void *ctx);

/*
 * A trial folder's complaints: kmsg.log's, then those of console.log that
 * kmsg.log lacks (same kind at the same printk time: the console keeps
 * what the kmsg channel lost when the guest died). False when neither file
 * could be read (then nothing is known, not "no complaints").
 */
bool kernel_complaints_read_trial(const char *dir, struct kernel_complaints *out);

/* "kind|summary": what makes two complaints the same (malloc'd). */
char *kernel_complaint_signature(const struct kernel_complaint *c);
/* Counts per kind (COMPLAINT_KINDS entries). */
void kernel_complaints_count(const struct kernel_complaints *c, size_t counts[COMPLAINT_KINDS]);
/* trial.json's "kernel_complaints": at most MAX of them, in order. */
json_t *kernel_complaints_json(const struct kernel_complaints *c, size_t max);

#endif
