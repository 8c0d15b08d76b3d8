/* Unit tests of the binder library without a kernel: command encoding,
 * return parsing, and the per-thread I/O state machine driven by a fake
 * BINDER_WRITE_READ (this file defines ioctl(), which takes precedence over
 * libc's for the whole test program). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <cmocka.h>

#include "workloads/lib/binder.h"

/* ---- a fake driver --------------------------------------------------- */

#define FAKE_FD 4242
#define MAX_ROUNDS 8

static struct {
	/* what each BINDER_WRITE_READ call returns in its read buffer */
	uint8_t reads[MAX_ROUNDS][512];
	size_t read_len[MAX_ROUNDS];
	int nreads;
	/* what was written, per call */
	uint8_t writes[MAX_ROUNDS][1024];
	size_t write_len[MAX_ROUNDS];
	int calls;
	int fail_errno;                      /* make the next call fail */
} fake;

int ioctl(int fd, unsigned long req, ...)
{
	struct binder_write_read *bwr;
	va_list ap;
	int k;

	va_start(ap, req);
	bwr = va_arg(ap, struct binder_write_read *);
	va_end(ap);
	if (fd != FAKE_FD || req != BINDER_WRITE_READ) {
		errno = ENOTTY;
		return -1;
	}
	k = fake.calls++;
	if (k >= MAX_ROUNDS) {
		errno = EIO;
		return -1;
	}
	if (fake.fail_errno) {
		errno = fake.fail_errno;
		fake.fail_errno = 0;
		return -1;
	}
	memcpy(fake.writes[k], (void *)(uintptr_t)bwr->write_buffer,
	       bwr->write_size);
	fake.write_len[k] = bwr->write_size;
	bwr->write_consumed = bwr->write_size;
	if (bwr->read_size) {
		int r = k < fake.nreads ? k : -1;

		if (r < 0 || fake.read_len[r] > bwr->read_size) {
			errno = EIO;     /* the test did not script this */
			return -1;
		}
		memcpy((void *)(uintptr_t)bwr->read_buffer, fake.reads[r],
		       fake.read_len[r]);
		bwr->read_consumed = fake.read_len[r];
	}
	return 0;
}

static void fake_reset(void)
{
	memset(&fake, 0, sizeof(fake));
}

static void put(uint8_t *buf, size_t *len, uint32_t cmd, const void *p, size_t n)
{
	memcpy(buf + *len, &cmd, 4);
	if (n)
		memcpy(buf + *len + 4, p, n);
	*len += 4 + n;
}

/* Script: the next read of round k gets cmd (+payload). */
static void script(int k, uint32_t cmd, const void *p, size_t n)
{
	put(fake.reads[k], &fake.read_len[k], cmd, p, n);
	if (fake.nreads < k + 1)
		fake.nreads = k + 1;
}

static uint32_t u32_at(const uint8_t *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return v;
}

/* ---- encoding -------------------------------------------------------- */

static void test_codes_match_uapi(void **state)
{
	(void)state;
	/* The ioctl encodings the kernel expects (64-bit protocol 8). */
	assert_int_equal(BC_TRANSACTION, 0x40406300);
	assert_int_equal(BC_REPLY, 0x40406301);
	assert_int_equal(BC_FREE_BUFFER, 0x40086303);
	assert_int_equal(BC_ENTER_LOOPER, 0x630c);
	assert_int_equal(BR_NOOP, 0x720c);
	assert_int_equal(BR_REPLY, 0x80407203);
	assert_int_equal(BR_TRANSACTION_PENDING_FROZEN, 0x7214);
	assert_int_equal(BR_FROZEN_BINDER, 0x80107215);
	assert_int_equal(BR_CLEAR_FREEZE_NOTIFICATION_DONE, 0x80087216);
	assert_int_equal(sizeof(struct binder_transaction_data), 64);
	assert_int_equal(sizeof(struct binder_handle_cookie), 12);
	assert_int_equal(BINDER_CURRENT_PROTOCOL_VERSION, 8);
}

