/*
 * The guest/host protocol (docs/FORMATS.md), defined once: the guest agent
 * (workloads/agent) writes it, the lab (lab/, analysis/) reads it. This
 * folder uses the C library only, because the agent is a static binary
 * that runs as the guest's init.
 *
 * Channels: one virtio-serial port per channel, found in the guest by its
 * name; the host has QEMU append each port to a file of the trial folder.
 * The serial console goes to CONSOLE_FILE.
 */
#ifndef OOMLAB_PROTOCOL_H
#define OOMLAB_PROTOCOL_H

#include <stddef.h>

enum channel {
	CHANNEL_CTL,    /* control events, JSON lines (below) */
	CHANNEL_OUT,    /* the command's and the prepare step's stdout and stderr */
	CHANNEL_KMSG,   /* /dev/kmsg records as read */
	CHANNEL_PERF,   /* perf record's pipe-mode stream */
	CHANNEL_FILES,  /* files.bin records (below) */
	CHANNEL_COUNT
};
extern const char *const channel_port_name[CHANNEL_COUNT];  /* "ctl", "out", ... */
extern const char *const channel_file_name[CHANNEL_COUNT];  /* "ctl.jsonl", "out.log", ... */
#define CONSOLE_FILE "console.log"
/*
 * The most bytes the host takes of each channel in one trial, and of the
 * console (CONSOLE_CAP_BYTES): past it the trial ends as "flooded", so that
 * a guest printing in a loop fills neither the disk nor, for the channels
 * the host keeps in memory (ctl, kmsg, the console), its memory. Real
 * trials here wrote at most 18 KB of ctl, 16 KB of out, 53 KB of kmsg,
 * 0.7 MB of perf and 53 KB of files: the caps leave them 100 times room and more.
 */
extern const unsigned long long channel_cap_bytes[CHANNEL_COUNT];
#define CONSOLE_CAP_BYTES (16ULL << 20)

/*
 * Control events: {"type": T, "uptime": S, "t_mono_ns": N, ...} one a line;
 * uptime is CLOCK_BOOTTIME seconds, t_mono_ns CLOCK_MONOTONIC (perf's clock).
 */
#define CTL_HELLO        "hello"        /* the agent runs; with the two fields below */
/* What the guest is, as its kernel says: uname's machine ("x86_64",
 * "aarch64") and the page size in bytes (sysconf(_SC_PAGESIZE)). */
#define HELLO_MACHINE    "machine"
#define HELLO_PAGE_SIZE  "page_size"
#define CTL_READY        "ready"        /* set up, "before" snapshots sent */
#define CTL_PREPARED     "prepared"     /* the prepare step reported ready */
#define CTL_RECORDING    "recording"    /* perf records; "events": the recorded events, ',' separated */
#define CTL_HEARTBEAT    "heartbeat"    /* every second, with the fields below */
#define CTL_COMMAND_DONE "command-done"
#define CTL_EXIT         "exit"         /* "status" (128+N for signal N), "signal", and: */
/* The clocksource the guest's kernel timed with at the end (its sysfs
 * current_clocksource): "tsc" or "arch_sys_counter" normally; "jiffies" or
 * "refined-jiffies" leaves every time in the trial in whole ticks. */
#define EXIT_CLOCKSOURCE "clocksource"
#define CTL_WARNING      "warning"      /* "message" */
/*
 * The prepare step ended while the workload ran (an OOM kill, most often:
 * it is the last victim rather than a deadlock, workloads/fragment.c), so
 * the machine's shape did not hold to the window's end. Sent once, before
 * the window's end edge: "status" (128+N for signal N; -1 when it was still
 * exiting, as an OOM victim freeing its memory) and "ended_uptime" (s, when
 * the agent saw it end). The host counts the trial as off-target.
 */
/* The bytes of the recorder's file pages the agent locked in memory (agent-pin.c). */
#define CTL_PINNED       "pinned"
#define PINNED_BYTES     "bytes"
#define CTL_PREPARE_LOST "prepare-lost"
#define PREPARE_LOST_STATUS       "status"
#define PREPARE_LOST_ENDED_UPTIME "ended_uptime"
/*
 * The stall counters' window: the workload's, from just after perf starts
 * recording to just after the command ends. At each edge the agent reads
 * /proc/vmstat, notes CLOCK_MONOTONIC right before the read in
 * "read_begin_mono_ns" and right after it in "read_mono_ns" (vmstat's
 * counters were each taken between the two), sends this event ("edge": "start" or "end") and the text
 * as the files.bin record WINDOW_<edge>/vmstat. Trace events are counted
 * between the two read_mono_ns, so both sources count one window.
 * At the start it also reads /proc/buddyinfo (record window-start/buddyinfo)
 * and says how fragmented the machine is as the workload starts:
 * "target_order" K (the job's JOB_KEY_TARGET_ORDER, else 3), "free_blocks_ge"
 * (free blocks of order >= K, all zones) and, when the job sets one,
 * "target_max_blocks" (the prepare step's target: more is "off-target").
 */
