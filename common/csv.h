/* CSV fields as RFC 4180 has them (lab export --format csv, lab compare --format csv). */
#ifndef OOMLAB_CSV_H
#define OOMLAB_CSV_H

#include <stdbool.h>
#include <stdio.h>

/* Writes S (NULL: an empty field) as one field, after a comma unless FIRST;
 * quoted when it holds a comma, a quote or a line break, quotes doubled;
 * a ' before a field a spreadsheet would run as a formula (= + - @ first,
 * numbers aside). */
void csv_put_field(FILE *out, const char *s, bool first);

#endif