static void test_encode_transaction(void **state)
{
	uint8_t store[256], data[12] = "hello world";
	binder_size_t offs[1] = { 0 };
	struct binder_cmdbuf w;
	struct binder_transaction_data tr, got;

	(void)state;
	binder_cmd_init(&w, store, sizeof(store));
	binder_txn_init(&tr, 7, 0x42, TF_ACCEPT_FDS, data, sizeof(data), offs, 1);
	assert_int_equal(binder_cmd_txn(&w, BC_TRANSACTION, &tr), 0);
	assert_int_equal(w.len, 4 + 64);
	assert_int_equal(u32_at(store, 0), BC_TRANSACTION);
	memcpy(&got, store + 4, sizeof(got));
	assert_int_equal(got.target.handle, 7);
	assert_int_equal(got.code, 0x42);
	assert_int_equal(got.flags, TF_ACCEPT_FDS);
	assert_int_equal(got.data_size, sizeof(data));
	assert_int_equal(got.offsets_size, sizeof(binder_size_t));
	assert_ptr_equal((void *)(uintptr_t)got.data.ptr.buffer, data);
	assert_ptr_equal((void *)(uintptr_t)got.data.ptr.offsets, offs);
	/* wrong command for the encoder */
	assert_int_equal(binder_cmd_txn(&w, BC_FREE_BUFFER, &tr), -EINVAL);
	assert_int_equal(w.len, 4 + 64);
}

static void test_encode_small_commands(void **state)
{
	uint8_t store[256];
	struct binder_cmdbuf w;
	struct binder_handle_cookie hc;
	struct binder_ptr_cookie pc;
	uint64_t v64;
	size_t off = 0;

	(void)state;
	binder_cmd_init(&w, store, sizeof(store));
	assert_int_equal(binder_cmd_enter_looper(&w), 0);
	assert_int_equal(binder_cmd_free_buffer(&w, 0x1122334455667788ull), 0);
	assert_int_equal(binder_cmd_ref(&w, BC_ACQUIRE, 5), 0);
	assert_int_equal(binder_cmd_ref(&w, BC_REPLY, 5), -EINVAL);
	assert_int_equal(binder_cmd_node_done(&w, BC_INCREFS_DONE, 0x10, 0x20), 0);
	assert_int_equal(binder_cmd_node_done(&w, BC_ACQUIRE, 0x10, 0x20), -EINVAL);
	assert_int_equal(binder_cmd_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 9, 0xabc), 0);
	assert_int_equal(binder_cmd_dead_binder_done(&w, 0xabc), 0);

	assert_int_equal(u32_at(store, off), BC_ENTER_LOOPER);
	off += 4;
	assert_int_equal(u32_at(store, off), BC_FREE_BUFFER);
	memcpy(&v64, store + off + 4, 8);
	assert_true(v64 == 0x1122334455667788ull);
	off += 12;
	assert_int_equal(u32_at(store, off), BC_ACQUIRE);
	assert_int_equal(u32_at(store, off + 4), 5);
	off += 8;
	assert_int_equal(u32_at(store, off), BC_INCREFS_DONE);
	memcpy(&pc, store + off + 4, sizeof(pc));
	assert_true(pc.ptr == 0x10 && pc.cookie == 0x20);
	off += 4 + 16;
	assert_int_equal(u32_at(store, off), BC_REQUEST_DEATH_NOTIFICATION);
	memcpy(&hc, store + off + 4, sizeof(hc));
	assert_int_equal(hc.handle, 9);
	assert_true(hc.cookie == 0xabc);
	off += 4 + 12;                      /* packed struct */
	assert_int_equal(u32_at(store, off), BC_DEAD_BINDER_DONE);
	off += 12;
	assert_int_equal(w.len, off);
}

