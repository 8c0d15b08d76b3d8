/* Binder library over the kernel UAPI; see binder.h. */
#include "binder.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- 1. binderfs devices ------------------------------------------------ */

static unsigned device_seq;

int binder_device_create(struct binder_device *dev, const char *binderfs,
			 const char *name)
{
	struct binderfs_device bd;
	char ctl[512];
	int fd, r = 0;

	memset(dev, 0, sizeof(*dev));
	if (!binderfs)
		binderfs = BINDERFS_DEFAULT;
	snprintf(ctl, sizeof(ctl), "%s/binder-control", binderfs);
	fd = open(ctl, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (int tries = 0; tries < 1000; tries++) {
		memset(&bd, 0, sizeof(bd));
		if (name) {
			if (strlen(name) > BINDERFS_MAX_NAME) {
				r = -ENAMETOOLONG;
				break;
			}
			strcpy(bd.name, name);
		} else {
			snprintf(bd.name, sizeof(bd.name), "oomlab-%d-%u",
				 (int)getpid(), device_seq++);
		}
		if (ioctl(fd, BINDER_CTL_ADD, &bd) == 0) {
			r = 0;
			break;
		}
		r = -errno;
		if (r != -EEXIST || name)
			break;
	}
	close(fd);
	if (r)
		return r;
	snprintf(dev->name, sizeof(dev->name), "%s", bd.name);
	snprintf(dev->path, sizeof(dev->path), "%s/%s", binderfs, bd.name);
	dev->major = bd.major;
	dev->minor = bd.minor;
	dev->created = true;
	return 0;
}

int binder_device_remove(struct binder_device *dev)
{
	if (!dev->created)
		return 0;
	dev->created = false;
	if (unlink(dev->path) < 0)
		return -errno;
	return 0;
}

void binder_device_use(struct binder_device *dev, const char *path)
{
	const char *base = strrchr(path, '/');

	memset(dev, 0, sizeof(*dev));
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	snprintf(dev->name, sizeof(dev->name), "%s", base ? base + 1 : path);
}

volatile sig_atomic_t *binder_interrupt_flag;

/* ---- 2. connections ------------------------------------------------------ */

const char *binder_step_name(enum binder_open_step s)
{
	switch (s) {
	case BSTEP_OPEN: return "open";
	case BSTEP_VERSION: return "version";
	case BSTEP_MMAP: return "mmap";
	default: return "none";
	}
}

int binder_conn_open(struct binder_conn *c, const char *path, size_t map_size,
		     enum binder_open_step *failed)
{
	struct binder_version v = { 0 };
	int r;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (failed)
		*failed = BSTEP_OPEN;
	c->fd = open(path, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	if (failed)
		*failed = BSTEP_VERSION;
	if (ioctl(c->fd, BINDER_VERSION, &v) < 0) {
		r = -errno;
		goto fail;
	}
	c->version = v.protocol_version;
	if (v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		r = -EPROTONOSUPPORT;
		goto fail;
	}
	if (map_size) {
		if (failed)
			*failed = BSTEP_MMAP;
		c->map = mmap(NULL, map_size, PROT_READ, MAP_PRIVATE, c->fd, 0);
		if (c->map == MAP_FAILED) {
			c->map = NULL;
			r = -errno;
			goto fail;
		}
		c->map_size = map_size;
	}
	if (failed)
		*failed = BSTEP_NONE;
	return 0;
fail:
	close(c->fd);
	c->fd = -1;
	return r;
}

void binder_conn_close(struct binder_conn *c)
{
	if (c->map)
		munmap(c->map, c->map_size);
	if (c->fd >= 0)
		close(c->fd);
	c->map = NULL;
	c->map_size = 0;
	c->fd = -1;
}

int binder_become_manager(struct binder_conn *c)
{
	int32_t zero = 0;

	if (ioctl(c->fd, BINDER_SET_CONTEXT_MGR, &zero) < 0)
		return -errno;
	return 0;
}

int binder_set_max_threads(struct binder_conn *c, uint32_t n)
{
	if (ioctl(c->fd, BINDER_SET_MAX_THREADS, &n) < 0)
		return -errno;
	return 0;
}

int binder_write_read(int fd, const void *wbuf, size_t wlen, size_t *wconsumed,
		      void *rbuf, size_t rcap, size_t *rconsumed)
{
	struct binder_write_read bwr;
	int r = 0;

	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)wbuf;
	bwr.write_size = wlen;
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)rbuf;
	bwr.read_size = rcap;
	/* The driver continues from write_consumed / read_consumed, so an
	 * interrupted call is resumed by calling again with the same struct.
	 * Return what was read if a signal came after something arrived. */
	for (;;) {
		if (ioctl(fd, BINDER_WRITE_READ, &bwr) == 0)
			break;
		r = -errno;
		if (r != -EINTR)
			break;
		if (binder_interrupt_flag && *binder_interrupt_flag)
			break;
		if (bwr.read_consumed > 4 || (bwr.write_consumed == bwr.write_size &&
					      !bwr.read_size)) {
			r = 0;
			break;
		}
		r = 0;
	}
	if (wconsumed)
		*wconsumed = bwr.write_consumed;
	if (rconsumed)
		*rconsumed = bwr.read_consumed;
	return r;
}

