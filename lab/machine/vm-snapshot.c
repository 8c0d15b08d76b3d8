/* A VM saved at the restore point and restored from it (vm-snapshot.h). */
#include "vm-snapshot.h"

#include "common/proto/protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define POLL_NS (5 * 1000 * 1000)
/* The guest is stopped while it is written: no reason to pace the stream
 * (QEMU's default is 128 MiB/s). */
#define SAVE_BANDWIDTH (16ULL << 30)

static void nap(void)
{
	struct timespec ts = { 0, POLL_NS };
	nanosleep(&ts, NULL);
}

/* Polls query-migrate until it says completed: 0, or -1 for failed,
 * cancelled or the deadline. */
static int wait_migration(struct qmp *q, double deadline, const char *what, struct strbuf *err)
{
	for (;;) {
		json_t *ret = NULL;
		if (qmp_execute(q, "query-migrate", NULL, &ret, deadline - now_monotonic() + 1, err) < 0)
			return -1;
		const char *status = json_string_value(json_object_get(ret, "status"));
		const char *why = json_string_value(json_object_get(ret, "error-desc"));
		bool done = status && !strcmp(status, "completed");
		bool failed = status && (!strcmp(status, "failed") || !strcmp(status, "cancelled"));
		if (failed)
			strbuf_addf(err, "%s: QEMU's migration %s%s%s", what, status, why ? ": " : "",
				    why ? why : "");
		json_decref(ret);
		if (done)
			return 0;
		if (failed)
			return -1;
		if (now_monotonic() > deadline) {
			strbuf_addf(err, "%s: not done in time", what);
			return -1;
		}
		nap();
	}
}

int vm_snapshot_save(struct qmp *q, const char *file, double timeout, struct strbuf *err)
{
	double deadline = now_monotonic() + timeout;
	if (qmp_execute(q, "stop", NULL, NULL, timeout, err) < 0)
		return -1;
	json_t *params = json_pack("{s:I}", "max-bandwidth", (json_int_t)SAVE_BANDWIDTH);
	if (qmp_execute(q, "migrate-set-parameters", params, NULL, timeout, err) < 0)
		return -1;
	/* QEMU runs the command through /bin/sh in its own folder */
	char *uri = xasprintf("exec:cat > %s", file);
	int rc = qmp_execute(q, "migrate", json_pack("{s:s}", "uri", uri), NULL, timeout, err);
	free(uri);
	if (rc < 0 || wait_migration(q, deadline, "saving the VM", err) < 0)
		return -1;
	return qmp_execute(q, "quit", NULL, NULL, timeout, err);
}

int vm_snapshot_find_slot(const char *path, long long *offset, struct strbuf *err)
{
	unsigned char pattern[RESTORE_SLOT_PAGE];
	restore_slot_fill(pattern);
	FILE *f = fopen(path, "rb");
	if (!f) {
		strbuf_addf(err, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* chunks that overlap by the match's length, so none is missed at a seam */
	enum { CHUNK = 4 << 20 };
	unsigned char *buf = xmalloc(CHUNK + RESTORE_SLOT_MATCH);
	size_t kept = 0, found = 0;
	long long at = 0, base = 0;
	for (;;) {
		size_t n = fread(buf + kept, 1, CHUNK, f);
		size_t len = kept + n;
		for (unsigned char *p = buf; len >= RESTORE_SLOT_MATCH && p + RESTORE_SLOT_MATCH <= buf + len;) {
			p = memmem(p, (size_t)(buf + len - p), pattern, RESTORE_SLOT_MATCH);
			if (!p)
				break;
			if (!found++)
				at = base + (p - buf);
			p++;
		}
		if (n == 0)
			break;
		kept = len < RESTORE_SLOT_MATCH - 1 ? len : RESTORE_SLOT_MATCH - 1;
		memmove(buf, buf + len - kept, kept);
		base += (long long)(len - kept);
	}
	bool bad = ferror(f);
	fclose(f);
	free(buf);
	if (bad)
		strbuf_addf(err, "cannot read %s", path);
	else if (found != 1)
		strbuf_addf(err, "%s: the agent's page for the restore's line is there %zu times, "
			    "not once", path, found);
	else
		*offset = at;
	return bad || found != 1 ? -1 : 0;
}

char *vm_snapshot_load_command(const char *file, long long offset, const char *line)
{
	/* the file up to the page, the line, NULs to the slot's end, the rest:
	 * QEMU runs it through /bin/sh; FILE is a plain path (the lab refuses
	 * others), LINE letters, digits and "=-_. " (restore_line_format) */
	size_t pad = RESTORE_SLOT_LINE - strlen(line);
	return xasprintf("exec:{ head -c %lld '%s' && printf '%%s' '%s' && head -c %zu /dev/zero && "
			 "tail -c +%lld '%s'; }", offset, file, line, pad,
			 offset + RESTORE_SLOT_LINE + 1, file);
}

int vm_snapshot_restore(struct qmp *q, const char *file, long long offset, const char *line,
			double timeout, struct strbuf *err)
{
	double deadline = now_monotonic() + timeout;
	char *uri = vm_snapshot_load_command(file, offset, line);
	int rc = qmp_execute(q, "migrate-incoming", json_pack("{s:s}", "uri", uri), NULL, timeout, err);
	free(uri);
	if (rc < 0 || wait_migration(q, deadline, "loading the VM", err) < 0)
		return -1;
	return qmp_execute(q, "cont", NULL, NULL, timeout, err);
}
