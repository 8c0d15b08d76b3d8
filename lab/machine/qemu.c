/* The QEMU command line of a lab VM. */
#include "qemu.h"

#include "common/proto/protocol.h"
#include "vm-snapshot.h"

#include <stdlib.h>
#include <string.h>

static void push(struct strlist *l, const char *s)
{
	strlist_push(l, s);
}

static void pushf(struct strlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pushf(struct strlist *l, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strlist_push_owned(l, strbuf_detach(&sb));
}

bool qemu_tells_host_tick_rate(const struct qemu_spec *spec)
{
	return spec->platform.arch == ARCH_X86_64 && spec->accel == QEMU_ACCEL_TCG &&
	       spec->clock != GUEST_CLOCK_ICOUNT;
}

char *qemu_kernel_cmdline(const struct qemu_spec *spec)
{
	struct strbuf sb = STRBUF_INIT;
	/*
	 * panic=-1 reboots at once on panic and -no-reboot turns that into
	 * QEMU's exit; oops=panic makes an oops an outcome, not a limp.
	 * loglevel=5 keeps the slow serial console to warnings, errors and
	 * panic traces; every message still reaches the host through the
	 * kmsg channel while the agent lives.
	 */
	const struct arch_facts *f = arch_facts(spec->platform.arch);
	strbuf_addf(&sb, "console=%s panic=-1 oops=panic loglevel=5 rdinit=/init", f->console);
	if (*f->machine_cmdline)
		strbuf_addf(&sb, " %s", f->machine_cmdline);
	/* equal nodes (profile.c holds every profile to that), each CPU in every node */
	if (f->numa_by_emulation && spec->profile->numa_nodes > 1)
		strbuf_addf(&sb, " numa=fake=%u", spec->profile->numa_nodes);
	/*
	 * TCG's TSC, told rather than measured (host-ticks.h): on a loaded host
	 * the kernel's PIT calibration failed in 1 of 2 boots here, and the
	 * guest then timed with jiffies (a binder p50 of 0 ns, a p90 of 4 ms).
	 * Under icount it counts virtual nanoseconds. tsc=reliable keeps the
	 * watchdog from judging it by jiffies, whose ticks come late under load.
	 */
	if (spec->platform.arch == ARCH_X86_64 && spec->accel == QEMU_ACCEL_TCG) {
		unsigned long khz = qemu_tells_host_tick_rate(spec) ? spec->host_tick_khz : 1000000;
		if (khz)
			strbuf_addf(&sb, " tsc_early_khz=%lu tsc=reliable", khz);
	}
	/* the profile's apic_timer (apic-timer.h): given and off skip the calibration's spin */
	char *apic = apic_timer_cmdline(spec->profile->apic_timer, spec->clock, spec->platform.arch,
					spec->kernel_takes_apic_khz);
	if (apic)
		strbuf_addf(&sb, " %s", apic);
	free(apic);
	if (spec->cmdline_extra && *spec->cmdline_extra)
		strbuf_addf(&sb, " %s", spec->cmdline_extra);
	return strbuf_detach(&sb);
}

static void add_memory(const struct qemu_spec *spec, const struct arch_facts *f, struct strlist *out)
{
	const struct profile *p = spec->profile;
	pushf(out, "%lluM", p->memory >> 20);
	push(out, "-smp");
	pushf(out, "%u", p->cpus);
	/* The kernel's NUMA emulation needs nothing from QEMU (qemu_kernel_cmdline). */
	if (p->numa_nodes <= 1 || f->numa_by_emulation)
		return;
	/* CPUs are dealt out to nodes in contiguous runs: 4 cpus on 2 nodes = 0-1, 2-3. */
	unsigned per_node = p->cpus / p->numa_nodes, first = 0;
	for (unsigned n = 0; n < p->numa_nodes; n++) {
		unsigned count = n + 1 == p->numa_nodes ? p->cpus - first : per_node;
		push(out, "-object");
		pushf(out, "memory-backend-ram,id=mem%u,size=%lluM", n, p->node_memory[n] >> 20);
		push(out, "-numa");
		if (count == 1)
			pushf(out, "node,nodeid=%u,cpus=%u,memdev=mem%u", n, first, n);
		else
			pushf(out, "node,nodeid=%u,cpus=%u-%u,memdev=mem%u", n, first, first + count - 1, n);
		first += count;
	}
}

static void add_channels(const struct qemu_spec *spec, const struct arch_facts *f, struct strlist *out)
{
	push(out, "-device");
	pushf(out, "virtio-serial-%s,id=vser0", f->virtio_bus);
	for (int i = 0; i < CHANNEL_COUNT; i++) {
		const char *name = channel_port_name[i];
		push(out, "-chardev");
		pushf(out, "file,id=ch-%s,path=%s/%s%s", name, spec->channel_dir, channel_file_name[i],
		      spec->restore ? ",append=on" : "");
		push(out, "-device");
		pushf(out, "virtserialport,bus=vser0.0,chardev=ch-%s,name=%s", name, name);
	}
}

/* The QMP socket and, for a restore, the saved VM to come and QEMU's seed (qemu.h). */
static void add_snapshot(const struct qemu_spec *spec, struct strlist *out)
{
	push(out, "-qmp");
	pushf(out, "unix:%s/" VM_QMP_SOCKET ",server=on,wait=off", spec->channel_dir);
	if (!spec->restore)
		return;
	push(out, "-incoming");
	push(out, "defer");
	push(out, "-S");
	push(out, "-seed");
	pushf(out, "%llu", spec->restore_seed);
}

static void add_disks(const struct qemu_spec *spec, const struct arch_facts *f, struct strlist *out)
{
	push(out, "-drive");
	pushf(out, "file=%s,if=none,id=tools,format=raw,readonly=on", spec->tools_image);
	const char *bus = f->virtio_bus;
	push(out, "-device");
	pushf(out, "virtio-blk-%s,drive=tools,serial=%s", bus, DISK_TOOLS_SERIAL);
	if (spec->scratch_disk) {
		push(out, "-drive");
		pushf(out, "file=%s,if=none,id=scratch,format=raw", spec->scratch_disk);
		push(out, "-device");
		pushf(out, "virtio-blk-%s,drive=scratch,serial=%s", bus, DISK_SCRATCH_SERIAL);
	}
	if (!spec->slow_disk)
		return;
	/* Slow flash: QEMU's block throttling, the way DESIGN.md measured the reaper. */
	const struct profile *p = spec->profile;
	struct strbuf drive = STRBUF_INIT;
	strbuf_addf(&drive, "file=%s,if=none,id=slow,format=raw,cache=none,aio=threads,"
		    "throttling.bps-total=%llu", spec->slow_disk, p->slow_disk_bps);
	if (p->slow_disk_iops)
		strbuf_addf(&drive, ",throttling.iops-total=%lu", p->slow_disk_iops);
	push(out, "-drive");
	strlist_push_owned(out, strbuf_detach(&drive));
	push(out, "-device");
	pushf(out, "virtio-blk-%s,drive=slow,serial=%s", bus, DISK_SLOW_SERIAL);
}

/* The accelerators' names, as QEMU's -accel, trial.json and OOMLAB_ACCEL say them. */
static const char *const accel_names[] = { [QEMU_ACCEL_UNSET] = "", [QEMU_ACCEL_TCG] = "tcg",
					   [QEMU_ACCEL_KVM] = "kvm" };

const char *qemu_accel_name(enum qemu_accel a)
{
	return accel_names[a];
}

bool qemu_accel_parse(const char *name, enum qemu_accel *a)
{
	for (enum qemu_accel i = QEMU_ACCEL_TCG; i <= QEMU_ACCEL_KVM; i++)
		if (!strcmp(name, accel_names[i])) {
			*a = i;
			return true;
		}
	return false;
}

bool qemu_accel_runs_clock(enum qemu_accel a, enum guest_clock clock)
{
	return clock != GUEST_CLOCK_ICOUNT || a == QEMU_ACCEL_TCG;
}

void qemu_build_argv(const struct qemu_spec *spec, const char *kernel_cmdline, struct strlist *out)
{
	bool kvm = spec->accel == QEMU_ACCEL_KVM;
	bool icount = !kvm && spec->clock == GUEST_CLOCK_ICOUNT;
	/* The instruction counter needs one thread running every vCPU in turn. */
	char *accel = xasprintf("%s%s", qemu_accel_name(spec->accel),
				kvm ? "" : icount ? ",thread=single" : ",thread=multi");
	const struct arch_facts *f = arch_facts(spec->platform.arch);
	/* arm64's max CPU has every granule (4, 16 and 64 KiB); its pointer
	 * authentication with QEMU's own cheap algorithm, not the
	 * architected QARMA5 that costs TCG much of its speed. */
	const char *cpu = kvm ? "host" : spec->platform.arch == ARCH_ARM64 ? "max,pauth-impdef=on" : "max";
	push(out, f->qemu);
	const char *fixed[] = { "-nodefaults", "-no-user-config", "-machine", f->machine, "-cpu",
				cpu, "-accel", accel,
				"-display", "none", "-vga", "none", "-net", "none",
				/* the guest's reboot (its power-off, and panic=-1) ends QEMU */
				"-no-reboot", "-m", NULL };
	for (const char **arg = fixed; *arg; arg++)
		push(out, *arg);
	free(accel);
	add_memory(spec, f, out);
	if (f->panic_device) {
		/* pvpanic tells QEMU of a panic: exit with status 1 at once. */
		push(out, "-device");
		push(out, f->panic_device);
		push(out, "-action");
		push(out, "panic=exit-failure");
	}
	if (icount) {
		push(out, "-icount");
		push(out, guest_clock_settings(GUEST_CLOCK_ICOUNT));
	}
	push(out, "-kernel");
	push(out, spec->kernel);
	push(out, "-initrd");
	push(out, spec->initrd);
	push(out, "-append");
	push(out, kernel_cmdline);
	push(out, "-serial");
	if (spec->interactive) {
		push(out, "stdio");
	} else if (spec->restore) {
		push(out, "chardev:console");
		push(out, "-chardev");
		pushf(out, "file,id=console,path=%s/" CONSOLE_FILE ",append=on", spec->channel_dir);
	} else {
		pushf(out, "file:%s/" CONSOLE_FILE, spec->channel_dir);
	}
	add_channels(spec, f, out);
	add_disks(spec, f, out);
	if (spec->snapshot || spec->restore)
		add_snapshot(spec, out);
}
