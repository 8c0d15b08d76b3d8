/* binder-sendvec: the equivalent of Android's BM_sendVec_binder.  A server
 * process (the device's context manager) echoes every transaction back; a
 * client process sends N bytes synchronously and waits for the echo, for
 * N = 4, 8, ..., 65536, each size for a time or iteration budget.
 *
 * Per size (label "size"): wall and CPU ns per round trip, iterations,
 * bytes per second (size * iterations / time, the seed thread's TH-PUT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/check.h"
#include "lib/binder.h"
#include "lib/binder_setup.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "workload.h"

#define NAME "binder-sendvec"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&binder_sendvec_metric_rows[id])

const char binder_sendvec_usage[] =
"Usage: binder-sendvec [OPTIONS]\n"
"Synchronous binder echo of N bytes (Android's BM_sendVec_binder/N): a server\n"
"process echoes each transaction, the client measures round trips per size.\n"
"\n";

static const char binder_sendvec_output[] =
"Label size=N, with --sg also mode=sg.  Events phase-begin/phase-end with\n"
"phase size-N.  SIGTERM ends after the current size.\n";

#define CODE_ECHO  1
#define CODE_QUIT  2
#define MAX_SIZES  32

static int echo_handler(struct binder_io *io,
			const struct binder_transaction_data *txn, void *arg)
{
	(void)arg;
	if (txn->code == CODE_QUIT) {
		binder_io_reply_and_free(io, txn, NULL, 0);
		return 1;
	}
	/* Scatter-gather: the kernel copied the buffer object's bytes into
	 * our mapping and pointed the object at them. */
	if (binder_txn_object_count(txn) == 1) {
		const struct binder_object_header *h = binder_txn_object(txn, 0);

		if (h && h->type == BINDER_TYPE_PTR) {
			const struct binder_buffer_object *bo = (const void *)h;

			return binder_io_reply_and_free(io, txn,
							(const void *)(uintptr_t)bo->buffer,
							bo->length) < 0 ? -EIO : 0;
		}
	}
	/* Reply with the received bytes straight from our mapping; the
	 * BC_REPLY is queued before the BC_FREE_BUFFER of that data. */
	return binder_io_reply_and_free(io, txn,
					(const void *)(uintptr_t)txn->data.ptr.buffer,
					txn->data_size) < 0 ? -EIO : 0;
}

static int run_server(const char *path, size_t map_size, struct wl_pipe *ready)
{
	struct binder_conn c;
	struct binder_io io;
	enum binder_open_step step;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	r = binder_conn_open(&c, path, map_size, &step);
	if (r) {
		wl_err(NAME, "server: %s %s: %s", binder_step_name(step), path,
		       strerror(-r));
		return 1;
	}
	r = binder_become_manager(&c);
	if (r) {
		wl_err(NAME, "server: BINDER_SET_CONTEXT_MGR: %s", strerror(-r));
		return 1;
	}
	binder_io_init(&io, &c);
	io.on_txn = echo_handler;
	wl_pipe_signal(ready, 'R');
	r = binder_io_loop(&io);
	if (r < 0 && r != -EINTR) {
		wl_err(NAME, "server: loop: %s", strerror(-r));
		return 1;
	}
	binder_conn_close(&c);
	return 0;
}

struct size_result {
	uint64_t iterations, errors;
	uint64_t wall_ns, cpu_ns;
};

static bool use_sg;

/* One echo round trip, inline or scatter-gather. */
static int echo(struct binder_io *io, const uint8_t *buf, size_t size,
		struct binder_transaction_data *reply)
{
	struct binder_buffer_object bo;
	binder_size_t off = 0;

	if (!use_sg)
		return binder_io_call(io, 0, CODE_ECHO, 0, buf, size, NULL, 0, reply);
	binder_obj_buffer(&bo, buf, size, false, 0, 0);
	return binder_io_call_sg(io, 0, CODE_ECHO, 0, &bo, sizeof(bo), &off, 1,
				 binder_align8(size), reply);
}

static void run_size(struct binder_io *io, uint8_t *buf, size_t size,
		     uint64_t warmup, uint64_t iterations, uint64_t budget_ns,
		     struct size_result *res)
{
	struct binder_transaction_data reply;
	uint64_t t0, c0, deadline, i = 0;

