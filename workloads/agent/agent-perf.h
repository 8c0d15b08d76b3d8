/* The recorder: perf record for the whole workload (agent-perf.c). */
#ifndef OOMLAB_AGENT_PERF_H
#define OOMLAB_AGENT_PERF_H

/* Launch (events off) 0 ready, 1 nothing asked for, -1 failed; then enable */
int perf_launch(const char *args_path);
int perf_enable(void);
/* The events perf records, "," separated ("" before perf_launch). */
const char *perf_recorded_events(void);
/* Has perf send what it recorded so far (called a few times a second). */
void perf_flush(void);
void perf_stop(void);

#endif
