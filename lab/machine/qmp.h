/*
 * A QMP client: QEMU's machine protocol on a Unix socket, one JSON object a
 * line. Only what the lab's snapshots need (vm-snapshot.h): connect, leave
 * capabilities negotiation, run a command and take its return, skipping
 * the asynchronous events that come between.
 */
#ifndef LAB_QMP_H
#define LAB_QMP_H

#include <jansson.h>

#include "common/util.h"

struct qmp {
	int fd;
	struct strbuf in;  /* what came and was not yet taken */
};

/* Connects to the socket NAME in the folder DIR (QEMU's -qmp unix:NAME,
 * relative to where it runs), retrying while QEMU starts, for at most
 * TIMEOUT host seconds; then reads the greeting and leaves negotiation. */
int qmp_connect(struct qmp *q, const char *dir, const char *name, double timeout, struct strbuf *err);
/* Runs COMMAND with ARGS (taken; NULL: none) and waits at most TIMEOUT for
 * its answer: 0 and its "return" in *RET (new reference; RET may be NULL),
 * or -1 with QEMU's error or the reason in ERR. */
int qmp_execute(struct qmp *q, const char *command, json_t *args, json_t **ret, double timeout,
		struct strbuf *err);
void qmp_close(struct qmp *q);

#endif
