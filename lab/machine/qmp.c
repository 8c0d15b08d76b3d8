/* A QMP client (qmp.h). */
#include "qmp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A Unix socket's path for NAME in DIR that fits sockaddr_un however long
 * DIR is: through DIRFD, an open descriptor of DIR ("/proc/self/fd/N/NAME"). */
static char *unix_socket_path(int dirfd, const char *name)
{
	return xasprintf("/proc/self/fd/%d/%s", dirfd, name);
}

/* Connects once to NAME in DIR: the socket's fd, or -1 with errno. */
static int connect_once(const char *dir, const char *name)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	char *path = unix_socket_path(dirfd, name);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = -1;
	if (strlen(path) < sizeof(addr.sun_path)) {
		memcpy(addr.sun_path, path, strlen(path) + 1);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
			int saved = errno;
			close(fd);
			fd = -1;
			errno = saved;
		}
	} else {
		errno = ENAMETOOLONG;
	}
	int saved = errno;
	free(path);
	close(dirfd);
	errno = saved;
	return fd;
}

/* The next whole line as JSON, waiting until DEADLINE (monotonic); NULL
 * with ERR at the deadline, on EOF or on a line that is not JSON. */
static json_t *read_message(struct qmp *q, double deadline, struct strbuf *err)
{
	for (;;) {
		char *nl = q->in.len ? memchr(q->in.buf, '\n', q->in.len) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - q->in.buf);
			json_error_t jerr;
			json_t *obj = json_loadb(q->in.buf, len, 0, &jerr);
			q->in.len -= len + 1;
			memmove(q->in.buf, nl + 1, q->in.len);
			q->in.buf[q->in.len] = '\0';
			if (!obj)
				strbuf_addf(err, "QMP sent a line that is not JSON: %s", jerr.text);
			return obj;
		}
		double left = deadline - now_monotonic();
		if (left <= 0) {
			strbuf_addstr(err, "QMP did not answer in time");
			return NULL;
		}
		struct pollfd p = { .fd = q->fd, .events = POLLIN };
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		char buf[4096];
		ssize_t n = read(q->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			strbuf_addstr(err, "QEMU closed its QMP socket");
			return NULL;
		}
		strbuf_add(&q->in, buf, (size_t)n);
	}
}

static bool send_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		data += n;
		len -= (size_t)n;
	}
	return true;
}

int qmp_execute(struct qmp *q, const char *command, json_t *args, json_t **ret, double timeout,
		struct strbuf *err)
{
	json_t *msg = json_pack("{s:s}", "execute", command);
	if (args)
		json_object_set_new(msg, "arguments", args);
	char *text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	struct strbuf line = STRBUF_INIT;
	strbuf_addf(&line, "%s\n", text);
	free(text);
	bool sent = send_all(q->fd, line.buf, line.len);
	strbuf_release(&line);
	if (!sent) {
		strbuf_addf(err, "QMP %s: cannot write: %s", command, strerror(errno));
		return -1;
	}
	double deadline = now_monotonic() + timeout;
	for (;;) {
		json_t *obj = read_message(q, deadline, err);
		if (!obj) {
			struct strbuf why = STRBUF_INIT;
			strbuf_addf(&why, "QMP %s: %s", command, strbuf_str(err));
			strbuf_reset(err);
			strbuf_addstr(err, why.buf);
			strbuf_release(&why);
			return -1;
		}
		json_t *r = json_object_get(obj, "return");
		json_t *e = json_object_get(obj, "error");
		if (r) {
			if (ret)
				*ret = json_incref(r);
			json_decref(obj);
			return 0;
		}
		if (e) {
			const char *desc = json_string_value(json_object_get(e, "desc"));
			strbuf_addf(err, "QMP %s: %s", command, desc ? desc : "an error without a description");
			json_decref(obj);
			return -1;
		}
		json_decref(obj); /* an event */
	}
}

int qmp_connect(struct qmp *q, const char *dir, const char *name, double timeout, struct strbuf *err)
{
	*q = (struct qmp){ .fd = -1, .in = STRBUF_INIT };
	double deadline = now_monotonic() + timeout;
	for (;;) {
		q->fd = connect_once(dir, name);
		if (q->fd >= 0)
			break;
		if (errno != ENOENT && errno != ECONNREFUSED) {
			strbuf_addf(err, "cannot connect to %s/%s: %s", dir, name, strerror(errno));
			return -1;
		}
		if (now_monotonic() > deadline) {
			strbuf_addf(err, "QEMU's QMP socket %s/%s did not appear in %.0f s", dir, name, timeout);
			return -1;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	json_t *greeting = read_message(q, deadline, err);
	if (!greeting || !json_object_get(greeting, "QMP")) {
		if (greeting)
			strbuf_addstr(err, "QEMU's QMP socket sent no greeting");
		json_decref(greeting);
		qmp_close(q);
		return -1;
	}
	json_decref(greeting);
	if (qmp_execute(q, "qmp_capabilities", NULL, NULL, deadline - now_monotonic() + 1, err) < 0) {
		qmp_close(q);
		return -1;
	}
	return 0;
}

void qmp_close(struct qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	strbuf_release(&q->in);
}