/* ---- 3. encoding and parsing ---------------------------------------------- */

void binder_cmd_init(struct binder_cmdbuf *w, void *storage, size_t cap)
{
	w->buf = storage;
	w->cap = cap;
	w->len = 0;
	w->overflow = false;
}

void binder_cmd_reset(struct binder_cmdbuf *w)
{
	w->len = 0;
	w->overflow = false;
}

static int cmd_put(struct binder_cmdbuf *w, uint32_t cmd, const void *payload,
		   size_t size)
{
	if (w->len + sizeof(cmd) + size > w->cap) {
		w->overflow = true;
		return -ENOSPC;
	}
	memcpy(w->buf + w->len, &cmd, sizeof(cmd));
	if (size)
		memcpy(w->buf + w->len + sizeof(cmd), payload, size);
	w->len += sizeof(cmd) + size;
	return 0;
}

int binder_cmd_plain(struct binder_cmdbuf *w, uint32_t cmd)
{
	return cmd_put(w, cmd, NULL, 0);
}

int binder_cmd_enter_looper(struct binder_cmdbuf *w)
{
	return cmd_put(w, BC_ENTER_LOOPER, NULL, 0);
}

int binder_cmd_register_looper(struct binder_cmdbuf *w)
{
	return cmd_put(w, BC_REGISTER_LOOPER, NULL, 0);
}

int binder_cmd_exit_looper(struct binder_cmdbuf *w)
{
	return cmd_put(w, BC_EXIT_LOOPER, NULL, 0);
}

