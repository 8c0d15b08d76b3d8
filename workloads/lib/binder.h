/* A small binder library over the kernel UAPI (linux/android/binder.h and
 * binderfs.h): no libbinder, no Android userspace.
 *
 * Layers:
 *  1. binderfs devices: a fresh device per trial (BINDER_CTL_ADD), removed
 *     with unlink.
 *  2. Connections: open, BINDER_VERSION check, read-only private mmap,
 *     context manager.  A mapping is not inherited across fork: open and
 *     map in the process that uses it.
 *  3. Command encoding (BC_*) into a byte buffer and parsing of the
 *     returns (BR_*) out of a read buffer: pure functions, unit-tested.
 *  4. A per-thread I/O state (struct binder_io) with synchronous
 *     transactions, replies, a looper, reference counting acks, death
 *     notifications and buffer freeing.
 *
 * Error convention: functions return 0 (or a count) on success and a
 * negative errno on failure.  Transaction failures reported by the driver
 * map to: BR_DEAD_REPLY -> -EHOSTDOWN, BR_FAILED_REPLY -> -ECOMM,
 * BR_FROZEN_REPLY -> -EAGAIN, BR_ERROR -> -EPROTO (the code in
 * io->last_error).
 */
#ifndef OOMLAB_BINDER_H
#define OOMLAB_BINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#include <linux/android/binder.h>
#include <linux/android/binderfs.h>

/* Returns added to the UAPI after Debian 12's header (6.1); defined from
 * their _IO encoding so the parser knows their sizes. */
#ifndef BR_TRANSACTION_PENDING_FROZEN
#define BR_TRANSACTION_PENDING_FROZEN _IO('r', 20)
#endif
#ifndef BR_FROZEN_BINDER
/* struct binder_frozen_state_info: u64 cookie, u32 is_frozen, u32 reserved */
#define BR_FROZEN_BINDER _IOC(_IOC_READ, 'r', 21, 16)
#endif
#ifndef BR_CLEAR_FREEZE_NOTIFICATION_DONE
#define BR_CLEAR_FREEZE_NOTIFICATION_DONE _IOR('r', 22, binder_uintptr_t)
#endif

#define BINDERFS_DEFAULT       "/dev/binderfs"
#define BINDER_MAP_MAX         (4u << 20)   /* the driver's cap */
/* What Android's ProcessState maps: 1 MiB minus two pages. */
#define BINDER_MAP_DEFAULT     ((1u << 20) - 2 * 4096)

/* ---- 1. binderfs devices ---------------------------------------------- */
struct binder_device {
	char name[BINDERFS_MAX_NAME + 1];
	char path[512];             /* <binderfs>/<name> */
	unsigned major, minor;
	bool created;
};

/* Makes a new device in the binderfs mounted at `binderfs` (NULL means
 * /dev/binderfs).  name NULL: "oomlab-<pid>-<n>", n counting up until the
 * name is free.  0 or -errno (-ENOENT: binderfs not mounted). */
int binder_device_create(struct binder_device *dev, const char *binderfs,
			 const char *name);
/* unlink(2) of the device node; 0 or -errno. */
int binder_device_remove(struct binder_device *dev);
/* Use an existing device path without creating anything. */
void binder_device_use(struct binder_device *dev, const char *path);

/* ---- 2. connections ---------------------------------------------------- */
struct binder_conn {
	int fd;
	void *map;
	size_t map_size;
	int version;
};

/* Which step of binder_conn_open failed (for reports). */
enum binder_open_step { BSTEP_NONE, BSTEP_OPEN, BSTEP_VERSION, BSTEP_MMAP };
const char *binder_step_name(enum binder_open_step s);

/* open(O_RDWR|O_CLOEXEC) + BINDER_VERSION (must be
 * BINDER_CURRENT_PROTOCOL_VERSION, else -EPROTONOSUPPORT) + mmap(map_size,
 * PROT_READ, MAP_PRIVATE).  map_size 0: no mapping (receiving nothing
 * works, transactions to this process then fail).  *failed (if non-NULL)
 * tells which step failed. */
int binder_conn_open(struct binder_conn *c, const char *path, size_t map_size,
		     enum binder_open_step *failed);
void binder_conn_close(struct binder_conn *c);
int binder_become_manager(struct binder_conn *c);       /* handle 0 */
int binder_set_max_threads(struct binder_conn *c, uint32_t n);

/* The raw ioctl: BINDER_WRITE_READ, retried on EINTR for the parts not yet
 * consumed (unless *binder_interrupt_flag is set: then -EINTR is
 * returned, so a signal handler can stop a blocked looper).  Returns 0 or
 * -errno; *wconsumed / *rconsumed set either way. */
