/*
 * Failure paths on demand: the kernel's fault injection as experiment and
 * profile keys (common/proto/protocol.h says how the guest arms it).
 *
 *   fail_page_alloc = probability 20, min-order 3
 *   failslab = probability 5, times 100
 *
 * Words, comma separated, each with its value:
 *   probability P      percent of eligible calls that fail, 0 to 100 (required)
 *   interval N         only every N-th eligible call may fail (default 1)
 *   times N            at most N failures in a trial (default: no limit)
 *   space BYTES        let this many bytes be allocated before any failure (default 0)
 *   min-order K        fail_page_alloc only: orders below K never fail (the kernel's default 1)
 *   ignore-gfp-wait yes|no
 *                      yes spares allocations that may reclaim (GFP_KERNEL),
 *                      as the kernel's default does; the lab's default is no,
 *                      since those are the allocations whose failure paths
 *                      the lab is after (binder's page array is one)
 * The workload's tasks alone fail (task-filter, make-it-fail).
 */
#ifndef LAB_FAULT_INJECT_H
#define LAB_FAULT_INJECT_H

#include <stdbool.h>

#include <jansson.h>

#include "common/proto/protocol.h"
#include "common/util.h"
#include "lab/keys/key-table.h"

struct fault_injection {
	bool armed;
	unsigned probability;
	unsigned long interval;
	long times;              /* -1: no limit */
	unsigned long long space;
	int min_order;           /* -1: the kernel's */
	bool ignore_gfp_wait;
	const char *file;        /* where it was said, for messages */
	int line;
};

struct fault_plan {
	struct fault_injection cap[FAULT_CAPABILITY_COUNT];
};

/* The capability an experiment or profile key names, or -1. */
int fault_capability_of_key(const char *key);
/* Parses TEXT for CAP; -1 with one line (no file or line: the caller adds them). */
int fault_injection_parse(enum fault_capability cap, const char *text, struct fault_injection *out,
			  struct strbuf *err);
/*
 * An experiment's or profile's setter for these keys (kvfile.h): NULL when
 * KEY is a capability and VALUE was taken (LINE of FILE recorded), why not
 * (valid until the next call), or kvfile_unknown_key.
 */
const char *fault_key_set(struct fault_plan *plan, const char *file, const char *key, const char *value,
			  int line);
/* The I-th capability's key as a key table lists it (key-table.h: a family
 * whose members are the capabilities), for profiles and experiments alike;
 * false past the last. */
bool fault_key_member(size_t i, struct key_info *out);
/* Parses lab boot's and lab run's options --fail-page-alloc and --failslab
 * (the value a key's) for each capability: the options' texts (NULL: not given) into ASKED, each named by its
 * option; -1 with one line "--fail-page-alloc: ..." for the first bad one. */
int fault_plan_parse_options(struct fault_plan *asked, const char *const text[FAULT_CAPABILITY_COUNT],
			     struct strbuf *err);
/* What OVER arms wins, capability by capability (an experiment over its profile). */
void fault_plan_merge(struct fault_plan *plan, const struct fault_plan *over);
bool fault_plan_armed(const struct fault_plan *plan);
/* The job spec lines (common/proto/job-keys.h) that arm PLAN, appended to SPEC. */
void fault_plan_spec(const struct fault_plan *plan, struct strbuf *spec);
/* {"fail_page_alloc": {"probability": 20, ...}, ...} of the armed ones; an empty object when none. */
json_t *fault_plan_json(const struct fault_plan *plan);
/* The kernel options a kernel must have for CAP to be armed, NULL-terminated. */
const char *const *fault_capability_options(enum fault_capability cap);
struct variant;
struct kconfig;
/*
 * Whether V's kernel has what PLAN arms: -1 with one line naming the key's
 * file and line, the capability, the options and the variant, else 0.
 */
int fault_plan_check_kernel(const struct fault_plan *plan, const struct variant *v,
			    const struct kconfig *base, struct strbuf *err);

#endif
