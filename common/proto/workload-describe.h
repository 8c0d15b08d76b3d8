/*
 * `oomlab-workload --describe`: the workload table (workloads/workload.h)
 * for the lab to read (lab workloads), since the lab does not link the
 * guest's workloads. A line a record, its fields separated by tabs:
 *   workload<TAB>NAME<TAB>SUMMARY    then that workload's records:
 *   usage<TAB>LINE       each line of its --help head: the synopsis, what it does
 *   option<TAB>...       its option table, as common/cli/parse-options.h's
 *   group<TAB>HEADING    print_option_rows() writes it
 *   notes<TAB>LINE       each line of its --help tail (what it reports, ...)
 *   metric<TAB>ROW       each metric it declares, as after "NAME." in trial.json
 */
#ifndef OOMLAB_WORKLOAD_DESCRIBE_H
#define OOMLAB_WORKLOAD_DESCRIBE_H

#define DESCRIBE_FLAG     "--describe"
#define DESCRIBE_WORKLOAD "workload"
#define DESCRIBE_USAGE    "usage"
#define DESCRIBE_NOTES    "notes"
#define DESCRIBE_METRIC   "metric"

#endif