extern volatile sig_atomic_t *binder_interrupt_flag;
int binder_write_read(int fd, const void *wbuf, size_t wlen, size_t *wconsumed,
		      void *rbuf, size_t rcap, size_t *rconsumed);

/* ---- 3. encoding and parsing -------------------------------------------- */
struct binder_cmdbuf {
	uint8_t *buf;
	size_t cap, len;
	bool overflow;           /* a command did not fit; nothing partial */
};
void binder_cmd_init(struct binder_cmdbuf *w, void *storage, size_t cap);
void binder_cmd_reset(struct binder_cmdbuf *w);

/* Each appends one command (u32 code + payload) or, if it does not fit,
 * sets overflow and returns -ENOSPC. */
int binder_cmd_plain(struct binder_cmdbuf *w, uint32_t cmd);   /* no payload */
int binder_cmd_enter_looper(struct binder_cmdbuf *w);
int binder_cmd_register_looper(struct binder_cmdbuf *w);
int binder_cmd_exit_looper(struct binder_cmdbuf *w);
int binder_cmd_free_buffer(struct binder_cmdbuf *w, binder_uintptr_t buffer);
/* BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS on a handle */
int binder_cmd_ref(struct binder_cmdbuf *w, uint32_t cmd, uint32_t handle);
/* BC_INCREFS_DONE, BC_ACQUIRE_DONE for a local node */
int binder_cmd_node_done(struct binder_cmdbuf *w, uint32_t cmd,
			 binder_uintptr_t ptr, binder_uintptr_t cookie);
/* BC_REQUEST_DEATH_NOTIFICATION, BC_CLEAR_DEATH_NOTIFICATION */
int binder_cmd_death(struct binder_cmdbuf *w, uint32_t cmd, uint32_t handle,
		     binder_uintptr_t cookie);
int binder_cmd_dead_binder_done(struct binder_cmdbuf *w, binder_uintptr_t cookie);
/* BC_TRANSACTION or BC_REPLY */
int binder_cmd_txn(struct binder_cmdbuf *w, uint32_t cmd,
		   const struct binder_transaction_data *tr);
/* BC_TRANSACTION_SG or BC_REPLY_SG (buffers_size: total of the
 * binder_buffer_object lengths, each rounded up to 8) */
int binder_cmd_txn_sg(struct binder_cmdbuf *w, uint32_t cmd,
		      const struct binder_transaction_data *tr,
		      binder_size_t buffers_size);

/* Fills a transaction descriptor.  offsets: byte offsets of the objects
 * inside data (each 8-aligned), n_offsets entries. */
void binder_txn_init(struct binder_transaction_data *tr, uint32_t handle,
		     uint32_t code, uint32_t flags, const void *data,
		     size_t size, const binder_size_t *offsets, size_t n_offsets);

/* Objects to put into transaction data. */
void binder_obj_binder(struct flat_binder_object *o, binder_uintptr_t ptr,
		       binder_uintptr_t cookie, bool weak);
void binder_obj_handle(struct flat_binder_object *o, uint32_t handle, bool weak);
void binder_obj_buffer(struct binder_buffer_object *o, const void *buf,
		       size_t len, bool has_parent, binder_size_t parent,
		       binder_size_t parent_offset);
static inline size_t binder_align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* One parsed return. */
struct binder_ret {
	uint32_t cmd;
	size_t size;                       /* payload bytes */
	const void *payload;               /* inside the read buffer */
	union {
		int32_t value;                 /* BR_ERROR, BR_ACQUIRE_RESULT */
		struct binder_transaction_data txn; /* BR_TRANSACTION(_SEC_CTX), BR_REPLY */
		struct binder_ptr_cookie ptr_cookie; /* BR_INCREFS..BR_DECREFS */
		binder_uintptr_t cookie;       /* BR_DEAD_BINDER, BR_CLEAR_*_DONE */
	} u;
	binder_uintptr_t secctx;           /* BR_TRANSACTION_SEC_CTX */
};
/* Parses the return at *pos in buf[0..len).  Returns 1 and advances *pos,
 * 0 at the end, -EBADMSG for a truncated or non-return ('r') code. */
int binder_ret_next(const void *buf, size_t len, size_t *pos,
		    struct binder_ret *r);
const char *binder_ret_name(uint32_t cmd);     /* "BR_REPLY", or "BR_?" */
const char *binder_cmd_name(uint32_t cmd);     /* "BC_TRANSACTION", or "BC_?" */
/* Maps BR_DEAD_REPLY/BR_FAILED_REPLY/... to the negative errno above, 0
 * for others. */
