/* kernel_complaints.c - the kernel's reports in a boot's log, classified
 * (kernel_complaints.h). The forms are Linux 6.12's; each matcher names the
 * file that prints it.
 */
#include "kernel_complaints.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernel-text/console.h"
#include "common/proto/protocol.h"

/* A report that never reaches the end of its stack stops here. */
#define REPORT_MAX_LINES 400

static const char *const kind_names[COMPLAINT_KINDS] = {
	[COMPLAINT_WARNING] = "warning",
	[COMPLAINT_SLEEP_IN_ATOMIC] = "sleep-in-atomic",
	[COMPLAINT_LOCKDEP] = "lockdep",
	[COMPLAINT_KASAN] = "kasan",
	[COMPLAINT_KFENCE] = "kfence",
	[COMPLAINT_SLUB] = "slub",
	[COMPLAINT_BAD_PAGE] = "bad-page",
	[COMPLAINT_OOPS] = "oops",
	[COMPLAINT_SOFT_LOCKUP] = "soft-lockup",
	[COMPLAINT_HARD_LOCKUP] = "hard-lockup",
	[COMPLAINT_HUNG_TASK] = "hung-task",
	[COMPLAINT_RCU_STALL] = "rcu-stall",
	[COMPLAINT_ALLOC_FAILURE] = "alloc-failure",
	[COMPLAINT_OTHER_BUG] = "other-bug",
};

const char *complaint_kind_name(enum complaint_kind kind)
{
	return kind < COMPLAINT_KINDS ? kind_names[kind] : "?";
}

void kernel_complaints_init(struct kernel_complaints *c)
{
	memset(c, 0, sizeof(*c));
	c->source = "kmsg";
}

static void complaint_free(struct kernel_complaint *k)
{
	free(k->title);
	free(k->summary);
	free(k->function);
	free(k->message);
	free(k->gfp);
	for (size_t i = 0; i < k->n_frames; i++)
		free(k->frames[i]);
}

void kernel_complaints_release(struct kernel_complaints *c)
{
	for (size_t i = 0; i < c->n; i++)
		complaint_free(&c->items[i]);
	free(c->items);
	free(c->pending_message);
	memset(c, 0, sizeof(*c));
}

/* ---- the text of a line ---- */

/* "func+0x1a/0x30 [mod]" or "func.cold+0x..": the symbol, or NULL. */
static char *symbol_of(const char *s)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || strchr("_.$", s[n]))
		n++;
	if (!n || strncmp(s + n, "+0x", 3))
		return NULL;
	return xstrndup(s, n);
}

/* A stack line: " func+0x1a/0x30", " ? func+0x..." (unreliable, *RELIABLE false).
 * Returns the symbol, or NULL when the line is not a frame. */
static char *frame_of(const char *text, bool *reliable)
{
	if (*text != ' ')
		return NULL;
	while (*text == ' ')
		text++;
	*reliable = !starts_with(text, "? ");
	if (!*reliable)
		text += 2;
	return symbol_of(text);
}

/* Digits as N, hex numbers as 0x?: what changes from boot to boot. */
static char *normalized(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	while (*s) {
		if (s[0] == '0' && s[1] == 'x' && isxdigit((unsigned char)s[2])) {
			strbuf_addstr(&sb, "0x?");
			for (s += 2; isxdigit((unsigned char)*s); s++)
				;
		} else if (isdigit((unsigned char)*s)) {
			strbuf_addstr(&sb, "N");
			while (isxdigit((unsigned char)*s))
				s++;
		} else {
			strbuf_add(&sb, s, 1);
			s++;
		}
	}
	return strbuf_detach(&sb);
}