#define CTL_WINDOW       "window"
#define WINDOW_EDGE_START "start"
#define WINDOW_EDGE_END   "end"
#define SNAPSHOT_WINDOW_START "window-start"
#define SNAPSHOT_WINDOW_END   "window-end"
#define WINDOW_TARGET_ORDER      "target_order"
#define WINDOW_FREE_BLOCKS_GE    "free_blocks_ge"
#define WINDOW_TARGET_MAX_BLOCKS "target_max_blocks"
/* A heartbeat's sample of the memory state (the prepare step's carry none). */
#define HB_MEM_FREE_KB        "mem_free_kb"
#define HB_MEM_AVAILABLE_KB   "mem_available_kb"
#define HB_SWAP_FREE_KB       "swap_free_kb"
#define HB_CGROUP_MEMORY      "cgroup_memory_bytes"
#define HB_PSI_SOME_TOTAL_US  "psi_some_total_us"
#define HB_PSI_FULL_TOTAL_US  "psi_full_total_us"
/* All of them, NULL-terminated. */
extern const char *const heartbeat_fields[];

/*
 * files.bin: records "oomlab-file NAME LEN\n", LEN bytes, "\n". A record cut
 * short (the guest died while sending it) keeps what arrived.
 */
#define FILES_RECORD_NAME_MAX 255
struct files_record {
	char name[FILES_RECORD_NAME_MAX + 1];
	unsigned long long size;        /* LEN */
	size_t data;                    /* offset of the bytes from the header's start */
};
/* The header of a record of SIZE bytes into BUF; its length, as snprintf. */
int files_record_header(char *buf, size_t buf_size, const char *name, unsigned long long size);
/* Reads the header at DATA (LEN bytes available): 0 and *REC, or -1 when
 * there is no whole header or it is malformed (a name with ".." is). */
int files_record_parse(const char *data, size_t len, struct files_record *rec);

/*
 * Snapshots: sent as files.bin records "before/NAME" (after boot, before the
 * prepare step) and "after/NAME" (after the workload and perf), from the
 * guest file beside each name.
 */
#define SNAPSHOT_BEFORE "before"
#define SNAPSHOT_AFTER  "after"
struct snapshot_file {
	const char *name;
	const char *guest_path;
};
extern const struct snapshot_file snapshot_files[];  /* ends with { NULL, NULL } */
#define SNAP_BUDDYINFO           "buddyinfo"
#define SNAP_VMSTAT              "vmstat"
#define SNAP_SLABINFO            "slabinfo"
#define SNAP_PRESSURE_MEMORY     "pressure-memory"
#define SNAP_CGROUP_EVENTS       "cgroup-memory.events"
#define SNAP_CGROUP_PRESSURE     "cgroup-memory.pressure"
#define SNAP_BINDER_STATS        "binder-stats"
/* perf's own messages, sent after perf stopped */
#define FILE_PERF_STDERR         "perf.stderr"

/* The job: files the host puts under JOB_DIR in the guest's initramfs. */
#define JOB_DIR        "/job"
#define JOB_SPEC       "spec"        /* key=value lines, their keys in job-keys.h */
#define JOB_CMD        "cmd"         /* the command, run by /bin/sh -c */
#define JOB_PERF_ARGS  "perf-args"   /* perf record arguments, one a line; empty: no perf */
#define JOB_PREPARE    "prepare"     /* the prepare step's command; empty: none */

/*
 * Fault injection (the kernel's framework, Documentation/fault-injection/).
 * Spec lines "fault.<capability>.<attribute>=<value>" (job-keys.h,
 * JOB_KEY_FAULT), which the agent writes in their order to
 * /sys/kernel/debug/<capability>/<attribute> at
 * the start of the workload window; the host puts "probability" last, so a
 * capability is armed only once the rest is set. task-filter is Y and the
 * command alone (and what it starts) has make-it-fail, never the agent,
 * its relays, perf or the prepare step. At the window's end the agent sets
 * each probability to 0 and reads "times", which the host wrote as a count
 * to spend (FAULT_TIMES_UNLIMITED when no limit was asked), and sends
 * {"type": "faults", "capability": C, "injected": N}: the failures forced.
 */
enum fault_capability { FAULT_PAGE_ALLOC, FAULT_SLAB, FAULT_CAPABILITY_COUNT };
/* "fail_page_alloc", "failslab": the debugfs folder, the experiment and
 * profile key, and the metric "<name>_injected" */
extern const char *const fault_capability_name[FAULT_CAPABILITY_COUNT];
#define FAULT_TIMES_UNLIMITED 1000000000L
#define CTL_FAULTS            "faults"
#define FAULTS_CAPABILITY     "capability"
#define FAULTS_INJECTED       "injected"

/*
 * The job's killer (common/proto/killer-kinds.h) when it is not the kernel's
 * alone: {"type": "killer", "name": KIND, "pid": N} once the agent started
 * that userspace killer, just before the command. The host counts that
 * killer's kills (KIND's metrics: lmkd_*, oomd_*) only in a trial that says so.
 */
#define CTL_KILLER            "killer"
#define KILLER_NAME           "name"
#define KILLER_PID            "pid"