static void test_encode_overflow(void **state)
{
	uint8_t store[70];
	struct binder_cmdbuf w;
	struct binder_transaction_data tr;

	(void)state;
	binder_cmd_init(&w, store, sizeof(store));
	binder_txn_init(&tr, 0, 1, 0, NULL, 0, NULL, 0);
	assert_int_equal(binder_cmd_txn(&w, BC_TRANSACTION, &tr), 0);  /* 68 */
	assert_false(w.overflow);
	assert_int_equal(binder_cmd_free_buffer(&w, 1), -ENOSPC);
	assert_true(w.overflow);
	assert_int_equal(w.len, 68);        /* nothing partial */
	binder_cmd_reset(&w);
	assert_int_equal(w.len, 0);
	assert_false(w.overflow);
}

static void test_encode_sg(void **state)
{
	uint8_t store[256];
	struct binder_cmdbuf w;
	struct binder_transaction_data tr;
	struct binder_transaction_data_sg sg;
	struct binder_buffer_object bo;
	char payload[13];

	(void)state;
	binder_cmd_init(&w, store, sizeof(store));
	binder_txn_init(&tr, 0, 1, 0, NULL, 0, NULL, 0);
	assert_int_equal(binder_cmd_txn_sg(&w, BC_TRANSACTION_SG, &tr, 12), -EINVAL);
	assert_int_equal(binder_cmd_txn_sg(&w, BC_TRANSACTION_SG, &tr, 16), 0);
	assert_int_equal(w.len, 4 + sizeof(sg));
	memcpy(&sg, store + 4, sizeof(sg));
	assert_int_equal(sg.buffers_size, 16);
	binder_obj_buffer(&bo, payload, sizeof(payload), true, 2, 8);
	assert_int_equal(bo.hdr.type, BINDER_TYPE_PTR);
	assert_int_equal(bo.flags, BINDER_BUFFER_FLAG_HAS_PARENT);
	assert_int_equal(bo.length, 13);
	assert_int_equal(binder_align8(bo.length), 16);
	assert_int_equal(bo.parent, 2);
	assert_int_equal(bo.parent_offset, 8);
}

static void test_objects(void **state)
{
	struct flat_binder_object o;
	struct {
		uint32_t before[2];
		struct flat_binder_object obj;
	} data;
	binder_size_t offs[2] = { 8, 100 };
	struct binder_transaction_data txn;

	(void)state;
	binder_obj_binder(&o, 0x1000, 0x2000, false);
	assert_int_equal(o.hdr.type, BINDER_TYPE_BINDER);
	assert_true(o.binder == 0x1000 && o.cookie == 0x2000);
	binder_obj_binder(&o, 0x1000, 0x2000, true);
	assert_int_equal(o.hdr.type, BINDER_TYPE_WEAK_BINDER);
	binder_obj_handle(&o, 3, false);
	assert_int_equal(o.hdr.type, BINDER_TYPE_HANDLE);
	assert_int_equal(o.handle, 3);

	memset(&data, 0, sizeof(data));
	binder_obj_handle(&data.obj, 11, false);
	binder_txn_init(&txn, 0, 0, 0, &data, sizeof(data), offs, 2);
	assert_int_equal(binder_txn_object_count(&txn), 2);
	assert_ptr_equal(binder_txn_object(&txn, 0), &data.obj.hdr);
	assert_null(binder_txn_object(&txn, 1));     /* offset out of data */
	assert_null(binder_txn_object(&txn, 2));
}

/* ---- parsing --------------------------------------------------------- */