/* TEXT without a trailing CUT ("!", ":", " {") and blanks. */
static char *without_tail(const char *text, const char *cut)
{
	char *s = xstrdup(text);
	size_t n = strlen(s);
	while (n && (strchr(cut, s[n - 1]) || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/* ---- the first line of each kind ---- */

struct start {
	enum complaint_kind kind;
	char *summary;
	char *function;         /* known from the first line, or NULL */
	int order;
	char *gfp;
};

/* kernel/panic.c __warn(): "WARNING: CPU: %d PID: %d at %s:%d %pS" (or without "%s:%d"). */
static bool warning_start(const char *t, struct start *s)
{
	const char *at;
	if (!starts_with(t, "WARNING: CPU: ") || !(at = strstr(t, " at ")))
		return false;
	at += 4;
	const char *space = strrchr(at, ' ');
	char *func = symbol_of(space ? space + 1 : at);
	s->kind = COMPLAINT_WARNING;
	s->function = func ? func : xstrdup("");
	s->summary = space ? xstrndup(at, (size_t)(space - at)) : xstrdup(s->function);
	return true;
}

/*
 * The reports whose first line is all there is to their summary, by how
 * that line starts (or, with CONTAINS, what it holds anywhere):
 * kernel/sched/core.c __schedule_bug(), kernel/watchdog.c (pr_fmt
 * "watchdog: "), mm/page_alloc.c bad_page(), mm/memory.c print_bad_pte(),
 * kernel/fork.c check_mm(), arch/x86/mm/fault.c page faults.
 */
static const struct {
	const char *text;
	bool contains;
	enum complaint_kind kind;
	const char *summary;
} fixed_forms[] = {
	{ "BUG: scheduling while atomic", false, COMPLAINT_SLEEP_IN_ATOMIC, "scheduling while atomic" },
	{ "watchdog: BUG: soft lockup", false, COMPLAINT_SOFT_LOCKUP, "soft lockup" },
	{ "Watchdog detected hard LOCKUP on cpu", true, COMPLAINT_HARD_LOCKUP, "hard LOCKUP" },
	{ "BUG: Bad page state", false, COMPLAINT_BAD_PAGE, "Bad page state" },
	{ "BUG: Bad page map", false, COMPLAINT_BAD_PAGE, "Bad page map" },
	{ "BUG: non-zero pgtables_bytes on freeing mm", false, COMPLAINT_BAD_PAGE,
	  "non-zero pgtables_bytes on freeing mm" },
	{ "BUG: kernel NULL pointer dereference", false, COMPLAINT_OOPS, "kernel NULL pointer dereference" },
	{ "BUG: unable to handle page fault", false, COMPLAINT_OOPS, "unable to handle page fault" },
};

static bool fixed_start(const char *t, struct start *s)
{
	for (size_t i = 0; i < sizeof(fixed_forms) / sizeof(fixed_forms[0]); i++)
		if (fixed_forms[i].contains ? strstr(t, fixed_forms[i].text) != NULL
					    : starts_with(t, fixed_forms[i].text)) {
			s->kind = fixed_forms[i].kind;
			s->summary = xstrdup(fixed_forms[i].summary);
			return true;
		}
	return false;
}

/* kernel/sched/core.c __might_resched(): "... at %s:%d", the place that may sleep. */
static bool sleep_start(const char *t, struct start *s)
{
	if (!starts_with(t, "BUG: sleeping function called from invalid context"))
		return false;
	s->kind = COMPLAINT_SLEEP_IN_ATOMIC;
	s->summary = xstrdup(t + strlen("BUG: "));
	return true;
}

/* kernel/locking/lockdep.c (and lockdep_rcu_suspicious there) print their
 * reports under a line of '='; these are their headers. */
static bool lockdep_start(const char *t, struct start *s)
{
	static const char *const headers[] = {
		"WARNING: possible circular locking dependency detected",
		"WARNING: possible recursive locking detected",
		"WARNING: inconsistent lock state",
		"WARNING: possible irq lock inversion dependency detected",
		"WARNING: *-safe -> *-unsafe lock order detected",
		"WARNING: Nested lock was not taken",
		"WARNING: bad unlock balance detected!",
		"WARNING: bad contention detected!",
		"WARNING: held lock freed!",
		"WARNING: */* still has locks held!",
		"WARNING: lock held when returning to user space!",
		"WARNING: suspicious RCU usage",
		"WARNING: chain_key collision",
		"[ BUG: Invalid wait context ]",
		"BUG: MAX_* too low!",
		"BUG: looking up invalid subclass: *",
		"BUG: key * has not been registered!",
	};
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		if (fnmatch(headers[i], t, 0))
			continue;
		const char *body = strchr(t, ':') ? strchr(t, ':') + 2 : t;
		if (*t == '[')
			body = t + 2;
		char *bare = without_tail(body, "!]");
		s->kind = COMPLAINT_LOCKDEP;
		if (strstr(bare, "still has locks held")) {
			free(bare);
			bare = xstrdup("task still has locks held");
		}
		s->summary = normalized(bare);
		free(bare);
		return true;
	}
	return false;
}

/* mm/kasan/report.c "BUG: KASAN: %s in %pS", mm/kfence/report.c
 * "BUG: KFENCE: <what> in %pS". */
static bool sanitizer_start(const char *t, struct start *s)
{
	static const char kasan[] = "BUG: KASAN: ", kfence[] = "BUG: KFENCE: ";
	const char *what;
	if (starts_with(t, kasan)) {
		s->kind = COMPLAINT_KASAN;
		what = t + strlen(kasan);
	} else if (starts_with(t, kfence)) {
		s->kind = COMPLAINT_KFENCE;
		what = t + strlen(kfence);
	} else {
		return false;
	}
	const char *in = strstr(what, " in ");
	s->summary = in ? xstrndup(what, (size_t)(in - what)) : without_tail(what, "");
	s->function = in ? symbol_of(in + 4) : NULL;
	return true;
}

/* mm/slub.c __slab_bug(): "BUG %s (%s): %pV" (cache, taint, reason). */
static bool slub_start(const char *t, struct start *s)
{
	if (!starts_with(t, "BUG ") || starts_with(t, "BUG: "))
		return false;
	const char *cache = t + 4, *paren = strstr(cache, " ("), *reason = strstr(cache, "): ");
	if (!paren || !reason || paren > reason)
		return false;
	char *name = xstrndup(cache, (size_t)(paren - cache));
	char *why = normalized(reason + 3);
	s->kind = COMPLAINT_SLUB;
	s->summary = xasprintf("%s: %s", name, why);
	free(name);
	free(why);
	return true;
}

/* kernel/fork.c check_mm(): which counter, without the mm's address and value. */
static bool rss_counter_start(const char *t, struct start *s)
{
	if (!starts_with(t, "BUG: Bad rss-counter state"))
		return false;
	const char *type = strstr(t, " type:");
	s->kind = COMPLAINT_BAD_PAGE;
	s->summary = type ? xasprintf("Bad rss-counter state%.*s", (int)(1 + strcspn(type + 1, " ")), type)
			  : xstrdup("Bad rss-counter state");
	return true;
}

/* lib/bug.c "kernel BUG at %s:%u!", arch/x86/kernel/dumpstack.c "Oops: %s: %04lx [#%d]...". */
static bool oops_start(const char *t, struct start *s)
{
	if (starts_with(t, "kernel BUG at "))
		s->summary = without_tail(t, "!");
	else if (starts_with(t, "Oops: "))
		s->summary = xstrndup(t + 6, strcspn(t + 6, ",:"));
	else
		return false;
	s->kind = COMPLAINT_OOPS;
	return true;
}

/* kernel/hung_task.c "INFO: task %s:%d blocked for more than %ld seconds." */
static bool hung_task_start(const char *t, struct start *s)
{
	if (!starts_with(t, "INFO: task ") || !strstr(t, " blocked for more than "))
		return false;
	const char *comm = t + strlen("INFO: task ");
	const char *colon = strrchr(comm, ':');
	char *name = xstrndup(comm, colon ? (size_t)(colon - comm) : strcspn(comm, " "));
	char *norm = normalized(name);
	s->kind = COMPLAINT_HUNG_TASK;
	s->summary = xasprintf("task %s blocked", norm);
	free(name);
	free(norm);
	return true;
}

/* kernel/rcu/tree_stall.h, tree_exp.h, tasks.h (pr_fmt "rcu: " where set). */
static bool rcu_stall_start(const char *t, struct start *s)
{
	const char *info = starts_with(t, "rcu: ") ? t + 5 : t;
	if (!starts_with(info, "INFO: ") || !strstr(info, " stall"))
		return false;
	info += 6;
	/* "... stalls on CPUs/tasks: {" or "... but suppressed full report ..." */
	const char *end = strstr(info, ", but");
	char *head = end ? xstrndup(info, (size_t)(end - info)) : xstrdup(info);
	char *bare = without_tail(head, ":{?");
	s->kind = COMPLAINT_RCU_STALL;
	s->summary = bare;
	free(head);
	return true;
}

/* The flags of "mode:0x40dc0(GFP_KERNEL|__GFP_COMP)". */
static char *gfp_names(const char *t)
{
	const char *mode = strstr(t, "mode:"), *open = mode ? strchr(mode, '(') : NULL;
	const char *close = open ? strchr(open, ')') : NULL;
	return close ? xstrndup(open + 1, (size_t)(close - open - 1)) : NULL;
}

/* mm/page_alloc.c warn_alloc(): "%s: page allocation failure: order:%u, mode:%#x(%pGg), ..."
 * and mm/vmalloc.c's "%s: vmalloc error: size %lu, <why>, mode:..." through it. */
static bool alloc_failure_start(const char *t, struct start *s)
{
	const char *page = strstr(t, ": page allocation failure: order:");
	const char *vmalloc = strstr(t, ": vmalloc error: ");
	if (!page && !vmalloc)
		return false;
	s->kind = COMPLAINT_ALLOC_FAILURE;
	s->gfp = gfp_names(t);
	const char *gfp = s->gfp ? s->gfp : "?";
	if (page) {
		s->order = atoi(page + strlen(": page allocation failure: order:"));
		s->summary = xasprintf("order:%d %s", s->order, gfp);
	} else {
		const char *what = vmalloc + strlen(": vmalloc error: ");
		const char *comma = strchr(what, ',');
		const char *why = comma ? comma + 2 : what;
		const char *mode = strstr(why, ", mode:");
		char *reason = mode ? xstrndup(why, (size_t)(mode - why)) : xstrdup(why);
		char *norm = normalized(reason);
		s->summary = xasprintf("vmalloc: %s %s", norm, gfp);
		free(reason);
		free(norm);
	}
	return true;
}

static bool other_bug_start(const char *t, struct start *s)
{
	if (!starts_with(t, "BUG: "))
		return false;
	s->kind = COMPLAINT_OTHER_BUG;
	s->summary = normalized(t + 5);
	return true;
}

static bool match_start(const char *t, struct start *s)
{
	/* the specific forms before the general "BUG: " and "WARNING: " */
	static bool (*const matchers[])(const char *, struct start *) = {
		warning_start, lockdep_start, fixed_start, sleep_start, sanitizer_start,
		rss_counter_start, oops_start, hung_task_start, rcu_stall_start,
		alloc_failure_start, slub_start, other_bug_start,
	};
	memset(s, 0, sizeof(*s));
	s->order = -1;
	for (size_t i = 0; i < sizeof(matchers) / sizeof(matchers[0]); i++)
		if (matchers[i](t, s))
			return true;
	return false;
}

/* ---- the stack ---- */

/* Frames of the checkers themselves, left out from the top of a stack. */
static const char *const checker_frames[] = {
	"dump_stack*", "show_stack", "show_regs", "show_trace_log_lvl", "__warn*", "warn_slowpath*",
	"report_bug", "handle_bug", "exc_invalid_op", "asm_exc_*", "exc_page_fault", "do_user_addr_fault",
	"__might_resched", "__might_sleep", "__might_fault", "__cant_sleep", "__schedule_bug",
	"schedule_debug*", "debug_smp_processor_id", "check_preemption_disabled",
	"kasan_*", "__kasan_*", "__asan_*", "print_report", "print_address_description*",
	"check_region_inline", "kfence_*", "__kfence_*", "warn_alloc", "__alloc_pages*",
	"alloc_pages*", "__alloc_frozen_pages*", "__folio_alloc*", "folio_alloc*", "__kmalloc*",
	"___kmalloc*", "kmalloc*", "__kvmalloc*", "kvmalloc*", "__vmalloc*", "vmalloc*",
	"___slab_alloc", "__slab_alloc*", "allocate_slab", "new_slab", "print_*", "check_noncircular",
	"check_prev_add", "check_prevs_add", "check_deadlock", "check_irq_usage", "validate_chain",
	"__lock_acquire", "lock_acquire*", "mark_lock*", "mark_usage", "lockdep_*", "__lock_release",
	"lock_release", "lock_is_held_type", "watchdog_timer_fn", "__hrtimer_run_queues",
	"hrtimer_interrupt", "__sysvec_apic_timer_interrupt", "sysvec_apic_timer_interrupt",
	"asm_sysvec_*", "sched_show_task", "__schedule", "schedule", "schedule_preempt_disabled",
	"schedule_timeout*", "io_schedule*",
	/* SLUB's checks, reached from the free or allocation they check */
	"check_bytes_and_report", "check_object", "check_slab", "slab_err", "object_err",
	"free_to_partial_list", "free_debug_processing", "alloc_debug_processing", "__slab_free",
	"slab_free*", "do_slab_free", "kfree", "kmem_cache_free",
	/* the lock a lockdep report or a hung task is about: its caller is the place */
	"__mutex_lock*", "mutex_lock*", "_raw_spin_lock*", "_raw_read_lock*", "_raw_write_lock*",
	"rwsem_down_*", "down_read*", "down_write*", "__down_*",
};

static bool checker_frame(const char *name)
{
	for (size_t i = 0; i < sizeof(checker_frames) / sizeof(checker_frames[0]); i++)
		if (!fnmatch(checker_frames[i], name, 0))
			return true;
	return false;
}

static void add_frame(struct kernel_complaint *k, char *name)
{
	/* the checker's frames only count at the top */
	if ((!k->n_frames && checker_frame(name)) || k->n_frames == COMPLAINT_FRAMES ||
	    (k->n_frames && !strcmp(k->frames[k->n_frames - 1], name))) {
		free(name);
		return;
	}
	k->frames[k->n_frames++] = name;
}

static void drop_frames(struct kernel_complaint *k)
{
	for (size_t i = 0; i < k->n_frames; i++)
		free(k->frames[i]);
	k->n_frames = 0;
}

/* ---- reading ---- */

static void close_open(struct kernel_complaints *c)
{
	struct kernel_complaint *k = c->open;
	if (!k)
		return;
	if (!*k->function && k->n_frames) {
		free(k->function);
		k->function = xstrdup(k->frames[0]);
	}
	c->open = NULL;
	c->in_trace = c->trace_done = c->frames_block = false;
}

static void open_report(struct kernel_complaints *c, struct start *s, const char *text,
			uint64_t usec)
{
	close_open(c);
	ALLOC_GROW(c->items, c->n + 1, c->alloc);
	struct kernel_complaint *k = &c->items[c->n++];
	memset(k, 0, sizeof(*k));
	k->kind = s->kind;
	k->usec = usec;
	k->title = xstrdup(text);
	k->summary = s->summary;
	k->function = s->function ? s->function : xstrdup("");
	k->order = s->order;
	k->gfp = s->gfp;
	k->source = c->source;
	if (k->kind == COMPLAINT_WARNING) {
		k->message = c->pending_message;
		c->pending_message = NULL;
	}
	c->open = k;
	c->open_lines = 0;
}

/* A line inside the report being read: its registers, its stack, its end. */
static void report_line(struct kernel_complaints *c, const char *text)
{
	struct kernel_complaint *k = c->open;
	bool reliable;
	char *frame;
	if (++c->open_lines > REPORT_MAX_LINES || starts_with(text, "---[ end")) {
		close_open(c);
	} else if (starts_with(text, "RIP: ") && !c->in_trace) {
		const char *colon = strchr(text + 5, ':');
		char *name = symbol_of(colon ? colon + 1 : text + 5);
		if (name) {
			drop_frames(k);
			k->frames[k->n_frames++] = name;
		}
	} else if (starts_with(text, "Call Trace:")) {
		/* the report's own stack: what a first block of frames said gives way */
		if (c->frames_block) {
			drop_frames(k);
			c->frames_block = false;
		}
		c->in_trace = true;
	} else if (c->in_trace) {
		if (!strcmp(text, " </TASK>"))
			close_open(c);
		else if ((frame = frame_of(text, &reliable)) && reliable)
			add_frame(k, frame);
		else
			free(frame);
	} else if (!c->trace_done && (frame = frame_of(text, &reliable))) {
		/* a stack printed without "Call Trace:" (KFENCE, lockdep's chains) */
		if (!c->frames_block && k->n_frames == 0)
			c->frames_block = true;
		if (c->frames_block && reliable)
			add_frame(k, frame);
		else
			free(frame);
	} else if (c->frames_block) {
		c->trace_done = true;
	}
}

void kernel_complaints_line(struct kernel_complaints *c, const char *text, uint64_t usec)
{
	struct start s;
	if (strstr(text, "------------[ cut here ]------------")) {
		c->cut_here = true;
		return;
	}
	bool after_cut = c->cut_here;
	c->cut_here = false;
	/* "Oops:" after a kernel BUG or a page fault is the same oops */
	if (c->open && c->open->kind == COMPLAINT_OOPS && !c->in_trace && starts_with(text, "Oops: ")) {
		report_line(c, text);
		return;
	}
	if (match_start(text, &s)) {
		open_report(c, &s, text, usec);
		return;
	}
	if (after_cut && *text && *text != ' ') {
		/* WARN()'s own text comes between "cut here" and its WARNING line */
		free(c->pending_message);
		c->pending_message = xstrdup(text);
		close_open(c);
		return;
	}
	if (c->open)
		report_line(c, text);
}

void kernel_complaints_finish(struct kernel_complaints *c)
{
	close_open(c);
	free(c->pending_message);
	c->pending_message = NULL;
	c->cut_here = false;
}

void kernel_complaints_kmsg_fn(const struct kmsg_record *rec, void *ctx)
{
	kernel_complaints_line(ctx, rec->text, rec->usec);
}

static bool read_console(const char *path, struct kernel_complaints *c)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) >= 0) {
		uint64_t usec;
		const char *text;
		if (console_parse_line(line, &usec, &text))
			kernel_complaints_line(c, text, usec);
	}
	free(line);
	fclose(f);
	kernel_complaints_finish(c);
	return true;
}

