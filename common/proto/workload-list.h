/*
 * The one list of the guest's workloads: X(ident, "name", "summary") for each
 * file workloads/<name>.c, which defines ident_main() and ident_usage[]; its
 * metrics are the rows ident_metric_rows[] (workload-metrics.h). The guest's
 * table (workloads/registry.c), the rows the host judges a workload's figures
 * by (analysis/compare/metric.c) and the tests all come from it.
 */
#ifndef OOMLAB_WORKLOAD_LIST_H
#define OOMLAB_WORKLOAD_LIST_H

#define WORKLOADS(X)                                                                                  \
	X(binder_sendvec, "binder-sendvec",                                                          \
	  "synchronous binder echo of 4..65536 bytes (BM_sendVec_binder)")                            \
	X(binder_throughput, "binder-throughput",                                                    \
	  "binder transactions between worker processes (binderThroughputTest)")                      \
	X(binder_objects, "binder-objects",                                                          \
	  "churn of binder threads, nodes, refs and death notifications; slab usage")                 \
	X(binder_mmap, "binder-mmap", "many binder opens with a 4 MiB mmap each (the kcalloc/kvcalloc path)") \
	X(spawn, "spawn", "fork+exec of /bin/true N times; spawns per second")                       \
	X(oom_hog, "oom-hog",                                                                        \
	  "memory eaters that drive a memcg or the VM into OOM kills (memcg, global, reaper)")        \
	X(fragment, "fragment", "leave memory fragmented to a target (pinned order-0 holes) and hold it") \
	X(selftest, "selftest", "one of the kernel's selftests from the variant's tree; one outcome per case") \
	X(apps, "apps", "Android apps that come and go: seeded switches, oom_score_adj tiers, cold/warm starts")

#define WORKLOAD_ONE(ident, name, summary) +1
/* How many workloads the list has. */
enum { WORKLOAD_COUNT = 0 WORKLOADS(WORKLOAD_ONE) };
#undef WORKLOAD_ONE

#endif
