/* One boot of one variant under one profile, recorded in a folder. */
#include "trial.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/proto/protocol.h"
#include "lab/kernel/kbuild.h"
#include "lab/machine/guest-image.h"
#include "lab/machine/job-spec.h"
#include "lab/machine/qemu.h"
#include "lab/machine/scratch-disk.h"
#include "lab/machine/vm-snapshot.h"
#include "common/json-file.h"
#include "common/run-command.h"
#include "lab/util/version.h"
#include "perf-events.h"
#include "reproduce-script.h"
#include "trial-finish.h"

struct vm_watchdogs default_watchdogs(void)
{
	/* Under TCG init runs 1.3-1.8 s after QEMU starts (DESIGN.md); a loaded host is slower. */
	struct vm_watchdogs w = { 60.0, 60.0, 1800.0 };
	return w;
}

static char *host_cpu_model(void)
{
	char *text = read_file("/proc/cpuinfo", NULL);
	char *model = NULL;
	char *line = text ? strstr(text, "model name") : NULL;
	if (line) {
		char *colon = strchr(line, ':');
		if (colon)
			model = xstrndup(colon + 2, strcspn(colon + 2, "\n"));
	}
	free(text);
	return model ? model : xstrdup("unknown");
}

static char *host_loadavg(void)
{
	char *text = read_file("/proc/loadavg", NULL);
	if (!text)
		return xstrdup("unknown");
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static json_t *profile_json(const struct profile *p)
{
	json_t *obj = json_object();
	char *text = profile_format(p);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		json_object_set_new(obj, line, json_string(eq + 1));
	}
	free(text);
	json_object_set_new(obj, "description", json_string(p->description));
	/* here, not in profile_format(): the guest has no use for it */
	json_object_set_new(obj, "apic_timer", json_string(apic_timer_name(p->apic_timer)));
	return obj;
}

static json_t *clock_json(const struct clock_choice *c)
{
	json_t *obj = json_object();
	json_object_set_new(obj, "name", json_string(guest_clock_name(c->clock)));
	json_object_set_new(obj, "settings", json_string(guest_clock_settings(c->clock)));
	json_object_set_new(obj, "meaning", json_string(guest_clock_meaning(c->clock)));
	json_object_set_new(obj, "from", json_string(c->from ? c->from : "default"));
	json_object_set_new(obj, "watchdog_scale", json_real(guest_clock_watchdog_scale(c->clock)));
	return obj;
}

/* The per-CPU timer the boot got (apic-timer.h) and what chose it. */
static json_t *apic_timer_json(const struct trial_plan *plan)
{
	enum apic_timer asked = plan->profile->apic_timer;
	bool x86 = plan->variant->target.platform.arch == ARCH_X86_64;
	const char *name = x86 ? apic_timer_name(apic_timer_for(asked, plan->clock.clock,
								 plan->kernel_takes_apic_khz))
			       : "none";
	const char *from = !x86 ? "arm64 has no APIC"
			   : asked != APIC_TIMER_DEFAULT	 ? plan->profile->path
			   : plan->kernel_takes_apic_khz ? "the default"
							 : "the default for a kernel without the lab's patch";
	return json_pack("{s:s, s:s}", "name", name, "from", from);
}

static json_t *watchdogs_json(const struct vm_watchdogs *w)
{
	return json_pack("{s:f, s:f, s:f}", "boot_s", w->boot, "silence_s", w->silence, "total_s",
			 w->total);
}

static const char *timing_note(enum qemu_accel accel, enum guest_clock clock)
{
	if (accel != QEMU_ACCEL_TCG)
		return "KVM: times are this host's, not a phone's";
	if (clock == GUEST_CLOCK_ICOUNT)
		return "TCG with an instruction-count clock: guest time counts instructions, not host "
		       "time; absolute times are not device times; compare ratios between variants "
		       "measured in the same run";
	return "TCG emulation: absolute times are not device times; compare ratios "
	       "between variants measured in the same run";
}