/*
 * Boot once, restore per trial (docs/CLOCKS.md). A job with the spec key
 * restore_point=1 makes the agent stop after "ready": it fills a locked page
 * of its memory with restore_slot_fill's pattern, sends {"type":
 * "restore-point"}, and looks at the page every RESTORE_POLL_MS of guest
 * time until its first bytes hold a line "seed=N trial=ID" (then NULs to
 * RESTORE_SLOT_LINE; restore_line_format, restore_line_parse). The lab
 * saves the VM as it waits, finds the page in the saved VM (the pattern's
 * first RESTORE_SLOT_MATCH bytes, once), and loads each restore with its own
 * line written over the page's first RESTORE_SLOT_LINE bytes. No device
 * brings the line, so the guest finds it at its next look, the same guest
 * instant in every restore. The agent mixes N (not ID) into the kernel's
 * random pool and reseeds it, puts N and ID in the command's environment
 * (OOMLAB_SEED, OOMLAB_TRIAL) and sends {"type": "restored", "seed": N,
 * "trial": ID}.
 */
#define RESTORE_SLOT_PAGE     4096
#define RESTORE_SLOT_LINE     128
#define RESTORE_SLOT_MATCH    64
#define RESTORE_POLL_MS       10
/* The page's pattern (RESTORE_SLOT_PAGE bytes): no zeros, made at run time
 * so that the agent's program holds no copy of it for the search to find. */
void restore_slot_fill(unsigned char *page);
#define CTL_RESTORE_POINT     "restore-point"
#define CTL_RESTORED          "restored"
#define RESTORED_SEED         "seed"
#define RESTORED_TRIAL        "trial"
#define RESTORE_TRIAL_ID_MAX  64
#define GUEST_ENV_SEED        "OOMLAB_SEED"
#define GUEST_ENV_TRIAL       "OOMLAB_TRIAL"
/* The line for SEED and TRIAL (letters, digits, '-', '_', '.', at most
 * RESTORE_TRIAL_ID_MAX - 1) into BUF; its length, as snprintf, or -1 for a
 * trial id that is not of that form. */
int restore_line_format(char *buf, size_t size, unsigned long long seed, const char *trial);
/* LINE (with or without its newline) into *SEED and TRIAL[RESTORE_TRIAL_ID_MAX];
 * -1 when it is not of restore_line_format's form. */
int restore_line_parse(const char *line, unsigned long long *seed, char trial[RESTORE_TRIAL_ID_MAX]);

/* Disks, found in the guest by their serial. */
#define DISK_TOOLS_SERIAL "oomlab-tools"  /* erofs: perf, stress-ng, the workloads */
#define DISK_SLOW_SERIAL  "oomlab-slow"   /* the throttled "slow flash" disk */
#define DISK_SCRATCH_SERIAL "oomlab-scratch" /* ext4: the selftests' working folder */
/* Where the agent mounts the scratch disk, when the trial has one and the
 * kernel has ext4; a selftest runs in a folder of its own below it. */
#define GUEST_SCRATCH_DISK_DIR "/scratch"

/* The environment the agent gives the command and the prepare step (the lab
 * expands these when it checks command lines before a boot). */
/* The user's folders (`files = DIR`, lab boot --files) on the tools disk: their
 * top level and bin/ come last on PATH, so they never shadow the guest's own. */
#define GUEST_FILES_DIR    "/oomlab/files"
#define GUEST_ENV_PATH     "/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin:" GUEST_FILES_DIR ":" \
			   GUEST_FILES_DIR "/bin"
#define GUEST_ENV_HOME     "/root"
#define GUEST_ENV_TERM     "linux"
#define GUEST_ENV_SCRATCH  "/tmp"   /* $OOMLAB_SCRATCH */
/* $OOMLAB_SLOW_DISK: the slow disk's device node, set only when there is one. */

/* Where the kernel selftests an experiment names are in the guest: SUITE/TEST
 * under it, as the lab built them from the variant's tree (lab/machine/selftest-build.h,
 * workloads/selftest.c), among the files and named by their hash. */
#define GUEST_SELFTESTS_UNDER ".selftests"
#define GUEST_SELFTESTS_DIR   GUEST_FILES_DIR "/" GUEST_SELFTESTS_UNDER
/* In a suite's folder there: the programs of `selftest SUITE`, one a line,
 * in the order they run (lab/machine/selftest-build.c writes it); for a
 * suite run by its runner script, lines "SELFTEST_RUNNER -t CATEGORY". */
#define SELFTEST_SUITE_LIST   ".oomlab-suite"
/* The runner script of a suite that has one (mm), the static bash that
 * runs it and procps' pgrep, which its hugetlb scripts call (x86_64 guests
 * only: the host's, with its libraries), all in the suite's folder. */
#define SELFTEST_RUNNER       "run_vmtests.sh"
#define SELFTEST_RUNNER_BASH  "bash"
#define SELFTEST_RUNNER_PGREP "pgrep"
/* A runner suite's list line is this, then a category. */
#define SELFTEST_RUNNER_LINE  SELFTEST_RUNNER " -t "

#endif
