/* binder-throughput: the equivalent of Android's binderThroughputTest.
 *
 * -w worker processes, each a binder server (looper threads that answer
 * every transaction) and a client (its main thread sends -i synchronous
 * transactions of -s bytes to other workers and measures each).  Without
 * -p a client picks a random other worker each time; with -p the first half
 * of the workers only serve and worker k of the second half sends to
 * worker k - w/2.
 *
 * There is no servicemanager: a small context-manager process keeps the
 * registry.  Each worker registers its node (a flat_binder_object) and
 * looks up the others, which come back as handles translated by the
 * kernel; the worker keeps them with BC_ACQUIRE.
 *
 * Latencies go into a log-linear histogram per worker in shared memory
 * (buckets <= 1.6% wide; best and worst are exact); the parent merges.
 */
#include <errno.h>
#include <pthread.h>
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
#include "lib/stats.h"
#include "workload.h"

#define NAME "binder-throughput"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&binder_throughput_metric_rows[id])

const char binder_throughput_usage[] =
"Usage: binder-throughput [OPTIONS]\n"
"binder transactions between worker processes (Android's binderThroughputTest):\n"
"each worker serves and sends synchronous transactions to the others.\n"
"\n";

static const char binder_throughput_output[] =
"Events phase-begin/end (setup, run).\n";

#define CODE_REGISTER 1
#define CODE_LOOKUP   2
#define CODE_WORK     3
#define CODE_QUIT     4
#define MAX_WORKERS   1000

struct worker_res {
	uint64_t done, errors;
	struct hist h;
};

struct shared {
	volatile uint32_t registered, looked_up, finished, abort;
	uint32_t nworkers;
	struct worker_res res[];
};

struct cfg {
	uint64_t workers, iterations, payload, server_threads, time_ns;
	bool pairs, echo;
};

/* ---- the registry (context manager) -------------------------------------- */

struct registry {
	uint32_t *handle;            /* per worker index, 0 = none */
	uint32_t n;
	struct flat_binder_object reply_obj;   /* stays valid until written */
	binder_size_t reply_off;
};

static int registry_txn(struct binder_io *io, const struct binder_transaction_data *t,
			void *arg)
{
	struct registry *reg = arg;
	const uint32_t *idx = (const uint32_t *)(uintptr_t)t->data.ptr.buffer;
	int stop = 0;

	switch (t->code) {
	case CODE_REGISTER: {
		const struct binder_object_header *h = binder_txn_object(t, 0);

		if (t->data_size >= 4 && *idx < reg->n && h &&
		    h->type == BINDER_TYPE_HANDLE) {
			const struct flat_binder_object *o = (const void *)h;

			reg->handle[*idx] = o->handle;
			/* keep the reference past this buffer */
			binder_io_ref(io, BC_ACQUIRE, o->handle);
		}
		binder_io_reply_and_free(io, t, NULL, 0);
		break;
	}
	case CODE_LOOKUP:
		if (t->data_size >= 4 && *idx < reg->n && reg->handle[*idx]) {
			binder_obj_handle(&reg->reply_obj, reg->handle[*idx], false);
			reg->reply_off = 0;
			binder_io_reply(io, &reg->reply_obj, sizeof(reg->reply_obj),
					&reg->reply_off, 1, 0);
		} else {
			binder_io_reply(io, NULL, 0, NULL, 0, 0);
		}
		binder_io_free(io, t->data.ptr.buffer);
		break;
	case CODE_QUIT:
		stop = 1;
		/* fall through */
	default:
		binder_io_reply_and_free(io, t, NULL, 0);
		break;
	}
	return stop;
}

