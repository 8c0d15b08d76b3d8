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
#include "run-command.h"

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
struct channel {
	const char *name;
	int fd;
	struct strbuf data;     /* everything read so far (console, ctl) or the unparsed tail */
	bool keep;              /* keep all data (console, kmsg); otherwise only count */
	unsigned long long size;
};

static void channel_open(struct channel *c, const char *dir, const char *name, bool keep)
{
	char *path = xasprintf("%s/%s", dir, name);
	c->name = name;
	c->fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
	c->keep = keep;
	free(path);
}

/* Reads what arrived; returns the number of new bytes. */
static size_t channel_poll(struct channel *c, void (*sink)(const char *, size_t))
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

static void channel_close(struct channel *c)
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
		json_error_t jerr;
		json_t *obj = json_loadb(start, (size_t)(nl - start), 0, &jerr);
		ctl->parsed = (size_t)(nl - data->buf) + 1;
		if (!obj)
			continue;
		const char *type = json_string_value(json_object_get(obj, "type"));
		if (type && !strcmp(type, "ready")) {
			ctl->ready = true;
			ctl->ready_uptime = json_number_value(json_object_get(obj, "uptime"));
		} else if (type && !strcmp(type, "exit")) {
			ctl->exited = true;
			ctl->exit_status = (int)json_integer_value(json_object_get(obj, "status"));
		}
		json_decref(obj);
	}
}

static bool text_has_panic(const struct strbuf *sb)
{
	return sb->buf && strstr(sb->buf, PANIC_MARK);
}

/* The panic text: the lines before the panic line (its trace) and the panic line. */
static char *panic_detail(const struct strbuf *console, const struct strbuf *kmsg)
{
	const struct strbuf *src = text_has_panic(console) ? console : kmsg;
	const char *mark = strstr(src->buf, PANIC_MARK);
	const char *eol = strchr(mark, '\n');
	size_t end = eol ? (size_t)(eol - src->buf) + 1 : src->len;
	return tail_lines(src->buf, end, DETAIL_LINES);
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
	enum { CH_CONSOLE, CH_CTL, CH_OUT, CH_KMSG, CH_PERF, CH_FILES, CH_COUNT };
	static const char *const files[CH_COUNT] = { "console.log", "ctl.jsonl", "out.log", "kmsg.log",
						     "perf.data", "files.bin" };
	struct channel ch[CH_COUNT];
	memset(ch, 0, sizeof(ch));
	for (int i = 0; i < CH_COUNT; i++)
		channel_open(&ch[i], run->dir, files[i], i == CH_CONSOLE || i == CH_CTL || i == CH_KMSG);

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
		if (!panic_seen_at && (text_has_panic(&ch[CH_CONSOLE].data) || text_has_panic(&ch[CH_KMSG].data)))
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
	bool panicked = text_has_panic(&ch[CH_CONSOLE].data) || text_has_panic(&ch[CH_KMSG].data);
	if (ctl.exited) {
		run->exit_status = ctl.exit_status;
		run->outcome = ctl.exit_status == 0 ? VM_OK : VM_FAILED;
		run->detail = xasprintf("the command exited with status %d", ctl.exit_status);
	} else if (panicked) {
		run->outcome = VM_PANIC;
		run->detail = panic_detail(&ch[CH_CONSOLE].data, &ch[CH_KMSG].data);
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
