/* JSON-lines reporting; see report.h. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *source_name = "oomlab";
static const char *source_key = "workload";
static int out_fd = 1;

/* Room kept at the end of the buffer for closing braces, the truncation
 * marker and the newline. */
#define JL_RESERVE 48

size_t jl_escape(char *dst, size_t cap, const char *s)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)(s ? s : "");

#define PUT(c) do { if (n + 1 < cap) dst[n] = (c); n++; } while (0)
	PUT('"');
	for (; *p; p++) {
		unsigned char c = *p;

		switch (c) {
		case '"':  PUT('\\'); PUT('"'); break;
		case '\\': PUT('\\'); PUT('\\'); break;
		case '\n': PUT('\\'); PUT('n'); break;
		case '\r': PUT('\\'); PUT('r'); break;
		case '\t': PUT('\\'); PUT('t'); break;
		case '\b': PUT('\\'); PUT('b'); break;
		case '\f': PUT('\\'); PUT('f'); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char u[8];

				snprintf(u, sizeof(u), "\\u%04x", c);
				for (char *q = u; *q; q++)
					PUT(*q);
			} else {
				/* Bytes >= 0x80 pass through: UTF-8 stays
				 * UTF-8; invalid UTF-8 is the caller's. */
				PUT((char)c);
			}
		}
	}
	PUT('"');
#undef PUT
	if (cap)
		dst[n < cap ? n : cap - 1] = '\0';
	return n;
}

void jl_begin(struct jl *j)
{
	j->len = 0;
	j->depth = 1;
	j->need_comma = false;
	j->truncated = false;
	j->skip = 0;
	j->buf[j->len++] = '{';
	j->buf[j->len] = '\0';
}

static size_t jl_room(const struct jl *j)
{
	size_t limit = JL_MAX - JL_RESERVE;

	return j->len < limit ? limit - j->len : 0;
}

/* Appends ,"key": (or "key": after '{').  Returns false, leaving the
 * buffer unchanged, when the key plus need_value bytes cannot fit. */
static bool jl_key(struct jl *j, const char *key, size_t need_value)
{
	char tmp[512];
	size_t klen = jl_escape(tmp, sizeof(tmp), key);
	size_t need = (j->need_comma ? 1 : 0) + klen + 1 + need_value;

	if (j->skip)
		return false;
	if (klen >= sizeof(tmp) || need > jl_room(j)) {
		j->truncated = true;
		return false;
	}
	if (j->need_comma)
		j->buf[j->len++] = ',';
	memcpy(j->buf + j->len, tmp, klen);
	j->len += klen;
	j->buf[j->len++] = ':';
	j->buf[j->len] = '\0';
	j->need_comma = true;
	return true;
}

static void jl_raw(struct jl *j, const char *key, const char *raw)
{
	size_t rlen = strlen(raw);

	if (!jl_key(j, key, rlen))
		return;
	memcpy(j->buf + j->len, raw, rlen + 1);
	j->len += rlen;
}

void jl_str(struct jl *j, const char *key, const char *val)
{
	size_t vlen = jl_escape(NULL, 0, val);
	size_t save_len = j->len;
	bool save_comma = j->need_comma;

	if (!jl_key(j, key, vlen))
		return;
	if (jl_escape(j->buf + j->len, JL_MAX - j->len, val) != vlen) {
		j->len = save_len;      /* cannot happen; be safe */
		j->need_comma = save_comma;
		j->truncated = true;
		j->buf[j->len] = '\0';
		return;
	}
	j->len += vlen;
}

void jl_strf(struct jl *j, const char *key, const char *fmt, ...)
{
	char tmp[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	jl_str(j, key, tmp);
}

void jl_i64(struct jl *j, const char *key, int64_t v)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
	jl_raw(j, key, tmp);
}

void jl_u64(struct jl *j, const char *key, uint64_t v)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	jl_raw(j, key, tmp);
}

void jl_dbl(struct jl *j, const char *key, double v)
{
	char tmp[48];

	if (!isfinite(v)) {
		jl_raw(j, key, "null");
		return;
	}
	/* Integral values print without exponent or fraction when exact. */
	if (v > -1e15 && v < 1e15 && v == (double)(long long)v)
		snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
	else
		snprintf(tmp, sizeof(tmp), "%.10g", v);
	jl_raw(j, key, tmp);
}

void jl_bool(struct jl *j, const char *key, bool v)
{
	jl_raw(j, key, v ? "true" : "false");
}

void jl_null(struct jl *j, const char *key)
{
	jl_raw(j, key, "null");
}