static struct vm_watchdogs scaled_watchdogs(const struct trial_spec *spec)
{
	double k = guest_clock_watchdog_scale(spec->plan->clock.clock);
	struct vm_watchdogs w = spec->watchdogs;
	w.boot *= k;
	w.silence *= k;
	w.total *= k;
	return w;
}

const struct fault_plan *trial_faults(const struct trial_spec *spec)
{
	return spec->faults ? spec->faults : &spec->plan->profile->faults;
}

static json_t *environment_json(const struct trial_spec *spec, const struct guest_images *img)
{
	const struct trial_plan *plan = spec->plan;
	json_t *env = json_object();
	json_object_set_new(env, "variant", json_string(plan->variant->name));
	json_object_set_new(env, "variant_hash", json_string(plan->variant->hash));
	char *source = kernel_source_describe(&plan->variant->source);
	json_object_set_new(env, "kernel_source", json_string(source));
	free(source);
	json_object_set_new(env, "kernel_cmdline", json_string(plan->kernel_cmdline));
	json_object_set_new(env, "qemu_version", json_string(plan->qemu_version));
	json_object_set_new(env, "arch", json_string(plan->arch->name));
	json_object_set_new(env, "page_size",
			    json_integer((json_int_t)platform_page_bytes(&plan->variant->target.platform)));
	json_object_set_new(env, "accelerator", json_string(qemu_accel_name(plan->accel)));
	json_object_set_new(env, "clock", clock_json(&plan->clock));
	json_object_set_new(env, "apic_timer", apic_timer_json(plan));
	json_object_set_new(env, "trials_at_once",
			    json_integer(spec->trials_at_once ? spec->trials_at_once : 1));
	struct vm_watchdogs w = scaled_watchdogs(spec);
	json_object_set_new(env, "watchdogs", watchdogs_json(&w));
	json_object_set_new(env, "guest_images_hash", json_string(img->hash));
	json_object_set_new(env, "lab_version", json_string(lab_version()));
	/* which programs of the user's ran: the content hash of their folders */
	if (spec->files && guest_files_any(spec->files))
		json_object_set_new(env, "files", guest_files_json(spec->files));
	json_object_set_new(env, "profile", profile_json(plan->profile));
	json_object_set_new(env, "fault_injection", fault_plan_json(trial_faults(spec)));
	char *cpu = host_cpu_model(), *load = host_loadavg();
	json_object_set_new(env, "host_cpu", json_string(cpu));
	json_object_set_new(env, "host_cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(env, "host_loadavg_at_start", json_string(load));
	free(cpu);
	free(load);
	json_object_set_new(env, "command", json_string(spec->command ? spec->command : ""));
	json_object_set_new(env, "started_unix", json_integer((json_int_t)time(NULL)));
	json_object_set_new(env, "timing_note", json_string(timing_note(plan->accel, plan->clock.clock)));
	return env;
}

static json_t *outcome_json(const struct vm_run *vm)
{
	json_t *o = json_object();
	json_object_set_new(o, "outcome", json_string(vm_outcome_name(vm->outcome)));
	json_object_set_new(o, "exit_status", json_integer(vm->exit_status));
	json_object_set_new(o, "detail", json_string(vm->detail ? vm->detail : ""));
	json_object_set_new(o, "wall_seconds_to_ready", json_real(vm->wall_ready));
	json_object_set_new(o, "guest_uptime_at_ready", json_real(vm->guest_ready_uptime));
	json_object_set_new(o, "wall_seconds_total", json_real(vm->wall_total));
	json_object_set_new(o, "qemu_status", json_integer(vm->qemu_status));
	/* what the guest said it is, beside what was asked for (environment.arch, page_size) */
	json_object_set_new(o, "guest_machine", json_string(vm->guest_machine));
	json_object_set_new(o, "guest_page_size", json_integer(vm->guest_page_size));
	json_object_set_new(o, "guest_clocksource", json_string(vm->guest_clocksource));
	return o;
}

static int write_reproduce(const char *dir, const struct strlist *argv, const char *initramfs,
			   unsigned long long slow_disk_size, unsigned long long scratch_disk_size,
			   struct strbuf *err)
{
	char *path = xasprintf("%s/reproduce.sh", dir);
	char *text = reproduce_script_text((const char *const *)argv->items, argv->n, initramfs,
					   slow_disk_size, scratch_disk_size);
	int rc = write_script(path, text, err);
	free(text);
	free(path);
	return rc;
}

char *trial_job_spec(const struct trial_spec *spec)
{
	struct strbuf sb = STRBUF_INIT;
	profile_job_spec(spec->plan->profile, &sb);
	job_spec_put(&sb, JOB_KEY_USE_CGROUP, "%d", spec->use_cgroup ? 1 : 0);
	job_spec_put(&sb, JOB_KEY_INTERACTIVE, "%d", spec->interactive ? 1 : 0);
	job_spec_put(&sb, JOB_KEY_RESTORE_POINT, "%d", spec->save || spec->restore_from ? 1 : 0);
	if (fault_plan_armed(trial_faults(spec)))
		fault_plan_spec(trial_faults(spec), &sb);
	if (spec->has_target) {
		job_spec_put(&sb, JOB_KEY_TARGET_ORDER, "%d", spec->target_order);
		job_spec_put(&sb, JOB_KEY_TARGET_MAX_BLOCKS, "%ld", spec->target_max_free_blocks);
	}
	return strbuf_detach(&sb);
}


struct qemu_spec trial_plan_qemu(const struct trial_plan *plan)
{
	return (struct qemu_spec){ .profile = plan->profile, .platform = plan->variant->target.platform,
				   .accel = plan->accel, .clock = plan->clock.clock,
				   .cmdline_extra = plan->variant->cmdline,
				   .kernel_takes_apic_khz = plan->kernel_takes_apic_khz,
				   .host_tick_khz = plan->host_tick_khz };
}

/* Where the agent's page is in the saved VM of the boot in BOOT_DIR, as its
 * snapshot.json says. */
static int saved_slot(const char *boot_dir, long long *offset, struct strbuf *err)
{
	char *path = xasprintf("%s/snapshot.json", boot_dir);
	json_t *s = json_file_load_object(path, err);
	json_t *at = s ? json_object_get(s, "restore_slot_offset") : NULL;
	int rc = at && json_is_integer(at) && json_integer_value(at) >= 0 ? 0 : -1;
	if (rc == 0)
		*offset = json_integer_value(at);
	else if (s)
		strbuf_addf(err, "%s: no restore_slot_offset: the boot was not saved", path);
	json_decref(s);
	free(path);
	return rc;
}

/* The saving boot's channel files, the start of a restored trial's (QEMU appends to them). */
static int copy_channels(const char *from, const char *to, struct strbuf *err)
{
	for (int i = -1; i < CHANNEL_COUNT; i++) {
		const char *name = i < 0 ? CONSOLE_FILE : channel_file_name[i];
		char *src = xasprintf("%s/%s", from, name), *dst = xasprintf("%s/%s", to, name);
		int rc = path_exists(src) ? copy_file(src, dst) : write_file_str(dst, "");
		if (rc < 0)
			strbuf_addf(err, "cannot copy %s to %s: %s", src, to, strerror(errno));
		free(src);
		free(dst);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A disk image of the saving boot, as the saved VM left it, for one restore
 * (sparse, as it was made). */
static int copy_disk(const char *boot_dir, const char *name, const char *to, struct strbuf *err)
{
	char *src = xasprintf("%s/%s", boot_dir, name), *dst = xasprintf("%s/%s", to, name);
	const char *argv[] = { "cp", "--sparse=always", "--reflink=auto", src, dst, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command_or_say(argv, &out, err);
	strbuf_release(&out);
	free(src);
	free(dst);
	return rc;
}

/* The restore's record: where it came from and what the guest was given. */
static json_t *restore_json(const struct trial_spec *spec, const struct vm_run *vm)
{
	return json_pack("{s:s, s:I, s:s, s:f}", "from", spec->restore_from, "seed",
			 (json_int_t)spec->restore_seed, "trial", spec->restore_trial,
			 "wall_seconds_to_running", vm->wall_ready);
}

int trial_run(const struct trial_spec *spec, struct vm_run *vm, struct strbuf *err)
{
	memset(vm, 0, sizeof(*vm));
	/* The plan is resolved before the trial (trial-plan.h) and only read here. */
	const struct trial_plan *plan = spec->plan;
	if (mkdir_p(spec->dir, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", spec->dir, strerror(errno));
		return -1;
	}
	struct guest_images img;
	if (guest_images_prepare(&img, plan->variant->target.platform.arch, spec->files, err) < 0)
		return -1;
	char *kernel = kernel_image_path(plan->variant);
	char *job_cpio = xasprintf("%s/job.cpio", spec->dir);
	/* a restore's QEMU is given the saving boot's initrd: the guest read it long ago */
	char *initrd = spec->restore_from ? xasprintf("%s/initrd.img", spec->restore_from)
					  : xasprintf("%s/initrd.img", spec->dir);
	char *snapshot = spec->restore_from ? xasprintf("%s/" VM_SNAPSHOT_FILE, spec->restore_from) : NULL;
	char trial_line[RESTORE_SLOT_LINE] = "";
	long long restore_slot = -1;
	const struct profile *profile = plan->profile;
	char *slow = profile->slow_disk_size ? xasprintf("%s/" SLOW_DISK_IMAGE, spec->dir) : NULL;
	unsigned long long scratch_size = spec->scratch_disk ? profile->scratch_disk_size : 0;
	char *scratch = scratch_size ? xasprintf("%s/" SCRATCH_DISK_IMAGE, spec->dir) : NULL;
	char *specs = trial_job_spec(spec);
	struct strlist argv = STRLIST_INIT;
	json_t *record = NULL;
	int rc = -1;

	struct strbuf perf_args = STRBUF_INIT;
	for (size_t i = 0; spec->perf_args && i < spec->perf_args->n; i++)
		strbuf_addf(&perf_args, "%s\n", spec->perf_args->items[i]);
	struct job_file files[] = { { JOB_SPEC, specs }, { JOB_CMD, spec->command ? spec->command : "" },
				    { JOB_PERF_ARGS, strbuf_str(&perf_args) },
				    { JOB_PREPARE, spec->prepare ? spec->prepare : "" } };
	int irc = spec->restore_from ? 0
		  : guest_write_initrd(&img, files, sizeof(files) / sizeof(files[0]), job_cpio, initrd, err);
	strbuf_release(&perf_args);
	if (irc < 0)
		goto out;
	if (spec->restore_from) {
		if (saved_slot(spec->restore_from, &restore_slot, err) < 0)
			goto out;
		if (restore_line_format(trial_line, sizeof(trial_line), spec->restore_seed,
					spec->restore_trial) < 0) {
			strbuf_addf(err, "the trial id '%s' is not letters, digits, '-', '_' and '.'",
				    spec->restore_trial);
			goto out;
		}
		if (copy_channels(spec->restore_from, spec->dir, err) < 0 ||
		    (slow && copy_disk(spec->restore_from, SLOW_DISK_IMAGE, spec->dir, err) < 0) ||
		    (scratch && copy_disk(spec->restore_from, SCRATCH_DISK_IMAGE, spec->dir, err) < 0))
			goto out;
	} else {
		/* sparse: the guest reads zeros at the throttled rate; the host stores nothing */
		if (slow && sparse_file_make(slow, profile->slow_disk_size, err) < 0)
			goto out;
		if (scratch && scratch_disk_make(scratch, scratch_size, err) < 0)
			goto out;
	}
	/* Per-boot files are named relative to the trial folder, where QEMU runs, so
	 * that the saved command line reproduces the boot in any folder. */
	struct qemu_spec q = trial_plan_qemu(plan);
	q.kernel = kernel;
	q.initrd = spec->restore_from ? initrd : "initrd.img";
	q.snapshot = spec->save;
	q.restore = spec->restore_from != NULL;
	q.restore_seed = spec->restore_seed;
	q.tools_image = img.tools;
	q.slow_disk = slow ? SLOW_DISK_IMAGE : NULL;
	q.scratch_disk = scratch ? SCRATCH_DISK_IMAGE : NULL;
	q.channel_dir = ".";
	q.interactive = spec->interactive;
	qemu_build_argv(&q, plan->kernel_cmdline, &argv);
	char *cmdline = shell_join((const char *const *)argv.items, argv.n);
	char *cmdline_path = xasprintf("%s/qemu.cmdline", spec->dir);
	char *with_nl = xasprintf("%s\n", cmdline);
	write_file_str(cmdline_path, with_nl);
	free(with_nl);
	free(cmdline_path);
	/* a restored trial is reproduced by restoring again (docs/CLOCKS.md), not by a script */
	int wrc = spec->restore_from ? 0
		  : write_reproduce(spec->dir, &argv, img.initramfs, profile->slow_disk_size,
				    scratch_size, err);
	record = json_object();
	json_object_set_new(record, "environment", environment_json(spec, &img));
	free(cmdline);
	if (wrc < 0)
		goto out;

	vm->argv = &argv;
	vm->dir = spec->dir;
	vm->watchdogs = scaled_watchdogs(spec);
	vm->stream_output = spec->stream_output;
	vm->interactive = spec->interactive;
	vm->save_to = spec->save ? VM_SNAPSHOT_FILE : NULL;
	vm->restore_from = snapshot;
	vm->trial_line = trial_line;
	vm->restore_slot = restore_slot;
	if (vm_run(vm, err) < 0)
		goto out;
	if (spec->restore_from)
		json_object_set_new(json_object_get(record, "environment"), "restore", restore_json(spec, vm));
	if (spec->save) {
		/* not a trial: the boot the restores start from, and where the
		 * agent's page for their lines is in the saved VM */
		if (vm->saved) {
			char *file = xasprintf("%s/" VM_SNAPSHOT_FILE, spec->dir);
			struct strbuf why = STRBUF_INIT;
			if (vm_snapshot_find_slot(file, &restore_slot, &why) < 0) {
				vm->saved = false;
				vm->outcome = VM_FAILED;
				free(vm->detail);
				vm->detail = strbuf_detach(&why);
			}
			strbuf_release(&why);
			free(file);
			json_object_set_new(record, "restore_slot_offset", json_integer(restore_slot));
		}
		json_object_set_new(record, "outcome", outcome_json(vm));
		json_object_set_new(record, "saved", json_boolean(vm->saved));
		json_object_set_new(record, "wall_seconds_to_save", json_real(vm->wall_saved));
		char *path = xasprintf("%s/snapshot.json", spec->dir);
		rc = json_file_write(path, record, err);
		free(path);
		goto keep;
	}
	if (spec->perf_args && spec->perf_args->n && !perf_recorded(spec->dir))
		warning("%s/perf.data: nothing was recorded", spec->dir);
	json_object_set_new(record, "outcome", outcome_json(vm));
	rc = trial_finish(spec->dir, record, err);
out:
	/* The initrd and the disks are rebuilt by reproduce.sh; they need not stay,
	 * but for a saved boot, whose restores start from them. */
	if (!spec->restore_from)
		unlink(initrd);
	if (slow)
		unlink(slow);
	if (scratch)
		unlink(scratch);
keep:
	free(scratch);
	free(snapshot);
	json_decref(record);
	strlist_clear(&argv);
	free(specs);
	free(slow);
	free(initrd);
	free(job_cpio);
	free(kernel);
	guest_images_clear(&img);
	return rc;
}
