/* Reading a VM's channels (vm-channel.h). */
#include "vm-channel.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/jsonl.h"
#include "common/proto/protocol.h"

void vm_channel_open(struct vm_channel *c, const char *dir, const char *name, bool keep)
{
	char *path = xasprintf("%s/%s", dir, name);
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
	c->keep = keep;
	free(path);
}

size_t vm_channel_poll(struct vm_channel *c, void (*sink)(const char *, size_t))
{
	if (c->fd < 0)
		return 0;
	char buf[65536];
	size_t total = 0;
	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		if (c->keep)
			strbuf_add(&c->data, buf, (size_t)n);
		if (sink)
			sink(buf, (size_t)n);
	}
	c->size += total;
	return total;
}

void vm_channel_close(struct vm_channel *c)
{
	if (c->fd >= 0)
		close(c->fd);
	strbuf_release(&c->data);
}

char *tail_lines(const char *text, size_t len, int n)
{
	size_t i = len;
	int seen = 0;
	if (i && text[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (text[i - 1] == '\n' && ++seen == n)
			break;
		i--;
	}
	return xstrndup(text + i, len - i);
}


void vm_control_parse(struct vm_control *ctl, struct strbuf *data)
{
	for (;;) {
		char *start = data->buf ? data->buf + ctl->parsed : NULL;
		char *nl = start ? memchr(start, '\n', data->len - ctl->parsed) : NULL;
		if (!nl)
			return;
		json_t *obj = jsonl_record(start, (size_t)(nl - start));
		ctl->parsed = (size_t)(nl - data->buf) + 1;
		if (!obj)
			continue;
		const char *type = jsonl_type(obj);
		if (type && !strcmp(type, CTL_HELLO)) {
			const char *machine = json_string_value(json_object_get(obj, HELLO_MACHINE));
			snprintf(ctl->machine, sizeof(ctl->machine), "%s", machine ? machine : "");
			ctl->page_size = (long)json_integer_value(json_object_get(obj, HELLO_PAGE_SIZE));
		} else if (type && !strcmp(type, CTL_READY)) {
			ctl->ready = true;
			ctl->ready_uptime = json_number_value(json_object_get(obj, "uptime"));
		} else if (type && !strcmp(type, CTL_RESTORE_POINT)) {
			ctl->restore_point = true;
		} else if (type && !strcmp(type, CTL_EXIT)) {
			ctl->exited = true;
			ctl->exit_status = (int)json_integer_value(json_object_get(obj, "status"));
			const char *cs = json_string_value(json_object_get(obj, EXIT_CLOCKSOURCE));
			snprintf(ctl->clocksource, sizeof(ctl->clocksource), "%s", cs ? cs : "");
		}
		json_decref(obj);
	}
}

/*
 * Searches only what arrived since the last look (plus the mark's length, in
 * case it straddles two reads): the watch loop runs twenty times a second
 * and a kernel log under OOM grows to megabytes.
 */
bool vm_channel_has_panic(struct vm_channel *c)
{
	if (c->panic || !c->data.len)
		return c->panic;
	size_t overlap = sizeof(VM_PANIC_MARK) - 1;
	size_t from = c->scanned > overlap ? c->scanned - overlap : 0;
	c->panic = memmem(c->data.buf + from, c->data.len - from, VM_PANIC_MARK, overlap) != NULL;
	c->scanned = c->data.len;
	return c->panic;
}

/*
 * The panic text: the lines before the panic line (what led to it) and the
 * lines after it (the stack that BUGVERBOSE prints, the end marker).
 */
char *vm_panic_detail(struct vm_channel *console, struct vm_channel *kmsg)
{
	const struct strbuf *src = vm_channel_has_panic(console) ? &console->data : &kmsg->data;
	const char *mark = memmem(src->buf, src->len, VM_PANIC_MARK, sizeof(VM_PANIC_MARK) - 1);
	const char *end = mark;
	for (int lines = 0; end && lines < VM_DETAIL_LINES; lines++) {
		end = memchr(end, '\n', src->len - (size_t)(end - src->buf));
		if (end)
			end++;
	}
	size_t upto = end ? (size_t)(end - src->buf) : src->len;
	return tail_lines(src->buf, upto, 2 * VM_DETAIL_LINES);
}

char *vm_console_tail(const struct strbuf *console)
{
	return console->len ? tail_lines(console->buf, console->len, VM_DETAIL_LINES)
			    : xstrdup("(the console stayed empty)");
}

