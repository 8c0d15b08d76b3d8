/* What the low-memory killer reads of the running system (lmkd.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lmkd.h"
#include "common/kernel-text/kv.h"
#include "common/kernel-text/psi.h"
#include "workloads/lib/report.h"
#include "workloads/lib/sysinfo.h"

/* PF_KTHREAD (include/linux/sched.h): /proc/PID/stat's flags field */
#define PF_KTHREAD_FLAG 0x00200000UL

int64_t lmkd_now_ms(void)
{
	return (int64_t)(mono_ns() / 1000000);
}

bool lmkd_read_psi(struct psi *out)
{
	char text[512];
	return wl_read_text("/proc/pressure/memory", text, sizeof(text)) > 0 && psi_parse(text, out);
}

bool lmkd_read_swap(long long *total_kb, long long *free_kb)
{
	char *text = NULL;
	bool ok = wl_read_text_alloc("/proc/meminfo", &text) > 0 && kv_find(text, "SwapTotal", total_kb) &&
		  kv_find(text, "SwapFree", free_kb);
	free(text);
	return ok;
}

bool lmkd_read_file_lru(long long *refaults, long long *file_lru)
{
	char *text = NULL;
	long long active, inactive;
	bool ok = wl_read_text_alloc("/proc/vmstat", &text) > 0 &&
		  kv_find(text, "workingset_refault_file", refaults) &&
		  kv_find(text, "nr_active_file", &active) && kv_find(text, "nr_inactive_file", &inactive);
	free(text);
	if (ok)
		*file_lru = active + inactive;
	return ok;
}

long long lmkd_read_swapped_kb(int pid)
{
	char path[64], text[4096];
	long long kb = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (wl_read_text(path, text, sizeof(text)) > 0 && kv_find(text, "VmSwap", &kb))
		return kb;
	return 0;
}

/* /proc/PID/stat: "pid (comm) state ppid ... flags(9) ... rss(24) ..."; the
 * comm ends at the last ')'. */
static bool read_stat(int pid, struct lmkd_proc *p)
{
	char path[64], text[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (wl_read_text(path, text, sizeof(text)) <= 0)
		return false;
	char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (!open || !close || close < open)
		return false;
	size_t n = (size_t)(close - open - 1);
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	/* fields from 3 (state) on */
	char *save = NULL;
	unsigned long flags = 0;
	long long rss_pages = 0;
	int field = 3;
	for (char *tok = strtok_r(close + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3 && (*tok == 'Z' || *tok == 'X'))
			return false;            /* dead already: nothing to free */
		if (field == 9)
			flags = strtoul(tok, NULL, 10);
		if (field == 24) {
			rss_pages = strtoll(tok, NULL, 10);
			break;
		}
	}
	p->kernel_thread = (flags & PF_KTHREAD_FLAG) != 0;
	p->rss_kb = rss_pages * (long long)(sysconf(_SC_PAGESIZE) / 1024);
	return true;
}

size_t lmkd_read_procs(struct lmkd_proc *out, size_t max)
{
	DIR *d = opendir("/proc");
	size_t n = 0;
	struct dirent *de;
	while (d && n < max && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		struct lmkd_proc p = { .pid = atoi(de->d_name) };
		char path[64], adj[32];
		snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", p.pid);
		if (wl_read_line(path, adj, sizeof(adj)) < 0 || !read_stat(p.pid, &p))
			continue;
		p.adj = atoi(adj);
		out[n++] = p;
	}
	if (d)
		closedir(d);
	return n;
}
