/*
 * The lab's commands parse their options from one table each
 * (common/cli/parse-options.h), with the lab's manners: --help prints the
 * usage made from the table and exits 0; a bad option or value is one line
 * naming the command, and exit status 2.
 */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include <stddef.h>

#include "common/cli/parse-options.h"

/* Parses COMMAND's options; returns how many operands are left in argv[1..]. */
int lab_parse_options(const char *command, int argc, char **argv, const struct opt *opts,
		      const char *head, const char *tail);
/* The same with parse_options_until()'s OPERANDS_BEFORE. */
int lab_parse_options_until(const char *command, int argc, char **argv, const struct opt *opts,
			    const char *head, const char *tail, int operands_before);

struct strbuf;	/* common/util.h */
/* Appends TEXT to SB as a paragraph of a usage's head: its words wrapped at
 * 78 columns, every line ended by a newline. For the part of a head that is
 * made when it is shown, such as one naming the verdicts from their table. */
void usage_add_paragraph(struct strbuf *sb, const char *text);

/* OPTION_CALL converters for the lab's tables. */
/* Appends the value to the struct strlist the option targets (a repeatable option). */
int opt_push(const struct opt *o, const char *value, char *err, size_t err_size);
/* A positive number of seconds into the double the option targets. */
int opt_seconds(const struct opt *o, const char *value, char *err, size_t err_size);
/* realtime or icount into the struct clock_choice the option targets, asked
 * for by "--clock" (clock.h). */
int opt_clock(const struct opt *o, const char *value, char *err, size_t err_size);
/* Verdict words ("worse,differs") into the compare_verdict_mask the option
 * targets (analysis/compare/compare_fail_on.h). */
int opt_fail_on(const struct opt *o, const char *value, char *err, size_t err_size);
/* --fail-on's help, shared by lab compare and lab run, its words from the
 * verdicts' table (a static string). */
const char *opt_fail_on_help(void);

#endif