static int run_registry(const char *path, uint32_t n, struct wl_pipe *ready)
{
	struct binder_conn c;
	struct binder_io *io = malloc(sizeof(*io));
	struct registry reg = { .n = n };
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	reg.handle = calloc(n, sizeof(uint32_t));
	if (!io || !reg.handle)
		return 1;
	r = binder_conn_open(&c, path, BINDER_MAP_DEFAULT, NULL);
	if (!r)
		r = binder_become_manager(&c);
	if (r) {
		wl_err(NAME, "registry: %s", strerror(-r));
		return 1;
	}
	binder_io_init(io, &c);
	io->on_txn = registry_txn;
	io->arg = &reg;
	wl_pipe_signal(ready, 'R');
	r = binder_io_loop(io);
	return r < 0 ? 1 : 0;
}

/* ---- workers ---------------------------------------------------------- */

struct server_arg {
	struct binder_conn *conn;
	bool echo;
};

static int serve_txn(struct binder_io *io, const struct binder_transaction_data *t,
		     void *arg)
{
	const struct server_arg *sa = arg;

	if (sa->echo)
		return binder_io_reply_and_free(io, t,
						(const void *)(uintptr_t)t->data.ptr.buffer,
						t->data_size) < 0 ? -EIO : 0;
	return binder_io_reply_and_free(io, t, NULL, 0) < 0 ? -EIO : 0;
}

static void *server_thread(void *p)
{
	struct server_arg *sa = p;
	struct binder_io *io = malloc(sizeof(*io));

	if (!io)
		return NULL;
	binder_io_init(io, sa->conn);
	io->on_txn = serve_txn;
	io->arg = sa;
	binder_io_loop(io);
	return NULL;
}

static char node_anchor[MAX_WORKERS];   /* node addresses: &node_anchor[i] */

static int lookup(struct binder_io *io, uint32_t idx, uint32_t *handle)
{
	struct binder_transaction_data reply;
	const struct binder_object_header *h;
	int r = binder_io_call(io, 0, CODE_LOOKUP, 0, &idx, sizeof(idx), NULL, 0,
			       &reply);

	if (r)
		return r;
	h = binder_txn_object(&reply, 0);
	if (!h || h->type != BINDER_TYPE_HANDLE) {
		binder_io_free(io, reply.data.ptr.buffer);
		return -ENOENT;
	}
	*handle = ((const struct flat_binder_object *)h)->handle;
	/* acquire before the free releases the reply's temporary reference */
	binder_io_ref(io, BC_ACQUIRE, *handle);
	binder_io_free(io, reply.data.ptr.buffer);
	return 0;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static int worker(const struct cfg *cfg, const char *path, uint32_t idx,
		  struct shared *sh)
{
	struct worker_res *res = &sh->res[idx];
	uint32_t n = (uint32_t)cfg->workers, servers = cfg->pairs ? n / 2 : n;
	bool client = !cfg->pairs || idx >= servers;
	struct {
		uint32_t idx, pad;
		struct flat_binder_object obj;
	} regmsg;
	binder_size_t regoff = 8;
	struct binder_transaction_data reply;
	struct server_arg sa;
	struct binder_conn conn;
	struct binder_io *io;
	uint32_t *targets = NULL, ntargets = 0;
	uint8_t *payload = NULL;
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)idx * 0x100000001b3ull + 1);
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	io = malloc(sizeof(*io));
	payload = calloc(1, cfg->payload ? cfg->payload : 1);
	targets = calloc(n, sizeof(uint32_t));
	if (!io || !payload || !targets)
		goto fail;
	r = binder_conn_open(&conn, path, BINDER_MAP_DEFAULT, NULL);
	if (r) {
		wl_err(NAME, "worker %u: open: %s", idx, strerror(-r));
		goto fail;
	}
	sa.conn = &conn;
	sa.echo = cfg->echo;
	for (uint64_t t = 0; t < cfg->server_threads; t++) {
		pthread_t th;

		if (pthread_create(&th, NULL, server_thread, &sa))
			goto fail;
	}
	binder_io_init(io, &conn);

	memset(&regmsg, 0, sizeof(regmsg));
	regmsg.idx = idx;
	binder_obj_binder(&regmsg.obj, (binder_uintptr_t)(uintptr_t)&node_anchor[idx],
			  idx, false);
	r = binder_io_call(io, 0, CODE_REGISTER, 0, &regmsg, sizeof(regmsg), &regoff, 1,
			   &reply);
	if (r) {
		wl_err(NAME, "worker %u: register: %s", idx, strerror(-r));
		goto fail;
	}
	binder_io_free(io, reply.data.ptr.buffer);
	wl_barrier_arrive(&sh->registered);
	if (wl_barrier_wait(&sh->registered, n, &sh->abort, 600000))
		goto fail;

	if (client) {
		for (uint32_t j = 0; j < servers; j++) {
			if (cfg->pairs && j != idx % servers)
				continue;
			if (!cfg->pairs && j == idx)
				continue;
			r = lookup(io, j, &targets[ntargets]);
			if (r) {
				wl_err(NAME, "worker %u: lookup %u: %s", idx, j, strerror(-r));
				goto fail;
			}
			ntargets++;
		}
		binder_io_flush(io);
	}
	wl_barrier_arrive(&sh->looked_up);
	if (wl_barrier_wait(&sh->looked_up, n, &sh->abort, 600000))
		goto fail;

	if (client && ntargets) {
		uint64_t start = mono_ns();

		for (uint64_t i = 0; i < cfg->iterations && !sh->abort; i++) {
			uint32_t h = targets[ntargets == 1 ? 0 : xorshift(&seed) % ntargets];
			uint64_t t0 = mono_ns(), t1;

			r = binder_io_call(io, h, CODE_WORK, 0, payload, cfg->payload,
					   NULL, 0, &reply);
			t1 = mono_ns();
			if (r) {
				res->errors++;
				if (res->errors > 100)
					break;
				continue;
			}
			binder_io_free(io, reply.data.ptr.buffer);
			wl_hist_add(&res->h, t1 - t0);
			res->done++;
			if (cfg->time_ns && t1 - start >= cfg->time_ns)
				break;
		}
		binder_io_flush(io);
	}
	/* Keep serving until every client is done. */
	wl_barrier_arrive(&sh->finished);
	wl_barrier_wait(&sh->finished, n, &sh->abort, -1);
	return 0;
