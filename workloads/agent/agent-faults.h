/* The kernel's fault injection, for the command's tasks alone (agent-faults.c). */
#ifndef OOMLAB_AGENT_FAULTS_H
#define OOMLAB_AGENT_FAULTS_H

#include <stdbool.h>

#include "agent-job.h"

bool faults_wanted(const struct job *job);
/* Writes the job's "fault." lines to debugfs, in their order (protocol.h). */
void faults_arm(const struct job *job);
/* Disarms each armed capability and sends CTL_FAULTS with the failures forced. */
void faults_report(const struct job *job);

#endif
