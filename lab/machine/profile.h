/*
 * Low-memory machine profiles (configs/profiles/<name>.conf): the VM's
 * RAM, CPUs and NUMA layout, zram swap, VM sysctls, an optional throttled
 * "slow flash" disk, the cgroup v2 limits of the workload cgroup, and the
 * guest's clock (clock.h; an experiment's own clock wins).
 * Files are `key = value` lines; unknown keys and bad values are errors
 * naming the file and line. `killer = NAME` picks who kills under pressure,
 * one row of common/proto/killer-kinds.h, and that row's keys set it
 * (`lmkd.*`, `oomd.*`).
 */
#ifndef LAB_PROFILE_H
#define LAB_PROFILE_H

#include "common/util.h"
#include "profile-keys.h"
#include "profile-type.h"

/* scratch_disk_size's default: room for the page cache and files of mm's and
 * cgroup's tests; sparse on the host, which stores only what is written. */
#define PROFILE_SCRATCH_DISK_DEFAULT (1ULL << 30)

/* Parses TEXT as profile NAME read from FILE; on error err holds "file:line: reason". */
int profile_parse(struct profile *p, const char *name, const char *file, const char *text,
		  struct strbuf *err);
/* Loads profile NAME: the lab's configs/profiles/NAME.conf or the user's
 * (kvfile_read_named); a NAME with a '/' or ending in .conf is a file's path,
 * and the profile is known by its absolute path. */
int profile_load(struct profile *p, const char *name, struct strbuf *err);
/* The names of all profiles, sorted. */
void profile_names(struct strlist *names);
/* The profile as key=value lines, every key present (for the trial record). */
char *profile_format(const struct profile *p);
/* The profile's settings the guest's agent reads, as job spec lines
 * (common/proto/job-keys.h), appended to SPEC. */
void profile_job_spec(const struct profile *p, struct strbuf *spec);
void profile_clear(struct profile *p);

#endif
