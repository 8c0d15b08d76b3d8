/* What the guest's perf records, and decoding it on the host. */
#include "perf-events.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/proto/app-events.h"
#include "common/run-command.h"

const char *const default_perf_events[] = {
	"oom:mark_victim",
	"oom:wake_reaper",
	"oom:start_task_reaping",
	"oom:finish_task_reaping",
	"oom:skip_task_reaping",
	"oom:compact_retry",
	"vmscan:mm_vmscan_direct_reclaim_begin",
	"vmscan:mm_vmscan_direct_reclaim_end",
	"vmscan:mm_vmscan_memcg_reclaim_begin",
	"vmscan:mm_vmscan_memcg_reclaim_end",
	"compaction:mm_compaction_begin",
	"compaction:mm_compaction_end",
	"compaction:mm_compaction_try_to_compact_pages",
	/* what a direct compaction attempt came to: with these the trace counts
	 * the stalls vmstat's compact_stall counts (analysis/trace/window.h) */
	"compaction:mm_compaction_suitable",
	"compaction:mm_compaction_deferred",
	"kmem:mm_page_alloc_extfrag",
	/* Unfiltered, every page allocation floods a TCG guest; high orders are the story. */
	"kmem:mm_page_alloc if order > 0",
	"binder:binder_alloc_page_start",
	"binder:binder_alloc_page_end",
	"binder:binder_unmap_user_start",
	"binder:binder_unmap_user_end",
	"sched:sched_process_exit",
	/* every SIGKILL, with its sender as the sample's comm: the guest's
	 * userspace killers' kills counted from the trace (kill_signals.h) */
	"signal:signal_generate if sig == 9",
	/* the apps' cold starts: each names itself app-NN. Filtered, because
	 * every exec renames its task too (spawn's thousands of /bin/true). */
	"task:task_rename if newcomm ~ \"" APP_COMM_PREFIX "*\"",
	NULL,
};

void perf_default_events(struct strlist *out)
{
	for (const char *const *e = default_perf_events; *e; e++)
		strlist_push(out, *e);
}

static bool valid_name_part(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

const char *perf_event_check(const char *spec)
{
	const char *sep = strstr(spec, " if ");
	size_t len = sep ? (size_t)(sep - spec) : strlen(spec);
	const char *colon = memchr(spec, ':', len);
	if (!colon)
		return "an event is written group:name, such as oom:mark_victim";
	if (!valid_name_part(spec, (size_t)(colon - spec)) ||
	    !valid_name_part(colon + 1, len - (size_t)(colon - spec) - 1))
		return "event group and name use letters, digits and '_'";
	if (sep && !sep[4 + strspn(sep + 4, " \t")])
		return "'if' needs a filter, such as: kmem:mm_page_alloc if order > 0";
	return NULL;
}

int perf_events_to_args(const struct strlist *events, struct strlist *args, struct strbuf *err)
{
	for (size_t i = 0; i < events->n; i++) {
		const char *spec = events->items[i];
		const char *why = perf_event_check(spec);
		if (why) {
			strbuf_addf(err, "perf event '%s': %s", spec, why);
			return -1;
		}
		const char *sep = strstr(spec, " if ");
		strlist_push(args, "-e");
		strlist_push_owned(args, sep ? xstrndup(spec, (size_t)(sep - spec)) : xstrdup(spec));
		if (sep) {
			strlist_push(args, "--filter");
			strlist_push(args, sep + 4);
		}
	}
	return 0;
}

bool perf_recorded(const char *dir)
{
	char *path = xasprintf("%s/perf.data", dir);
	struct stat st;
	bool any = stat(path, &st) == 0 && st.st_size > 0;
	free(path);
	return any;
}

int perf_decode(const char *dir, struct strbuf *err)
{
	char *data = xasprintf("%s/perf.data", dir);
	char *script = xasprintf("%s/perf.script", dir);
	char *log = xasprintf("%s/perf.script.stderr", dir);
	struct stat st;
	int rc = -1;
	if (stat(data, &st) < 0 || st.st_size == 0) {
		strbuf_addf(err, "%s: nothing was recorded", data);
	} else {
		/*
		 * The fields fixed here are the parsers' contract; --show-lost-events
		 * puts perf's own LOST records in the text so they are counted. A
		 * recording cut off by a panic makes perf complain on stderr (kept in
		 * perf.script.stderr) but still decodes every event before the cut.
		 */
		const char *argv[] = { "perf", "script", "--input", data, "--ns", "--show-lost-events",
				       "--fields", "comm,pid,tid,cpu,time,event,trace", NULL };
		unlink(script);
		struct child_process cp = { .argv = argv, .out_path = script, .err_path = log };
		int status = run_command(&cp);
		/* Status 0 with no lines: the events never fired, which is a result too. */
		if (status == 0 || (stat(script, &st) == 0 && st.st_size > 0))
			rc = 0;
		else
			strbuf_addf(err, "perf script could not decode %s (status %d; see %s)", data, status,
				    log);
	}
	free(data);
	free(script);
	free(log);
	return rc;
}
