/* Running one VM to its end, with watchdogs, and classifying the outcome. */
#include "vm.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qemu.h"
#include "common/jsonl.h"
#include "common/proto/protocol.h"
#include "common/run-command.h"

#define POLL_SECONDS 0.05
/* After a panic shows, QEMU should exit by itself (pvpanic, panic=-1); give it this long. */
#define PANIC_GRACE_SECONDS 10.0
#define DETAIL_LINES 40
#define PANIC_MARK "Kernel panic - not syncing"

static const char *const outcome_names[] = { "ok", "failed", "panic", "hang", "boot-failure" };

const char *vm_outcome_name(enum vm_outcome outcome)
{
	return outcome_names[outcome];
}

/* One channel file QEMU appends to, read incrementally. */
struct channel_file {
	const char *name;
	int fd;
	struct strbuf data;     /* everything read so far (console, ctl) or the unparsed tail */
	bool keep;              /* keep all data (console, kmsg); otherwise only count */
	unsigned long long size;
	size_t scanned;         /* bytes already searched for the panic mark */
	bool panic;             /* the panic mark was seen */
};

static void channel_open(struct channel_file *c, const char *dir, const char *name, bool keep)
{
	char *path = xasprintf("%s/%s", dir, name);
	c->name = name;
	c->fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
	c->keep = keep;
	free(path);
}

/* Reads what arrived; returns the number of new bytes. */
static size_t channel_poll(struct channel_file *c, void (*sink)(const char *, size_t))
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

static void channel_close(struct channel_file *c)
{
	if (c->fd >= 0)
		close(c->fd);
	strbuf_release(&c->data);
}

static void to_stdout(const char *data, size_t len)
{
	if (fwrite(data, 1, len, stdout) != len)
		return;
	fflush(stdout);
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

/* The control channel: JSON lines from the agent. */
struct control {
	size_t parsed;          /* offset of the first unparsed byte */
	bool ready, exited;
	double ready_uptime;
	int exit_status;
};

static void control_parse(struct control *ctl, struct strbuf *data)
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
		if (type && !strcmp(type, CTL_READY)) {
			ctl->ready = true;
			ctl->ready_uptime = json_number_value(json_object_get(obj, "uptime"));
		} else if (type && !strcmp(type, CTL_EXIT)) {
			ctl->exited = true;
			ctl->exit_status = (int)json_integer_value(json_object_get(obj, "status"));
		}
		json_decref(obj);
	}
}

/*
 * Searches only what arrived since the last look (plus the mark's length, in
 * case it straddles two reads): the watch loop runs twenty times a second
 * and a kernel log under OOM grows to megabytes.
 */
static bool channel_has_panic(struct channel_file *c)
{
	if (c->panic || !c->data.len)
		return c->panic;
	size_t overlap = sizeof(PANIC_MARK) - 1;
	size_t from = c->scanned > overlap ? c->scanned - overlap : 0;
	c->panic = memmem(c->data.buf + from, c->data.len - from, PANIC_MARK, overlap) != NULL;
	c->scanned = c->data.len;
	return c->panic;
}

/*
 * The panic text: the lines before the panic line (what led to it) and the
 * lines after it (the stack that BUGVERBOSE prints, the end marker).
 */
static char *panic_detail(struct channel_file *console, struct channel_file *kmsg)
{
	const struct strbuf *src = channel_has_panic(console) ? &console->data : &kmsg->data;
	const char *mark = memmem(src->buf, src->len, PANIC_MARK, sizeof(PANIC_MARK) - 1);
	const char *end = mark;
	for (int lines = 0; end && lines < DETAIL_LINES; lines++) {
		end = memchr(end, '\n', src->len - (size_t)(end - src->buf));
		if (end)
			end++;
	}
	size_t upto = end ? (size_t)(end - src->buf) : src->len;
	return tail_lines(src->buf, upto, 2 * DETAIL_LINES);
}

