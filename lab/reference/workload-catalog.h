/*
 * The guest's workloads as the lab sees them: read from the workload binary
 * (`oomlab-workload --describe`, common/proto/workload-describe.h), since
 * lab/ does not link workloads/ (tests/check-layers) and the binary is the
 * one the guest runs. Each workload's name, summary, --help text, option
 * table and declared metrics.
 */
#ifndef LAB_WORKLOAD_CATALOG_H
#define LAB_WORKLOAD_CATALOG_H

#include <stddef.h>

#include "common/util.h"

struct workload_option {
	char *short_name;	/* "n", or "" */
	char *long_name;	/* "count", or "" */
	char *arg;		/* "N", or "": a flag */
	char *help;
	char *group;		/* a heading row ("Target:"): the rest are "" */
};

struct workload_info {
	char *name, *summary;
	struct strlist usage;	/* --help's head, a line an item: "Usage: ...", what it does */
	struct strlist notes;	/* --help's tail: what it reports, ... */
	struct workload_option *options;
	size_t n_options, alloc_options;
	struct strlist metrics;	/* as declared, after "NAME." */
};

struct workload_catalog {
	struct workload_info *items;
	size_t n, alloc;
};

/* Parses --describe's TEXT into C: 0, or -1 with ERR naming the bad line. */
int workload_catalog_parse(const char *text, struct workload_catalog *c, struct strbuf *err);
/* Runs BINARY --describe (NULL: guest_workload_binary()) and parses it. */
int workload_catalog_load(const char *binary, struct workload_catalog *c, struct strbuf *err);
void workload_catalog_clear(struct workload_catalog *c);

/* The usage's synopsis without "Usage: " (a pointer into W), or W's name. */
const char *workload_synopsis(const struct workload_info *w);

#endif
