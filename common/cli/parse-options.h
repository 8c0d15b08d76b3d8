/*
 * parse-options.h - one table-driven option parser for the lab's commands
 * and the guest's workloads. Each option is one row of a table (its names,
 * its kind, where its value goes, its help), and both the parsing and the
 * usage text come from the table, so the two cannot drift apart.
 *
 * GNU conventions: "-x VALUE", "-xVALUE", "--name VALUE", "--name=VALUE",
 * flags bundled ("-ab"), options and operands in any order, "--" ends the
 * options. -h and --help are always there. C library only: the static guest
 * programs link it as the lab does.
 */
#ifndef OOMLAB_PARSE_OPTIONS_H
#define OOMLAB_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPTION_END,
	OPTION_FLAG,    /* bool *: set */
	OPTION_STRING,  /* const char **: the value as given */
	OPTION_ULONG,   /* unsigned long *: a whole number within [min, max] */
	OPTION_U64,     /* uint64_t *: the same */
	OPTION_INT,     /* int *: an integer within [min, max] */
	OPTION_DOUBLE,  /* double *: a number within [min, max] */
	OPTION_CHOICE,  /* int *: the index of the value in choices[] */
	OPTION_CALL,    /* call(): converts and stores the value (or, without arg, acts) */
	OPTION_GROUP,   /* no option: a heading in the usage ("Target:") */
};

#define OPT_ERR_MAX 256

struct opt {
	enum opt_kind kind;
	char short_name;        /* 0: none */
	const char *long_name;  /* NULL: none */
	void *target;
	const char *arg;        /* the value's name in the usage ("N", "GLOB"); NULL: no value */
	const char *help;       /* wrapped in the usage; "\n" starts a new line */
	double min, max;        /* the number kinds' range */
	/* OPTION_CALL: 0, or -1 with a message naming what is wrong with VALUE
	 * (the option's name is put in front). */
	int (*call)(const struct opt *o, const char *value, char *err, size_t err_size);
	const char *const *choices;     /* OPTION_CHOICE: the words, NULL-terminated */
};

#define OPT_FLAG(s, l, t, h)               { OPTION_FLAG, s, l, t, NULL, h, 0, 0, NULL, NULL }
#define OPT_STRING(s, l, t, a, h)          { OPTION_STRING, s, l, t, a, h, 0, 0, NULL, NULL }
#define OPT_ULONG(s, l, t, a, lo, hi, h)   { OPTION_ULONG, s, l, t, a, h, lo, hi, NULL, NULL }
#define OPT_U64(s, l, t, a, lo, hi, h)     { OPTION_U64, s, l, t, a, h, lo, hi, NULL, NULL }
#define OPT_INT(s, l, t, a, lo, hi, h)     { OPTION_INT, s, l, t, a, h, lo, hi, NULL, NULL }
#define OPT_DOUBLE(s, l, t, a, lo, hi, h)  { OPTION_DOUBLE, s, l, t, a, h, lo, hi, NULL, NULL }
#define OPT_CHOICE(s, l, t, a, list, h)    { OPTION_CHOICE, s, l, t, a, h, 0, 0, NULL, list }
#define OPT_CALL(s, l, t, a, fn, h)        { OPTION_CALL, s, l, t, a, h, 0, 0, fn, NULL }
#define OPT_GROUP(h)                       { OPTION_GROUP, 0, NULL, NULL, NULL, h, 0, 0, NULL, NULL }
#define OPT_END()                          { OPTION_END, 0, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL }

enum { OPT_PARSE_ERROR = -1, OPT_PARSE_HELP = -2 };

/*
 * Parses ARGV[1..ARGC-1] against OPTS, storing the values. The operands are
 * moved to ARGV[1..] in their order; returns how many there are. Returns
 * OPT_PARSE_HELP for -h/--help, or OPT_PARSE_ERROR with one line in ERR
 * ("unknown option '--x'", "--seed wants a whole number, not 'x'").
 */
int parse_options(int argc, char **argv, const struct opt *opts, char err[OPT_ERR_MAX]);
/* The same, but once OPERANDS_BEFORE operands were seen the next operand and
 * everything after it are operands ("lab boot VARIANT [options] CMD ARGS":
 * CMD's options are its own). */
int parse_options_until(int argc, char **argv, const struct opt *opts, int operands_before,
			char err[OPT_ERR_MAX]);

/* The usage: HEAD (the synopsis and what the command does), the options,
 * one a line with their help wrapped to 80 columns, then TAIL (may be NULL). */
void print_usage(FILE *out, const char *head, const struct opt *opts, const char *tail);
/* TEXT written from column AT (where the line stands now), its words wrapped
 * to 80 columns with each new line indented by INDENT; "\n" breaks a line.
 * Ends with a newline. How the usage wraps an option's help. */
void print_wrapped(FILE *out, const char *text, int at, int indent);

/* The table for a program to read: a line a row, its fields separated by
 * tabs (tabs and line ends within a field as spaces), -h/--help left out:
 *   option<TAB>SHORT<TAB>LONG<TAB>ARG<TAB>HELP   (SHORT, LONG, ARG may be empty)
 *   group<TAB>HEADING */
#define OPTION_ROW "option"
#define OPTION_ROW_GROUP "group"
void print_option_rows(FILE *out, const struct opt *opts);

#endif
