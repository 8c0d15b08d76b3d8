/*
 * The first round's word on a run: when every trial of it (the first of each
 * group, in a shard those the shard has) ended the same broken way, the rest
 * of the run would end that way too, so lab run stops there. Broken means:
 *   - 'failed' with one exit status: the experiment's script fails a trial
 *     only for a usage error or a program the guest lacks (status 2, 126,
 *     127; experiment_command), the command's own failures being results;
 *   - 'boot-failure': the kernel or the guest images do not come up;
 *   - 'host-killed': something outside the lab kills the QEMUs (the host's OOM
 *     killer, most often);
 *   - one workload line (trial.json's "workload_lines") that exited by
 *     itself with one status other than 0 in every trial, across all
 *     groups: `taskset zz spawn` fails before the workload starts. The
 *     reason names the line and the line of text that explains it
 *     (trial.json's explaining_text: a selftest's "Bail out!" or last "#"
 *     diagnostic, else the first line of text it wrote).
 * Panics and hangs are results of the kernels under test: they never stop a
 * run, nor does a round whose trials ended in different ways, nor a line
 * that ended by a signal (an OOM kill) or with statuses that differ.
 */
#ifndef LAB_FIRST_ROUND_H
#define LAB_FIRST_ROUND_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

/* The trial folders DIRS of the first round: true, and the reason in WHY (one
 * line: the outcome or the workload line, the status, what the first trial
 * said), when they all ended the same broken way. A trial without a readable trial.json is no
 * evidence: false. */
bool first_round_broken(const char *const *dirs, size_t n, struct strbuf *why);

#endif
