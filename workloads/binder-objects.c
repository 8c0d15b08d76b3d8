/* binder-objects: churn of binder objects so that the slab caches that hold
 * them matter (seed 003: kzalloc vs dedicated kmem_caches).
 *
 * A manager process (context manager, --manager-threads loopers) and
 * --clients client processes, each with --threads sender threads and one
 * looper.  Every sender sends --rounds transactions, each carrying --nodes
 * flat_binder_objects (new nodes in the client); the manager keeps a
 * strong reference to every handle it receives (BC_ACQUIRE) and asks for a
 * death notification on each.  Then:
 *   hold      everything alive: binder stats and slab usage are recorded;
 *   release   the manager clears the death notification of and releases a
 *             fraction of the refs (nodes go away in the clients);
 *   dead      the clients exit: the manager receives BR_DEAD_BINDER for the
 *             rest and acknowledges;
 *   end       the manager releases what is left and exits.
 *
 * Reports, per phase, binder stats ("node: active N total M") as deltas
 * from the start, the expected counts, and the slab caches that hold each
 * object type: object size, objects per slab, active objects, memory, the
 * memory efficiency (payload bytes per slab / slab bytes, as in the seed
 * thread) and which caches were merged (/sys/kernel/slab aliases).  On a
 * stock kernel the objects live in kmalloc-* caches; with a
 * 'binder-kmem-cache' variant in binder_proc, binder_thread, binder_node,
 * binder_ref, binder_transaction, binder_work, binder_ref_death.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/check.h"
#include "lib/binder.h"
#include "lib/binder_setup.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/sysinfo.h"
#include "workload.h"

#define NAME "binder-objects"
/* One of its metric rows (common/proto/workload-metrics.h), by its ID. */
#define ROW(id) (&binder_objects_metric_rows[id])
#define SLAB_SYSFS "/sys/kernel/slab"

const char binder_objects_usage[] =
"Usage: binder-objects [OPTIONS]\n"
"Churn of binder objects: threads, nodes passed as flat_binder_objects, refs\n"
"acquired and released, death notifications; reports binder stats per object\n"
"type and the slab caches holding them (size, objects per slab, active objects,\n"
"memory, efficiency, merged aliases).\n"
"\n";

static const char binder_objects_output[] =
"Labels: type = binder object type, when = before|hold|released|dead|end,\n"
"cycle; the slab metrics also cache.  Events: slab-cache (cache, type,\n"
"resolved, merged, aliases), binder-stats (absolute active/total per type),\n"
"phase events.\n";

#define CODE_NODES 1
#define MAX_NODES  256

/* Payload sizes of the binder structs, 6.12.117 x86_64 with oomlab's base
 * config (sizeof() taken from the built tree), used for kmalloc caches
 * where the cache's object size is the kmalloc bucket, not the struct. */
static const struct {
	enum binder_obj type;
	const char *cache;        /* the dedicated cache's name, if any */
	uint64_t size;
} binder_structs[] = {
	{ BOBJ_PROC, "binder_proc", 632 },
	{ BOBJ_THREAD, "binder_thread", 456 },
	{ BOBJ_NODE, "binder_node", 128 },
	{ BOBJ_REF, "binder_ref", 112 },
	{ BOBJ_DEATH, "binder_ref_death", 32 },
	{ BOBJ_TRANSACTION, "binder_transaction", 168 },
	{ BOBJ_TRANSACTION_COMPLETE, "binder_work", 24 },
};
#define NSTRUCTS (sizeof(binder_structs) / sizeof(binder_structs[0]))

struct cfg {
	uint64_t clients, threads, rounds, nodes, mthreads, release_pct;
	uint64_t hold_ns, cycles;
	bool death;
	uint64_t size[BOBJ_COUNT];
	char stats[512];
};

enum mgr_cmd { CMD_NONE, CMD_RELEASE, CMD_FINAL };

struct shared {
	volatile uint32_t created;       /* sender threads done */
	volatile uint32_t abort;
	volatile uint32_t cmd, cmd_done;
	volatile uint32_t deaths, clear_done;
	volatile uint32_t errors;
	volatile uint32_t nhandles;
	volatile uint32_t released;
};

