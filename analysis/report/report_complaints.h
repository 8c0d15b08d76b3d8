/* report_complaints.h - the report's section on what the kernel complained
 * about: each distinct complaint of the run (trial.json "kernel_complaints",
 * grouped by their "signature": kind, summary and function), the trials of
 * each group it appeared in, and the top lines of its stack.
 */
#ifndef OOMLAB_REPORT_COMPLAINTS_H
#define OOMLAB_REPORT_COMPLAINTS_H

#include <stdio.h>

#include "analysis/run/run-data.h"

/* Writes the section's content (a table, or one line saying there was
 * nothing); returns how many distinct complaints there were. */
size_t report_complaints_write(FILE *out, const struct run_data *rd);

#endif