	memset(res, 0, sizeof(*res));
	for (size_t k = 0; k < size; k++)
		buf[k] = (uint8_t)(k * 7 + size);
	for (uint64_t k = 0; k < warmup && !wl_stop; k++) {
		if (echo(io, buf, size, &reply) < 0) {
			res->errors++;
			continue;
		}
		if (k == 0 && (reply.data_size != size ||
			       memcmp((const void *)(uintptr_t)reply.data.ptr.buffer,
				      buf, size)))
			res->errors++;       /* echo is wrong */
		binder_io_free(io, reply.data.ptr.buffer);
	}
	t0 = mono_ns();
	c0 = wl_cpu_ns_process();
	deadline = t0 + budget_ns;
	for (;;) {
		int r = echo(io, buf, size, &reply);

		if (r < 0) {
			res->errors++;
			if (r == -EHOSTDOWN || r == -EINTR || res->errors > 100)
				break;
		} else {
			if (reply.data_size != size)
				res->errors++;
			binder_io_free(io, reply.data.ptr.buffer);
			i++;
		}
		if (wl_stop)
			break;
		if (iterations) {
			if (i >= iterations)
				break;
		} else if (mono_ns() >= deadline) {
			break;
		}
	}
	res->wall_ns = mono_ns() - t0;
	res->cpu_ns = wl_cpu_ns_process() - c0;
	res->iterations = i;
}

static void report_size(size_t size, const struct size_result *r)
{
	char sz[24];
	const char *labels[] = { "size", sz, use_sg ? "mode" : NULL, "sg", NULL };
	double it = (double)r->iterations;

	snprintf(sz, sizeof(sz), "%zu", size);
	if (r->iterations) {
		report_row(ROW(SENDVEC_NS_PER_RT), (double)r->wall_ns / it, labels);
		report_row(ROW(SENDVEC_CPU_NS_PER_RT), (double)r->cpu_ns / it, labels);
	}
	report_row(ROW(SENDVEC_ITERATIONS), it, labels);
	if (r->wall_ns)
		report_row(ROW(SENDVEC_BYTES_PER_S),
			      (double)size * it * 1e9 / (double)r->wall_ns, labels);
	if (r->cpu_ns)
		report_row(ROW(SENDVEC_CPU_BYTES_PER_S),
			      (double)size * it * 1e9 / (double)r->cpu_ns, labels);
	report_row(ROW(SENDVEC_ERRORS), (double)r->errors, labels);
}

