/*
 * Every metric a workload reports, declared once: a row (metric-row.h) in
 * its workload's list below. X(ID, "name", "unit", KIND, BETTER, labels,
 * "meaning"), with KIND a METRIC_ kind and BETTER a BETTER_ direction
 * without their prefixes, labels METRIC_NO_LABELS or METRIC_LABELS(...).
 *
 * One list makes both the workload's enum (ID indexes its rows) and the rows
 * (workload-metrics.c), so the workload reports report_row(&rows[ID], ...)
 * (workloads/lib/report.h) and cannot report a name or unit of its own; the
 * guest prints the rows (--metrics, --help) and the host judges the figures
 * by them (analysis/compare/metric.c). A row the host once had no entry for
 * is neither-better, of the kind its unit gives, as it was judged before.
 *
 * Add a metric: a row here, and its report_row() call in workloads/NAME.c.
 */
#ifndef OOMLAB_WORKLOAD_METRICS_H
#define OOMLAB_WORKLOAD_METRICS_H

#include <stddef.h>

#include "metric-row.h"
#include "workload-list.h"

#define BINDER_SENDVEC_METRICS(X)                                                                  \
	X(SENDVEC_NS_PER_RT, "sendvec_ns_per_rt", "ns", TIME, LOWER, SENDVEC_LABELS,                \
	  "a binder echo's round trip, wall time, per size (with --sg also mode=sg)")               \
	X(SENDVEC_CPU_NS_PER_RT, "sendvec_cpu_ns_per_rt", "ns", TIME, LOWER, SENDVEC_LABELS,        \
	  "a binder echo's round trip, the client process's CPU time, per size")                    \
	X(SENDVEC_ITERATIONS, "sendvec_iterations", "count", COUNT, HIGHER, SENDVEC_LABELS,         \
	  "round trips done per size")                                                              \
	X(SENDVEC_BYTES_PER_S, "sendvec_bytes_per_s", "B/s", THROUGHPUT, HIGHER, SENDVEC_LABELS,    \
	  "bytes echoed per second of wall time, per size")                                         \
	X(SENDVEC_CPU_BYTES_PER_S, "sendvec_cpu_bytes_per_s", "B/s", THROUGHPUT, HIGHER,            \
	  SENDVEC_LABELS, "bytes echoed per second of the client's CPU time, per size")             \
	X(SENDVEC_ERRORS, "sendvec_errors", "count", EVENTS, LOWER, SENDVEC_LABELS,                 \
	  "failed transactions per size")                                                           \
	X(SENDVEC_SIZES, "sendvec_sizes", "count", COUNT, NEITHER, METRIC_NO_LABELS,                \
	  "sizes done, at the end")
#define SENDVEC_LABELS METRIC_LABELS("size=*", "mode=sg.size=*")

