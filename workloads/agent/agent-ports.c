/* The agent's channels to the host: virtio-serial ports found by name. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

static const char *const names[PORT_COUNT] = { "ctl", "out", "kmsg", "perf", "files" };
static int fds[PORT_COUNT] = { -1, -1, -1, -1, -1 };

const char *port_name(enum agent_port port)
{
	return names[port];
}

int port_fd(enum agent_port port)
{
	/* Without its port a channel's data goes to the console rather than nowhere. */
	return fds[port] >= 0 ? fds[port] : 1;
}

void ports_open(void)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[512], name[64] = "";
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		for (int p = 0; p < PORT_COUNT; p++) {
			if (strcmp(name, names[p]))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			fds[p] = open(path, O_WRONLY | O_CLOEXEC);
			if (fds[p] < 0)
				agent_log("cannot open port %s (%s)", name, path);
		}
	}
	if (d)
		closedir(d);
	for (int p = 0; p < PORT_COUNT; p++)
		if (fds[p] < 0)
			agent_log("no virtio port named %s", names[p]);
}

static void write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n <= 0)
			return;
		data += n;
		len -= (size_t)n;
	}
}

void send_buffer(const char *record_name, const char *data, size_t len)
{
	char header[256];
	int n = snprintf(header, sizeof(header), "oomlab-file %s %zu\n", record_name, len);
	int fd = port_fd(PORT_FILES);
	write_all(fd, header, (size_t)n);
	write_all(fd, data, len);
	write_all(fd, "\n", 1);
}

void send_file(const char *record_name, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	send_buffer(record_name, buf, len);
	free(buf);
}