/* ---- the manager ------------------------------------------------------- */

struct manager {
	const struct cfg *cfg;
	struct shared *sh;
	struct binder_conn conn;
	pthread_mutex_t lock;
	uint32_t *handles;
	uint32_t n, cap;
};

static int mgr_txn(struct binder_io *io, const struct binder_transaction_data *t,
		   void *arg)
{
	struct manager *m = arg;
	size_t nobj = binder_txn_object_count(t);

	if (t->code == CODE_NODES) {
		for (size_t i = 0; i < nobj; i++) {
			const struct binder_object_header *h = binder_txn_object(t, i);
			const struct flat_binder_object *o = (const void *)h;
			uint32_t slot;

			if (!h || h->type != BINDER_TYPE_HANDLE)
				continue;
			pthread_mutex_lock(&m->lock);
			slot = m->n < m->cap ? m->n++ : UINT32_MAX;
			if (slot != UINT32_MAX)
				m->handles[slot] = o->handle;
			pthread_mutex_unlock(&m->lock);
			if (slot == UINT32_MAX)
				continue;
			binder_io_ref(io, BC_ACQUIRE, o->handle);
			if (m->cfg->death)
				binder_io_death(io, BC_REQUEST_DEATH_NOTIFICATION,
						o->handle, o->handle);
		}
		__atomic_store_n(&m->sh->nhandles, m->n, __ATOMIC_RELAXED);
	}
	return binder_io_reply_and_free(io, t, NULL, 0) < 0 ? -EIO : 0;
}

static void mgr_death(struct binder_io *io, binder_uintptr_t cookie, void *arg)
{
	struct manager *m = arg;

	(void)io;
	(void)cookie;
	__atomic_add_fetch(&m->sh->deaths, 1, __ATOMIC_RELAXED);
}

static void mgr_clear_done(struct binder_io *io, binder_uintptr_t cookie, void *arg)
{
	struct manager *m = arg;

	(void)io;
	(void)cookie;
	__atomic_add_fetch(&m->sh->clear_done, 1, __ATOMIC_RELAXED);
}

static void *mgr_looper(void *p)
{
	struct manager *m = p;
	struct binder_io *io = malloc(sizeof(*io));

	if (!io)
		return NULL;
	binder_io_init(io, &m->conn);
	io->on_txn = mgr_txn;
	io->on_death = mgr_death;
	io->on_clear_death = mgr_clear_done;
	io->arg = m;
	if (binder_io_loop(io) < 0)
		m->sh->errors++;
	return NULL;
}

static int run_manager(const struct cfg *cfg, const char *path, struct shared *sh,
		       struct wl_pipe *ready)
{
	struct manager m = { .cfg = cfg, .sh = sh };
	struct binder_io *io = malloc(sizeof(*io));
	uint32_t released = 0;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	pthread_mutex_init(&m.lock, NULL);
	m.cap = (uint32_t)(cfg->clients * cfg->threads * cfg->rounds * cfg->nodes);
	m.handles = calloc(m.cap ? m.cap : 1, sizeof(uint32_t));
	if (!io || !m.handles)
		return 1;
	r = binder_conn_open(&m.conn, path, BINDER_MAP_MAX, NULL);
	if (!r)
		r = binder_become_manager(&m.conn);
	if (r) {
		wl_err(NAME, "manager: %s", strerror(-r));
		return 1;
	}
	for (uint64_t i = 0; i < cfg->mthreads; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, mgr_looper, &m))
			return 1;
	}
	binder_io_init(io, &m.conn);
	wl_pipe_signal(ready, 'R');

	/* The main thread takes commands from the parent. */
	for (;;) {
		uint32_t cmd = __atomic_load_n(&sh->cmd, __ATOMIC_ACQUIRE);

		if (cmd == CMD_RELEASE && sh->cmd_done != CMD_RELEASE) {
			uint32_t n = m.n, k = (uint32_t)((uint64_t)n * cfg->release_pct / 100);

			for (uint32_t i = 0; i < k; i++) {
				if (cfg->death)
					binder_io_death(io, BC_CLEAR_DEATH_NOTIFICATION,
							m.handles[i], m.handles[i]);
				binder_io_ref(io, BC_RELEASE, m.handles[i]);
			}
			binder_io_flush(io);
			released = k;
			sh->released = k;
			__atomic_store_n(&sh->cmd_done, CMD_RELEASE, __ATOMIC_RELEASE);
		} else if (cmd == CMD_FINAL && sh->cmd_done != CMD_FINAL) {
			for (uint32_t i = released; i < m.n; i++)
				binder_io_ref(io, BC_RELEASE, m.handles[i]);
			binder_io_flush(io);
			__atomic_store_n(&sh->cmd_done, CMD_FINAL, __ATOMIC_RELEASE);
			/* the parent measures, then kills us */
		}
		wl_sleep_ns(2000000);
	}
	return 0;
}

