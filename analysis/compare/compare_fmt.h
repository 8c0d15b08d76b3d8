/* compare_fmt.h - internal: helpers shared by the compare formatters. */
#ifndef OOMLAB_COMPARE_FMT_H
#define OOMLAB_COMPARE_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* X in at most WIDTH characters (WIDTH >= 5): fewer significant digits,
 * then k/M/G/T for large values, then an exponent; "-" for NAN. SIGN
 * prints a '+' on positives. Returns BUF. */
char *compare_fmt_num(char *buf, size_t size, double x, int width, bool sign);

/* "0.003", "<0.001", or "-" for NAN; at most 6 characters. */
char *compare_fmt_p(char *buf, size_t size, double p);

/* The suffix of a number in SCALE: "%", "pp" or "" (the unit). */
const char *compare_fmt_scale_suffix(enum compare_scale scale);

/* The row's difference with its scale: "+12.5%", "+1.3", "+33pp"; a '~'
 * in front when it is within the A/A noise. NUM_WIDTH bounds the number. */
char *compare_fmt_diff(char *buf, size_t size, const struct compare_row *row, int num_width);

/* "[+5.1,+22]"; the numbers in at most NUM_WIDTH characters each. */
char *compare_fmt_ci(char *buf, size_t size, const struct compare_row *row, int num_width);

/* "+-27%", "+-96pp", "+-3.1", "any" (nothing detectable), "-" (none). */
char *compare_fmt_mde(char *buf, size_t size, const struct compare_row *row, int num_width);
char *compare_fmt_margin(char *buf, size_t size, const struct compare_row *row, int num_width);

/* What the verdict is said with, "" for none: "+-2%", "a +0.16% change
 * inside the 2% margin", "could miss +-27%", "too few trials". */
char *compare_fmt_detail(char *buf, size_t size, const struct compare_row *row);

/* The verdict as a claim, the detail in parentheses: "worse", "equivalent (+-2%)",
 * "equivalent (+0.16% inside the 2% margin, 0 outside its uncorrected 95% interval)",
 * "not detected (could miss +-27%)", "inconclusive (too few trials)". */
char *compare_fmt_verdict(char *buf, size_t size, const struct compare_row *row);

/* A row's result on one line, as the TAP and JUnit formats give it:
 * "CLAIM; diff D [CI], p-adj P" (the claim as compare_fmt_verdict()). */
char *compare_fmt_result(char *buf, size_t size, const struct compare_row *row);

/* "+0.16% inside the 2% margin, 0 outside its uncorrected 95% interval" (for a row changed_inside_margin). */
char *compare_fmt_change(char *buf, size_t size, const struct compare_row *row);

/* "10" or "10+2" (trials that count + trials that ended otherwise). */
char *compare_fmt_n(char *buf, size_t size, const struct compare_side *side);

/* A side's centre in at most WIDTH characters: "3/6" for shares, else the
 * number. */
char *compare_fmt_centre(char *buf, size_t size, const struct compare_side *side,
			 enum compare_method method, int width);

/* The row's variant as the tables show it: "binder-kcalloc", or
 * "binder-kcalloc+debug (vs stock+debug)" when the row has a baseline of
 * its own (a variant built for another target against the baseline built
 * for it). Returns BUF. */
char *compare_fmt_row_variant(char *buf, size_t size, const struct compare_table *table,
			      const struct compare_row *row);
/* The clock every group ran on: "icount (shift=0,sleep=off,align=off)",
 * "realtime", or "-" when the table has none. */
char *compare_fmt_clock(char *buf, size_t size, const struct compare_clock *clock);

/* The legend under a table (words, methods, columns), one line of at most
 * 78 characters per call of EMIT; a line starting with two blanks
 * continues the one before. */
void compare_fmt_notes(const struct compare_table *table,
		       void (*emit)(void *ctx, const char *line), void *ctx);

/* S for a terminal: each control character (an escape sequence's ESC, a
 * newline) '?', cut to fit SIZE. Returns BUF. */
char *compare_fmt_printable(char *buf, size_t size, const char *s);

#endif
