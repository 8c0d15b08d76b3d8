/*
 * A workload line of an experiment, measured (docs/FORMATS.md, "Workload
 * lines"): defined once for the guest's line runner
 * (workloads/agent/agent-line.c) and the host that reads what it says
 * (analysis/metrics/workload_lines.c, lab/run/first-round.c).
 *
 * The experiment's script (lab/run/experiment.c, experiment_command) runs each
 * line N as
 *     /init --run-line N PROGRAM ARGS...
 * The agent, in that mode, starts PROGRAM as the line's own process (OOM
 * killable, oom_score_adj 0) and stays out of the OOM killer's way itself.
 * Around it, on stdout (out.log), it writes
 *     {"type":"line-start","workload":W,"line":N,"t_mono_ns":T}
 *     ... what PROGRAM writes ...
 *     the metric lines W.exit_status, W.signal, W.wall_seconds and, when
 *     the kernel can say, W.memory_peak_bytes and W.oom_kills
 *     {"type":"line-end","workload":W,"line":N,"exit_status":S,"signal":G,"t_mono_ns":T}
 * and it exits with PROGRAM's status as a shell reports it (128+G for
 * signal G; 127 when PROGRAM was not found, 126 when it could not run).
 */
#ifndef OOMLAB_WORKLOAD_LINE_H
#define OOMLAB_WORKLOAD_LINE_H

/* The agent's path in the guest and the option of its line-runner mode. */
#define LINE_RUNNER_PATH   "/init"
#define LINE_RUNNER_OPTION "--run-line"

/* The out.log markers around a line's own output, and their fields. */
#define LINE_START         "line-start"
#define LINE_END           "line-end"
#define LINE_NUMBER        "line"
#define LINE_EXIT_STATUS   "exit_status"
#define LINE_SIGNAL        "signal"

/*
 * The metrics of every line, "<W>.<name>" (the runner's, but the last):
 *   exit_status        its status as the shell says it: 128+G for signal G  status
 *   signal             the signal that ended it, 0 when it exited           signal
 *   wall_seconds       fork to reaped, on the guest's CLOCK_MONOTONIC       s
 *                      (under icount the guest's virtual time, docs/CLOCKS.md)
 *   memory_peak_bytes  the peak of the workload cgroup's memory.current     bytes
 *                      while it ran (memory.peak, reset for the line: Linux
 *                      6.12 or later)
 *   oom_kills          the workload cgroup's memory.events oom_kill delta    count
 *                      while it ran (kills of any task of the cgroup)
 *   bad_lines          lines of its output that start with '{' but are no    count
 *                      JSON object, or metric lines out of the schema
 *                      (counted by the host from out.log)
 */
#define LINE_METRIC_EXIT_STATUS  "exit_status"
#define LINE_METRIC_SIGNAL       "signal"
#define LINE_METRIC_WALL         "wall_seconds"
#define LINE_METRIC_MEMORY_PEAK  "memory_peak_bytes"
#define LINE_METRIC_OOM_KILLS    "oom_kills"
#define LINE_METRIC_BAD_LINES    "bad_lines"

/*
 * The workload a line's words ARGV (NULL-terminated) stand for: the last
 * path component of its program; through `taskset [OPTIONS] MASK PROGRAM`,
 * `time [OPTIONS] PROGRAM` and `oomlab-workload NAME`, the program they
 * run. Points into ARGV;
 * "" for no words.
 */
const char *workload_line_name(const char *const *argv);
/* Where in ARGV the words of that program start (its name through
 * `oomlab-workload NAME`), so that its own arguments follow; ARGV itself
 * when there are no words. */
const char *const *workload_line_program(const char *const *argv);
/* The same past the runners alone (taskset, time: programs that run the
 * program after them), not past oomlab-workload, whose NAME is a workload
 * of its own; ARGV when word 0 is no runner. */
const char *const *workload_line_past_runners(const char *const *argv);

#endif
