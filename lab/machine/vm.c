/* Running one VM to its end, with watchdogs, and classifying the outcome. */
#include "vm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "qemu.h"
#include "vm-snapshot.h"
#include "vm-channel.h"
#include "common/proto/protocol.h"
#include "common/run-command.h"
#include "common/trial-record.h"

#define POLL_SECONDS 0.05
/* After a panic shows, QEMU should exit by itself (panic=-1 and -no-reboot); give it this long. */
#define PANIC_GRACE_SECONDS 10.0

static const char *const outcome_names[] = { "ok", "failed", "panic", "hang", "boot-failure",
					     TRIAL_OUTCOME_HOST_KILLED, TRIAL_OUTCOME_FLOODED };
_Static_assert(sizeof(outcome_names) / sizeof(outcome_names[0]) == VM_FLOODED + 1,
	       "a name for every outcome");

const char *vm_outcome_name(enum vm_outcome outcome)
{
	return outcome_names[outcome];
}

/* QEMU's words when it stops on a signal it caught (QEMU's runstate code). */
#define QEMU_SIGNAL_MARK "terminating on signal "

char *vm_killed_from_outside(int signal, const char *qemu_stderr, int *sig)
{
	*sig = signal;
	if (signal)
		return xasprintf("QEMU was killed by signal %d (%s) from outside the lab; the trial "
				 "says nothing of the kernel", signal, strsignal(signal));
	const char *mark = qemu_stderr ? strstr(qemu_stderr, QEMU_SIGNAL_MARK) : NULL;
	if (!mark)
		return NULL;
	*sig = atoi(mark + strlen(QEMU_SIGNAL_MARK));
	const char *line = mark;
	while (line > qemu_stderr && line[-1] != '\n')
		line--;
	return xasprintf("QEMU stopped on a signal from outside the lab (\"%.*s\"); the trial says "
			 "nothing of the kernel", (int)strcspn(line, "\n"), line);
}

/* Whether a signal from outside ended QEMU (vm_killed_from_outside), by its
 * status and by what this boot added to LOG from offset FROM (the file is
 * appended to; read only here, on this rare path). LOG NULL: no log. */
static char *killed_from_outside(const char *log, size_t from, int term_signal, int *sig)
{
	size_t len = 0;
	char *text = log ? read_file(log, &len) : NULL;
	char *why = vm_killed_from_outside(term_signal, text && len >= from ? text + from : NULL, sig);
	free(text);
	return why;
}

static void to_stdout(const char *data, size_t len)
{
	if (fwrite(data, 1, len, stdout) != len)
		return;
	fflush(stdout);
}

/* The cap of channel I of vm_run's (the console first, then protocol.h's). */
static unsigned long long cap_of(int i)
{
	return i == 0 ? CONSOLE_CAP_BYTES : channel_cap_bytes[i - 1];
}

