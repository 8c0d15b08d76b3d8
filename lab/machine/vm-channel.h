/*
 * Reading a VM's channels while QEMU writes them: each channel is a file
 * QEMU appends to (common/proto/protocol.h), read incrementally. The
 * control channel's JSON lines say when the agent is ready and how the
 * command exited; the console and the kernel log are searched for a panic.
 */
#ifndef LAB_VM_CHANNEL_H
#define LAB_VM_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

#define VM_PANIC_MARK "Kernel panic - not syncing"
#define VM_DETAIL_LINES 40

struct vm_channel {
	const char *name;
	int fd;
	struct strbuf data;     /* everything read so far (console, ctl) or the unparsed tail */
	bool keep;              /* keep all data (console, kmsg); otherwise only count */
	unsigned long long size;
	size_t scanned;         /* bytes already searched for the panic mark */
	bool panic;             /* the panic mark was seen */
};

/* Opens DIR/NAME for reading (created if QEMU has not yet); KEEP keeps all data read. */
void vm_channel_open(struct vm_channel *c, const char *dir, const char *name, bool keep);
/* Reads what arrived, passing it to SINK (may be NULL); returns the number of new bytes. */
size_t vm_channel_poll(struct vm_channel *c, void (*sink)(const char *, size_t));
void vm_channel_close(struct vm_channel *c);
/* Whether the panic mark is in what was kept; searches only what is new. */
bool vm_channel_has_panic(struct vm_channel *c);

/* The control channel: JSON lines from the agent. */
struct vm_control {
	size_t parsed;          /* offset of the first unparsed byte */
	bool ready, exited;
	bool restore_point;     /* the agent waits for a restore's line (protocol.h) */
	double ready_uptime;
	int exit_status;
	char machine[32];       /* the hello's: uname -m in the guest, "" until it came */
	long page_size;         /* the hello's page size in bytes, 0 until it came */
	char clocksource[32];   /* the exit's: the guest kernel's clocksource, "" if unsaid */
};

/* Parses the complete lines of DATA not parsed yet (a line still being written waits). */
void vm_control_parse(struct vm_control *ctl, struct strbuf *data);

/* The panic text: the lines before the panic line and the stack after it, from
 * the console, else the kernel log (malloc'd). */
char *vm_panic_detail(struct vm_channel *console, struct vm_channel *kmsg);
/* The console's last lines, or a note that it stayed empty (malloc'd). */
char *vm_console_tail(const struct strbuf *console);
/* The last n lines of text (malloc'd). */
char *tail_lines(const char *text, size_t len, int n);

#endif