fail:
	sh->abort = 1;
	wl_barrier_arrive(&sh->registered);
	wl_barrier_arrive(&sh->looked_up);
	wl_barrier_arrive(&sh->finished);
	return 1;
}

/* ---- the parent -------------------------------------------------------- */

/* Waits for a barrier while watching the children; a dead worker aborts. */
static int watch_barrier(struct shared *sh, volatile uint32_t *ctr, uint32_t n,
			 pid_t *pids, uint32_t npids, uint64_t *dead)
{
	for (;;) {
		int r = wl_barrier_wait(ctr, n, &sh->abort, 200);

		if (r != -ETIMEDOUT)
			return r;
		for (uint32_t i = 0; i < npids; i++) {
			int status;

			if (pids[i] && waitpid(pids[i], &status, WNOHANG) == pids[i]) {
				char sbuf[64];
				struct jl j;

				report_begin_event(&j, "worker-died");
				jl_i64(&j, "worker", i);
				jl_i64(&j, "pid", pids[i]);
				jl_str(&j, "status", wl_status_str(status, sbuf, sizeof(sbuf)));
				report_end(&j);
				pids[i] = 0;
				(*dead)++;
				sh->abort = 1;
			}
		}
		if (wl_stop)
			sh->abort = 1;
	}
}

