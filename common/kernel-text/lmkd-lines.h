/* lmkd-lines.h - what the guest's low-memory killer (workloads/lmkd/)
 * writes to /dev/kmsg, in the words of Android's lmkd where it has them,
 * so the lines land in kmsg.log time-stamped among the kernel's own OOM
 * lines. The killer formats them with these functions and the lab's
 * metrics parse them back with these (one definition, tested round trip):
 *
 *   "lmkd: Kill 'app-03' (1234), oom_score_adj 900 (cached) to free 45678kB rss,
 *        1024kB swap; reason: LOW_MEM; psi some 12.34 full 3.21; t_mono_ns 19355302123,
 *        sent by 19355302987; free 4012kB, watermarks min 3924kB low 4436kB high 4948kB"
 *   "lmkd: Process 1234 was reaped in 7ms"
 *   "lmkd: Process 1234 was not reaped in 1000ms"
 *   "lmkd: PSI full event: stall 812ms in the last 1000ms (threshold 700ms), 40ms after crossing it"
 *
 * A kill names the victim's comm (which may hold quotes and parentheses:
 * it ends at the last "' (" before "), oom_score_adj "), pid,
 * oom_score_adj and its tier (common/proto/app-tiers.h's name), its RSS
 * and its swapped-out memory (zram's share) when chosen, why (one of
 * Android lmkd's kill reasons, enum lmkd_reason below; an older killer's
 * lines say psi-partial, swap-low, thrashing or psi-complete), PSI's memory avg10 (%) at the kill, and the killer's
 * CLOCK_MONOTONIC just before it sent the SIGKILL and again just after
 * the send returned (the clock of the workloads' events and the trace; the
 * printk time stamp is the kernel's local_clock): the trace's SIGKILL lies
 * between the two, whatever the time between them. Last, the free memory
 * the decision saw (MemFree less CmaFree) and the zone watermark sums it
 * held it against (lmkd's "low watermark is breached" with its figures;
 * lmkd's killinfo record carries free memory too). A line without "sent
 * by" (an older killer's) reads with t_sent_ns 0; one without the free
 * memory with have_mem false. A reap line follows each kill: the time from the SIGKILL until the
 * victim was gone (its pidfd polled readable after process_mrelease), or
 * that it was still there when the killer stopped waiting. An event line
 * is each PSI trigger that woke the killer: the stall it saw over the
 * window before the event (from its own samples of the stall totals),
 * the trigger's threshold and window, and how long after the stall first
 * reached the threshold the event came (-1: never seen to reach it).
 */
#ifndef OOMLAB_LMKD_LINES_H
#define OOMLAB_LMKD_LINES_H

#include <stdbool.h>
#include <stddef.h>

#define LMKD_LINE_PREFIX "lmkd: "

/* Why a kill was made: Android lmkd's kill reasons (its statslog.h enum
 * kill_reasons), in the order its decision tries them
 * (workloads/lmkd/lmkd-policy.h); the metrics count kills by them. */
enum lmkd_reason {
	LMKD_NO_KILL,
	LMKD_PRESSURE_AFTER_KILL,
	LMKD_NOT_RESPONDING,
	LMKD_LOW_SWAP_AND_THRASHING,
	LMKD_LOW_MEM_AND_SWAP,
	LMKD_LOW_MEM_AND_SWAP_UTIL,
	LMKD_LOW_MEM_AND_THRASHING,
	LMKD_DIRECT_RECL_AND_THRASHING,
	LMKD_DIRECT_RECL_STUCK,
	LMKD_LOW_FILECACHE_AFTER_THRASHING,
	LMKD_LOW_MEM,
	LMKD_REASON_COUNT
};

/* "LOW_MEM", ...; "NONE" for LMKD_NO_KILL; NULL out of range. */
const char *lmkd_reason_name(enum lmkd_reason r);
/* The reason named NAME, or -1 (an older killer's "psi-partial", say). */
int lmkd_reason_of_name(const char *name);

struct lmkd_kill_line {
	int pid;
	char comm[64];
	int oom_score_adj;
	char tier[16];
	long long rss_kb;
	long long swap_kb;
	char reason[32];                /* letters, '_' and '-' */
	double psi_some, psi_full;      /* avg10, % */
	unsigned long long t_mono_ns;   /* CLOCK_MONOTONIC just before the SIGKILL */
	unsigned long long t_sent_ns;   /* ... and just after it was sent; 0: not said */
	/* what the decision compared: free memory (MemFree - CmaFree) and the
	 * zone watermark sums (lmkd-procfs.h), kB; have_mem false: not said */
	bool have_mem;
	long long free_kb, wmark_min_kb, wmark_low_kb, wmark_high_kb;
};

struct lmkd_reap_line {
	int pid;
	bool reaped;                    /* false: still there after ms */
	long long ms;
};

struct lmkd_event_line {
	char kind[8];                   /* "some" or "full" */
	long long stall_ms, window_ms, threshold_ms;
	long long after_crossing_ms;    /* -1: not seen to cross */
};

/* The line's text, without a newline; the length it needs, as snprintf. */
int lmkd_format_kill(char *buf, size_t size, const struct lmkd_kill_line *k);
int lmkd_format_reap(char *buf, size_t size, const struct lmkd_reap_line *r);
int lmkd_format_event(char *buf, size_t size, const struct lmkd_event_line *e);

/* One kmsg record's text each; false when it is not such a line. */
bool lmkd_parse_kill(const char *text, struct lmkd_kill_line *out);
bool lmkd_parse_reap(const char *text, struct lmkd_reap_line *out);
bool lmkd_parse_event(const char *text, struct lmkd_event_line *out);

#endif
