/* lab boot: boot a variant in a memory-constrained VM and run a command. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/machine/boot-status.h"
#include "builtin.h"
#include "lab/run/command-check.h"
#include "lab/kernel/kbuild.h"
#include "lab/kernel/kernel-catalog.h"
#include "lab/cli/options.h"
#include "common/paths.h"
#include "lab/trial/perf-events.h"
#include "lab/machine/selftest-build.h"
#include "lab/trial/trial-plan.h"
#include "lab/trial/trial-restores.h"
#include "lab/trial/trial.h"
#include "lab/kernel/variant-given.h"
#include "common/proto/protocol.h"

#define DEFAULT_PROFILE "phone-512m"
static const char boot_usage[] =
	"usage: lab boot VARIANT [options] [-- CMD [ARG...]]\n"
	"       lab boot --variant [NAME=]SPEC [options] [-- CMD [ARG...]]\n"
	"\n"
	"Boots VARIANT (building it first if needed) in a VM shaped by a profile, runs\n"
	"CMD as root in the guest's workload cgroup, prints its output as it comes, and\n"
	"exits with CMD's exit status. Without CMD on a terminal: an interactive shell.\n"
	"VARIANT may be NAME=SPEC, as lab run --variant takes it (patch:FILE[,FILE...]\n"
	"on top of stock, git:DIR@REF, tree:DIR, bzimage:FILE); --variant SPEC alone\n"
	"names it 'given'.\n"
	"\n";

static const char boot_tail[] =
	"Exit status: CMD's own (0-255), or the outcome's, chosen so that\n"
	"`git bisect run lab boot V -- CMD` does what a bisection wants (git reads\n"
	"0 as good, 1-127 but 125 as bad, 125 as skip, above 127 as abort):\n"
	"  123        the guest panicked (bad)\n"
	"  124        the guest hung: no output for --silence-timeout, or past\n"
	"             --timeout (bad; as timeout(1) says it)\n"
	"  125        the kernel did not build: this commit cannot be tested (skip)\n"
	"  126        the guest did not boot (bad; `lab boot ...; s=$?; [ $s = 126 ]\n"
	"             && exit 125; exit $s` skips such commits instead)\n"
	"  128+N      QEMU was killed by signal N from outside the lab, outcome\n"
	"             host-killed: the host's doing, not the kernel's (abort)\n"
	"  253        the guest wrote past a channel's cap, outcome flooded (64 MiB\n"
	"             of output, say: docs/FORMATS.md): the command's doing (abort)\n"
	"  254        bad input: an option, the variant, the command line (abort)\n"
	"  255        the lab failed otherwise: QEMU did not start, a file could not\n"
	"             be written, the command's status never came (abort)\n"
	"A CMD that exits with one of these says so itself; the outcome and its\n"
	"detail go to stderr either way, and the trial folder (trial.json, channels,\n"
	"reproduce.sh) is kept.\n";

/* The variant ARG names for lab boot: a name as it is; NAME=SPEC, or a spec
 * alone (named 'given'), staged on top of stock (malloc'd). */
static char *given_boot_variant(const char *arg, struct given_variants *given)
{
	bool spec = strchr(arg, '=') || strchr(arg, ':');
	if (!spec)
		return xstrdup(arg);
	char *full = strchr(arg, '=') ? xstrdup(arg) : xasprintf("given=%s", arg);
	struct strlist args = STRLIST_INIT;
	strlist_push(&args, full);
	struct strbuf err = STRBUF_INIT;
	if (given_variants_stage(given, &args, "stock", &err) < 0)
		die_usage("boot: %s", err.buf);
	strlist_clear(&args);
	char *name = given_variant_name(full);
	free(full);
	return name;
}

static char *default_out_dir(const char *variant)
{
	char stamp[64];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	return xasprintf("%s/boots/%s-%s-%d", cache_root(), stamp, variant, (int)getpid());
}

/* One argument is a shell script as it stands (like ssh); several are quoted words. */
static char *join_command(int argc, char **argv)
{
	if (argc == 1)
		return xstrdup(argv[0]);
	return shell_join((const char *const *)argv, (size_t)argc);
}