static bool already_known(const struct kernel_complaints *c, const struct kernel_complaint *k)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].kind == k->kind && c->items[i].usec == k->usec)
			return true;
	return false;
}

bool kernel_complaints_read_trial(const char *dir, struct kernel_complaints *out)
{
	kernel_complaints_init(out);
	char *kmsg = xasprintf("%s/%s", dir, channel_file_name[CHANNEL_KMSG]);
	char *console = xasprintf("%s/%s", dir, CONSOLE_FILE);
	struct kmsg_stats st;
	bool have_kmsg = kmsg_read(kmsg, kernel_complaints_kmsg_fn, out, &st) == 0;
	kernel_complaints_finish(out);
	struct kernel_complaints from_console;
	kernel_complaints_init(&from_console);
	from_console.source = "console";
	bool have_console = read_console(console, &from_console);
	for (size_t i = 0; i < from_console.n; i++) {
		struct kernel_complaint *k = &from_console.items[i];
		if (already_known(out, k))
			continue;
		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		out->items[out->n++] = *k;
		memset(k, 0, sizeof(*k));
	}
	kernel_complaints_release(&from_console);
	free(kmsg);
	free(console);
	return have_kmsg || have_console;
}

char *kernel_complaint_signature(const struct kernel_complaint *c)
{
	return xasprintf("%s|%s|%s", complaint_kind_name(c->kind), c->summary, c->function);
}