/* The first channel past its cap, or -1. */
static int flooded_channel(const struct vm_channel *ch, int n)
{
	for (int i = 0; i < n; i++)
		if (ch[i].size > cap_of(i))
			return i;
	return -1;
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
	struct vm_channel ch[CH_COUNT];
	memset(ch, 0, sizeof(ch));
	for (int i = 0; i < CH_COUNT; i++)
		vm_channel_open(&ch[i], run->dir, i == CH_CONSOLE ? CONSOLE_FILE : channel_file_name[i - 1],
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
	/* qemu.stderr is appended to: this boot's words start here */
	struct stat log_st;
	size_t log_from = stat(qemu_log, &log_st) == 0 ? (size_t)log_st.st_size : 0;
	if (start_command(&qemu) < 0) {
		strbuf_addf(err, "cannot start %s", run->argv->items[0]);
		free(qemu_log);
		return -1;
	}

	double start = now_monotonic(), last_activity = start, panic_seen_at = 0;
	run->saved = false;
	run->wall_saved = -1;
	struct qmp qmp = { .fd = -1 };
	const char *snapshot_failed = NULL;
	struct strbuf snapshot_err = STRBUF_INIT;
	if (run->save_to || run->restore_from) {
		double t = run->watchdogs.boot;
		if (qmp_connect(&qmp, run->dir, VM_QMP_SOCKET, t, &snapshot_err) < 0)
			snapshot_failed = "QEMU's QMP socket";
		else if (run->restore_from &&
			 vm_snapshot_restore(&qmp, run->restore_from, run->restore_slot, run->trial_line, t,
					     &snapshot_err) < 0)
			snapshot_failed = "the restore";
		/* a restored guest is running from here: its start is its "ready" */
		if (run->restore_from && !snapshot_failed)
			run->wall_ready = now_monotonic() - start;
	}
	struct vm_control ctl = { 0 };
	bool killed = false;
	const char *kill_reason = NULL;
	double kill_after = 0;
	enum vm_outcome kill_outcome = VM_HANG;
	char flood_reason[160];
	int status = -2;

	for (;;) {
		status = finish_command_timeout(&qemu, POLL_SECONDS);
		size_t fresh = 0;
		for (int i = 0; i < CH_COUNT; i++)
			fresh += vm_channel_poll(&ch[i], i == CH_OUT && run->stream_output ? to_stdout : NULL);
		vm_control_parse(&ctl, &ch[CH_CTL].data);
		double now = now_monotonic();
		if (fresh)
			last_activity = now;
		if (ctl.page_size && !run->guest_page_size) {
			snprintf(run->guest_machine, sizeof(run->guest_machine), "%s", ctl.machine);
			run->guest_page_size = ctl.page_size;
		}
		if (run->save_to && ctl.restore_point && !run->saved && !snapshot_failed) {
			double t0 = now_monotonic();
			if (vm_snapshot_save(&qmp, run->save_to, run->watchdogs.boot, &snapshot_err) < 0)
				snapshot_failed = "the save";
			else
				run->saved = true;
			run->wall_saved = now_monotonic() - t0;
			now = last_activity = now_monotonic();
		}
		if (ctl.ready && run->guest_ready_uptime < 0)
			run->guest_ready_uptime = ctl.ready_uptime;
		if (ctl.ready && run->wall_ready < 0)
			run->wall_ready = now - start;
		if (status != -2)
			break;
		int flooded = flooded_channel(ch, CH_COUNT);
		if (!panic_seen_at && (vm_channel_has_panic(&ch[CH_CONSOLE]) || vm_channel_has_panic(&ch[CH_KMSG])))
			panic_seen_at = now;
		if (snapshot_failed) {
			kill_reason = snapshot_failed;
			kill_outcome = run->restore_from ? VM_BOOT_FAILURE : VM_FAILED;
			kill_after = now - start;
		} else if (flooded >= 0) {
			snprintf(flood_reason, sizeof(flood_reason),
				 "the guest wrote more than the %llu MiB %s takes", cap_of(flooded) >> 20,
				 flooded == CH_CONSOLE ? CONSOLE_FILE : channel_file_name[flooded - 1]);
			kill_reason = flood_reason;
			kill_outcome = VM_FLOODED;
			kill_after = now - start;
		} else if (panic_seen_at && now - panic_seen_at > PANIC_GRACE_SECONDS) {
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
		vm_channel_poll(&ch[i], i == CH_OUT && run->stream_output ? to_stdout : NULL);
	vm_control_parse(&ctl, &ch[CH_CTL].data);

	run->qemu_status = status;
	run->wall_total = now_monotonic() - start;
	bool panicked = vm_channel_has_panic(&ch[CH_CONSOLE]) || vm_channel_has_panic(&ch[CH_KMSG]);
	char *outside;
	run->qemu_signal = 0;
	if (snapshot_failed) {
		run->outcome = kill_outcome;
		run->detail = xasprintf("%s failed: %s", snapshot_failed, strbuf_str(&snapshot_err));
	} else if (run->saved) {
		run->outcome = VM_OK;
		run->detail = xasprintf("saved at the agent's restore point in %.2f s", run->wall_saved);
	} else if (ctl.exited) {
		run->exit_status = ctl.exit_status;
		snprintf(run->guest_clocksource, sizeof(run->guest_clocksource), "%s", ctl.clocksource);
		run->outcome = ctl.exit_status == 0 ? VM_OK : VM_FAILED;
		run->detail = xasprintf("the command exited with status %d", ctl.exit_status);
	} else if (panicked) {
		run->outcome = VM_PANIC;
		run->detail = vm_panic_detail(&ch[CH_CONSOLE], &ch[CH_KMSG]);
	} else if (killed) {
		char *tail = vm_console_tail(&ch[CH_CONSOLE].data);
		run->outcome = kill_outcome;
		run->detail = xasprintf("%s (%.0f s); last console lines:\n%s", kill_reason, kill_after,
					tail);
		free(tail);
	} else if ((outside = killed_from_outside(run->interactive ? NULL : qemu_log, log_from,
						   qemu.term_signal, &run->qemu_signal))) {
		/* a watchdog's kill (above) is the lab's own: its outcome names the reason */
		run->outcome = VM_HOST_KILLED;
		run->detail = outside;
	} else if (!ctl.ready) {
		char *tail = vm_console_tail(&ch[CH_CONSOLE].data);
		run->outcome = VM_BOOT_FAILURE;
		run->detail = xasprintf("QEMU exited (status %d) before the agent was ready; "
					"last console lines:\n%s", status, tail);
		free(tail);
	} else {
		char *tail = vm_console_tail(&ch[CH_CONSOLE].data);
		run->outcome = VM_FAILED;
		run->detail = xasprintf("the guest stopped without the agent reporting an exit status "
					"(QEMU status %d); last console lines:\n%s", status, tail);
		free(tail);
	}
	for (int i = 0; i < CH_COUNT; i++)
		vm_channel_close(&ch[i]);
	qmp_close(&qmp);
	strbuf_release(&snapshot_err);
	free(qemu_log);
	return 0;
}