int binder_throughput_main(int argc, char **argv)
{
	struct cfg cfg = { .workers = 2, .iterations = 10000, .server_threads = 1 };
	const char *binderfs = NULL, *device = NULL;
	struct wl_common com = { -1 };
	struct binder_device dev;
	struct wl_pipe ready;
	struct shared *sh;
	struct hist *all;
	size_t sh_bytes;
	pid_t registry, *pids;
	uint64_t t_start, t_end, total = 0, errors = 0, dead = 0, clients = 0;
	int r, ret = WL_EXIT_OK;
	bool done;
	const struct opt opts[] = {
		OPT_U64('w', "workers", &cfg.workers, "N", 2, MAX_WORKERS, "worker processes (default 2)"),
		OPT_U64('i', "iterations", &cfg.iterations, "N", 1, UINT32_MAX,
			"transactions each client sends (default 10000)"),
		WL_OPT_SIZE('s', "payload", &cfg.payload, "SIZE", 0, 256 << 10,
			    "bytes per transaction (default 0)"),
		OPT_FLAG('p', "pairs", &cfg.pairs,
			 "client/server pairs: the first half of the workers only serve, worker k "
			 "of the second half sends to k-w/2"),
		OPT_FLAG(0, "echo", &cfg.echo, "servers echo the payload back (default: empty reply)"),
		OPT_U64(0, "server-threads", &cfg.server_threads, "N", 1, 64,
			"looper threads per worker (default 1)"),
		WL_OPT_DURATION(0, "time", &cfg.time_ns, "DUR",
				"clients stop after DUR even before -i is reached"),
		OPT_STRING(0, "binderfs", &binderfs, "DIR",
			   "binderfs mount (default /dev/binderfs); a fresh device is made and removed"),
		OPT_STRING(0, "device", &device, "PATH", "use this existing binder device instead"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};

	r = wl_parse_args(NAME, argc, argv, opts, binder_throughput_usage, binder_throughput_output,
			  &com, &done);
	if (done)
		return r;
	if (cfg.pairs && cfg.workers % 2)
		return wl_usage_error(NAME, "-p needs an even number of workers, got %llu",
				      (unsigned long long)cfg.workers);

	wl_start();
	r = wl_raise_nofile(64);
	if (wl_binder_device_setup(NAME, &dev, device, binderfs))
		return WL_EXIT_FAIL;
	sh_bytes = sizeof(*sh) + cfg.workers * sizeof(struct worker_res);
	sh = wl_shared_alloc(sh_bytes);
	pids = calloc(cfg.workers, sizeof(pid_t));
	all = malloc(sizeof(*all));
	if (!sh || !pids || !all || wl_pipe_open(&ready)) {
		wl_err(NAME, "out of memory");
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}
	sh->nworkers = (uint32_t)cfg.workers;
	for (uint64_t i = 0; i < cfg.workers; i++)
		wl_hist_init(&sh->res[i].h);

	report_phase("setup", true);
	registry = fork();
	if (registry == 0) {
		close(ready.rd);
		_exit(run_registry(dev.path, (uint32_t)cfg.workers, &ready));
	}
	close(ready.wr);
	ready.wr = -1;
	r = registry < 0 ? -errno : wl_pipe_wait(&ready, NULL, 30000);
	wl_pipe_close(&ready);
	if (r) {
		wl_err(NAME, "registry did not start: %s", strerror(-r));
		if (registry > 0) {
			kill(registry, SIGKILL);
			waitpid(registry, NULL, 0);
		}
		binder_device_remove(&dev);
		return WL_EXIT_FAIL;
	}
	for (uint64_t i = 0; i < cfg.workers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			wl_err(NAME, "fork worker %llu: %s", (unsigned long long)i,
			       strerror(errno));
			sh->abort = 1;
			break;
		}
		if (pid == 0)
			_exit(worker(&cfg, dev.path, (uint32_t)i, sh));
		pids[i] = pid;
	}
	r = watch_barrier(sh, &sh->registered, (uint32_t)cfg.workers, pids,
			  (uint32_t)cfg.workers, &dead);
	if (!r)
		r = watch_barrier(sh, &sh->looked_up, (uint32_t)cfg.workers, pids,
				  (uint32_t)cfg.workers, &dead);
	report_phase("setup", false);
	t_start = mono_ns();
	if (!r) {
		report_phase("run", true);
		r = watch_barrier(sh, &sh->finished, (uint32_t)cfg.workers, pids,
				  (uint32_t)cfg.workers, &dead);
		report_phase("run", false);
	}
	t_end = mono_ns();
	if (r) {
		sh->abort = 1;
		if (wl_stop && !dead) {
			report_event("stopped");      /* SIGTERM: partial figures */
		} else {
			ret = WL_EXIT_FAIL;
			wl_err(NAME, "aborted: %s", r == -ECANCELED ?
			       "a worker failed or died" : strerror(-r));
		}
	}
	for (uint64_t i = 0; i < cfg.workers; i++) {
		if (!pids[i])
			continue;
		if (wl_waitpid_timeout(pids[i], NULL, 10000) <= 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
	kill(registry, SIGKILL);
	waitpid(registry, NULL, 0);

	wl_hist_init(all);
	for (uint64_t i = 0; i < cfg.workers; i++) {
		wl_hist_merge(all, &sh->res[i].h);
		total += sh->res[i].done;
		errors += sh->res[i].errors;
		if (!cfg.pairs || i >= cfg.workers / 2)
			clients++;
	}
	report_row(ROW(THROUGHPUT_WORKERS), (double)cfg.workers, NULL);
	report_row(ROW(THROUGHPUT_CLIENTS), (double)clients, NULL);
	report_row(ROW(THROUGHPUT_ITERATIONS), (double)total, NULL);
	report_row(ROW(THROUGHPUT_ERRORS), (double)errors, NULL);
	if (total && t_end > t_start) {
		double ips = (double)total * 1e9 / (double)(t_end - t_start);

		report_row(ROW(THROUGHPUT_ITERATIONS_PER_S), ips, NULL);
		report_row(ROW(THROUGHPUT_LATENCY_AVG), wl_hist_mean(all), NULL);
		report_row(ROW(THROUGHPUT_LATENCY_WORST), (double)all->max, NULL);
		report_row(ROW(THROUGHPUT_LATENCY_BEST), (double)all->min, NULL);
		report_row(ROW(THROUGHPUT_LATENCY_P50), (double)wl_hist_pct(all, 50), NULL);
		report_row(ROW(THROUGHPUT_LATENCY_P90), (double)wl_hist_pct(all, 90), NULL);
		report_row(ROW(THROUGHPUT_LATENCY_P95), (double)wl_hist_pct(all, 95), NULL);
		report_row(ROW(THROUGHPUT_LATENCY_P99), (double)wl_hist_pct(all, 99), NULL);
		/* binderThroughputTest's own lines, for people used to them */
		fprintf(stderr, "iterations per sec: %.1f\n", ips);
		fprintf(stderr, "average:%.4fms worst:%.4fms best:%.4fms\n",
			wl_hist_mean(all) / 1e6, (double)all->max / 1e6, (double)all->min / 1e6);
		fprintf(stderr, "50%%: %.4f 90%%: %.4f 95%%: %.4f 99%%: %.4f\n",
			(double)wl_hist_pct(all, 50) / 1e6, (double)wl_hist_pct(all, 90) / 1e6,
			(double)wl_hist_pct(all, 95) / 1e6, (double)wl_hist_pct(all, 99) / 1e6);
	}
	if (errors || dead)
		fprintf(stderr, "%s: %llu errors, %llu workers died\n", NAME,
			(unsigned long long)errors, (unsigned long long)dead);
	free(all);
	free(pids);
	wl_shared_free(sh, sh_bytes);
	r = binder_device_remove(&dev);
	if (r)
		wl_err(NAME, "removing %s: %s", dev.path, strerror(-r));
	return ret;
}