/* --files: each folder, made absolute for the record, then the hash; bad
 * input before anything is built or booted. */
static void load_files(struct guest_files *files, const struct strlist *dirs)
{
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < dirs->n; i++) {
		char *real = realpath(dirs->items[i], NULL);
		if (guest_files_add(files, real ? real : dirs->items[i], &err) < 0)
			die_usage("boot: --files %s: %s", dirs->items[i], err.buf);
		free(real);
	}
	guest_files_finish(files);
}

/* The selftests LINES run, built from V's tree, join FILES (selftest-build.h);
 * true when they run any. */
static bool add_selftests(const struct variant *v, const struct command_lines *lines,
			  struct guest_files *files)
{
	struct selftest_list tests;
	struct strbuf err = STRBUF_INIT;
	selftests_named(lines, &tests);
	if (tests.n) {
		int rc = selftests_prepare(v, &tests, files, &err);
		if (rc == SELFTEST_NOT_IN_TREE)
			die_usage("%s", err.buf);
		if (rc < 0)
			die("boot: %s", err.buf);
	}
	bool any = tests.n > 0;
	selftest_list_clear(&tests);
	strbuf_release(&err);
	return any;
}

/* The command and the prepare step on the host, before anything is built or
 * booted, split once into LINES for the selftests' build too. */
static void check_commands(const struct profile *profile, const struct guest_files *files,
			   bool restored, const char *command, const char *prepare,
			   struct command_lines *lines)
{
	struct guest_view guest;
	struct strlist notes = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t folder = 0;
	if (guest_view_load(&guest, profile, &err) < 0)
		die("boot: %s", err.buf);
	guest.restored = restored;
	if (guest_view_add_files(&guest, files, &folder, &err) < 0)
		die_usage("boot: --files %s: %s", files->dirs.items[folder], err.buf);
	*lines = (struct command_lines){ .file = "boot" };
	if (command)
		command_lines_add(lines, &guest, "the command", command, 0, false);
	if (prepare)
		command_lines_add(lines, &guest, "--prepare", prepare, 0, false);
	for (size_t i = 0; i < lines->n; i++) {
		const struct command_line *cl = &lines->items[i];
		if (command_line_check(&guest, cl, &notes, &err) < 0) {
			if (!strcmp(cl->key, "--prepare"))
				die_usage("boot: --prepare %s: %s", cl->text, err.buf);
			die_usage("boot: the command: %s", err.buf);
		}
	}
	for (size_t i = 0; i < notes.n; i++)
		note("boot: %s", notes.items[i]);
	strlist_clear(&notes);
	guest_view_clear(&guest);
}

struct trial_asked boot_trial_asked(const struct platform *platform, const struct profile *profile,
				    struct clock_choice option)
{
	return (struct trial_asked){ .platform = *platform, .profile = profile, .clock_option = option };
}

/* --perf: the default events join the list. */
static int default_events(const struct opt *o, const char *value, char *err, size_t err_size)
{
	(void)value;
	(void)err;
	(void)err_size;
	perf_default_events(o->target);
	return 0;
}

/* --restores: what each boot and restore says, and the first non-zero status. */
struct restored_boot {
	int first_bad;
};

static void said_restore(void *ctx, unsigned i, const struct trial_spec *spec, const struct vm_run *vm)
{
	struct restored_boot *rb = ctx;
	int status = boot_exit_status(vm);
	if (i == 0) {
		if (vm->saved)
			note("boot: saved at the agent's ready after %.1f s (%.2f s to save): %s",
			     vm->wall_ready, vm->wall_saved, spec->dir);
		else
			error("boot: the boot was not saved (%s): %s", vm_outcome_name(vm->outcome),
			      vm->detail);
		if (!vm->saved)
			rb->first_bad = status ? status : BOOT_EXIT_LAB_ERROR;
		return;
	}
	note("boot: restore %u (seed %llu): %s, status %d, running %.2f s after QEMU started: %s", i,
	     spec->restore_seed, vm_outcome_name(vm->outcome), status, vm->wall_ready, spec->dir);
	if (vm->outcome != VM_OK && vm->outcome != VM_FAILED)
		error("boot: restore %u: %s", i, vm->detail);
	if (status && !rb->first_bad)
		rb->first_bad = status;
}