static char *console_tail(const struct strbuf *console)
{
	return console->len ? tail_lines(console->buf, console->len, DETAIL_LINES)
			    : xstrdup("(the console stayed empty)");
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

int vm_run(struct vm_run *run, struct strbuf *err)
{
	/* The console, then the protocol's channels in their order. */
	enum { CH_CONSOLE, CH_CTL, CH_OUT, CH_KMSG, CH_PERF, CH_FILES, CH_COUNT };
	_Static_assert(CH_COUNT == CHANNEL_COUNT + 1 && CH_CTL == CHANNEL_CTL + 1 &&
		       CH_KMSG == CHANNEL_KMSG + 1 && CH_FILES == CHANNEL_FILES + 1,
		       "vm.c's channels follow common/proto/protocol.h");
	struct channel_file ch[CH_COUNT];
	memset(ch, 0, sizeof(ch));
	for (int i = 0; i < CH_COUNT; i++)
		channel_open(&ch[i], run->dir, i == CH_CONSOLE ? CONSOLE_FILE : channel_file_name[i - 1],
			     i == CH_CONSOLE || i == CH_CTL || i == CH_KMSG);

	run->exit_status = -1;
	run->wall_ready = run->guest_ready_uptime = -1;
	run->detail = NULL;

	struct child_process qemu = { .argv = strlist_argv(run->argv), .dir = run->dir,
				      .stdin_inherit = run->interactive, .foreground = run->interactive,
				      .stdout_to_stderr = !run->interactive };
	char *qemu_log = xasprintf("%s/qemu.stderr", run->dir);
	if (!run->interactive) {
		qemu.out_path = qemu_log;
		qemu.err_to_out = true;
	}
	if (start_command(&qemu) < 0) {
		strbuf_addstr(err, "cannot start " QEMU_BINARY);
		free(qemu_log);
		return -1;
	}

	double start = now_monotonic(), last_activity = start, panic_seen_at = 0;
	struct control ctl = { 0 };
	bool killed = false;
	const char *kill_reason = NULL;
	double kill_after = 0;
	enum vm_outcome kill_outcome = VM_HANG;
	int status = -2;

	for (;;) {
		status = finish_command_timeout(&qemu, POLL_SECONDS);
		size_t fresh = 0;
		for (int i = 0; i < CH_COUNT; i++)
			fresh += channel_poll(&ch[i], i == CH_OUT && run->stream_output ? to_stdout : NULL);
		control_parse(&ctl, &ch[CH_CTL].data);
		double now = now_monotonic();
		if (fresh)
			last_activity = now;
		if (ctl.ready && run->wall_ready < 0) {
			run->wall_ready = now - start;
			run->guest_ready_uptime = ctl.ready_uptime;
		}
		if (status != -2)
			break;
		if (!panic_seen_at && (channel_has_panic(&ch[CH_CONSOLE]) || channel_has_panic(&ch[CH_KMSG])))
			panic_seen_at = now;
		if (panic_seen_at && now - panic_seen_at > PANIC_GRACE_SECONDS) {
			kill_reason = "QEMU did not exit after the guest panicked";
			kill_outcome = VM_PANIC;
			kill_after = PANIC_GRACE_SECONDS;
		} else if (!ctl.ready && now - start > run->watchdogs.boot && !run->interactive) {
			kill_reason = "the agent was not ready within the boot timeout";
			kill_outcome = VM_BOOT_FAILURE;
			kill_after = run->watchdogs.boot;
		} else if (ctl.ready && !run->interactive && now - last_activity > run->watchdogs.silence) {
			kill_reason = "no output on any channel within the silence timeout";
			kill_after = run->watchdogs.silence;
		} else if (run->watchdogs.total > 0 && now - start > run->watchdogs.total) {
			kill_reason = "the boot exceeded the whole-trial timeout";
			kill_after = run->watchdogs.total;
		}
		if (kill_reason) {
			kill_command(&qemu, SIGKILL);
			status = finish_command(&qemu);
			killed = true;
			break;
		}
	}
	/* Whatever QEMU wrote before it went is ours too. */
	sleep_seconds(POLL_SECONDS);
	for (int i = 0; i < CH_COUNT; i++)
		channel_poll(&ch[i], i == CH_OUT && run->stream_output ? to_stdout : NULL);
	control_parse(&ctl, &ch[CH_CTL].data);

	run->qemu_status = status;
	run->wall_total = now_monotonic() - start;
	bool panicked = channel_has_panic(&ch[CH_CONSOLE]) || channel_has_panic(&ch[CH_KMSG]);
	if (ctl.exited) {
		run->exit_status = ctl.exit_status;
		run->outcome = ctl.exit_status == 0 ? VM_OK : VM_FAILED;
		run->detail = xasprintf("the command exited with status %d", ctl.exit_status);
	} else if (panicked) {
		run->outcome = VM_PANIC;
		run->detail = panic_detail(&ch[CH_CONSOLE], &ch[CH_KMSG]);
	} else if (killed) {
		char *tail = console_tail(&ch[CH_CONSOLE].data);
		run->outcome = kill_outcome;
		run->detail = xasprintf("%s (%.0f s); last console lines:\n%s", kill_reason, kill_after,
					tail);
		free(tail);
	} else if (!ctl.ready) {
		char *tail = console_tail(&ch[CH_CONSOLE].data);
		run->outcome = VM_BOOT_FAILURE;
		run->detail = xasprintf("QEMU exited (status %d) before the agent was ready; "
					"last console lines:\n%s", status, tail);
		free(tail);
	} else {
		char *tail = console_tail(&ch[CH_CONSOLE].data);
		run->outcome = VM_FAILED;
		run->detail = xasprintf("the guest stopped without the agent reporting an exit status "
					"(QEMU status %d); last console lines:\n%s", status, tail);
		free(tail);
	}
	for (int i = 0; i < CH_COUNT; i++)
		channel_close(&ch[i]);
	free(qemu_log);
	return 0;
}
