/* One table-driven option parser (parse-options.h). */
#include "parse-options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define USAGE_WIDTH 80
#define HELP_COLUMN 27

static int fail(char err[OPT_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char err[OPT_ERR_MAX], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, OPT_ERR_MAX, fmt, ap);
	va_end(ap);
	return OPT_PARSE_ERROR;
}

static const struct opt *find_long(const struct opt *opts, const char *name, size_t len)
{
	for (const struct opt *o = opts; o->kind != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (const struct opt *o = opts; o->kind != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* A whole number: decimal, or hexadecimal after 0x. */
static bool whole_number(const char *s, unsigned long long *v)
{
	if (!isdigit((unsigned char)*s))
		return false;
	int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	char *end;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !errno && !*end && end != s + (base == 16 ? 2 : 0);
}

static void describe_range(char *buf, size_t size, const struct opt *o, const char *what)
{
	if (o->max >= 1e15)
		snprintf(buf, size, "%s of at least %.15g", what, o->min);
	else
		snprintf(buf, size, "%s from %.15g to %.15g", what, o->min, o->max);
}

static int store(const struct opt *o, const char *name, const char *value, char err[OPT_ERR_MAX])
{
	char range[128];
	switch (o->kind) {
	case OPTION_FLAG:
		*(bool *)o->target = true;
		return 0;
	case OPTION_STRING:
		*(const char **)o->target = value;
		return 0;
	case OPTION_ULONG:
	case OPTION_U64: {
		unsigned long long v;
		bool ok = whole_number(value, &v);
		if (!ok || (double)v < o->min || (double)v > o->max) {
			describe_range(range, sizeof(range), o, "a whole number");
			return fail(err, "%s wants %s, not '%s'", name, range, value);
		}
		if (o->kind == OPTION_ULONG)
			*(unsigned long *)o->target = (unsigned long)v;
		else
			*(uint64_t *)o->target = (uint64_t)v;
		return 0;
	}
	case OPTION_INT: {
		char *end;
		errno = 0;
		long v = strtol(value, &end, 10);
		if (!*value || isspace((unsigned char)*value) || *end || errno || v < o->min || v > o->max) {
			describe_range(range, sizeof(range), o, "an integer");
			return fail(err, "%s wants %s, not '%s'", name, range, value);
		}
		*(int *)o->target = (int)v;
		return 0;
	}
	case OPTION_DOUBLE: {
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (!*value || isspace((unsigned char)*value) || *end || errno || !isfinite(v) ||
		    v < o->min || v > o->max) {
			describe_range(range, sizeof(range), o, "a number");
			return fail(err, "%s wants %s, not '%s'", name, range, value);
		}
		*(double *)o->target = v;
		return 0;
	}
	case OPTION_CHOICE: {
		size_t n = 0;
		for (; o->choices[n]; n++)
			if (!strcmp(value, o->choices[n])) {
				*(int *)o->target = (int)n;
				return 0;
			}
		/* "must be a, b or c, got 'x'" */
		char words[OPT_ERR_MAX] = "";
		size_t len = 0;
		for (size_t i = 0; i < n && len < sizeof(words); i++)
			len += (size_t)snprintf(words + len, sizeof(words) - len, "%s%s",
						i == 0 ? "" : i + 1 == n ? " or " : ", ", o->choices[i]);
		return fail(err, "%s must be %s, got '%s'", name, words, value);
	}
	case OPTION_CALL: {
		char why[OPT_ERR_MAX] = "";
		if (o->call(o, value, why, sizeof(why)) < 0)
			return fail(err, "%s %s", name, why);
		return 0;
	}
	case OPTION_GROUP:
	case OPTION_END:
		break;
	}
	return fail(err, "%s: not an option", name);
}

static int long_option(const struct opt *opts, int argc, char **argv, int *i, char err[OPT_ERR_MAX])
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt *o = find_long(opts, arg, len);
	if (!o && len == 4 && !strncmp(arg, "help", 4))
		return OPT_PARSE_HELP;
	if (!o)
		return fail(err, "unknown option '--%.*s'", (int)len, arg);
	char name[128];
	snprintf(name, sizeof(name), "--%s", o->long_name);
	if (!o->arg) {
		if (eq)
			return fail(err, "option '%s' takes no value", name);
		return store(o, name, NULL, err);
	}
	const char *value = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	if (!value)
		return fail(err, "option '%s' needs a value", name);
	return store(o, name, value, err);
}

static int short_options(const struct opt *opts, int argc, char **argv, int *i, char err[OPT_ERR_MAX])
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt *o = find_short(opts, *p);
		if (!o && *p == 'h')
			return OPT_PARSE_HELP;
		if (!o)
			return fail(err, "unknown option '-%c'", *p);
		char name[128];
		if (o->long_name)
			snprintf(name, sizeof(name), "--%s", o->long_name);
		else
			snprintf(name, sizeof(name), "-%c", *p);
		if (!o->arg) {
			int rc = store(o, name, NULL, err);
			if (rc < 0)
				return rc;
			continue;
		}
		const char *value = p[1] ? p + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		if (!value)
			return fail(err, "option '-%c' needs a value", *p);
		return store(o, name, value, err);
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct opt *opts, char err[OPT_ERR_MAX])
{
	return parse_options_until(argc, argv, opts, -1, err);
}

int parse_options_until(int argc, char **argv, const struct opt *opts, int operands_before,
			char err[OPT_ERR_MAX])
{
	char **operands = malloc((size_t)(argc > 0 ? argc : 1) * sizeof(*operands));
	if (!operands)
		return fail(err, "out of memory");
	int n = 0, rc = 0;
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (++i < argc)
				operands[n++] = argv[i];
			break;
		}
		if ((a[0] != '-' || !a[1]) && operands_before >= 0 && n >= operands_before) {
			/* a command line of its own follows: its options are its own */
			while (i < argc)
				operands[n++] = argv[i++];
			break;
		}
		if (a[0] != '-' || !a[1])
			operands[n++] = argv[i];
		else if (a[1] == '-')
			rc = long_option(opts, argc, argv, &i, err);
		else
			rc = short_options(opts, argc, argv, &i, err);
	}
	if (rc == 0) {
		for (int k = 0; k < n; k++)
			argv[1 + k] = operands[k];
		if (argc > 0)
			argv[1 + n < argc ? 1 + n : argc] = NULL;
	}
	free(operands);
	return rc < 0 ? rc : n;
}