int binder_sendvec_main(int argc, char **argv)
{
	uint64_t sizes[MAX_SIZES], per_size_ns = 1000000000ull, total_ns = 0;
	uint64_t iterations = 0, warmup = 50, map_size = BINDER_MAP_DEFAULT;

	use_sg = false;
	const char *binderfs = NULL, *device = NULL;
	struct wl_common com = { -1 };
	struct wl_size_list size_list = { sizes, 0, MAX_SIZES };
	int nsizes = 0, r, status, done_sizes = 0, ret = WL_EXIT_OK;
	struct binder_device dev;
	struct wl_pipe ready;
	struct binder_conn conn;
	struct binder_io *io;
	uint8_t *buf;
	pid_t server;
	size_t max_size = 0;
	bool done;

	const struct opt opts[] = {
		{ OPTION_CALL, 0, "sizes", &size_list, "LIST",
		  "comma-separated sizes (default 4,8,...,65536: 15 sizes)", 0, 0, wl_opt_size_list, NULL },
		WL_OPT_DURATION(0, "time-per-size", &per_size_ns, "DUR",
				"time budget per size (default 1s; e.g. 200ms)"),
		WL_OPT_DURATION(0, "time", &total_ns, "DUR",
				"total time budget, split evenly over the sizes"),
		OPT_U64(0, "iterations", &iterations, "N", 1, UINT32_MAX,
			"fixed iterations per size (instead of a time budget)"),
		OPT_U64(0, "warmup", &warmup, "N", 0, 1000000,
			"untimed round trips before each size (default 50)"),
		OPT_FLAG(0, "sg", &use_sg,
			 "send the bytes as a scatter-gather buffer object (BC_TRANSACTION_SG + "
			 "binder_buffer_object) instead of inline data; metrics get the label mode=sg"),
		WL_OPT_SIZE(0, "map-size", &map_size, "SIZE", 4096, BINDER_MAP_MAX,
			    "binder mmap size per process (default 1M-8K, max 4M)"),
		OPT_STRING(0, "binderfs", &binderfs, "DIR",
			   "binderfs mount (default /dev/binderfs); a fresh device oomlab-<pid>-<n> is "
			   "made and removed"),
		OPT_STRING(0, "device", &device, "PATH", "use this existing binder device instead"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};

	r = wl_parse_args(NAME, argc, argv, opts, binder_sendvec_usage, binder_sendvec_output, &com,
			  &done);
	nsizes = size_list.n;
	if (done)
		return r;
	if (!nsizes)
		for (uint64_t s = 4; s <= 65536; s *= 2)
			sizes[nsizes++] = s;
	for (int k = 0; k < nsizes; k++)
		if (sizes[k] > max_size)
			max_size = sizes[k];
	/* The echo needs the request and the reply in flight: the reply
	 * lands in the client's mapping, the request in the server's. */
	if (max_size + 64 > map_size / 2)
		return wl_usage_error(NAME, "--sizes up to %zu need --map-size of at least %zu",
				      max_size, 2 * (max_size + 64));
	if (total_ns)
		per_size_ns = total_ns / (uint64_t)nsizes;

	wl_start();
	if (wl_binder_device_setup(NAME, &dev, device, binderfs))
		return WL_EXIT_FAIL;

	if (wl_pipe_open(&ready)) {
		wl_err(NAME, "pipe: %s", strerror(errno));
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}
	server = fork();
	if (server < 0) {
		wl_err(NAME, "fork: %s", strerror(errno));
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}
	if (server == 0) {
		close(ready.rd);
		_exit(run_server(dev.path, map_size, &ready));
	}
	close(ready.wr);
	ready.wr = -1;
	r = wl_pipe_wait(&ready, NULL, 30000);
	wl_pipe_close(&ready);
	if (r) {
		wl_err(NAME, "server did not start: %s", strerror(-r));
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}

	r = binder_conn_open(&conn, dev.path, map_size, NULL);
	io = malloc(sizeof(*io));
	buf = malloc(max_size);
	if (r || !io || !buf) {
		wl_err(NAME, "client: open %s: %s", dev.path, strerror(r ? -r : ENOMEM));
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}
	binder_io_init(io, &conn);

	for (int k = 0; k < nsizes && !wl_stop; k++) {
		struct size_result res;
		char phase[32];

		snprintf(phase, sizeof(phase), "size-%llu", (unsigned long long)sizes[k]);
		report_phase(phase, true);
		run_size(io, buf, sizes[k], warmup, iterations, per_size_ns, &res);
		report_phase(phase, false);
		report_size(sizes[k], &res);
		fprintf(stderr, "%s: %6llu bytes: %10.0f ns/rt wall %10.0f ns/rt cpu %8llu iterations%s\n",
			NAME, (unsigned long long)sizes[k],
			res.iterations ? (double)res.wall_ns / (double)res.iterations : 0.0,
			res.iterations ? (double)res.cpu_ns / (double)res.iterations : 0.0,
			(unsigned long long)res.iterations,
			res.errors ? " (errors)" : "");
		if (res.errors && !res.iterations)
			ret = WL_EXIT_FAIL;
		else
			done_sizes++;
	}
	report_row(ROW(SENDVEC_SIZES), done_sizes, NULL);

	/* Tell the server to quit (a fresh flag: a SIGTERM may be pending). */
	wl_stop = 0;
	binder_io_call(io, 0, CODE_QUIT, 0, NULL, 0, NULL, 0, NULL);
	binder_io_flush(io);
	if (wl_waitpid_timeout(server, &status, 5000) <= 0) {
		kill(server, SIGKILL);
		waitpid(server, &status, 0);
	}
	binder_conn_close(&conn);
	free(io);
	free(buf);
	r = binder_device_remove(&dev);
	if (r)
		wl_err(NAME, "removing %s: %s", dev.path, strerror(-r));
	return ret;
}