int binder_cmd_free_buffer(struct binder_cmdbuf *w, binder_uintptr_t buffer)
{
	return cmd_put(w, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

int binder_cmd_ref(struct binder_cmdbuf *w, uint32_t cmd, uint32_t handle)
{
	if (cmd != BC_INCREFS && cmd != BC_ACQUIRE && cmd != BC_RELEASE &&
	    cmd != BC_DECREFS)
		return -EINVAL;
	return cmd_put(w, cmd, &handle, sizeof(handle));
}

int binder_cmd_node_done(struct binder_cmdbuf *w, uint32_t cmd,
			 binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct binder_ptr_cookie pc = { .ptr = ptr, .cookie = cookie };

	if (cmd != BC_INCREFS_DONE && cmd != BC_ACQUIRE_DONE)
		return -EINVAL;
	return cmd_put(w, cmd, &pc, sizeof(pc));
}

int binder_cmd_death(struct binder_cmdbuf *w, uint32_t cmd, uint32_t handle,
		     binder_uintptr_t cookie)
{
	struct binder_handle_cookie hc;

	if (cmd != BC_REQUEST_DEATH_NOTIFICATION &&
	    cmd != BC_CLEAR_DEATH_NOTIFICATION)
		return -EINVAL;
	memset(&hc, 0, sizeof(hc));
	hc.handle = handle;
	hc.cookie = cookie;
	return cmd_put(w, cmd, &hc, sizeof(hc));   /* packed: 12 bytes */
}

int binder_cmd_dead_binder_done(struct binder_cmdbuf *w, binder_uintptr_t cookie)
{
	return cmd_put(w, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

int binder_cmd_txn(struct binder_cmdbuf *w, uint32_t cmd,
		   const struct binder_transaction_data *tr)
{
	if (cmd != BC_TRANSACTION && cmd != BC_REPLY)
		return -EINVAL;
	return cmd_put(w, cmd, tr, sizeof(*tr));
}

int binder_cmd_txn_sg(struct binder_cmdbuf *w, uint32_t cmd,
		      const struct binder_transaction_data *tr,
		      binder_size_t buffers_size)
{
	struct binder_transaction_data_sg sg;

	if (cmd != BC_TRANSACTION_SG && cmd != BC_REPLY_SG)
		return -EINVAL;
	if (buffers_size & 7)
		return -EINVAL;
	memset(&sg, 0, sizeof(sg));
	sg.transaction_data = *tr;
	sg.buffers_size = buffers_size;
	return cmd_put(w, cmd, &sg, sizeof(sg));
}

void binder_txn_init(struct binder_transaction_data *tr, uint32_t handle,
		     uint32_t code, uint32_t flags, const void *data,
		     size_t size, const binder_size_t *offsets, size_t n_offsets)
{
	memset(tr, 0, sizeof(*tr));
	tr->target.handle = handle;
	tr->code = code;
	tr->flags = flags;
	tr->data_size = size;
	tr->offsets_size = n_offsets * sizeof(binder_size_t);
	tr->data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr->data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offsets;
}

void binder_obj_binder(struct flat_binder_object *o, binder_uintptr_t ptr,
		       binder_uintptr_t cookie, bool weak)
{
	memset(o, 0, sizeof(*o));
	o->hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
	o->flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;  /* min priority */
	o->binder = ptr;
	o->cookie = cookie;
}

void binder_obj_handle(struct flat_binder_object *o, uint32_t handle, bool weak)
{
	memset(o, 0, sizeof(*o));
	o->hdr.type = weak ? BINDER_TYPE_WEAK_HANDLE : BINDER_TYPE_HANDLE;
	o->handle = handle;
}

void binder_obj_buffer(struct binder_buffer_object *o, const void *buf,
		       size_t len, bool has_parent, binder_size_t parent,
		       binder_size_t parent_offset)
{
	memset(o, 0, sizeof(*o));
	o->hdr.type = BINDER_TYPE_PTR;
	o->flags = has_parent ? BINDER_BUFFER_FLAG_HAS_PARENT : 0;
	o->buffer = (binder_uintptr_t)(uintptr_t)buf;
	o->length = len;
	o->parent = parent;
	o->parent_offset = parent_offset;
}

int binder_ret_next(const void *buf, size_t len, size_t *pos,
		    struct binder_ret *r)
{
	const uint8_t *p = buf;
	uint32_t cmd;
	size_t size;

	if (*pos >= len)
		return 0;
	if (len - *pos < sizeof(cmd))
		return -EBADMSG;
	memcpy(&cmd, p + *pos, sizeof(cmd));
	if (_IOC_TYPE(cmd) != 'r')
		return -EBADMSG;
	size = _IOC_SIZE(cmd);
	if (len - *pos - sizeof(cmd) < size)
		return -EBADMSG;
	memset(r, 0, sizeof(*r));
	r->cmd = cmd;
	r->size = size;
	r->payload = p + *pos + sizeof(cmd);
	switch (cmd) {
	case BR_ERROR:
	case BR_ACQUIRE_RESULT:
		memcpy(&r->u.value, r->payload, sizeof(r->u.value));
		break;
	case BR_TRANSACTION:
	case BR_REPLY:
		memcpy(&r->u.txn, r->payload, sizeof(r->u.txn));
		break;
	case BR_TRANSACTION_SEC_CTX: {
		struct binder_transaction_data_secctx s;

		memcpy(&s, r->payload, sizeof(s));
		r->u.txn = s.transaction_data;
		r->secctx = s.secctx;
		break;
	}
	case BR_INCREFS:
	case BR_ACQUIRE:
	case BR_RELEASE:
	case BR_DECREFS:
		memcpy(&r->u.ptr_cookie, r->payload, sizeof(r->u.ptr_cookie));
		break;
	case BR_DEAD_BINDER:
	case BR_CLEAR_DEATH_NOTIFICATION_DONE:
	case BR_CLEAR_FREEZE_NOTIFICATION_DONE:
		memcpy(&r->u.cookie, r->payload, sizeof(r->u.cookie));
		break;
	case BR_FROZEN_BINDER:
		memcpy(&r->u.cookie, r->payload, sizeof(r->u.cookie));
		break;
	default:
		break;
	}
	*pos += sizeof(cmd) + size;
	return 1;
}

struct code_name {
	uint32_t code;
	const char *name;
};

#define CN(x) { (uint32_t)(x), #x }
static const struct code_name ret_names[] = {
	CN(BR_ERROR), CN(BR_OK), CN(BR_TRANSACTION_SEC_CTX), CN(BR_TRANSACTION),
	CN(BR_REPLY), CN(BR_ACQUIRE_RESULT), CN(BR_DEAD_REPLY),
	CN(BR_TRANSACTION_COMPLETE), CN(BR_INCREFS), CN(BR_ACQUIRE),
	CN(BR_RELEASE), CN(BR_DECREFS), CN(BR_ATTEMPT_ACQUIRE), CN(BR_NOOP),
	CN(BR_SPAWN_LOOPER), CN(BR_FINISHED), CN(BR_DEAD_BINDER),
	CN(BR_CLEAR_DEATH_NOTIFICATION_DONE), CN(BR_FAILED_REPLY),
	CN(BR_FROZEN_REPLY), CN(BR_ONEWAY_SPAM_SUSPECT),
	CN(BR_TRANSACTION_PENDING_FROZEN), CN(BR_FROZEN_BINDER),
	CN(BR_CLEAR_FREEZE_NOTIFICATION_DONE),
};
static const struct code_name cmd_names[] = {
	CN(BC_TRANSACTION), CN(BC_REPLY), CN(BC_ACQUIRE_RESULT),
	CN(BC_FREE_BUFFER), CN(BC_INCREFS), CN(BC_ACQUIRE), CN(BC_RELEASE),
	CN(BC_DECREFS), CN(BC_INCREFS_DONE), CN(BC_ACQUIRE_DONE),
	CN(BC_ATTEMPT_ACQUIRE), CN(BC_REGISTER_LOOPER), CN(BC_ENTER_LOOPER),
	CN(BC_EXIT_LOOPER), CN(BC_REQUEST_DEATH_NOTIFICATION),
	CN(BC_CLEAR_DEATH_NOTIFICATION), CN(BC_DEAD_BINDER_DONE),
	CN(BC_TRANSACTION_SG), CN(BC_REPLY_SG),
};
#undef CN

const char *binder_ret_name(uint32_t cmd)
{
	for (size_t i = 0; i < sizeof(ret_names) / sizeof(ret_names[0]); i++)
		if (ret_names[i].code == cmd)
			return ret_names[i].name;
	return "BR_?";
}

const char *binder_cmd_name(uint32_t cmd)
{
	for (size_t i = 0; i < sizeof(cmd_names) / sizeof(cmd_names[0]); i++)
		if (cmd_names[i].code == cmd)
			return cmd_names[i].name;
	return "BC_?";
}

int binder_ret_errno(uint32_t cmd)
{
	switch (cmd) {
	case BR_DEAD_REPLY: return -EHOSTDOWN;
	case BR_FAILED_REPLY: return -ECOMM;
	case BR_FROZEN_REPLY: return -EAGAIN;
	case BR_ERROR: return -EPROTO;
	default: return 0;
	}
}

/* ---- 4. per-thread I/O ----------------------------------------------------- */

void binder_io_init(struct binder_io *io, struct binder_conn *conn)
{
	memset(io, 0, sizeof(*io));
	io->conn = conn;
	binder_cmd_init(&io->w, io->wstore, sizeof(io->wstore));
}

int binder_io_flush(struct binder_io *io)
{
	size_t done = 0;

	while (done < io->w.len) {
		size_t wc = 0;
		int r = binder_write_read(io->conn->fd, io->w.buf + done,
					  io->w.len - done, &wc, NULL, 0, NULL);

		io->n.write_read_calls++;
		done += wc;
		if (r < 0) {
			/* Drop what the driver refused: resending would
			 * repeat the same error. */
			binder_cmd_reset(&io->w);
			return r;
		}
		if (!wc)
			break;
	}
	binder_cmd_reset(&io->w);
	return 0;
}

/* Queue a command; flush the queue first if it is full. */
#define QUEUE(io, expr) ({                                   \
	int _r = (expr);                                     \
	if (_r == -ENOSPC) {                                 \
		(io)->w.overflow = false;                    \
		_r = binder_io_flush(io);                    \
		if (_r == 0)                                 \
			_r = (expr);                         \
	}                                                    \
	_r; })

int binder_io_free(struct binder_io *io, binder_uintptr_t buffer)
{
	return QUEUE(io, binder_cmd_free_buffer(&io->w, buffer));
}

int binder_io_reply(struct binder_io *io, const void *data, size_t size,
		    const binder_size_t *offsets, size_t n_offsets, uint32_t flags)
{
	struct binder_transaction_data tr;

	binder_txn_init(&tr, 0, 0, flags, data, size, offsets, n_offsets);
	return QUEUE(io, binder_cmd_txn(&io->w, BC_REPLY, &tr));
}

int binder_io_reply_and_free(struct binder_io *io,
			     const struct binder_transaction_data *txn,
			     const void *data, size_t size)
{
	int r = 0;

	if (!(txn->flags & TF_ONE_WAY))
		r = binder_io_reply(io, data, size, NULL, 0, 0);
	if (r == 0)
		r = binder_io_free(io, txn->data.ptr.buffer);
	return r;
}

int binder_io_ref(struct binder_io *io, uint32_t cmd, uint32_t handle)
{
	return QUEUE(io, binder_cmd_ref(&io->w, cmd, handle));
}

int binder_io_death(struct binder_io *io, uint32_t cmd, uint32_t handle,
		    binder_uintptr_t cookie)
{
	return QUEUE(io, binder_cmd_death(&io->w, cmd, handle, cookie));
}

/* What the caller of process_one waits for. */
enum io_wait { WAIT_NONE, WAIT_REPLY, WAIT_COMPLETE };

/* Handles one parsed return.  Returns 1 when the awaited return arrived
 * (reply copied to *reply), a negative errno for a transaction failure
 * while waiting, 0 otherwise. */
static int process_one(struct binder_io *io, const struct binder_ret *r,
		       enum io_wait wait, struct binder_transaction_data *reply)
{
	int e;

	switch (r->cmd) {
	case BR_NOOP:
		io->n.noop++;
		return 0;
	case BR_TRANSACTION_COMPLETE:
	case BR_ONEWAY_SPAM_SUSPECT:
	case BR_TRANSACTION_PENDING_FROZEN:
		io->n.transaction_complete++;
		return wait == WAIT_COMPLETE ? 1 : 0;
	case BR_INCREFS:
		io->n.increfs++;
		return QUEUE(io, binder_cmd_node_done(&io->w, BC_INCREFS_DONE,
			     r->u.ptr_cookie.ptr, r->u.ptr_cookie.cookie)) < 0 ?
		       -EIO : 0;
	case BR_ACQUIRE:
		io->n.acquire++;
		return QUEUE(io, binder_cmd_node_done(&io->w, BC_ACQUIRE_DONE,
			     r->u.ptr_cookie.ptr, r->u.ptr_cookie.cookie)) < 0 ?
		       -EIO : 0;
	case BR_RELEASE:
		io->n.release++;
		return 0;
	case BR_DECREFS:
		io->n.decrefs++;
		return 0;
	case BR_DEAD_BINDER:
		io->n.dead_binder++;
		if (io->on_death)
			io->on_death(io, r->u.cookie, io->arg);
		return QUEUE(io, binder_cmd_dead_binder_done(&io->w, r->u.cookie)) < 0 ?
		       -EIO : 0;
	case BR_CLEAR_DEATH_NOTIFICATION_DONE:
		io->n.clear_death_done++;
		if (io->on_clear_death)
			io->on_clear_death(io, r->u.cookie, io->arg);
		return 0;
	case BR_SPAWN_LOOPER:
		io->n.spawn_looper++;
		return 0;
	case BR_TRANSACTION:
	case BR_TRANSACTION_SEC_CTX:
		io->n.transactions++;
		if (io->on_txn) {
			e = io->on_txn(io, &r->u.txn, io->arg);
			if (e < 0)
				return e;
			if (e > 0)
				io->stop = true;
			return 0;
		}
		/* Nobody serves here: answer with an empty reply. */
		return binder_io_reply_and_free(io, &r->u.txn, NULL, 0) < 0 ?
		       -EIO : 0;
	case BR_REPLY:
		io->n.replies++;
		if (wait == WAIT_REPLY) {
			if (reply)
				*reply = r->u.txn;
			else
				binder_io_free(io, r->u.txn.data.ptr.buffer);
			return 1;
		}
		binder_io_free(io, r->u.txn.data.ptr.buffer);
		return 0;
	case BR_DEAD_REPLY:
		io->n.dead_reply++;
		return wait != WAIT_NONE ? -EHOSTDOWN : 0;
	case BR_FAILED_REPLY:
		io->n.failed_reply++;
		return wait != WAIT_NONE ? -ECOMM : 0;
	case BR_FROZEN_REPLY:
		io->n.frozen_reply++;
		return wait != WAIT_NONE ? -EAGAIN : 0;
	case BR_ERROR:
		io->n.error++;
		io->last_error = r->u.value;
		return wait != WAIT_NONE ? -EPROTO : 0;
	default:
		io->n.other++;
		return 0;
	}
}

/* Processes buffered returns until the awaited one (returns 1), an error
 * (<0) or the buffer is empty (0). */
static int process_buffered(struct binder_io *io, enum io_wait wait,
			    struct binder_transaction_data *reply)
{
	while (io->rpos < io->rlen) {
		struct binder_ret r;
		int e = binder_ret_next(io->rbuf, io->rlen, &io->rpos, &r);

		if (e < 0) {
			io->rpos = io->rlen = 0;
			return e;
		}
		if (e == 0)
			break;
		e = process_one(io, &r, wait, reply);
		if (e != 0)
			return e;
		if (io->stop && wait == WAIT_NONE)
			return 0;
	}
	return 0;
}

/* One ioctl: pending writes, then a read into the (empty) read buffer. */
static int io_round(struct binder_io *io)
{
	size_t wc = 0, rc = 0;
	int r;

	r = binder_write_read(io->conn->fd, io->w.buf, io->w.len, &wc,
			      io->rbuf, sizeof(io->rbuf), &rc);
	io->n.write_read_calls++;
	/* Whatever was not consumed is dropped on error (see flush). */
	if (r < 0 || wc >= io->w.len) {
		binder_cmd_reset(&io->w);
	} else if (wc) {
		memmove(io->w.buf, io->w.buf + wc, io->w.len - wc);
		io->w.len -= wc;
	}
	io->rpos = 0;
	io->rlen = rc;
	return r;
}

static int io_wait_for(struct binder_io *io, enum io_wait wait,
		       struct binder_transaction_data *reply)
{
	for (;;) {
		int r = process_buffered(io, wait, reply);

		if (r != 0)
			return r > 0 ? 0 : r;
		r = io_round(io);
		if (r < 0)
			return r;
	}
}

static int io_call(struct binder_io *io, uint32_t cmd, uint32_t handle,
		   uint32_t code, uint32_t flags, const void *data, size_t size,
		   const binder_size_t *offsets, size_t n_offsets,
		   binder_size_t buffers_size,
		   struct binder_transaction_data *reply)
{
	struct binder_transaction_data tr;
	int r;

	/* Returns left over from an earlier round are handled first so the
	 * read buffer is free for this call's answers. */
	r = process_buffered(io, WAIT_NONE, NULL);
	if (r < 0)
		return r;
	binder_txn_init(&tr, handle, code, flags, data, size, offsets, n_offsets);
	if (cmd == BC_TRANSACTION_SG)
		r = QUEUE(io, binder_cmd_txn_sg(&io->w, cmd, &tr, buffers_size));
	else
		r = QUEUE(io, binder_cmd_txn(&io->w, cmd, &tr));
	if (r < 0)
		return r;
	return io_wait_for(io, (flags & TF_ONE_WAY) ? WAIT_COMPLETE : WAIT_REPLY,
			   reply);
}

int binder_io_call(struct binder_io *io, uint32_t handle, uint32_t code,
		   uint32_t flags, const void *data, size_t size,
		   const binder_size_t *offsets, size_t n_offsets,
		   struct binder_transaction_data *reply)
{
	return io_call(io, BC_TRANSACTION, handle, code, flags, data, size,
		       offsets, n_offsets, 0, reply);
}

int binder_io_call_sg(struct binder_io *io, uint32_t handle, uint32_t code,
		      uint32_t flags, const void *data, size_t size,
		      const binder_size_t *offsets, size_t n_offsets,
		      binder_size_t buffers_size,
		      struct binder_transaction_data *reply)
{
	return io_call(io, BC_TRANSACTION_SG, handle, code, flags, data, size,
		       offsets, n_offsets, buffers_size, reply);
}

int binder_io_poll_once(struct binder_io *io)
{
	int r;

	if (io->rpos >= io->rlen) {
		r = io_round(io);
		if (r < 0)
			return r;
	}
	r = process_buffered(io, WAIT_NONE, NULL);
	return r < 0 ? r : 0;
}

int binder_io_loop(struct binder_io *io)
{
	int r = QUEUE(io, binder_cmd_enter_looper(&io->w));

	if (r < 0)
		return r;
	while (!io->stop) {
		r = binder_io_poll_once(io);
		if (r < 0)
			return r;
	}
	/* Send the last reply (and frees) queued by the handler. */
	return binder_io_flush(io);
}

size_t binder_txn_object_count(const struct binder_transaction_data *txn)
{
	return txn->offsets_size / sizeof(binder_size_t);
}

const struct binder_object_header *binder_txn_object(
	const struct binder_transaction_data *txn, size_t i)
{
	const binder_size_t *offs =
		(const binder_size_t *)(uintptr_t)txn->data.ptr.offsets;
	binder_size_t off;

	if (i >= binder_txn_object_count(txn))
		return NULL;
	off = offs[i];
	if (off + sizeof(struct binder_object_header) > txn->data_size)
		return NULL;
	return (const struct binder_object_header *)
		(uintptr_t)(txn->data.ptr.buffer + off);
}