/* ---- clients ----------------------------------------------------------- */

struct client {
	const struct cfg *cfg;
	struct shared *sh;
	struct binder_conn conn;
	uint32_t idx;
};

struct sender_arg {
	struct client *c;
	uint32_t t;
	uint8_t *anchors;        /* node addresses: &anchors[k] */
};

static void *client_looper(void *p)
{
	struct client *c = p;
	struct binder_io *io = malloc(sizeof(*io));

	if (!io)
		return NULL;
	binder_io_init(io, &c->conn);
	binder_io_loop(io);      /* BR_RELEASE / BR_DECREFS of our nodes */
	return NULL;
}

static void *sender(void *p)
{
	struct sender_arg *a = p;
	const struct cfg *cfg = a->c->cfg;
	struct flat_binder_object *objs = calloc(cfg->nodes, sizeof(*objs));
	binder_size_t *offs = calloc(cfg->nodes, sizeof(*offs));
	struct binder_io *io = malloc(sizeof(*io));
	struct binder_transaction_data reply;

	if (!objs || !offs || !io) {
		a->c->sh->errors++;
		return NULL;
	}
	binder_io_init(io, &a->c->conn);
	for (uint64_t r = 0; r < cfg->rounds && !a->c->sh->abort; r++) {
		for (uint64_t k = 0; k < cfg->nodes; k++) {
			uint64_t id = r * cfg->nodes + k;

			binder_obj_binder(&objs[k],
					  (binder_uintptr_t)(uintptr_t)&a->anchors[id],
					  ((uint64_t)a->c->idx << 40) | ((uint64_t)a->t << 32) | id,
					  false);
			offs[k] = k * sizeof(*objs);
		}
		if (binder_io_call(io, 0, CODE_NODES, 0, objs, cfg->nodes * sizeof(*objs),
				   offs, cfg->nodes, &reply) < 0) {
			__atomic_add_fetch(&a->c->sh->errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		binder_io_free(io, reply.data.ptr.buffer);
	}
	binder_io_flush(io);
	wl_barrier_arrive(&a->c->sh->created);
	return NULL;
}

static int run_client(const struct cfg *cfg, const char *path, struct shared *sh,
		      uint32_t idx, int exit_fd)
{
	struct client c = { .cfg = cfg, .sh = sh, .idx = idx };
	struct sender_arg *args = calloc(cfg->threads, sizeof(*args));
	pthread_t *th = calloc(cfg->threads, sizeof(*th));
	pthread_t lt;
	char ch;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wl_default_signals();
	if (!args || !th)
		return 1;
	r = binder_conn_open(&c.conn, path, BINDER_MAP_DEFAULT, NULL);
	if (r) {
		wl_err(NAME, "client %u: %s", idx, strerror(-r));
		return 1;
	}
	if (pthread_create(&lt, NULL, client_looper, &c))
		return 1;
	for (uint64_t t = 0; t < cfg->threads; t++) {
		args[t].c = &c;
		args[t].t = (uint32_t)t;
		args[t].anchors = malloc(cfg->rounds * cfg->nodes);
		if (!args[t].anchors || pthread_create(&th[t], NULL, sender, &args[t]))
			return 1;
	}
	for (uint64_t t = 0; t < cfg->threads; t++)
		pthread_join(th[t], NULL);
	/* Stay alive (nodes and looper) until the parent closes the pipe. */
	while (read(exit_fd, &ch, 1) < 0 && errno == EINTR)
		;
	return 0;
}

/* ---- measurement ------------------------------------------------------- */

static const char *stats_path(const struct cfg *cfg)
{
	return cfg->stats;
}

static void slab_cache_for(enum binder_obj type, char *cache, size_t cap,
			   uint64_t payload, bool *dedicated)
{
	char path[300];
	struct stat st;
	const char *name = NULL;
	static const uint64_t classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512,
					    1024, 2048, 4096, 8192 };

	for (size_t i = 0; i < NSTRUCTS; i++)
		if (binder_structs[i].type == type)
			name = binder_structs[i].cache;
	*dedicated = false;
	if (name) {
		snprintf(path, sizeof(path), "%s/%s", SLAB_SYSFS, name);
		if (lstat(path, &st) == 0) {
			*dedicated = true;
			wl_strlcpy0(cache, name, cap);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (payload <= classes[i]) {
			if (classes[i] >= 1024)
				snprintf(cache, cap, "kmalloc-%lluk",
					 (unsigned long long)(classes[i] / 1024));
			else
				snprintf(cache, cap, "kmalloc-%llu",
					 (unsigned long long)classes[i]);
			return;
		}
	}
	snprintf(cache, cap, "kmalloc-8k");
}

struct slab_view {
	bool ok;
	uint64_t object_size, slab_bytes, objs_per_slab, active, num, slabs, mem;
	int naliases;
	bool alias;
	char target[64];
};

static void read_slab_view(const char *cache, const char *slabinfo, struct slab_view *v)
{
	struct slub_cache sc;
	struct slab_cache si;

	/* Slab orders and slabinfo's pages are in the kernel's pages (16 KiB on arm64/16k). */
	unsigned long long page = wl_page_size();

	memset(v, 0, sizeof(*v));
	if (wl_read_slub_cache(SLAB_SYSFS, cache, &sc) == 0) {
		v->ok = true;
		v->object_size = sc.object_size;
		v->slab_bytes = page << sc.order;
		v->objs_per_slab = sc.objs_per_slab;
		v->naliases = sc.naliases;
		v->alias = sc.alias;
		wl_strlcpy0(v->target, sc.target, sizeof(v->target));
		if (sc.have_debug_counts) {
			v->active = sc.objects;
			v->num = sc.total_objects;
			v->slabs = sc.slabs;
			v->mem = sc.slabs * v->slab_bytes;
			return;
		}
	}
	/* /proc/slabinfo lists the canonical name of a merged cache only. */
	if (slabinfo && (slabinfo_find(slabinfo, cache, &si) == 0 ||
			 (v->target[0] && slabinfo_find(slabinfo, v->target, &si) == 0))) {
		v->ok = true;
		if (!v->object_size)
			v->object_size = si.objsize;
		if (!v->objs_per_slab)
			v->objs_per_slab = si.objs_per_slab;
		if (!v->slab_bytes)
			v->slab_bytes = si.pages_per_slab * page;
		v->active = si.active_objs;
		v->num = si.num_objs;
		v->slabs = si.num_slabs;
		v->mem = slab_cache_bytes(&si, page);
	}
}

static void report_slabs(const struct cfg *cfg, const char *when, const char *cycle,
			 bool events)
{
	char *slabinfo = NULL;

	wl_read_text_alloc("/proc/slabinfo", &slabinfo);
	for (size_t i = 0; i < NSTRUCTS; i++) {
		enum binder_obj type = binder_structs[i].type;
		const char *tname = binder_obj_names[type];
		uint64_t payload = cfg->size[type];
		char cache[64];
		bool dedicated;
		struct slab_view v;
		const char *labels[9];

		slab_cache_for(type, cache, sizeof(cache), payload, &dedicated);
		read_slab_view(cache, slabinfo, &v);
		if (!v.ok)
			continue;
		/* A dedicated cache of its own has object_size == sizeof(); merged
		 * into another cache it takes the larger size of that one. */
		if (dedicated && !v.alias && v.naliases == 0)
			payload = v.object_size;
		labels[0] = "cache"; labels[1] = cache;
		labels[2] = "type"; labels[3] = tname;
		labels[4] = "when"; labels[5] = when;
		labels[6] = "cycle"; labels[7] = cycle;
		labels[8] = NULL;
		report_row(ROW(OBJECTS_SLAB_OBJECT_SIZE), (double)v.object_size, labels);
		report_row(ROW(OBJECTS_SLAB_SLAB_BYTES), (double)v.slab_bytes, labels);
		report_row(ROW(OBJECTS_SLAB_OBJS_PER_SLAB), (double)v.objs_per_slab, labels);
		report_row(ROW(OBJECTS_SLAB_ACTIVE_OBJS), (double)v.active, labels);
		report_row(ROW(OBJECTS_SLAB_NUM_OBJS), (double)v.num, labels);
		report_row(ROW(OBJECTS_SLAB_SLABS), (double)v.slabs, labels);
		report_row(ROW(OBJECTS_SLAB_MEM_BYTES), (double)v.mem, labels);
		if (v.slab_bytes)
			report_row(ROW(OBJECTS_SLAB_EFFICIENCY),
				      (double)(payload * v.objs_per_slab) / (double)v.slab_bytes, labels);
		report_row(ROW(OBJECTS_SLAB_ALIASES), (double)v.naliases, labels);
		if (events) {
			char aliases[1024];
			struct jl j;

			wl_slub_aliases_of(SLAB_SYSFS, v.target[0] ? v.target : cache,
					aliases, sizeof(aliases));
			report_begin_event(&j, "slab-cache");
			jl_str(&j, "type", tname);
			jl_str(&j, "cache", cache);
			jl_bool(&j, "dedicated", dedicated);
			jl_str(&j, "resolved", v.target[0] ? v.target : cache);
			jl_bool(&j, "merged", v.alias || v.naliases > 0);
			jl_i64(&j, "naliases", v.naliases);
			jl_str(&j, "aliases", aliases);
			jl_u64(&j, "payload_size", payload);
			jl_u64(&j, "object_size", v.object_size);
			report_end(&j);
		}
	}
	free(slabinfo);
}

static void report_binder(const struct cfg *cfg, const char *when, const char *cycle,
			  const struct binder_objstats *base, const int64_t *expected)
{
	struct binder_objstats now;
	struct jl j;

	if (wl_read_binder_stats(stats_path(cfg), &now) < 0)
		return;
	report_begin_event(&j, "binder-stats");
	jl_str(&j, "when", when);
	jl_str(&j, "cycle", cycle);
	for (int i = 0; i < BOBJ_COUNT; i++) {
		char k[64];

		snprintf(k, sizeof(k), "%s_active", binder_obj_names[i]);
		jl_i64(&j, k, now.active[i]);
		snprintf(k, sizeof(k), "%s_total", binder_obj_names[i]);
		jl_i64(&j, k, now.total[i]);
	}
	report_end(&j);
	for (int i = 0; i < BOBJ_COUNT; i++) {
		const char *labels[] = { "type", binder_obj_names[i], "when", when,
					 "cycle", cycle, NULL };
		int64_t active = now.active[i] - base->active[i];

		if (i == BOBJ_FREEZE && !now.present[i])
			continue;
		report_row(ROW(OBJECTS_ACTIVE), (double)active, labels);
		report_row(ROW(OBJECTS_CREATED), (double)(now.total[i] - base->total[i]), labels);
		if (cfg->size[i])
			report_row(ROW(OBJECTS_PAYLOAD_BYTES),
				      (double)(now.active[i] > 0 ? now.active[i] : 0) *
				      (double)cfg->size[i], labels);
		if (expected && expected[i] >= 0)
			report_row(ROW(OBJECTS_EXPECTED_ACTIVE), (double)expected[i], labels);
	}
}

/* Waits until fn() holds or timeout; polls every 20 ms. */
static bool wait_until(bool (*fn)(const struct shared *, uint32_t), const struct shared *sh,
		       uint32_t arg, int timeout_ms)
{
	uint64_t end = mono_ns() + (uint64_t)timeout_ms * 1000000ull;

	while (!fn(sh, arg)) {
		if (mono_ns() >= end || wl_stop)
			return false;
		wl_sleep_ns(20000000);
	}
	return true;
}

static bool cmd_is_done(const struct shared *sh, uint32_t cmd)
{
	return __atomic_load_n(&sh->cmd_done, __ATOMIC_ACQUIRE) == cmd;
}

static bool deaths_reached(const struct shared *sh, uint32_t n)
{
	return __atomic_load_n(&sh->deaths, __ATOMIC_RELAXED) >= n;
}

/* Waits until the binder stats stop changing (work the clients' and the
 * manager's loopers still have to process), at most timeout_ms. */
static void settle(const struct cfg *cfg, int timeout_ms)
{
	struct binder_objstats a, b;
	uint64_t end = mono_ns() + (uint64_t)timeout_ms * 1000000ull;

	wl_read_binder_stats(stats_path(cfg), &a);
	while (mono_ns() < end && !wl_stop) {
		wl_sleep_ns(100000000);
		wl_read_binder_stats(stats_path(cfg), &b);
		if (!memcmp(a.active, b.active, sizeof(a.active)))
			return;
		a = b;
	}
}

static int one_cycle(const struct cfg *cfg, const char *path, uint64_t cycle_no,
		     const struct binder_objstats *base)
{
	struct shared *sh = wl_shared_alloc(sizeof(*sh));
	pid_t mgr, *clients = calloc(cfg->clients, sizeof(pid_t));
	struct wl_pipe ready, exitp;
	uint32_t senders = (uint32_t)(cfg->clients * cfg->threads);
	int64_t objs = (int64_t)(cfg->clients * cfg->threads * cfg->rounds * cfg->nodes);
	int64_t expected[BOBJ_COUNT];
	char cyc[24];
	int r = 0;

	snprintf(cyc, sizeof(cyc), "%llu", (unsigned long long)cycle_no);
	if (!sh || !clients || wl_pipe_open(&ready) || wl_pipe_open(&exitp))
		return -ENOMEM;
	report_phase("create", true);
	mgr = fork();
	if (mgr == 0) {
		close(ready.rd);
		close(exitp.wr);
		_exit(run_manager(cfg, path, sh, &ready));
	}
	close(ready.wr);
	ready.wr = -1;
	r = mgr < 0 ? -errno : wl_pipe_wait(&ready, NULL, 30000);
	wl_pipe_close(&ready);
	if (r)
		goto out;
	for (uint64_t i = 0; i < cfg->clients; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			r = -errno;
			goto out;
		}
		if (pid == 0) {
			close(exitp.wr);
			_exit(run_client(cfg, path, sh, (uint32_t)i, exitp.rd));
		}
		clients[i] = pid;
	}
	r = wl_barrier_wait(&sh->created, senders, &sh->abort, 600000);
	report_phase("create", false);
	if (r)
		goto out;
	settle(cfg, 3000);

	/* hold */
	for (int i = 0; i < BOBJ_COUNT; i++)
		expected[i] = -1;
	expected[BOBJ_PROC] = (int64_t)(1 + cfg->clients);
	/* manager: main + loopers; client: main + looper + senders */
	expected[BOBJ_THREAD] = (int64_t)(1 + cfg->mthreads + cfg->clients * (2 + cfg->threads));
	expected[BOBJ_NODE] = objs + 1;                      /* + the manager's node */
	/* handle 0 needs no ref: the driver uses the context manager's node */
	expected[BOBJ_REF] = objs;
	expected[BOBJ_DEATH] = cfg->death ? objs : 0;
	expected[BOBJ_TRANSACTION] = 0;
	report_binder(cfg, "hold", cyc, base, expected);
	report_slabs(cfg, "hold", cyc, cycle_no == 1);
	if (cfg->hold_ns) {
		report_phase("hold", true);
		wl_sleep_ns(cfg->hold_ns);
		report_phase("hold", false);
	}

	/* release */
	report_phase("release", true);
	sh->cmd = CMD_RELEASE;
	if (!wait_until(cmd_is_done, sh, CMD_RELEASE, 60000)) {
		r = -ETIMEDOUT;
		goto out;
	}
	settle(cfg, 5000);
	report_phase("release", false);
	report_binder(cfg, "released", cyc, base, NULL);

	/* dead: the clients exit */
	report_phase("dead", true);
	wl_pipe_close(&exitp);
	for (uint64_t i = 0; i < cfg->clients; i++) {
		int status;

		waitpid(clients[i], &status, 0);
		clients[i] = 0;
	}
	if (cfg->death)
		wait_until(deaths_reached, sh, (uint32_t)(sh->nhandles - sh->released), 30000);
	settle(cfg, 5000);
	report_phase("dead", false);
	report_binder(cfg, "dead", cyc, base, NULL);
	{
		struct jl j;

		report_begin_event(&j, "manager-counts");
		jl_str(&j, "cycle", cyc);
		jl_u64(&j, "handles", sh->nhandles);
		jl_u64(&j, "released", sh->released);
		jl_u64(&j, "dead_binder", sh->deaths);
		jl_u64(&j, "clear_death_done", sh->clear_done);
		jl_u64(&j, "errors", sh->errors);
		report_end(&j);
	}

	/* end: the manager releases the rest and goes */
	sh->cmd = CMD_FINAL;
	wait_until(cmd_is_done, sh, CMD_FINAL, 60000);
	kill(mgr, SIGKILL);
	waitpid(mgr, NULL, 0);
	mgr = 0;
	settle(cfg, 3000);
	report_binder(cfg, "end", cyc, base, NULL);
	if (sh->errors)
		r = -EIO;
out:
	if (r)
		sh->abort = 1;
	wl_pipe_close(&exitp);
	for (uint64_t i = 0; i < cfg->clients; i++)
		if (clients[i] > 0) {
			kill(clients[i], SIGKILL);
			waitpid(clients[i], NULL, 0);
		}
	if (mgr > 0) {
		kill(mgr, SIGKILL);
		waitpid(mgr, NULL, 0);
	}
	free(clients);
	wl_shared_free(sh, sizeof(*sh));
	return r;
}

/* --struct-size T=N: the payload size of one object type. */
static int struct_size_option(const struct opt *o, const char *arg, char *err, size_t err_size)
{
	struct cfg *cfg = o->target;
	const char *eq = strchr(arg, '=');
	uint64_t v;

	for (int i = 0; eq && i < BOBJ_COUNT; i++) {
		if (strlen(binder_obj_names[i]) == (size_t)(eq - arg) &&
		    !strncmp(arg, binder_obj_names[i], (size_t)(eq - arg))) {
			if (wl_parse_u64_str(eq + 1, &v) || v == 0 || v > 65536)
				break;
			cfg->size[i] = v;
			return 0;
		}
	}
	snprintf(err, err_size, "needs TYPE=BYTES with TYPE one of proc, thread, node, ref, death, "
		 "transaction, transaction_complete; got '%s'", arg);
	return -1;
}

int binder_objects_main(int argc, char **argv)
{
	struct cfg cfg = {
		.clients = 4, .threads = 4, .rounds = 16, .nodes = 16, .mthreads = 4,
		.release_pct = 50, .cycles = 1,
	};
	const char *binderfs = NULL, *device = NULL, *stats = NULL;
	struct binder_objstats base;
	struct binder_device dev;
	struct wl_common com = { -1 };
	bool no_death = false, done;
	int r, ret = WL_EXIT_OK;
	const struct opt opts[] = {
		OPT_U64(0, "clients", &cfg.clients, "N", 1, 512, "client processes (default 4)"),
		OPT_U64(0, "threads", &cfg.threads, "N", 1, 256, "sender threads per client (default 4)"),
		OPT_U64(0, "rounds", &cfg.rounds, "N", 1, 100000,
			"transactions per sender thread (default 16)"),
		OPT_U64(0, "nodes", &cfg.nodes, "N", 1, MAX_NODES,
			"binder objects per transaction (default 16, max 256)"),
		OPT_U64(0, "manager-threads", &cfg.mthreads, "N", 1, 64,
			"looper threads in the manager (default 4)"),
		OPT_U64(0, "release", &cfg.release_pct, "PCT", 0, 100,
			"percent of the refs released while the clients live (default 50)"),
		OPT_FLAG(0, "no-death", &no_death, "no death notifications"),
		WL_OPT_DURATION(0, "hold", &cfg.hold_ns, "DUR", "stay in the hold phase this long (default 0)"),
		OPT_U64(0, "cycles", &cfg.cycles, "N", 1, 10000, "repeat the whole thing N times (default 1)"),
		OPT_CALL(0, "struct-size", &cfg, "T=N", struct_size_option,
			 "payload size of binder object type T (proc, thread, node, ref, death, "
			 "transaction, transaction_complete) for kmalloc caches; default: 6.12.117 "
			 "x86_64 sizes"),
		OPT_STRING(0, "binderfs", &binderfs, "DIR",
			   "binderfs mount (default /dev/binderfs); a fresh device is made and removed"),
		OPT_STRING(0, "device", &device, "PATH", "use this existing binder device instead"),
		OPT_STRING(0, "stats", &stats, "PATH",
			   "binder stats file (default <binderfs>/binder_logs/stats, then "
			   "/sys/kernel/debug/binder/stats)"),
		WL_NODE_OPTION(&com),
		OPT_END(),
	};

	for (size_t i = 0; i < NSTRUCTS; i++)
		cfg.size[binder_structs[i].type] = binder_structs[i].size;
	r = wl_parse_args(NAME, argc, argv, opts, binder_objects_usage, binder_objects_output, &com,
			  &done);
	if (done)
		return r;
	cfg.death = !no_death;
	if (cfg.clients * cfg.threads * cfg.rounds * cfg.nodes > 4000000)
		return wl_usage_error(NAME, "clients x threads x rounds x nodes must stay below 4000000");
	wl_start();

	if (stats) {
		wl_strlcpy0(cfg.stats, stats, sizeof(cfg.stats));
	} else {
		snprintf(cfg.stats, sizeof(cfg.stats), "%s/binder_logs/stats",
			 binderfs ? binderfs : BINDERFS_DEFAULT);
		if (access(cfg.stats, R_OK) < 0)
			wl_strlcpy0(cfg.stats, "/sys/kernel/debug/binder/stats", sizeof(cfg.stats));
	}
	if (wl_read_binder_stats(cfg.stats, &base) < 0)
		wl_err(NAME, "cannot read binder stats from %s (mount binderfs with "
		       "-o stats=global); counts will be missing", cfg.stats);

	wl_raise_nofile(256);
	if (wl_binder_device_setup(NAME, &dev, device, binderfs))
		return WL_EXIT_FAIL;
	report_binder(&cfg, "before", "0", &base, NULL);
	report_slabs(&cfg, "before", "0", false);
	for (uint64_t cy = 1; cy <= cfg.cycles && !wl_stop; cy++) {
		r = one_cycle(&cfg, dev.path, cy, &base);
		if (r) {
			wl_err(NAME, "cycle %llu failed: %s", (unsigned long long)cy,
			       strerror(-r));
			ret = WL_EXIT_FAIL;
			break;
		}
	}
	report_slabs(&cfg, "end", "0", false);
	r = binder_device_remove(&dev);
	if (r)
		wl_err(NAME, "removing %s: %s", dev.path, strerror(-r));
	return ret;
}
