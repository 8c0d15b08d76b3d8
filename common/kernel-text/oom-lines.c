/* The OOM killer's and the reaper's lines in the kernel log (oom-lines.h). */
#include "oom-lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "KEY:123kB" or "KEY=123" somewhere after FROM -> 123 */
static bool field_after(const char *from, const char *key, long long *v)
{
	const char *k = strstr(from, key);
	if (!k)
		return false;
	char *end;
	long long x = strtoll(k + strlen(key), &end, 10);
	if (end == k + strlen(key))
		return false;
	*v = x;
	return true;
}

/* "PID (COMM)" with END_MARK right after the comm's ')': comm may hold blanks
 * and parentheses, so the comm ends at the END_MARK. */
static bool pid_and_comm(const char *p, const char *end_mark, int *pid, char *comm, size_t size,
			 const char **after)
{
	char *end;
	long x = strtol(p, &end, 10);
	if (end == p || strncmp(end, " (", 2))
		return false;
	const char *c = end + 2;
	const char *close = strstr(c, end_mark);
	if (!close)
		return false;
	size_t n = (size_t)(close - c);
	if (n >= size)
		n = size - 1;
	memcpy(comm, c, n);
	comm[n] = '\0';
	*pid = (int)x;
	*after = close + strlen(end_mark);
	return true;
}

bool oom_parse_kill_line(const char *text, struct oom_kill_report *out)
{
	static const char marker[] = ": Killed process ";
	const char *k = strstr(text, marker);
	if (!k)
		return false;
	memset(out, 0, sizeof(*out));
	out->memcg_message = !strncmp(text, "Memory cgroup out of memory", 27);
	const char *rest;
	if (!pid_and_comm(k + strlen(marker), ") total-vm:", &out->pid, out->comm, sizeof(out->comm),
			  &rest))
		return false;
	long long adj = 0;
	out->total_vm_kb = strtoll(rest, NULL, 10);
	if (!field_after(rest, "anon-rss:", &out->anon_rss_kb) ||
	    !field_after(rest, "file-rss:", &out->file_rss_kb) ||
	    !field_after(rest, "shmem-rss:", &out->shmem_rss_kb) ||
	    !field_after(rest, "UID:", &out->uid) ||
	    !field_after(rest, "pgtables:", &out->pgtables_kb) ||
	    !field_after(rest, "oom_score_adj:", &adj))
		return false;
	out->oom_score_adj = (int)adj;
	return true;
}

static const char *constraint_name(const char *kernel_name, size_t len)
{
	static const struct { const char *kernel, *name; } map[] = {
		{ "CONSTRAINT_NONE", "global" },
		{ "CONSTRAINT_CPUSET", "cpuset" },
		{ "CONSTRAINT_MEMORY_POLICY", "mempolicy" },
		{ "CONSTRAINT_MEMCG", "memcg" },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].kernel) == len && !strncmp(kernel_name, map[i].kernel, len))
			return map[i].name;
	return NULL;
}

bool oom_parse_constraint_line(const char *text, struct oom_constraint_line *out)
{
	static const char prefix[] = "oom-kill:constraint=";
	if (strncmp(text, prefix, sizeof(prefix) - 1))
		return false;
	const char *c = text + strlen(prefix);
	const char *name = constraint_name(c, strcspn(c, ","));
	/* ",task=COMM,pid=N,uid=N" closes the line; the comm may hold a comma,
	 * so the last ",pid=" is the one. */
	const char *pid = NULL;
	for (const char *p = strstr(c, ",pid="); p; p = strstr(p + 1, ",pid="))
		pid = p;
	if (!name || !pid)
		return false;
	memset(out, 0, sizeof(*out));
	out->pid = atoi(pid + 5);
	snprintf(out->constraint, sizeof(out->constraint), "%s", name);
	return true;
}

bool oom_parse_reap_line(const char *text, struct oom_reap_report *out)
{
	static const char prefix[] = "oom_reaper: reaped process ";
	if (strncmp(text, prefix, sizeof(prefix) - 1))
		return false;
	memset(out, 0, sizeof(*out));
	const char *rest;
	return pid_and_comm(text + strlen(prefix), "), now ", &out->pid, out->comm,
			    sizeof(out->comm), &rest) &&
	       field_after(rest, "anon-rss:", &out->anon_rss_kb) &&
	       field_after(rest, "file-rss:", &out->file_rss_kb) &&
	       field_after(rest, "shmem-rss:", &out->shmem_rss_kb);
}

bool oom_parse_unable_to_reap_line(const char *text, int *pid)
{
	static const char prefix[] = "oom_reaper: unable to reap pid:";
	if (strncmp(text, prefix, sizeof(prefix) - 1))
		return false;
	char *end;
	long x = strtol(text + sizeof(prefix) - 1, &end, 10);
	if (end == text + sizeof(prefix) - 1)
		return false;
	*pid = (int)x;
	return true;
}