void jl_u64_array(struct jl *j, const char *key, const uint64_t *v, size_t n)
{
	char tmp[2048];
	size_t len = 0;

	tmp[len++] = '[';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(tmp + len, sizeof(tmp) - len, "%s%llu",
				 i ? "," : "", (unsigned long long)v[i]);

		if (w < 0 || (size_t)w + 2 > sizeof(tmp) - len) {
			j->truncated = true;
			return;
		}
		len += (size_t)w;
	}
	tmp[len++] = ']';
	tmp[len] = '\0';
	jl_raw(j, key, tmp);
}

void jl_obj_begin(struct jl *j, const char *key)
{
	/* Keep one byte of the reserve per nesting level for its '}'. */
	if (j->skip || j->depth >= 8 || !jl_key(j, key, 2)) {
		/* Drop the object and everything in it. */
		j->truncated = true;
		j->skip++;
		return;
	}
	j->buf[j->len++] = '{';
	j->buf[j->len] = '\0';
	j->depth++;
	j->need_comma = false;
}

void jl_obj_end(struct jl *j)
{
	if (j->skip) {
		j->skip--;
		return;
	}
	if (j->depth <= 1)
		return;
	j->buf[j->len++] = '}';
	j->buf[j->len] = '\0';
	j->depth--;
	j->need_comma = true;
}

const char *jl_finish(struct jl *j)
{
	j->skip = 0;
	while (j->depth > 1)
		jl_obj_end(j);
	if (j->truncated) {
		const char *m = j->need_comma ? ",\"truncated\":true"
					      : "\"truncated\":true";
		size_t ml = strlen(m);

		memcpy(j->buf + j->len, m, ml);
		j->len += ml;
	}
	j->buf[j->len++] = '}';
	j->buf[j->len++] = '\n';
	j->buf[j->len] = '\0';
	j->depth = 0;
	return j->buf;
}

int jl_emit(struct jl *j, int fd)
{
	const char *p = jl_finish(j);
	size_t left = j->len;

	while (left) {
		ssize_t w = write(fd, p, left);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		left -= (size_t)w;
	}
	return 0;
}

void report_set_source(const char *name) { source_name = name; }
void report_set_source_key(const char *key) { source_key = key; }
const char *report_source(void) { return source_name; }
void report_set_fd(int fd) { out_fd = fd; }
int report_fd(void) { return out_fd; }

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void report_begin_metric(struct jl *j, const char *name, double value,
			 const char *unit)
{
	jl_begin(j);
	jl_str(j, "type", "metric");
	jl_str(j, source_key, source_name);
	jl_str(j, "name", name);
	jl_dbl(j, "value", value);
	if (unit)
		jl_str(j, "unit", unit);
}

void report_begin_event_at(struct jl *j, const char *name, uint64_t t)
{
	jl_begin(j);
	jl_str(j, "type", "event");
	jl_str(j, source_key, source_name);
	jl_str(j, "name", name);
	jl_u64(j, "t_mono_ns", t);
}

void report_begin_event(struct jl *j, const char *name)
{
	report_begin_event_at(j, name, mono_ns());
}

int report_end(struct jl *j)
{
	return jl_emit(j, out_fd);
}

int report_metric(const char *name, double value, const char *unit,
		  const char *const *labels)
{
	struct jl j;

	report_begin_metric(&j, name, value, unit);
	if (labels && labels[0]) {
		jl_obj_begin(&j, "labels");
		for (size_t i = 0; labels[i] && labels[i + 1]; i += 2)
			jl_str(&j, labels[i], labels[i + 1]);
		jl_obj_end(&j);
	}
	return report_end(&j);
}

/* The labels of a varargs list: key, value, ..., NULL. */
static int report_metric_va(const char *name, double value, const char *unit, va_list ap)
{
	const char *labels[33];
	size_t n = 0;
	const char *s;

	while (n < 32 && (s = va_arg(ap, const char *)) != NULL)
		labels[n++] = s;
	labels[n & ~(size_t)1] = NULL;     /* drop a dangling key */
	return report_metric(name, value, unit, labels);
}

int report_metricl(const char *name, double value, const char *unit, ...)
{
	va_list ap;
	va_start(ap, unit);
	int r = report_metric_va(name, value, unit, ap);
	va_end(ap);
	return r;
}

int report_row(const struct metric_row *row, double value, const char *const *labels)
{
	return report_metric(row->name, value, row->unit, labels);
}

int report_rowl(const struct metric_row *row, double value, ...)
{
	va_list ap;
	va_start(ap, value);
	int r = report_metric_va(row->name, value, row->unit, ap);
	va_end(ap);
	return r;
}

int report_row_as(const struct metric_row *row, const char *name, double value)
{
	return report_metric(name, value, row->unit, NULL);
}

int report_event(const char *name)
{
	struct jl j;

	report_begin_event(&j, name);
	return report_end(&j);
}

int report_phase(const char *phase, bool begin)
{
	struct jl j;

	report_begin_event(&j, begin ? "phase-begin" : "phase-end");
	jl_str(&j, "phase", phase);
	return report_end(&j);
}