#define BINDER_THROUGHPUT_METRICS(X)                                                               \
	X(THROUGHPUT_WORKERS, "throughput_workers", "count", COUNT, NEITHER, METRIC_NO_LABELS,      \
	  "worker processes")                                                                       \
	X(THROUGHPUT_CLIENTS, "throughput_clients", "count", COUNT, NEITHER, METRIC_NO_LABELS,      \
	  "the workers that are clients")                                                           \
	X(THROUGHPUT_ITERATIONS, "throughput_iterations", "count", COUNT, NEITHER,                  \
	  METRIC_NO_LABELS, "transactions done in the timed phase")                                 \
	X(THROUGHPUT_ERRORS, "throughput_errors", "count", EVENTS, LOWER, METRIC_NO_LABELS,         \
	  "failed transactions")                                                                    \
	X(THROUGHPUT_ITERATIONS_PER_S, "throughput_iterations_per_s", "1/s", THROUGHPUT, HIGHER,    \
	  METRIC_NO_LABELS, "all transactions over the timed phase's wall time")                    \
	X(THROUGHPUT_LATENCY_AVG, "throughput_latency_avg_ns", "ns", TIME, LOWER, METRIC_NO_LABELS, \
	  "transaction latency, mean")                                                              \
	X(THROUGHPUT_LATENCY_WORST, "throughput_latency_worst_ns", "ns", TIME, LOWER,               \
	  METRIC_NO_LABELS, "transaction latency, worst")                                           \
	X(THROUGHPUT_LATENCY_BEST, "throughput_latency_best_ns", "ns", TIME, LOWER,                 \
	  METRIC_NO_LABELS, "transaction latency, best")                                            \
	X(THROUGHPUT_LATENCY_P50, "throughput_latency_p50_ns", "ns", TIME, LOWER, METRIC_NO_LABELS, \
	  "transaction latency, p50")                                                               \
	X(THROUGHPUT_LATENCY_P90, "throughput_latency_p90_ns", "ns", TIME, LOWER, METRIC_NO_LABELS, \
	  "transaction latency, p90")                                                               \
	X(THROUGHPUT_LATENCY_P95, "throughput_latency_p95_ns", "ns", TIME, LOWER, METRIC_NO_LABELS, \
	  "transaction latency, p95")                                                               \
	X(THROUGHPUT_LATENCY_P99, "throughput_latency_p99_ns", "ns", TIME, LOWER, METRIC_NO_LABELS, \
	  "transaction latency, p99")

/* per binder object type at each point of each cycle; the slab's also per cache */
#define BINDER_OBJECTS_METRICS(X)                                                                  \
	X(OBJECTS_ACTIVE, "binder_active", "count", COUNT, NEITHER, OBJECTS_LABELS,                 \
	  "active objects of the type, minus the value before the run")                            \
	X(OBJECTS_CREATED, "binder_created", "count", COUNT, NEITHER, OBJECTS_LABELS,               \
	  "objects of the type created: total minus the value before the run")                     \
	X(OBJECTS_PAYLOAD_BYTES, "binder_payload_bytes", "B", SIZE, NEITHER, OBJECTS_LABELS,        \
	  "active objects x the struct's size")                                                     \
	X(OBJECTS_EXPECTED_ACTIVE, "binder_expected_active", "count", COUNT, NEITHER,               \
	  OBJECTS_LABELS, "what the run should have alive at hold")                                 \
	X(OBJECTS_SLAB_OBJECT_SIZE, "slab_object_size", "B", SIZE, NEITHER, SLAB_LABELS,            \
	  "the object size of the type's slab cache")                                               \
	X(OBJECTS_SLAB_SLAB_BYTES, "slab_slab_bytes", "B", SIZE, NEITHER, SLAB_LABELS,              \
	  "the bytes of one slab of the cache")                                                     \
	X(OBJECTS_SLAB_OBJS_PER_SLAB, "slab_objs_per_slab", "count", COUNT, NEITHER, SLAB_LABELS,   \
	  "objects per slab of the cache")                                                          \
	X(OBJECTS_SLAB_ACTIVE_OBJS, "slab_active_objs", "count", COUNT, NEITHER, SLAB_LABELS,       \
	  "the cache's active objects")                                                             \
	X(OBJECTS_SLAB_NUM_OBJS, "slab_num_objs", "count", COUNT, NEITHER, SLAB_LABELS,             \
	  "the cache's objects")                                                                    \
	X(OBJECTS_SLAB_SLABS, "slab_slabs", "count", COUNT, NEITHER, SLAB_LABELS,                   \
	  "the cache's slabs")                                                                      \
	X(OBJECTS_SLAB_MEM_BYTES, "slab_mem_bytes", "B", SIZE, LOWER, SLAB_LABELS,                  \
	  "the slab memory of a binder object's cache")                                             \
	X(OBJECTS_SLAB_EFFICIENCY, "slab_efficiency", "ratio", RATIO, HIGHER, SLAB_LABELS,          \
	  "payload bytes x objects per slab / slab bytes, of a binder object's cache")              \
	X(OBJECTS_SLAB_ALIASES, "slab_aliases", "count", COUNT, NEITHER, SLAB_LABELS,               \
	  "the caches merged with the cache")