/* --restores: SPEC booted once and saved in DIR/boot, then restored N
 * times, DIR/restore-I (trial-restores.h); the first non-zero exit status,
 * else 0. */
static int boot_restored(const struct trial_spec *spec, unsigned long n, unsigned long seed,
			 bool same_seed)
{
	struct strbuf err = STRBUF_INIT;
	struct restored_boot rb = { 0 };
	struct trial_restores how = { .n = (unsigned)n, .seed = seed, .same_seed = same_seed,
				      .each = said_restore, .ctx = &rb };
	if (trial_run_restores(spec, &how, &err) < 0)
		die("boot: %s", err.buf);
	strbuf_release(&err);
	return rb.first_bad;
}

int cmd_boot(int argc, char **argv)
{
	const char *profile_name = DEFAULT_PROFILE, *out = NULL, *prepare = NULL, *variant_option = NULL;
	const char *arch = NULL, *page_size = NULL;
	const char *fault_text[FAULT_CAPABILITY_COUNT] = { NULL };
	struct vm_watchdogs wd = default_watchdogs();
	bool no_cgroup = false, same_seed = false;
	/* SEED_UNSET: --seed not given (the option's range stops at ULONG_MAX / 2) */
	const unsigned long SEED_UNSET = ULONG_MAX;
	unsigned long restores = 0, seed = SEED_UNSET;
	struct strlist events = STRLIST_INIT, file_dirs = STRLIST_INIT;
	struct clock_choice clock_option = { GUEST_CLOCK_REALTIME, NULL };
	const struct opt opts[] = {
		OPT_STRING('p', "profile", &profile_name, "P",
			   "machine profile (default " DEFAULT_PROFILE "; see lab profiles)"),
		OPT_STRING(0, "arch", &arch, "A",
			   "the guest's architecture: x86_64 (default) or arm64 (QEMU's virt machine, "
			   "a kernel cross-built from the same source)"),
		OPT_STRING(0, "page-size", &page_size, "P",
			   "the kernel's page size: 4k (default), or on arm64 16k or 64k"),
		OPT_CALL(0, "clock", &clock_option, "C", opt_clock,
			 "the guest's clock: realtime or icount (instructions counted under "
			 "single-threaded TCG; default: the profile's clock, else realtime; see "
			 "docs/CLOCKS.md)"),
		OPT_CALL('t', "timeout", &wd.total, "S", opt_seconds,
			 "whole-boot timeout in seconds (default 1800)"),
		OPT_CALL(0, "boot-timeout", &wd.boot, "S", opt_seconds,
			 "seconds for the agent to come up (default 60)"),
		OPT_CALL(0, "silence-timeout", &wd.silence, "S", opt_seconds,
			 "seconds without any output before it is a hang (default 60). Timeouts "
			 "are host seconds for the realtime clock; under icount they are "
			 "multiplied by its slowdown, 6"),
		OPT_FLAG(0, "no-cgroup", &no_cgroup, "run CMD outside the workload cgroup"),
		OPT_CALL('e', "event", &events, "EVENT", opt_push,
			 "record EVENT with perf for the command (repeatable; 'group:name' or "
			 "'group:name if FILTER'); --perf records the lab's default events. "
			 "perf.data and its decoded perf.script land in the trial folder"),
		OPT_CALL(0, "perf", &events, NULL, default_events,
			 "record the default events (see lab run --help)"),
		OPT_CALL(0, "files", &file_dirs, "DIR", opt_push,
			 "bring folder DIR into the guest, read-only, at " GUEST_FILES_DIR " (repeatable; "
			 "the folders merge): its top level and bin/ are on PATH, a dynamically "
			 "linked program's libraries come along"),
		OPT_STRING(0, "prepare", &prepare, "CMD",
			   "run CMD first, outside the cgroup, until it prints a JSON event named "
			   "ready (e.g. 'fragment'); it holds while CMD runs and is stopped after"),
		OPT_STRING(0, "fail-page-alloc", &fault_text[FAULT_PAGE_ALLOC], "SPEC",
			   "fail the command's page allocations, as the key fail_page_alloc says: "
			   "'probability P[, min-order K][, interval N][, times N][, space BYTES]"
			   "[, ignore-gfp-wait yes|no]' (docs/KERNELS.md: Failure paths on demand)"),
		OPT_STRING(0, "failslab", &fault_text[FAULT_SLAB], "SPEC",
			   "fail the command's slab allocations, as the key failslab says (the same "
			   "words but min-order)"),
		OPT_STRING(0, "variant", &variant_option, "[NAME=]SPEC",
			   "the kernel to boot, in place of the VARIANT operand: a variant's name or "
			   "a spec, as lab run --variant takes it"),
		OPT_ULONG(0, "restores", &restores, "N", 1, MAX_RESTORES,
			  "boot once to the agent's ready, save the VM there, and run the command in N "
			  "trials restored from it (DIR/boot, DIR/restore-1 ...), each with a seed of "
			  "its own; exits with the first non-zero status (docs/CLOCKS.md)"),
		OPT_ULONG(0, "seed", &seed, "S", 0, ULONG_MAX / 2,
			  "with --restores: restore I gets seed S+I-1 (default 1), as $" GUEST_ENV_SEED
			  " and in the guest's random pool"),
		OPT_FLAG(0, "same-seed", &same_seed, "with --restores: every restore gets seed S"),
		OPT_STRING('o', "out", &out, "DIR",
			   "keep the trial folder here (default: a new folder under "
			   "$XDG_CACHE_HOME/oomlab/boots/)"),
		OPT_END(),
	};
	/* Options may come before or after the variant; "--" ends them, and the
	 * command that follows the variant has options of its own. */
	/* the lab's own errors must not read as the command's (boot-status.h) */
	set_die_statuses(BOOT_EXIT_LAB_ERROR, BOOT_EXIT_BAD_INPUT);
	int n = lab_parse_options_until("boot", argc, argv, opts, boot_usage, boot_tail,
					variant_option ? 0 : 1);
	if (n < 1 && !variant_option)
		die_usage("boot: name a variant (see lab kernel list)");
	/* the command's words follow the variant operand, or start at once after --variant */
	int skip = variant_option ? 0 : 1;
	const char *variant_arg = variant_option ? variant_option : argv[1];
	bool use_cgroup = !no_cgroup;
	bool interactive = n == skip;
	if (interactive && !isatty(0))
		die_usage("boot: give a command after -- (a shell needs a terminal)");
	if (interactive && restores)
		die_usage("boot: --restores needs a command after --");
	if (same_seed && !restores)
		die_usage("boot: --same-seed needs --restores");
	if (seed != SEED_UNSET && !restores)
		die_usage("boot: --seed needs --restores (it seeds the restores)");
	if (seed == SEED_UNSET)
		seed = 1;

	struct strbuf err = STRBUF_INIT;
	struct platform platform;
	if (platform_parse(arch, page_size, &platform, &err) < 0)
		die_usage("boot: %s", err.buf);
	/* the folders QEMU is given, before anything is built */
	path_plain_or_die("boot", "the kernel cache", cache_root());
	if (out)
		path_plain_or_die("boot", "--out", out);
	/* NAME=SPEC, or a bare spec: staged as lab run stages it (variant-given.h) */
	struct given_variants given = { 0 };
	char *variant_name = given_boot_variant(variant_arg, &given);
	struct kconfig base = KCONFIG_INIT;
	struct variant_set set;
	load_base_config(&base);
	load_variants(&set, &base, &platform);
	const struct variant *v = variant_find(&set, variant_name);
	if (!v)
		die_usage("boot: no variant '%s' (see lab kernel list)", variant_name);
	struct profile profile;
	if (profile_load(&profile, profile_name, &err) < 0)
		die_usage("boot: %s", err.buf);
	struct trial_asked machine = boot_trial_asked(&platform, &profile, clock_option);
	struct clock_choice clock;
	if (trial_plan_clock(&machine, &clock, &err) < 0)
		die_usage("boot: %s", err.buf);
	/* the profile's fault injection, under the options' */
	struct fault_plan faults = profile.faults, asked;
	if (fault_plan_parse_options(&asked, fault_text, &err) < 0)
		die_usage("boot: %s", err.buf);
	fault_plan_merge(&faults, &asked);
	if (fault_plan_check_kernel(&faults, v, &base, &err) < 0)
		die_usage("boot: %s", err.buf);
	char *command = interactive ? xstrdup("") : join_command(n - skip, argv + 1 + skip);
	struct guest_files files = GUEST_FILES_INIT(platform.arch);
	load_files(&files, &file_dirs);
	struct command_lines lines;
	check_commands(&profile, &files, restores > 0, interactive ? NULL : command, prepare, &lines);
	if (kernel_build(v, &base, &err) < 0) {
		error("kernel %s: %s", v->name, err.buf);
		error("boot: the kernel did not build: exit %d (git bisect run skips this commit)",
		      BOOT_EXIT_NOT_BUILT);
		exit(BOOT_EXIT_NOT_BUILT);
	}
	bool selftests = add_selftests(v, &lines, &files);
	command_lines_clear(&lines);
	struct trial_plan plan;
	if (trial_plan_resolve(&plan, &machine, v, &err) < 0)
		die_usage("boot: %s", err.buf);

	struct strlist perf_args = STRLIST_INIT;
	if (perf_events_to_args(&events, &perf_args, &err) < 0)
		die_usage("boot: %s", err.buf);
	char *dir = out ? xstrdup(out) : default_out_dir(v->name);
	struct trial_spec spec = { .plan = &plan, .command = command, .dir = dir,
				   .watchdogs = wd, .stream_output = !interactive,
				   .interactive = interactive, .use_cgroup = use_cgroup,
				   .perf_args = &perf_args, .prepare = prepare, .faults = &faults,
				   .files = &files, .scratch_disk = selftests };
	struct vm_run vm;
	if (restores) {
		int status = boot_restored(&spec, restores, seed, same_seed);
		trial_plan_clear(&plan);
		strlist_clear(&perf_args);
		guest_files_clear(&files);
		free(command);
		free(dir);
		return status;
	}
	if (trial_run(&spec, &vm, &err) < 0)
		die("boot: %s", err.buf);

	int status = boot_exit_status(&vm);
	switch (vm.outcome) {
	case VM_OK:
	case VM_FAILED:
		if (vm.exit_status < 0)
			error("boot: %s", vm.detail);
		break;
	case VM_PANIC:
		error("boot: the guest panicked:\n%s", vm.detail);
		break;
	case VM_HANG:
		error("boot: the guest hung: %s", vm.detail);
		break;
	case VM_HOST_KILLED:
		error("boot: %s", vm.detail);
		break;
	case VM_BOOT_FAILURE:
		error("boot: the guest did not boot: %s", vm.detail);
		break;
	case VM_FLOODED:
		error("boot: the guest flooded a channel: %s", vm.detail);
		break;
	}
	char *platform_text = platform_name(&platform);
	note("boot: %s (%s) on %s (clock %s): %s; trial folder %s", v->name, platform_text,
	     profile.name, guest_clock_name(plan.clock.clock), vm_outcome_name(vm.outcome), dir);
	free(platform_text);
	free(vm.detail);
	trial_plan_clear(&plan);
	strlist_clear(&perf_args);
	strlist_clear(&events);
	strlist_clear(&file_dirs);
	guest_files_clear(&files);
	free(command);
	free(dir);
	profile_clear(&profile);
	variants_clear(&set);
	kconfig_clear(&base);
	return status;
}