void print_wrapped(FILE *out, const char *text, int at, int indent)
{
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
			p++;
			continue;
		}
		size_t word = strcspn(p, " \n");
		if (at > indent && at + 1 + (int)word > USAGE_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
		} else if (at > indent) {
			fputc(' ', out);
			at++;
		}
		fwrite(p, 1, word, out);
		at += (int)word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

static void usage_line(FILE *out, char s, const char *l, const char *arg, const char *help)
{
	char left[128];
	int n = 0;
	if (s && l)
		n = snprintf(left, sizeof(left), "  -%c, --%s", s, l);
	else if (s)
		n = snprintf(left, sizeof(left), "  -%c", s);
	else
		n = snprintf(left, sizeof(left), "      --%s", l);
	if (arg && n > 0 && (size_t)n < sizeof(left))
		n += snprintf(left + n, sizeof(left) - (size_t)n, " %s", arg);
	fputs(left, out);
	if (n >= HELP_COLUMN - 1)
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(out, "%*s", HELP_COLUMN - n, "");
	print_wrapped(out, help ? help : "", HELP_COLUMN, HELP_COLUMN);
}

void print_usage(FILE *out, const char *head, const struct opt *opts, const char *tail)
{
	fputs(head, out);
	bool own_help = false;
	for (const struct opt *o = opts; o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_GROUP) {
			fprintf(out, "%s\n", o->help);
			continue;
		}
		usage_line(out, o->short_name, o->long_name, o->arg, o->help);
		own_help |= o->long_name && !strcmp(o->long_name, "help");
	}
	if (!own_help)
		usage_line(out, find_short(opts, 'h') ? 0 : 'h', "help", NULL, "this text");
	if (tail) {
		fputc('\n', out);
		fputs(tail, out);
	}
}

/* S as one tab-separated field: its tabs and line ends as spaces. */
static void field(FILE *out, const char *s)
{
	fputc('\t', out);
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

void print_option_rows(FILE *out, const struct opt *opts)
{
	for (const struct opt *o = opts; o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_GROUP) {
			fputs(OPTION_ROW_GROUP, out);
			field(out, o->help);
		} else {
			char s[2] = { o->short_name, 0 };
			fputs(OPTION_ROW, out);
			field(out, s);
			field(out, o->long_name);
			field(out, o->arg);
			field(out, o->help);
		}
		fputc('\n', out);
	}
}
