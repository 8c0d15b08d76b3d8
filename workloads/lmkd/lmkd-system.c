/* What the low-memory killer reads of the running system (lmkd-system.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lmkd-system.h"
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

bool lmkd_read_figures(struct lmkd_sample *s, long page_kb)
{
	char *mem = NULL, *vm = NULL;
	struct lmkd_parse_error err = { 0 };
	bool ok = false;
	if (wl_read_text_alloc("/proc/meminfo", &mem) <= 0 || wl_read_text_alloc("/proc/vmstat", &vm) <= 0)
		fprintf(stderr, "lmkd: cannot read /proc/meminfo or /proc/vmstat\n");
	else if (lmkd_parse_meminfo(mem, page_kb, &s->mi, &err) < 0)
		fprintf(stderr, "lmkd: /proc/meminfo: %s\n", err.why);
	else if (lmkd_parse_vmstat(vm, &s->vs, &err) < 0)
		fprintf(stderr, "lmkd: /proc/vmstat: %s\n", err.why);
	else
		ok = true;
	free(mem);
	free(vm);
	struct psi psi;
	if (ok && lmkd_read_psi(&psi))
		s->full_avg10 = psi.full_avg10;
	return ok;
}

int lmkd_read_watermarks(void *ctx, struct lmkd_watermarks *out)
{
	(void)ctx;
	char *text = NULL;
	struct lmkd_parse_error err = { 0 };
	int r = -1;
	if (wl_read_text_alloc("/proc/zoneinfo", &text) <= 0)
		fprintf(stderr, "lmkd: cannot read /proc/zoneinfo\n");
	else if (lmkd_parse_zoneinfo(text, out, &err) < 0)
		fprintf(stderr, "lmkd: /proc/zoneinfo:%d: %s\n", err.line, err.why);
	else
		r = 0;
	free(text);
	return r;
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

size_t lmkd_read_adjs(int *pids, int *adjs, size_t max)
{
	DIR *d = opendir("/proc");
	size_t n = 0;
	struct dirent *de;
	while (d && n < max && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char path[64], adj[32];
		int pid = atoi(de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
		if (wl_read_line(path, adj, sizeof(adj)) < 0)
			continue;
		pids[n] = pid;
		adjs[n++] = atoi(adj);
	}
	if (d)
		closedir(d);
	return n;
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
