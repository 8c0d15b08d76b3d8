/*
 * Running one VM to its end and saying how it ended. The guest's channels
 * are files QEMU appends to; the lab watches them while QEMU runs: the
 * control channel says when the agent is ready and how the command exited,
 * the console and kernel log reveal panics, and silence on every channel
 * (the agent beats a heart each second) means a hang. Watchdogs end any
 * VM that stops making progress, and QEMU is always reaped.
 */
#ifndef LAB_VM_H
#define LAB_VM_H

#include <stdbool.h>

#include "common/util.h"

/* How a VM ended. VM_HOST_KILLED ("host-killed"; "killed" before): QEMU was
 * ended by a signal the lab did not send (the host's OOM killer, a user's
 * kill); the trial says nothing of the kernel. Not the guest's OOM kills. */
/* VM_FLOODED: the guest wrote past a channel's cap (common/proto/protocol.h) */
enum vm_outcome { VM_OK, VM_FAILED, VM_PANIC, VM_HANG, VM_BOOT_FAILURE, VM_HOST_KILLED, VM_FLOODED };

struct vm_watchdogs {
	double boot;     /* seconds from QEMU start to the agent's "ready" */
	double silence;  /* seconds without a byte on any channel */
	double total;    /* seconds for the whole boot */
};

struct vm_run {
	struct strlist *argv;         /* QEMU's command line */
	const char *dir;              /* the channel files are here */
	struct vm_watchdogs watchdogs;
	bool stream_output;           /* copy the command's output to our stdout live */
	bool interactive;             /* QEMU owns the terminal; no silence watchdog */
	/* Boot once, restore per trial (vm-snapshot.h; QEMU's argv has the
	 * snapshot part). save_to: at the agent's restore point, save the VM
	 * to this file in dir and end QEMU: outcome ok, saved true.
	 * restore_from: load this saved VM (absolute) with trial_line in the
	 * agent's page at restore_slot (vm_snapshot_load_command) and run it;
	 * the channel files already hold the saved boot's start. */
	const char *save_to;
	const char *restore_from;
	const char *trial_line;
	long long restore_slot;

	enum vm_outcome outcome;
	int exit_status;              /* the command's, -1 when unknown */
	char *detail;                 /* panic text, last console lines, or the reason */
	double wall_ready;            /* host seconds from QEMU start to agent ready, -1 if never */
	double guest_ready_uptime;    /* guest uptime at ready, -1 if never */
	double wall_total;
	int qemu_status;
	int qemu_signal;              /* VM_HOST_KILLED: the signal that ended QEMU (0 if not known) */
	char guest_machine[32];       /* what the guest said it is (uname -m), "" if it never did */
	long guest_page_size;         /* its page size in bytes, 0 if it never said */
	char guest_clocksource[32];   /* the guest kernel's clocksource at the end, "" if unsaid */
	bool saved;                   /* save_to: the VM was saved */
	double wall_saved;            /* save_to: host seconds the save took */
};

const char *vm_outcome_name(enum vm_outcome outcome);
/* Whether QEMU ended by a signal from outside the lab: by SIGNAL itself (0:
 * it exited), or by one it caught and named in QEMU_STDERR ("terminating on
 * signal 15 from pid ...") before exiting. The detail (malloc'd) and the
 * signal in *SIG, or NULL. */
char *vm_killed_from_outside(int signal, const char *qemu_stderr, int *sig);
/* Runs the VM to its end; -1 only when QEMU could not be started at all. */
int vm_run(struct vm_run *run, struct strbuf *err);

#endif
