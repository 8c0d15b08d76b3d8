/* The guest low-memory killer's kernel log lines (lmkd-lines.h). */
#include "lmkd-lines.h"

#include <stdio.h>
#include <string.h>

#define KILL_HEAD  LMKD_LINE_PREFIX "Kill '"
#define COMM_END   "' ("
#define PID_END    "), oom_score_adj "

static const char *const reason_names[LMKD_REASON_COUNT] = {
	[LMKD_NO_KILL] = "NONE",
	[LMKD_PRESSURE_AFTER_KILL] = "PRESSURE_AFTER_KILL",
	[LMKD_NOT_RESPONDING] = "NOT_RESPONDING",
	[LMKD_LOW_SWAP_AND_THRASHING] = "LOW_SWAP_AND_THRASHING",
	[LMKD_LOW_MEM_AND_SWAP] = "LOW_MEM_AND_SWAP",
	[LMKD_LOW_MEM_AND_SWAP_UTIL] = "LOW_MEM_AND_SWAP_UTIL",
	[LMKD_LOW_MEM_AND_THRASHING] = "LOW_MEM_AND_THRASHING",
	[LMKD_DIRECT_RECL_AND_THRASHING] = "DIRECT_RECL_AND_THRASHING",
	[LMKD_DIRECT_RECL_STUCK] = "DIRECT_RECL_STUCK",
	[LMKD_LOW_FILECACHE_AFTER_THRASHING] = "LOW_FILECACHE_AFTER_THRASHING",
	[LMKD_LOW_MEM] = "LOW_MEM",
};

const char *lmkd_reason_name(enum lmkd_reason r)
{
	return (unsigned)r < LMKD_REASON_COUNT ? reason_names[r] : NULL;
}

int lmkd_reason_of_name(const char *name)
{
	for (int r = 0; r < LMKD_REASON_COUNT; r++)
		if (!strcmp(reason_names[r], name))
			return r;
	return -1;
}

#define MEM_FIELDS "; free %lldkB, watermarks min %lldkB low %lldkB high %lldkB"

int lmkd_format_kill(char *buf, size_t size, const struct lmkd_kill_line *k)
{
	int n = snprintf(buf, size,
			 KILL_HEAD "%s" COMM_END "%d" PID_END "%d (%s) to free %lldkB rss, %lldkB swap; "
			 "reason: %s; psi some %.2f full %.2f; t_mono_ns %llu, sent by %llu",
			 k->comm, k->pid, k->oom_score_adj, k->tier, k->rss_kb, k->swap_kb, k->reason, k->psi_some,
			 k->psi_full, k->t_mono_ns, k->t_sent_ns);
	if (n < 0 || !k->have_mem)
		return n;
	size_t at = (size_t)n < size ? (size_t)n : (size > 0 ? size - 1 : 0);
	int m = snprintf(size ? buf + at : NULL, size ? size - at : 0, MEM_FIELDS, k->free_kb, k->wmark_min_kb,
			 k->wmark_low_kb, k->wmark_high_kb);
	return m < 0 ? m : n + m;
}

int lmkd_format_reap(char *buf, size_t size, const struct lmkd_reap_line *r)
{
	return snprintf(buf, size, LMKD_LINE_PREFIX "Process %d was %sreaped in %lldms", r->pid,
			r->reaped ? "" : "not ", r->ms);
}

int lmkd_format_event(char *buf, size_t size, const struct lmkd_event_line *e)
{
	return snprintf(buf, size,
			LMKD_LINE_PREFIX "PSI %s event: stall %lldms in the last %lldms (threshold %lldms), "
			"%lldms after crossing it",
			e->kind, e->stall_ms, e->window_ms, e->threshold_ms, e->after_crossing_ms);
}

/* The last occurrence of NEEDLE in [from, to). */
static const char *last_before(const char *from, const char *to, const char *needle)
{
	const char *found = NULL;
	size_t n = strlen(needle);
	for (const char *p = from; p + n <= to; p++)
		if (!memcmp(p, needle, n))
			found = p;
	return found;
}

bool lmkd_parse_kill(const char *text, struct lmkd_kill_line *out)
{
	if (strncmp(text, KILL_HEAD, strlen(KILL_HEAD)))
		return false;
	const char *comm = text + strlen(KILL_HEAD);
	/* the comm may hold "), oom_score_adj " too: the fields after it are
	 * fixed, so the last one is the field's */
	const char *pid_end = last_before(comm, comm + strlen(comm), PID_END);
	const char *comm_end = pid_end ? last_before(comm, pid_end, COMM_END) : NULL;
	if (!comm_end)
		return false;
	memset(out, 0, sizeof(*out));
	size_t n = (size_t)(comm_end - comm);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, comm, n);
	int used = 0;
	if (sscanf(comm_end + strlen(COMM_END), "%d%n", &out->pid, &used) != 1 ||
	    comm_end + strlen(COMM_END) + used != pid_end)
		return false;
	used = 0;
	if (sscanf(pid_end + strlen(PID_END),
		   "%d (%15[a-z]) to free %lldkB rss, %lldkB swap; reason: %31[A-Za-z_-]; psi some %lf full %lf; "
		   "t_mono_ns %llu%n",
		   &out->oom_score_adj, out->tier, &out->rss_kb, &out->swap_kb, out->reason, &out->psi_some,
		   &out->psi_full, &out->t_mono_ns, &used) != 8 || !used)
		return false;
	const char *rest = pid_end + strlen(PID_END) + (size_t)used;
	if (!*rest)
		return true;
	used = 0;
	if (sscanf(rest, ", sent by %llu%n", &out->t_sent_ns, &used) != 1 || !used)
		return false;
	rest += used;
	if (!*rest)
		return true;
	used = 0;
	if (sscanf(rest, MEM_FIELDS "%n", &out->free_kb, &out->wmark_min_kb, &out->wmark_low_kb,
		   &out->wmark_high_kb, &used) != 4 || !used)
		return false;
	out->have_mem = true;
	return rest[used] == '\0';
}

bool lmkd_parse_reap(const char *text, struct lmkd_reap_line *out)
{
	memset(out, 0, sizeof(*out));
	int used = 0;
	if (sscanf(text, LMKD_LINE_PREFIX "Process %d was reaped in %lldms%n", &out->pid, &out->ms,
		   &used) == 2 && used && !text[used]) {
		out->reaped = true;
		return true;
	}
	used = 0;
	return sscanf(text, LMKD_LINE_PREFIX "Process %d was not reaped in %lldms%n", &out->pid,
		      &out->ms, &used) == 2 && used && !text[used];
}

bool lmkd_parse_event(const char *text, struct lmkd_event_line *out)
{
	memset(out, 0, sizeof(*out));
	int used = 0;
	if (sscanf(text,
		   LMKD_LINE_PREFIX "PSI %7[a-z] event: stall %lldms in the last %lldms (threshold %lldms), "
		   "%lldms after crossing it%n",
		   out->kind, &out->stall_ms, &out->window_ms, &out->threshold_ms,
		   &out->after_crossing_ms, &used) != 5 || !used || text[used])
		return false;
	return !strcmp(out->kind, "some") || !strcmp(out->kind, "full");
}