void kernel_complaints_count(const struct kernel_complaints *c, size_t counts[COMPLAINT_KINDS])
{
	memset(counts, 0, COMPLAINT_KINDS * sizeof(*counts));
	for (size_t i = 0; i < c->n; i++)
		counts[c->items[i].kind]++;
}

json_t *kernel_complaints_json(const struct kernel_complaints *c, size_t max)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < c->n && i < max; i++) {
		const struct kernel_complaint *k = &c->items[i];
		json_t *frames = json_array();
		for (size_t f = 0; f < k->n_frames; f++)
			json_array_append_new(frames, json_string(k->frames[f]));
		json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s, s:o, s:s}", "kind",
				      complaint_kind_name(k->kind), "usec", (json_int_t)k->usec, "title",
				      k->title, "summary", k->summary, "function", k->function, "frames",
				      frames, "source", k->source);
		char *signature = kernel_complaint_signature(k);
		json_object_set_new(o, "signature", json_string(signature));
		free(signature);
		if (k->message)
			json_object_set_new(o, "message", json_string(k->message));
		if (k->order >= 0)
			json_object_set_new(o, "order", json_integer(k->order));
		if (k->gfp)
			json_object_set_new(o, "gfp", json_string(k->gfp));
		json_array_append_new(arr, o);
	}
	return arr;
}