static void test_parse_sequence(void **state)
{
	uint8_t buf[512];
	size_t len = 0, pos = 0;
	struct binder_transaction_data txn;
	struct binder_ret r;

	(void)state;
	memset(&txn, 0, sizeof(txn));
	txn.code = 77;
	txn.data_size = 4;
	txn.data.ptr.buffer = 0x7000;
	put(buf, &len, BR_NOOP, NULL, 0);
	put(buf, &len, BR_TRANSACTION_COMPLETE, NULL, 0);
	put(buf, &len, BR_REPLY, &txn, sizeof(txn));

	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_NOOP);
	assert_int_equal(r.size, 0);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_TRANSACTION_COMPLETE);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_REPLY);
	assert_int_equal(r.size, 64);
	assert_int_equal(r.u.txn.code, 77);
	assert_true(r.u.txn.data.ptr.buffer == 0x7000);
	assert_int_equal(pos, len);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 0);
}

static void test_parse_payloads(void **state)
{
	uint8_t buf[512];
	size_t len = 0, pos = 0;
	struct binder_ptr_cookie pc = { 0x11, 0x22 };
	struct binder_transaction_data_secctx sc;
	uint64_t cookie = 0xdead;
	int32_t err = -22;
	uint64_t future = 5;
	struct binder_ret r;

	(void)state;
	memset(&sc, 0, sizeof(sc));
	sc.transaction_data.code = 5;
	sc.secctx = 0x99;
	put(buf, &len, BR_INCREFS, &pc, sizeof(pc));
	put(buf, &len, BR_DEAD_BINDER, &cookie, sizeof(cookie));
	put(buf, &len, BR_ERROR, &err, sizeof(err));
	put(buf, &len, BR_TRANSACTION_SEC_CTX, &sc, sizeof(sc));
	/* a return this library does not know: skipped by its encoded size */
	put(buf, &len, _IOR('r', 40, uint64_t), &future, sizeof(future));
	put(buf, &len, BR_SPAWN_LOOPER, NULL, 0);

	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_INCREFS);
	assert_true(r.u.ptr_cookie.ptr == 0x11 && r.u.ptr_cookie.cookie == 0x22);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_true(r.u.cookie == 0xdead);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.u.value, -22);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_TRANSACTION_SEC_CTX);
	assert_int_equal(r.u.txn.code, 5);
	assert_true(r.secctx == 0x99);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.size, 8);
	assert_string_equal(binder_ret_name(r.cmd), "BR_?");
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(r.cmd, BR_SPAWN_LOOPER);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 0);
}

static void test_parse_malformed(void **state)
{
	uint8_t buf[64];
	size_t len = 0, pos = 0;
	struct binder_transaction_data txn;
	struct binder_ret r;

	(void)state;
	memset(&txn, 0, sizeof(txn));
	put(buf, &len, BR_NOOP, NULL, 0);
	put(buf, &len, BR_REPLY, &txn, 20);   /* truncated payload */
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), 1);
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), -EBADMSG);
	assert_int_equal(pos, 4);             /* not advanced */

	len = 0;
	pos = 0;
	put(buf, &len, BC_ENTER_LOOPER, NULL, 0);  /* a command, not a return */
	assert_int_equal(binder_ret_next(buf, len, &pos, &r), -EBADMSG);
	assert_int_equal(binder_ret_next(buf, 2, &pos, &r), -EBADMSG);
}

static void test_names_and_errors(void **state)
{
	(void)state;
	assert_string_equal(binder_ret_name(BR_REPLY), "BR_REPLY");
	assert_string_equal(binder_ret_name(BR_TRANSACTION), "BR_TRANSACTION");
	assert_string_equal(binder_ret_name(BR_TRANSACTION_SEC_CTX),
			    "BR_TRANSACTION_SEC_CTX");
	assert_string_equal(binder_ret_name(BR_DEAD_BINDER), "BR_DEAD_BINDER");
	assert_string_equal(binder_cmd_name(BC_REPLY_SG), "BC_REPLY_SG");
	assert_string_equal(binder_cmd_name(BR_NOOP), "BC_?");
	assert_int_equal(binder_ret_errno(BR_DEAD_REPLY), -EHOSTDOWN);
	assert_int_equal(binder_ret_errno(BR_FAILED_REPLY), -ECOMM);
	assert_int_equal(binder_ret_errno(BR_FROZEN_REPLY), -EAGAIN);
	assert_int_equal(binder_ret_errno(BR_NOOP), 0);
}