int binder_ret_errno(uint32_t cmd);

/* ---- 4. per-thread I/O ------------------------------------------------ */
#define BINDER_IO_WBUF 4096
#define BINDER_IO_RBUF 1024

struct binder_io;
/* Incoming transaction.  The handler may queue a reply with
 * binder_io_reply() (not for TF_ONE_WAY) and must arrange for the buffer
 * to be freed: binder_io_reply_and_free() does both, in that order.
 * Return 0 to go on, 1 to leave binder_io_loop() (after the queued
 * commands are written), <0 to fail. */
typedef int (*binder_txn_fn)(struct binder_io *io,
			     const struct binder_transaction_data *txn,
			     void *arg);
typedef void (*binder_cookie_fn)(struct binder_io *io, binder_uintptr_t cookie,
				 void *arg);

struct binder_io_counts {
	uint64_t noop, transaction_complete, transactions, replies;
	uint64_t increfs, acquire, release, decrefs;
	uint64_t dead_binder, clear_death_done, spawn_looper;
	uint64_t dead_reply, failed_reply, frozen_reply, error, other;
	uint64_t write_read_calls;
};

struct binder_io {
	struct binder_conn *conn;
	struct binder_cmdbuf w;
	uint8_t wstore[BINDER_IO_WBUF];
	uint8_t rbuf[BINDER_IO_RBUF];
	size_t rlen, rpos;                 /* unparsed returns in rbuf */
	int32_t last_error;                /* BR_ERROR payload */
	bool stop;                         /* set to leave binder_io_loop */
	binder_txn_fn on_txn;
	binder_cookie_fn on_death;         /* BR_DEAD_BINDER (then DONE is queued) */
	binder_cookie_fn on_clear_death;   /* BR_CLEAR_DEATH_NOTIFICATION_DONE */
	void *arg;
	struct binder_io_counts n;
};

void binder_io_init(struct binder_io *io, struct binder_conn *conn);
/* Writes the queued commands (no read). */
int binder_io_flush(struct binder_io *io);
/* Synchronous transaction to `handle`: queues BC_TRANSACTION after any
 * pending commands and reads until BR_REPLY.  The reply data stays in
 * this process's mapping: call binder_io_free(io, reply->data.ptr.buffer)
 * when done (it is queued and goes out with the next write).  reply may be
 * NULL (then the buffer is freed automatically).  With TF_ONE_WAY in
 * flags, returns after BR_TRANSACTION_COMPLETE. */
int binder_io_call(struct binder_io *io, uint32_t handle, uint32_t code,
		   uint32_t flags, const void *data, size_t size,
		   const binder_size_t *offsets, size_t n_offsets,
		   struct binder_transaction_data *reply);
/* The same with scatter-gather: data holds binder_buffer_objects whose
 * buffers total buffers_size bytes (8-aligned each). */
int binder_io_call_sg(struct binder_io *io, uint32_t handle, uint32_t code,
		      uint32_t flags, const void *data, size_t size,
		      const binder_size_t *offsets, size_t n_offsets,
		      binder_size_t buffers_size,
		      struct binder_transaction_data *reply);
/* Queue commands (sent with the next write). */
int binder_io_free(struct binder_io *io, binder_uintptr_t buffer);
int binder_io_reply(struct binder_io *io, const void *data, size_t size,
		    const binder_size_t *offsets, size_t n_offsets, uint32_t flags);
/* BC_REPLY then BC_FREE_BUFFER of the incoming txn's buffer (unless it is
 * one-way, then only the free). */
int binder_io_reply_and_free(struct binder_io *io,
			     const struct binder_transaction_data *txn,
			     const void *data, size_t size);
/* Queue BC_ACQUIRE etc. */
int binder_io_ref(struct binder_io *io, uint32_t cmd, uint32_t handle);
int binder_io_death(struct binder_io *io, uint32_t cmd, uint32_t handle,
		    binder_uintptr_t cookie);
/* Enter the looper (BC_ENTER_LOOPER) and serve until io->stop or the
 * handler returns 1.  Returns 0 or -errno. */
int binder_io_loop(struct binder_io *io);
/* One write+read round: process whatever returns arrive (blocking until
 * something arrives).  Used by loop; handy for draining death
 * notifications.  Returns 0 or -errno. */
int binder_io_poll_once(struct binder_io *io);

/* Objects in a received transaction: returns a pointer to the i-th
 * object of txn (validated to lie within the data), or NULL. */
const struct binder_object_header *binder_txn_object(
	const struct binder_transaction_data *txn, size_t i);
size_t binder_txn_object_count(const struct binder_transaction_data *txn);

#endif
