/* JSON-lines reporting: one JSON object per line, written with a single
 * write(2) so that lines from several processes never interleave and a
 * line already written survives the death of the VM a moment later.
 *
 * Generic on purpose: the guest agent uses it too.  The "source" field name
 * is "workload" by default (report_set_source() changes the value, and
 * report_set_source_key() the key).
 *
 *   {"type":"metric","workload":"binder-sendvec","name":"sendvec_ns_per_rt",
 *    "value":39126,"unit":"ns","labels":{"size":"4"}}
 *   {"type":"event","workload":"oom-hog","name":"victim-lost",
 *    "t_mono_ns":123456789,"pid":42}
 */
#ifndef OOMLAB_REPORT_H
#define OOMLAB_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/metric-row.h"

#define JL_MAX 8192

/* A JSON object being built.  Fields that do not fit are dropped and the
 * line gets "truncated":true, so the output is always valid JSON. */
struct jl {
	char buf[JL_MAX];
	size_t len;
	int depth;          /* open nested objects */
	int skip;           /* objects dropped for lack of room */
	bool need_comma;
	bool truncated;
};

void jl_begin(struct jl *j);                     /* "{" */
void jl_str(struct jl *j, const char *key, const char *val);
void jl_strf(struct jl *j, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void jl_i64(struct jl *j, const char *key, int64_t v);
void jl_u64(struct jl *j, const char *key, uint64_t v);
void jl_dbl(struct jl *j, const char *key, double v);   /* NaN/inf -> null */
void jl_bool(struct jl *j, const char *key, bool v);
void jl_null(struct jl *j, const char *key);
/* "key":[v0,v1,...] */
void jl_u64_array(struct jl *j, const char *key, const uint64_t *v, size_t n);
void jl_obj_begin(struct jl *j, const char *key);
void jl_obj_end(struct jl *j);
/* Closes open objects, appends "\n" and NUL; returns the line. */
const char *jl_finish(struct jl *j);
/* jl_finish + write the line to fd in one write(2) (retried on EINTR /
 * short write).  Returns 0 or -errno. */
int jl_emit(struct jl *j, int fd);

/* Append a JSON string literal (quoted, escaped) to dst; returns the
 * length it needs (like snprintf).  Exposed for the unit tests. */
size_t jl_escape(char *dst, size_t cap, const char *s);

/* --- Report conventions used by all workloads ------------------------- */
void report_set_source(const char *name);        /* e.g. "binder-sendvec" */
void report_set_source_key(const char *key);     /* default "workload" */
const char *report_source(void);
void report_set_fd(int fd);                      /* default 1 (stdout) */
int report_fd(void);

uint64_t mono_ns(void);                          /* CLOCK_MONOTONIC in ns */

/* Begin a line with type/source already filled in.  For events the
 * t_mono_ns field is filled in as well. */
void report_begin_metric(struct jl *j, const char *name, double value,
			 const char *unit);
void report_begin_event(struct jl *j, const char *name);
void report_begin_event_at(struct jl *j, const char *name, uint64_t t_mono_ns);
int report_end(struct jl *j);                    /* jl_emit(j, report_fd()) */

/* One-call metric.  labels: NULL-terminated key, value, key, value...
 * list of strings, or NULL for none. */
int report_metric(const char *name, double value, const char *unit,
		  const char *const *labels);
/* Same with varargs labels: report_metricl(name, v, unit, "size", "4", NULL) */
int report_metricl(const char *name, double value, const char *unit, ...)
	__attribute__((sentinel));
/* A workload's metric, by its row (common/proto/workload-metrics.h): the
 * row's name and unit, so that a workload writes neither. */
int report_row(const struct metric_row *row, double value, const char *const *labels);
/* Same with varargs labels: report_rowl(row, v, "size", "4", NULL) */
int report_rowl(const struct metric_row *row, double value, ...)
	__attribute__((sentinel));
/* A row whose name is a glob ("*.duration_ns"): the figure's NAME, made at
 * run time, that the glob matches, with the row's unit. */
int report_row_as(const struct metric_row *row, const char *name, double value);
/* A bare event with only the standard fields. */
int report_event(const char *name);
/* phase-begin / phase-end with "phase":phase */
int report_phase(const char *phase, bool begin);

#endif