/* ---- the I/O state machine over the fake driver ---------------------- */

static void test_io_call_reply(void **state)
{
	struct binder_conn c = { .fd = FAKE_FD };
	struct binder_io io;
	struct binder_transaction_data reply, txn;
	char data[4] = "abc";
	uint8_t *w;

	(void)state;
	fake_reset();
	memset(&txn, 0, sizeof(txn));
	txn.data_size = 4;
	txn.data.ptr.buffer = 0x5000;
	script(0, BR_NOOP, NULL, 0);
	script(0, BR_TRANSACTION_COMPLETE, NULL, 0);
	script(0, BR_REPLY, &txn, sizeof(txn));
	binder_io_init(&io, &c);
	assert_int_equal(binder_io_call(&io, 0, 1, 0, data, 4, NULL, 0, &reply), 0);
	assert_true(reply.data.ptr.buffer == 0x5000);
	assert_int_equal(fake.calls, 1);
	assert_int_equal(fake.write_len[0], 68);
	assert_int_equal(u32_at(fake.writes[0], 0), BC_TRANSACTION);
	assert_int_equal(io.n.replies, 1);
	assert_int_equal(io.n.transaction_complete, 1);

	/* The free of the reply goes out in front of the next transaction,
	 * in the same ioctl. */
	txn.data.ptr.buffer = 0x6000;
	script(1, BR_NOOP, NULL, 0);
	script(1, BR_TRANSACTION_COMPLETE, NULL, 0);
	script(1, BR_REPLY, &txn, sizeof(txn));
	binder_io_free(&io, reply.data.ptr.buffer);
	assert_int_equal(binder_io_call(&io, 0, 1, 0, data, 4, NULL, 0, &reply), 0);
	assert_int_equal(fake.calls, 2);
	w = fake.writes[1];
	assert_int_equal(fake.write_len[1], 12 + 68);
	assert_int_equal(u32_at(w, 0), BC_FREE_BUFFER);
	assert_int_equal(u32_at(w, 4), 0x5000);
	assert_int_equal(u32_at(w, 12), BC_TRANSACTION);
	assert_true(reply.data.ptr.buffer == 0x6000);
}

static void test_io_call_failures(void **state)
{
	struct binder_conn c = { .fd = FAKE_FD };
	struct binder_io io;
	struct binder_transaction_data reply;

	(void)state;
	fake_reset();
	script(0, BR_NOOP, NULL, 0);
	script(0, BR_DEAD_REPLY, NULL, 0);
	script(1, BR_NOOP, NULL, 0);
	script(1, BR_FAILED_REPLY, NULL, 0);
	binder_io_init(&io, &c);
	assert_int_equal(binder_io_call(&io, 9, 1, 0, NULL, 0, NULL, 0, &reply),
			 -EHOSTDOWN);
	assert_int_equal(binder_io_call(&io, 9, 1, 0, NULL, 0, NULL, 0, &reply),
			 -ECOMM);
	fake.fail_errno = EBADF;
	assert_int_equal(binder_io_call(&io, 9, 1, 0, NULL, 0, NULL, 0, &reply),
			 -EBADF);
}

