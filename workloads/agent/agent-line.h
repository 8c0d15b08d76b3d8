/* `/init --run-line N PROGRAM ARGS...`: one workload line, measured
 * (agent-line.c; common/proto/workload-line.h). */
#ifndef OOMLAB_AGENT_LINE_H
#define OOMLAB_AGENT_LINE_H

int run_line_main(int argc, char **argv);

#endif
