/*
 * Boot once, restore per trial (docs/CLOCKS.md): a VM saved at the agent's
 * restore point (common/proto/protocol.h) to a file, through QMP, and a
 * new QEMU started from that file with a trial line of its own. Both QEMUs
 * have the same devices (qemu.h's snapshot part of the spec); only their
 * channels' backends differ.
 */
#ifndef LAB_VM_SNAPSHOT_H
#define LAB_VM_SNAPSHOT_H

#include <stdbool.h>

#include "qmp.h"

/* The QMP socket and the trial port's socket in a snapshot QEMU's folder. */
#define VM_QMP_SOCKET   "qmp.sock"
#define VM_TRIAL_SOCKET "trial.sock"
/* The saved VM, in the saving boot's folder. */
#define VM_SNAPSHOT_FILE "snapshot.vm"

/* Connects to the trial port's socket in DIR (VM_TRIAL_SOCKET) by the
 * DEADLINE (monotonic): its fd, or -1 with the reason in ERR. The saving
 * boot holds it open too: a guest port whose host end is closed reads as
 * end-of-file at once, where the agent must wait. */
int vm_snapshot_trial_port(const char *dir, double deadline, struct strbuf *err);

/* Stops the guest, writes the whole VM to FILE (a name in QEMU's folder)
 * and ends QEMU; at most TIMEOUT host seconds. */
int vm_snapshot_save(struct qmp *q, const char *file, double timeout, struct strbuf *err);

/* In a QEMU started paused for an incoming VM (-incoming defer -S) in DIR:
 * loads FILE (absolute), writes LINE to the trial port's socket and runs
 * the guest. *TRIAL_FD keeps the socket open (the guest's port would see
 * the host leave). */
int vm_snapshot_restore(struct qmp *q, const char *dir, const char *file, const char *line,
			double timeout, int *trial_fd, struct strbuf *err);

#endif