static void test_io_acks_refcounts_and_deaths(void **state)
{
	struct binder_conn c = { .fd = FAKE_FD };
	struct binder_io io;
	struct binder_transaction_data txn;
	struct binder_ptr_cookie pc = { 0xa0, 0xb0 };
	uint64_t cookie = 0xc0;
	uint8_t *w;
	size_t off;

	(void)state;
	fake_reset();
	memset(&txn, 0, sizeof(txn));
	/* Round 0: the node owner is asked to take references, and a death
	 * notification arrives, together with the reply. */
	script(0, BR_NOOP, NULL, 0);
	script(0, BR_INCREFS, &pc, sizeof(pc));
	script(0, BR_ACQUIRE, &pc, sizeof(pc));
	script(0, BR_DEAD_BINDER, &cookie, sizeof(cookie));
	script(0, BR_TRANSACTION_COMPLETE, NULL, 0);
	script(0, BR_REPLY, &txn, sizeof(txn));
	binder_io_init(&io, &c);
	assert_int_equal(binder_io_call(&io, 0, 1, 0, NULL, 0, NULL, 0, NULL), 0);
	assert_int_equal(io.n.increfs, 1);
	assert_int_equal(io.n.acquire, 1);
	assert_int_equal(io.n.dead_binder, 1);
	/* The acks are queued for the next write, in arrival order, then the
	 * automatic free of the reply. */
	assert_int_equal(binder_io_flush(&io), 0);
	w = fake.writes[1];
	off = 0;
	assert_int_equal(u32_at(w, off), BC_INCREFS_DONE);
	off += 4 + 16;
	assert_int_equal(u32_at(w, off), BC_ACQUIRE_DONE);
	off += 4 + 16;
	assert_int_equal(u32_at(w, off), BC_DEAD_BINDER_DONE);
	assert_int_equal(u32_at(w, off + 4), 0xc0);
	off += 12;
	assert_int_equal(u32_at(w, off), BC_FREE_BUFFER);
	off += 12;
	assert_int_equal(fake.write_len[1], off);
}

static int served;
static int serve_one(struct binder_io *io, const struct binder_transaction_data *t,
		     void *arg)
{
	(void)arg;
	served++;
	binder_io_reply_and_free(io, t, "ok", 2);
	return t->code == 99 ? 1 : 0;
}

static void test_io_loop_replies_then_frees(void **state)
{
	struct binder_conn c = { .fd = FAKE_FD };
	struct binder_io io;
	struct binder_transaction_data txn;
	uint8_t *w;

	(void)state;
	fake_reset();
	memset(&txn, 0, sizeof(txn));
	txn.code = 1;
	txn.data.ptr.buffer = 0x8000;
	script(0, BR_NOOP, NULL, 0);
	script(0, BR_TRANSACTION, &txn, sizeof(txn));
	txn.code = 99;
	txn.data.ptr.buffer = 0x9000;
	txn.flags = TF_ONE_WAY;
	script(1, BR_NOOP, NULL, 0);
	script(1, BR_TRANSACTION, &txn, sizeof(txn));
	served = 0;
	binder_io_init(&io, &c);
	io.on_txn = serve_one;
	assert_int_equal(binder_io_loop(&io), 0);
	assert_int_equal(served, 2);
	assert_int_equal(fake.calls, 3);     /* 2 rounds + final flush */
	assert_int_equal(u32_at(fake.writes[0], 0), BC_ENTER_LOOPER);
	w = fake.writes[1];
	assert_int_equal(u32_at(w, 0), BC_REPLY);      /* reply first ... */
	assert_int_equal(u32_at(w, 68), BC_FREE_BUFFER); /* ... then free */
	assert_int_equal(u32_at(w, 72), 0x8000);
	/* one-way: no reply, only the free */
	assert_int_equal(fake.write_len[2], 12);
	assert_int_equal(u32_at(fake.writes[2], 0), BC_FREE_BUFFER);
	assert_int_equal(u32_at(fake.writes[2], 4), 0x9000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes_match_uapi),
		cmocka_unit_test(test_encode_transaction),
		cmocka_unit_test(test_encode_small_commands),
		cmocka_unit_test(test_encode_overflow),
		cmocka_unit_test(test_encode_sg),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_parse_sequence),
		cmocka_unit_test(test_parse_payloads),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_names_and_errors),
		cmocka_unit_test(test_io_call_reply),
		cmocka_unit_test(test_io_call_failures),
		cmocka_unit_test(test_io_acks_refcounts_and_deaths),
		cmocka_unit_test(test_io_loop_replies_then_frees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
