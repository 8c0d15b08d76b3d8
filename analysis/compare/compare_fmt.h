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

/* The row's difference: "+12.5", "+1.3abs", "~+0.8" (within the A/A
 * noise); NUM_WIDTH bounds the number alone. */
char *compare_fmt_diff(char *buf, size_t size, const struct compare_row *row,
		       int num_width);

/* "[+5.1,+22]"; the numbers in at most NUM_WIDTH characters each. */
char *compare_fmt_ci(char *buf, size_t size, const struct compare_row *row,
		     int num_width);

/* "10" or "10+2" (trials that count + trials that ended otherwise). */
char *compare_fmt_n(char *buf, size_t size, const struct compare_side *side);

/* "median" / "mean" */
const char *compare_centre_name(enum stats_centre centre);

/* The notes under a table (n, methods, markers), one line of at most 78
 * characters per call of EMIT. */
void compare_fmt_notes(const struct compare_table *table,
		       void (*emit)(void *ctx, const char *line), void *ctx);

#endif
