/* A VM saved at the restore point and restored from it (vm-snapshot.h). */
#include "vm-snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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
		char *said = xstrdup(status ? status : "");
		const char *why = json_string_value(json_object_get(ret, "error-desc"));
		if (!strcmp(said, "failed") || !strcmp(said, "cancelled"))
			strbuf_addf(err, "%s: QEMU's migration %s%s%s", what, said, why ? ": " : "",
				    why ? why : "");
		json_decref(ret);
		bool done = !strcmp(said, "completed"), bad = err->len > 0;
		free(said);
		if (done)
			return 0;
		if (bad)
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

int vm_snapshot_trial_port(const char *dir, double deadline, struct strbuf *err)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		strbuf_addf(err, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	char *path = unix_socket_path(dirfd, VM_TRIAL_SOCKET);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	free(path);
	int fd = -1;
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
			break;
		close(fd);
		fd = -1;
		if (now_monotonic() > deadline)
			break;
		nap();
	}
	if (fd < 0)
		strbuf_addf(err, "cannot connect to the trial port's socket %s/%s: %s", dir,
			    VM_TRIAL_SOCKET, strerror(errno));
	close(dirfd);
	return fd;
}

int vm_snapshot_restore(struct qmp *q, const char *dir, const char *file, const char *line,
			double timeout, int *trial_fd, struct strbuf *err)
{
	double deadline = now_monotonic() + timeout;
	*trial_fd = -1;
	char *uri = xasprintf("exec:cat %s", file);
	int rc = qmp_execute(q, "migrate-incoming", json_pack("{s:s}", "uri", uri), NULL, timeout, err);
	free(uri);
	if (rc < 0 || wait_migration(q, deadline, "loading the VM", err) < 0)
		return -1;
	*trial_fd = vm_snapshot_trial_port(dir, deadline, err);
	if (*trial_fd < 0)
		return -1;
	size_t len = strlen(line);
	if (send(*trial_fd, line, len, MSG_NOSIGNAL) != (ssize_t)len) {
		strbuf_addf(err, "cannot write the trial line: %s", strerror(errno));
		return -1;
	}
	/*
	 * QEMU takes the line only once the guest runs (tried: nothing of it was
	 * read in 2 s while the restored VM stood paused), so the guest meets it
	 * at an instruction count the host's timing decides: the restore test
	 * measures how near a replay comes (docs/CLOCKS.md).
	 */
	return qmp_execute(q, "cont", NULL, NULL, timeout, err);
}
