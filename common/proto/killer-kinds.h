/*
 * Who kills under memory pressure in the guest: a profile's `killer = NAME`
 * names one row of this table, the one home of what the lab, the agent and
 * the analysis know of each kind of killer. A row says what the killer is,
 * how the agent runs it, its process name (the trace counts the SIGKILLs it
 * sends by it), the prefix of its kernel log lines, the prefix of its
 * metrics and of its profile keys, and the keys themselves. What cannot be
 * data here, because it is code on one side only, is a table indexed by the
 * same kind on that side: the function the agent's child runs
 * (workloads/killers/killer-run.h), the parser of its kill lines
 * (analysis/parse/killer_lines.h), and the metrics beyond the common two
 * (analysis/metrics/killer_metrics.h); test-killer-kinds holds each table
 * to every row.
 *
 * A userspace killer's kills are counted the same way for every kind: from
 * its kill lines in kmsg.log (PREFIX_kills) and from the trace's SIGKILLs
 * sent under its comm (PREFIX_kills_trace).
 */
#ifndef OOMLAB_KILLER_KINDS_H
#define OOMLAB_KILLER_KINDS_H

#include <stddef.h>

#include "killer-key.h"

/* The spec key (and profile key) that names the killer. */
#define JOB_KILLER "killer"

enum killer_kind {
	KILLER_KIND_KERNEL,     /* the default: the kernel's OOM killer alone */
	KILLER_KIND_LMKD,
	KILLER_KIND_OOMD,
	KILLER_KIND_COUNT
};


struct killer_kind_def {
	const char *name;           /* killer = NAME; the spec's value; CTL_KILLER's name */
	const char *meaning;        /* one line: what it is (lab keys, docs) */
	/* How the agent runs it, for people: NULL for the kernel's, which
	 * nothing starts. Every other row is a child of the agent started just
	 * before the command and stopped after it (agent-killer.c). */
	const char *started;
	const char *comm;           /* its process name, the SIGKILLs' sender; NULL: none */
	const char *kmsg_prefix;    /* its /dev/kmsg lines begin with this; NULL: none */
	const char *metric_prefix;  /* PREFIX_kills, PREFIX_kills_trace; NULL: none */
	const char *key_prefix;     /* its profile keys begin with this; NULL: it has none */
	const char *doc;            /* where what it copies and simplifies is written */
	const struct killer_key *keys;
	size_t n_keys;
};

extern const struct killer_kind_def killer_kinds[KILLER_KIND_COUNT];

/* The kind named NAME, or -1. */
int killer_kind_of_name(const char *name);
/* The kind and index of the key named NAME (any kind's), or -1. */
int killer_key_of_name(const char *name, int *key);
/* Whether the kind runs in userspace (a child of the agent). */
static inline int killer_is_userspace(enum killer_kind k)
{
	return killer_kinds[k].comm != NULL;
}

#endif