#define OBJECTS_LABELS METRIC_LABELS("cycle=*.type=*.when=*")
#define SLAB_LABELS METRIC_LABELS("cache=*.cycle=*.type=*.when=*")

#define BINDER_MMAP_METRICS(X)                                                                     \
	X(MMAP_ATTEMPTS, "mmap_attempts", "count", COUNT, NEITHER, METRIC_NO_LABELS,                \
	  "mmaps tried")                                                                            \
	X(MMAP_OK, "mmap_ok", "count", COUNT, HIGHER, METRIC_NO_LABELS,                             \
	  "binder opens whose mmap succeeded")                                                      \
	X(MMAP_ENOMEM, "mmap_enomem", "count", COUNT, LOWER, METRIC_NO_LABELS,                      \
	  "mmaps that failed with ENOMEM")                                                          \
	X(MMAP_ERRORS, "mmap_errors", "count", EVENTS, LOWER, METRIC_NO_LABELS,                     \
	  "other errors at open, version or mmap")                                                  \
	X(MMAP_STALLS, "mmap_stalls", "count", COUNT, LOWER, METRIC_NO_LABELS,                      \
	  "mmaps the workload saw stall")                                                           \
	X(MMAP_OPENERS_KILLED, "mmap_openers_killed", "count", EVENTS, LOWER, METRIC_NO_LABELS,     \
	  "opener processes killed (by a signal) before they finished")                             \
	X(MMAP_LATENCY_P50, "mmap_latency_p50_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,             \
	  "mmap call latency, p50 of every call that returned")                                     \
	X(MMAP_LATENCY_P99, "mmap_latency_p99_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,             \
	  "mmap call latency, p99")                                                                 \
	X(MMAP_LATENCY_MAX, "mmap_latency_max_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,             \
	  "mmap call latency, max")                                                                 \
	X(MMAP_LATENCY_MEAN, "mmap_latency_mean_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,           \
	  "mmap call latency, mean")                                                                \
	X(MMAP_OPEN_LATENCY_P50, "open_latency_p50_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,        \
	  "binder open latency, p50")                                                               \
	X(MMAP_OPEN_LATENCY_MAX, "open_latency_max_ns", "ns", TIME, LOWER, METRIC_NO_LABELS,        \
	  "binder open latency, max")

#define SPAWN_METRICS(X)                                                                           \
	X(SPAWN_COUNT, "spawn_count", "count", COUNT, NEITHER, METRIC_NO_LABELS,                    \
	  "spawns done, failed ones included")                                                      \
	X(SPAWN_FAILURES, "spawn_failures", "count", EVENTS, LOWER, METRIC_NO_LABELS,               \
	  "spawns that failed")                                                                     \
	X(SPAWN_PER_S, "spawn_per_s", "1/s", THROUGHPUT, HIGHER, METRIC_NO_LABELS,                  \
	  "spawns per second")                                                                      \
	X(SPAWN_WALL, "spawn_wall_ns", "ns", TIME, NEITHER, METRIC_NO_LABELS,                       \
	  "wall time of the loop")                                                                  \
	X(SPAWN_NS_PER_SPAWN, "spawn_ns_per_spawn", "ns", TIME, LOWER, METRIC_NO_LABELS,            \
	  "wall time per spawn")                                                                    \
	X(SPAWN_USER, "spawn_user_s", "s", TIME, LOWER, METRIC_NO_LABELS,                           \
	  "user time of the loop, this process and its children")                                   \
	X(SPAWN_SYS, "spawn_sys_s", "s", TIME, LOWER, METRIC_NO_LABELS,                             \
	  "system time of the loop, this process and its children")                                 \
	X(SPAWN_CHILDREN_USER, "spawn_children_user_s", "s", TIME, LOWER, METRIC_NO_LABELS,         \
	  "user time of the children alone")                                                        \
	X(SPAWN_CHILDREN_SYS, "spawn_children_sys_s", "s", TIME, LOWER, METRIC_NO_LABELS,           \
	  "system time of the children alone")

#define OOM_HOG_METRICS(X)                                                                         \
	X(OOMHOG_VICTIMS_LOST, "oomhog_victims_lost", "count", COUNT, NEITHER, METRIC_NO_LABELS,    \
	  "hogs lost to a kill")                                                                    \
	X(OOMHOG_HOGS_STARTED, "oomhog_hogs_started", "count", COUNT, NEITHER, METRIC_NO_LABELS,    \
	  "hogs started")                                                                           \
	X(OOMHOG_KMSG_OOM_KILLS, "oomhog_kmsg_oom_kills", "count", COUNT, NEITHER,                  \
	  METRIC_NO_LABELS, "the kernel's OOM kills of the hogs, from /dev/kmsg")                   \
	X(OOMHOG_KMSG_REAPED, "oomhog_kmsg_reaped", "count", COUNT, NEITHER, METRIC_NO_LABELS,      \
	  "hogs the OOM reaper reaped, from /dev/kmsg")                                             \
	X(OOMHOG_FIRST_LOSS, "oomhog_first_loss_ns", "ns", TIME, NEITHER, METRIC_NO_LABELS,         \
	  "from the start to the first hog lost (absent when none was)")                            \
	X(OOMHOG_KMSG_KILL_TO_REAP, "oomhog_kmsg_kill_to_reap_ns", "ns", TIME, NEITHER,             \
	  METRIC_NO_LABELS, "from the first OOM kill to the first reap, by kmsg's clock")           \
	X(OOMHOG_KILL_TO_RSS_DROP, "oomhog_kill_to_rss_drop_ns", "ns", TIME, NEITHER,               \
	  METRIC_NO_LABELS, "reaper mode: from the kill seen to the victim's RSS freed")            \
	X(OOMHOG_KILL_TO_EXIT, "oomhog_kill_to_exit_ns", "ns", TIME, NEITHER, METRIC_NO_LABELS,     \
	  "reaper mode: from the kill seen to the victim's exit")                                   \
	X(OOMHOG_MEMCG_OOM, "memcg_oom", "count", COUNT, NEITHER, METRIC_NO_LABELS,                 \
	  "the hogs' memcg's memory.events oom, after minus before")                                \
	X(OOMHOG_MEMCG_OOM_KILL, "memcg_oom_kill", "count", COUNT, NEITHER, METRIC_NO_LABELS,       \
	  "the hogs' memcg's memory.events oom_kill, after minus before")                           \
	X(OOMHOG_MEMCG_MAX, "memcg_max", "count", COUNT, NEITHER, METRIC_NO_LABELS,                 \
	  "the hogs' memcg's memory.events max, after minus before")                                \
	X(OOMHOG_VM_OOM_KILL, "vm_oom_kill", "count", COUNT, NEITHER, METRIC_NO_LABELS,             \
	  "/proc/vmstat oom_kill, after minus before")

#define FRAGMENT_METRICS(X)                                                                        \
	X(FRAGMENT_FREE_PAGES, "fragment_free_pages", "pages", SIZE, NEITHER,                       \
	  METRIC_LABELS("when=*"), "free pages of the zones, before or after")                      \
	X(FRAGMENT_FREE_BLOCKS_GE, "fragment_free_blocks_ge", "count", COUNT, NEITHER,              \
	  METRIC_LABELS("order=*.when=*"), "free blocks of the target order or larger")             \
	X(FRAGMENT_UNUSABLE_INDEX, "fragment_unusable_index", "ratio", RATIO, NEITHER,              \
	  METRIC_LABELS("order=*.when=*"), "the unusable free space index at the target order")     \
	X(FRAGMENT_PINNED_BYTES, "fragment_pinned_bytes", "B", SIZE, NEITHER, METRIC_NO_LABELS,     \
	  "memory pinned, the holes left out")                                                      \
	X(FRAGMENT_HOLE_BYTES, "fragment_hole_bytes", "B", SIZE, NEITHER, METRIC_NO_LABELS,         \
	  "memory of the order-0 holes")                                                            \
	X(FRAGMENT_PIPE_BYTES, "fragment_pipe_bytes", "B", SIZE, NEITHER, METRIC_NO_LABELS,         \
	  "memory held in pipes")                                                                   \
	X(FRAGMENT_SLAB_FILES, "fragment_slab_files", "count", COUNT, NEITHER, METRIC_NO_LABELS,    \
	  "files made to fill slab caches")                                                         \
	X(FRAGMENT_TARGET_MET, "fragment_target_met", "bool", OUTCOME, NEITHER, METRIC_NO_LABELS,   \
	  "1 when the fragmentation target was met")                                                \
	X(FRAGMENT_SETUP, "fragment_setup_ns", "ns", TIME, NEITHER, METRIC_NO_LABELS,               \
	  "how long fragmenting took")

/* S.T is the suite (its '/' as '.') and the test: the names are made at run
 * time (report_row_as), the rows are globs. Its other figures before the
 * cases' row: the first row a name matches judges it. */
#define SELFTEST_METRICS(X)                                                                        \
	X(SELFTEST_DURATION, "*.duration_ns", "ns", TIME, NEITHER, METRIC_NO_LABELS,                \
	  "S.T.duration_ns: how long selftest S.T ran")                                             \
	X(SELFTEST_MISSING_CASES, "*.missing_cases", "count", EVENTS, LOWER, METRIC_NO_LABELS,      \
	  "S.T.missing_cases: planned cases that never reported (a crash, a kill or the timeout)")  \
	X(SELFTEST_SKIPPED, "*.skipped", "ok", OUTCOME, NEITHER, METRIC_NO_LABELS,                  \
	  "S.T.skipped or S.T.CASE.skipped: 1 when the test or the case was skipped")               \
	X(SELFTEST_COMPLETED, "*.completed", "ok", OUTCOME, HIGHER, METRIC_NO_LABELS,               \
	  "S.T.completed: 1 when the test exited by itself with every planned case")                \
	X(SELFTEST_CASE, "*", "ok", OUTCOME, HIGHER, METRIC_NO_LABELS,                              \
	  "S.T.CASE, a case of the selftest: 1 pass, 0 fail (absent when skipped)")

/* apps: cold starts and deaths are per-trial counts (many a trial), a launch
 * failure or a binder failure is rare: the share of trials */
#define APPS_METRICS(X)                                                                            \
	X(APPS_SWITCHES, "switches", "count", COUNT, NEITHER, METRIC_NO_LABELS,                     \
	  "app switches of the seeded sequence")                                                    \
	X(APPS_COLD_STARTS, "cold_starts", "count", COUNT, LOWER, METRIC_NO_LABELS,                 \
	  "new app processes forked (an app brought back after it died)")                           \
	X(APPS_WARM_STARTS, "warm_starts", "count", COUNT, HIGHER, METRIC_NO_LABELS,                \
	  "live apps brought to the front")                                                         \
	X(APPS_LAUNCH_FAILURES, "launch_failures", "count", EVENTS, LOWER, METRIC_NO_LABELS,        \
	  "launches that never said ready")                                                         \
	X(APPS_COLD_LAUNCH_P50, "cold_launch_p50_ms", "ms", TIME, LOWER, METRIC_NO_LABELS,          \
	  "cold launch time, from the switch to the app's ready: p50")                              \
	X(APPS_COLD_LAUNCH_P95, "cold_launch_p95_ms", "ms", TIME, LOWER, METRIC_NO_LABELS,          \
	  "cold launch time: p95")                                                                  \
	X(APPS_WARM_LAUNCH_P50, "warm_launch_p50_ms", "ms", TIME, LOWER, METRIC_NO_LABELS,          \
	  "warm launch time, from the switch to the app's ready: p50")                              \
	X(APPS_WARM_LAUNCH_P95, "warm_launch_p95_ms", "ms", TIME, LOWER, METRIC_NO_LABELS,          \
	  "warm launch time: p95")                                                                  \
	X(APPS_DEATHS, "deaths", "count", COUNT, LOWER, METRIC_LABELS("", "tier=*"),                \
	  "apps killed, by whoever, and by the tier each had when it died (deaths.tier=T: "         \
	  "foreground, visible, perceptible, service, home, previous, service-b, cached)")          \
	X(APPS_FIRST_KILL, "first_kill_ms", "ms", TIME, HIGHER, METRIC_NO_LABELS,                   \
	  "from the switch phase's start to the first app killed in it (absent in a trial "         \
	  "where none was)")                                                                        \
	X(APPS_ALIVE_MEAN, "alive_mean", "count", COUNT, HIGHER, METRIC_NO_LABELS,                  \
	  "apps alive, mean, sampled every --sample once every app was opened")                     \
	X(APPS_ALIVE_MIN, "alive_min", "count", COUNT, HIGHER, METRIC_NO_LABELS,                    \
	  "apps alive, min, sampled once every app was opened")                                     \
	X(APPS_BINDER_OPEN_FAILURES, "binder_open_failures", "count", EVENTS, LOWER,                \
	  METRIC_NO_LABELS, "apps' failed binder opens")                                            \
	X(APPS_BINDER_MMAP_FAILURES, "binder_mmap_failures", "count", EVENTS, LOWER,                \
	  METRIC_NO_LABELS, "apps' failed binder mmaps")

/* Each list's enum, ID for its row's index, and its rows ending with a row
 * whose name is NULL. */
#define METRIC_ROW_ID(id, name, unit, kind, better, labels, meaning) id,
enum binder_sendvec_metric { BINDER_SENDVEC_METRICS(METRIC_ROW_ID) };
enum binder_throughput_metric { BINDER_THROUGHPUT_METRICS(METRIC_ROW_ID) };
enum binder_objects_metric { BINDER_OBJECTS_METRICS(METRIC_ROW_ID) };
enum binder_mmap_metric { BINDER_MMAP_METRICS(METRIC_ROW_ID) };
enum spawn_metric { SPAWN_METRICS(METRIC_ROW_ID) };
enum oom_hog_metric { OOM_HOG_METRICS(METRIC_ROW_ID) };
enum fragment_metric { FRAGMENT_METRICS(METRIC_ROW_ID) };
enum selftest_metric { SELFTEST_METRICS(METRIC_ROW_ID) };
enum apps_metric { APPS_METRICS(METRIC_ROW_ID) };
#undef METRIC_ROW_ID

#define WORKLOAD_METRIC_ROWS_DECLARE(ident, name, summary) \
	extern const struct metric_row ident##_metric_rows[];
WORKLOADS(WORKLOAD_METRIC_ROWS_DECLARE)
#undef WORKLOAD_METRIC_ROWS_DECLARE

/* A workload's name and its rows, for who knows the name alone (the host, --help). */
struct workload_metrics {
	const char *workload;
	const struct metric_row *rows;	/* ends with a row whose name is NULL */
};
/* Every workload of WORKLOADS, in its order; ends with workload == NULL. */
extern const struct workload_metrics workload_metric_tables[];
/* WORKLOAD's rows, or NULL for a name not in WORKLOADS. */
const struct metric_row *workload_metric_rows(const char *workload);

#endif
