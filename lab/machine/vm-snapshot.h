/*
 * Boot once, restore per trial (docs/CLOCKS.md): a VM saved at the agent's
 * restore point (common/proto/protocol.h) to a file, through QMP, and a
 * new QEMU started from that file with a trial line of its own written
 * into the agent's page as the VM loads. Both QEMUs have the same devices
 * (qemu.h's snapshot part of the spec); only their channels' backends
 * differ.
 */
#ifndef LAB_VM_SNAPSHOT_H
#define LAB_VM_SNAPSHOT_H

#include <stdbool.h>

#include "qmp.h"

/* The QMP socket in a snapshot QEMU's folder. */
#define VM_QMP_SOCKET   "qmp.sock"
/* The saved VM, in the saving boot's folder. */
#define VM_SNAPSHOT_FILE "snapshot.vm"

/* Stops the guest, writes the whole VM to FILE (a name in QEMU's folder)
 * and ends QEMU; at most TIMEOUT host seconds. */
int vm_snapshot_save(struct qmp *q, const char *file, double timeout, struct strbuf *err);

/* Where the agent's page (restore_slot_fill's pattern) is in the saved VM
 * PATH: 0 and its byte offset in *OFFSET when the pattern's first
 * RESTORE_SLOT_MATCH bytes are there exactly once, else -1 with the reason. */
int vm_snapshot_find_slot(const char *path, long long *offset, struct strbuf *err);

/* The command QEMU reads the saved VM FILE (absolute) from, with LINE
 * (restore_line_format's, without its newline) and NULs written over the
 * RESTORE_SLOT_LINE bytes at OFFSET (malloc'd). */
char *vm_snapshot_load_command(const char *file, long long offset, const char *line);

/* In a QEMU started paused for an incoming VM (-incoming defer -S): loads
 * FILE with LINE at OFFSET (vm_snapshot_load_command) and runs the guest. */
int vm_snapshot_restore(struct qmp *q, const char *file, long long offset, const char *line,
			double timeout, struct strbuf *err);

#endif
