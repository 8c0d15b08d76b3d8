/* Unit tests: the QEMU command line built from a profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proto/protocol.h"
#include "lab/machine/host-ticks.h"
#include "lab/machine/qemu.h"
#include "lab/machine/vm-snapshot.h"

static struct profile make_profile(const char *text)
{
	struct profile p;
	struct strbuf err = STRBUF_INIT;
	if (profile_parse(&p, "t", "t.conf", text, &err) < 0)
		fail_msg("%s", err.buf);
	return p;
}

/* The argument after flag whose value starts with prefix, or NULL. */
static const char *arg_after(const struct strlist *argv, const char *flag, const char *prefix)
{
	for (size_t i = 0; i + 1 < argv->n; i++)
		if (!strcmp(argv->items[i], flag) && starts_with(argv->items[i + 1], prefix))
			return argv->items[i + 1];
	return NULL;
}

static size_t count(const struct strlist *argv, const char *s)
{
	size_t n = 0;
	for (size_t i = 0; i < argv->n; i++)
		n += !strcmp(argv->items[i], s);
	return n;
}

/* The argv as a trial gets it: the kernel's command line once (trial-plan.c), then QEMU's (trial.c). */
static void build_argv(const struct qemu_spec *spec, struct strlist *argv)
{
	char *kernel_cmdline = qemu_kernel_cmdline(spec);
	qemu_build_argv(spec, kernel_cmdline, argv);
	free(kernel_cmdline);
}

static void phone_profile_under_tcg(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 512M\ncpus = 2\nslow_disk_size = 64M\n"
					"slow_disk_bps = 256K\nslow_disk_iops = 64\n");
	struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .kernel = "/k/bzImage",
				  .initrd = "initrd.img", .cmdline_extra = "numa=off",
				  .tools_image = "/c/tools.erofs", .slow_disk = "slow.img", .channel_dir = "." };
	struct strlist argv = STRLIST_INIT;
	build_argv(&spec, &argv);
	assert_string_equal(argv.items[0], "qemu-system-x86_64");
	/* microvm without ACPI: virtio over MMIO, no panic device, a reboot for the end */
	assert_non_null(arg_after(&argv, "-machine", "microvm,acpi=off"));
	assert_non_null(arg_after(&argv, "-accel", "tcg,thread=multi"));
	assert_non_null(arg_after(&argv, "-cpu", "max"));
	assert_non_null(arg_after(&argv, "-m", "512M"));
	assert_non_null(arg_after(&argv, "-smp", "2"));
	assert_int_equal(count(&argv, "-nodefaults"), 1);
	assert_int_equal(count(&argv, "-no-reboot"), 1);
	assert_null(arg_after(&argv, "-device", "pvpanic"));
	assert_null(arg_after(&argv, "-action", ""));
	assert_non_null(arg_after(&argv, "-device", "virtio-serial-device,id=vser0"));
	assert_int_equal(count(&argv, "virtio-blk-device,drive=tools,serial=" DISK_TOOLS_SERIAL), 1);
	assert_int_equal(count(&argv, "virtio-blk-device,drive=slow,serial=" DISK_SLOW_SERIAL), 1);
	assert_null(arg_after(&argv, "-device", "virtio-blk-pci"));
	const char *append = arg_after(&argv, "-append", "");
	assert_non_null(strstr(append, "reboot=t"));
	assert_null(strstr(append, "numa=fake"));
	assert_non_null(strstr(append, "panic=-1"));
	assert_non_null(strstr(append, "oops=panic"));
	assert_non_null(strstr(append, "console=ttyS0"));
	assert_true(ends_with(append, " numa=off"));
	assert_non_null(arg_after(&argv, "-serial", "file:./console.log"));
	const char *channels[] = { "ctl", "out", "kmsg", "perf", "files", NULL };
	for (const char **c = channels; *c; c++) {
		char *dev = xasprintf("virtserialport,bus=vser0.0,chardev=ch-%s,name=%s", *c, *c);
		assert_int_equal(count(&argv, dev), 1);
		free(dev);
	}
	const char *slow = arg_after(&argv, "-drive", "file=slow.img");
	assert_non_null(strstr(slow, "throttling.bps-total=262144"));
	assert_non_null(strstr(slow, "throttling.iops-total=64"));
	assert_non_null(arg_after(&argv, "-drive", "file=/c/tools.erofs,if=none,id=tools,format=raw,readonly=on"));
	assert_null(arg_after(&argv, "-numa", ""));
	strlist_clear(&argv);
	profile_clear(&p);
}

/* arm64: aarch64's QEMU, virt, a CPU with every granule, the PL011 console; channels as on x86. */
static void arm64_boots_virt_with_max_cpu(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 512M\ncpus = 2\n");
	struct qemu_spec spec = { .profile = &p, .platform = { ARCH_ARM64, 16 }, .accel = QEMU_ACCEL_TCG,
				  .kernel = "/k/Image", .initrd = "initrd.img", .cmdline_extra = "",
				  .tools_image = "/c/tools.erofs", .channel_dir = "." };
	struct strlist argv = STRLIST_INIT;
	build_argv(&spec, &argv);
	assert_string_equal(argv.items[0], "qemu-system-aarch64");
	assert_non_null(arg_after(&argv, "-machine", "virt"));
	assert_null(arg_after(&argv, "-machine", "q35"));
	assert_non_null(arg_after(&argv, "-cpu", "max,pauth-impdef=on"));
	assert_non_null(arg_after(&argv, "-kernel", "/k/Image"));
	const char *append = arg_after(&argv, "-append", "");
	assert_non_null(strstr(append, "console=ttyAMA0"));
	assert_null(strstr(append, "ttyS0"));
	assert_non_null(arg_after(&argv, "-device", "pvpanic-pci"));
	assert_non_null(arg_after(&argv, "-action", "panic=exit-failure"));
	assert_null(strstr(append, "reboot=t"));
	assert_non_null(arg_after(&argv, "-device", "virtio-serial-pci,id=vser0"));
	assert_non_null(arg_after(&argv, "-device", "virtio-blk-pci,drive=tools"));
	assert_int_equal(count(&argv, "virtserialport,bus=vser0.0,chardev=ch-ctl,name=ctl"), 1);
	strlist_clear(&argv);
	profile_clear(&p);
}

/* arm64's virt gets QEMU's nodes (the device tree); x86_64's microvm has no
 * SRAT, so its kernel emulates them: numa=fake and no -numa at all. */
static void numa_nodes_get_memory_and_cpus(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 1G\ncpus = 4\nnuma_nodes = 512M,512M\n");
	struct qemu_spec spec = { .profile = &p, .platform = { ARCH_ARM64, 4 }, .accel = QEMU_ACCEL_TCG,
				  .kernel = "k", .initrd = "i", .cmdline_extra = "", .tools_image = "t",
				  .channel_dir = "/d" };
	struct strlist argv = STRLIST_INIT;
	build_argv(&spec, &argv);
	assert_non_null(arg_after(&argv, "-m", "1024M"));
	assert_non_null(arg_after(&argv, "-object", "memory-backend-ram,id=mem0,size=512M"));
	assert_non_null(arg_after(&argv, "-object", "memory-backend-ram,id=mem1,size=512M"));
	assert_non_null(arg_after(&argv, "-numa", "node,nodeid=0,cpus=0-1,memdev=mem0"));
	assert_non_null(arg_after(&argv, "-numa", "node,nodeid=1,cpus=2-3,memdev=mem1"));
	assert_null(arg_after(&argv, "-drive", "file=slow"));
	assert_non_null(arg_after(&argv, "-serial", "file:/d/console.log"));
	const char *append = arg_after(&argv, "-append", "");
	assert_false(ends_with(append, " "));
	assert_null(strstr(append, "numa=fake"));
	strlist_clear(&argv);

	spec.platform = (struct platform){ ARCH_X86_64, 4 };
	spec.accel = QEMU_ACCEL_KVM;
	build_argv(&spec, &argv);
	assert_non_null(arg_after(&argv, "-accel", "kvm"));
	assert_non_null(arg_after(&argv, "-cpu", "host"));
	assert_non_null(arg_after(&argv, "-smp", "4"));
	assert_null(arg_after(&argv, "-numa", ""));
	assert_null(arg_after(&argv, "-object", "memory-backend-ram"));
	append = arg_after(&argv, "-append", "");
	assert_non_null(strstr(append, " numa=fake=2"));
	assert_false(ends_with(append, " "));
	strlist_clear(&argv);
	profile_clear(&p);
}

static void interactive_puts_the_console_on_the_terminal(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 256M\n");
	struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .kernel = "k", .initrd = "i",
				  .cmdline_extra = "", .tools_image = "t", .channel_dir = ".",
				  .interactive = true };
	struct strlist argv = STRLIST_INIT;
	build_argv(&spec, &argv);
	assert_non_null(arg_after(&argv, "-serial", "stdio"));
	strlist_clear(&argv);
	profile_clear(&p);
}

/* The saving boot and a restore have the same devices and a QMP socket;
 * only a restore waits for the saved VM, seeds QEMU and appends to every
 * channel file, which holds the saved boot's start. */
static void a_restore_has_the_saving_boots_devices_and_appends(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 256M\n");
	struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .kernel = "k", .initrd = "i",
				  .cmdline_extra = "", .tools_image = "t", .channel_dir = ".",
				  .snapshot = true };
	struct strlist save = STRLIST_INIT, restore = STRLIST_INIT, plain = STRLIST_INIT;
	build_argv(&spec, &save);
	spec.snapshot = false;
	build_argv(&spec, &plain);
	spec.restore = true;
	spec.restore_seed = 42;
	build_argv(&spec, &restore);
	assert_null(arg_after(&plain, "-qmp", ""));
	for (int k = 0; k < 2; k++) {
		const struct strlist *a = k ? &restore : &save;
		assert_non_null(arg_after(a, "-qmp", "unix:./" VM_QMP_SOCKET ",server=on,wait=off"));
		assert_int_equal(count(a, "-device"), count(&plain, "-device"));
	}
	assert_null(arg_after(&save, "-incoming", ""));
	assert_int_equal(count(&save, "-S"), 0);
	assert_null(arg_after(&save, "-seed", ""));
	assert_non_null(arg_after(&restore, "-incoming", "defer"));
	assert_int_equal(count(&restore, "-S"), 1);
	assert_string_equal(arg_after(&restore, "-seed", ""), "42");
	/* every channel and the console appended to, in the restore alone */
	for (int i = 0; i < CHANNEL_COUNT; i++) {
		char *want = xasprintf("file,id=ch-%s,path=./%s,append=on", channel_port_name[i],
				       channel_file_name[i]);
		assert_non_null(arg_after(&restore, "-chardev", want));
		assert_null(arg_after(&save, "-chardev", want));
		free(want);
	}
	assert_non_null(arg_after(&restore, "-chardev", "file,id=console,path=./" CONSOLE_FILE ",append=on"));
	assert_non_null(arg_after(&restore, "-serial", "chardev:console"));
	assert_non_null(arg_after(&save, "-serial", "file:./" CONSOLE_FILE));
	strlist_clear(&save);
	strlist_clear(&restore);
	strlist_clear(&plain);
	profile_clear(&p);
}

/* The saved VM as QEMU loads it for a restore: the bytes up to the agent's
 * page, the line, NULs to the slot's end, the rest (run through sh here). */
static void a_restore_loads_the_saved_vm_with_its_line(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-qemu.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *file = xasprintf("%s/saved", dir), *out = xasprintf("%s/loaded", dir);
	unsigned char page[RESTORE_SLOT_PAGE], data[3 * RESTORE_SLOT_PAGE];
	restore_slot_fill(page);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	memcpy(data + 5000, page, sizeof(page));
	assert_int_equal(write_file_atomic(file, data, sizeof(data)), 0);
	long long at = -1;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(vm_snapshot_find_slot(file, &at, &err), 0);
	assert_int_equal(at, 5000);
	char *cmd = vm_snapshot_load_command(file, at, "seed=12 trial=restore-3");
	assert_true(starts_with(cmd, "exec:"));
	char *sh = xasprintf("%s > %s", cmd + 5, out);
	assert_int_equal(system(sh), 0);
	size_t len = 0;
	char *loaded = read_file(out, &len);
	assert_int_equal(len, sizeof(data));
	assert_memory_equal(loaded, data, 5000);
	assert_string_equal(loaded + 5000, "seed=12 trial=restore-3");
	for (size_t i = 5000 + strlen("seed=12 trial=restore-3"); i < 5000 + RESTORE_SLOT_LINE; i++)
		assert_int_equal(loaded[i], 0);
	assert_memory_equal(loaded + 5000 + RESTORE_SLOT_LINE, data + 5000 + RESTORE_SLOT_LINE,
			    sizeof(data) - 5000 - RESTORE_SLOT_LINE);
	/* across the search's 4 MiB seam: found */
	size_t big = 5 << 20;
	unsigned char *seam = calloc(1, big);
	memcpy(seam + (4 << 20) - 30, page, sizeof(page));
	assert_int_equal(write_file_atomic(file, seam, big), 0);
	assert_int_equal(vm_snapshot_find_slot(file, &at, &err), 0);
	assert_int_equal(at, (4 << 20) - 30);
	free(seam);
	/* twice in the file: refused, as is none */
	memcpy(data + 12000, page, RESTORE_SLOT_MATCH);
	assert_int_equal(write_file_atomic(file, data, sizeof(data)), 0);
	assert_int_equal(vm_snapshot_find_slot(file, &at, &err), -1);
	memset(data, 1, sizeof(data));
	assert_int_equal(write_file_atomic(file, data, sizeof(data)), 0);
	assert_int_equal(vm_snapshot_find_slot(file, &at, &err), -1);
	free(loaded);
	free(sh);
	free(cmd);
	strbuf_release(&err);
	unlink(file);
	unlink(out);
	rmdir(dir);
	free(file);
	free(out);
}

static void icount_runs_one_tcg_thread_with_the_instruction_counter(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 512M\ncpus = 2\n");
	struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .clock = GUEST_CLOCK_ICOUNT,
				  .kernel = "k", .initrd = "i", .cmdline_extra = "", .tools_image = "t",
				  .channel_dir = "." };
	struct strlist argv = STRLIST_INIT;
	build_argv(&spec, &argv);
	assert_non_null(arg_after(&argv, "-accel", "tcg,thread=single"));
	assert_null(arg_after(&argv, "-accel", "tcg,thread=multi"));
	const char *icount = arg_after(&argv, "-icount", "");
	assert_non_null(icount);
	assert_string_equal(icount, "shift=0,sleep=off,align=off");
	assert_string_equal(icount, guest_clock_settings(GUEST_CLOCK_ICOUNT));
	/* the guest still sees the profile's CPUs: QEMU runs them in turn */
	assert_non_null(arg_after(&argv, "-smp", "2"));
	/* its TSC counts virtual nanoseconds: 1 GHz, told, not measured against the PIT */
	assert_non_null(strstr(arg_after(&argv, "-append", ""), " tsc_early_khz=1000000 tsc=reliable"));
	strlist_clear(&argv);

	/* the caller measures the host's rate only where it is told */
	assert_false(qemu_tells_host_tick_rate(&spec));
	/* realtime has no counter; its TSC is the host's counter, at the rate the
	 * caller measured (the builder measures nothing) */
	spec.clock = GUEST_CLOCK_REALTIME;
	assert_true(qemu_tells_host_tick_rate(&spec));
	spec.host_tick_khz = host_tick_khz();
	assert_true(spec.host_tick_khz > 100000);   /* a host counter runs at 100 MHz or more */
	build_argv(&spec, &argv);
	assert_int_equal(count(&argv, "-icount"), 0);
	assert_non_null(arg_after(&argv, "-accel", "tcg,thread=multi"));
	char *told = xasprintf(" tsc_early_khz=%lu tsc=reliable", spec.host_tick_khz);
	assert_non_null(strstr(arg_after(&argv, "-append", ""), told));
	free(told);
	strlist_clear(&argv);
	/* a rate the caller could not measure is not told */
	spec.host_tick_khz = 0;
	build_argv(&spec, &argv);
	assert_null(strstr(arg_after(&argv, "-append", ""), "tsc_early_khz"));
	strlist_clear(&argv);
	spec.host_tick_khz = 2000000;
	/* KVM's guest has kvm-clock and its own TSC: nothing told */
	spec.accel = QEMU_ACCEL_KVM;
	assert_false(qemu_tells_host_tick_rate(&spec));
	build_argv(&spec, &argv);
	assert_null(strstr(arg_after(&argv, "-append", ""), "tsc_early_khz"));
	strlist_clear(&argv);
	profile_clear(&p);
}

/* apic_timer = off is noapictimer on x86_64's command line, before the
 * variant's words; unsaid, the clock's default; arm64 never gets the word. */
static void apic_timer_off_is_noapictimer_on_x86(void **state)
{
	(void)state;
	struct profile p = make_profile("description = d\nmemory = 512M\napic_timer = off\n");
	struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .kernel = "k", .initrd = "i",
				  .cmdline_extra = "numa=off", .tools_image = "t", .channel_dir = "." };
	const enum guest_clock clocks[] = { GUEST_CLOCK_REALTIME, GUEST_CLOCK_ICOUNT };
	for (int c = 0; c < 2; c++) {
		spec.clock = clocks[c];
		char *line = qemu_kernel_cmdline(&spec);
		assert_true(ends_with(line, " noapictimer numa=off"));
		free(line);
	}
	/* KVM too: a profile that says off gets it on every accelerator */
	spec.accel = QEMU_ACCEL_KVM;
	spec.clock = GUEST_CLOCK_REALTIME;
	char *line = qemu_kernel_cmdline(&spec);
	assert_non_null(strstr(line, " noapictimer"));
	free(line);
	spec.accel = QEMU_ACCEL_TCG;
	/* arm64 has no APIC; its kernel would hand the word to /init */
	spec.platform = (struct platform){ ARCH_ARM64, 4 };
	line = qemu_kernel_cmdline(&spec);
	assert_null(strstr(line, "apictimer"));
	free(line);
	profile_clear(&p);

	const char *unsaid[] = { "description = d\nmemory = 512M\n",
				 "description = d\nmemory = 512M\napic_timer = calibrated\n" };
	for (int u = 0; u < 2; u++) {
		p = make_profile(unsaid[u]);
		spec.platform = PLATFORM_DEFAULT;
		for (int c = 0; c < 2; c++) {
			spec.clock = clocks[c];
			line = qemu_kernel_cmdline(&spec);
			bool off = apic_timer_for(p.apic_timer, spec.clock, false) == APIC_TIMER_OFF;
			/* a kernel without the lab's patch: calibrated on both clocks */
			assert_false(off);
			assert_null(strstr(line, "oomlab.apic_khz"));
			assert_int_equal(strstr(line, "noapictimer") != NULL, off);
			free(line);
		}
		profile_clear(&p);
	}
}

/* A kernel with the lab's patch is told its APIC timer's rate unless the
 * profile says calibrated or off; a kernel without it never is, nor arm64's. */
static void apic_timer_given_tells_the_rate(void **state)
{
	(void)state;
	const char *texts[] = { "description = d\nmemory = 512M\n",
				"description = d\nmemory = 512M\napic_timer = given\n",
				"description = d\nmemory = 512M\napic_timer = calibrated\n",
				"description = d\nmemory = 512M\napic_timer = off\n" };
	const bool told[] = { true, true, false, false };
	for (int t = 0; t < 4; t++) {
		struct profile p = make_profile(texts[t]);
		struct qemu_spec spec = { .profile = &p, .accel = QEMU_ACCEL_TCG, .kernel = "k", .initrd = "i",
					  .cmdline_extra = "numa=off", .tools_image = "t", .channel_dir = ".",
					  .kernel_takes_apic_khz = true };
		for (int c = 0; c < 2; c++) {
			spec.clock = c ? GUEST_CLOCK_ICOUNT : GUEST_CLOCK_REALTIME;
			char *line = qemu_kernel_cmdline(&spec);
			/* 1 GHz: the period the kernel's calibration finds under icount */
			if (told[t])
				assert_true(ends_with(line, " oomlab.apic_khz=1000000 numa=off"));
			else
				assert_null(strstr(line, "oomlab.apic_khz"));
			free(line);
		}
		spec.platform = (struct platform){ ARCH_ARM64, 4 };
		char *line = qemu_kernel_cmdline(&spec);
		assert_null(strstr(line, "oomlab.apic_khz"));
		free(line);
		profile_clear(&p);
	}
}

static void shell_join_quotes_what_needs_it(void **state)
{
	(void)state;
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "qemu");
	strlist_push(&argv, "-append");
	strlist_push(&argv, "console=ttyS0 panic=-1");
	strlist_push(&argv, "it's");
	strlist_push(&argv, "file=a.img,if=none");
	char *line = shell_join((const char *const *)argv.items, argv.n);
	assert_string_equal(line, "qemu -append 'console=ttyS0 panic=-1' 'it'\\''s' file=a.img,if=none");
	free(line);
	strlist_clear(&argv);
}

/* The accelerator's names and the one rule of which clock runs under it. */
static void accelerators(void **state)
{
	(void)state;
	enum qemu_accel a = QEMU_ACCEL_UNSET;
	assert_true(qemu_accel_parse("tcg", &a));
	assert_int_equal(a, QEMU_ACCEL_TCG);
	assert_string_equal(qemu_accel_name(a), "tcg");
	assert_true(qemu_accel_parse("kvm", &a));
	assert_int_equal(a, QEMU_ACCEL_KVM);
	assert_string_equal(qemu_accel_name(a), "kvm");
	assert_false(qemu_accel_parse("hvf", &a));
	assert_false(qemu_accel_parse("", &a));
	assert_int_equal(a, QEMU_ACCEL_KVM);   /* a refused name leaves it */
	assert_string_equal(qemu_accel_name(QEMU_ACCEL_UNSET), "");
	/* the instruction counter is TCG's alone; realtime runs under both */
	assert_true(qemu_accel_runs_clock(QEMU_ACCEL_TCG, GUEST_CLOCK_ICOUNT));
	assert_false(qemu_accel_runs_clock(QEMU_ACCEL_KVM, GUEST_CLOCK_ICOUNT));
	assert_true(qemu_accel_runs_clock(QEMU_ACCEL_KVM, GUEST_CLOCK_REALTIME));
	assert_true(qemu_accel_runs_clock(QEMU_ACCEL_TCG, GUEST_CLOCK_REALTIME));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accelerators),
		cmocka_unit_test(phone_profile_under_tcg),
		cmocka_unit_test(numa_nodes_get_memory_and_cpus),
		cmocka_unit_test(arm64_boots_virt_with_max_cpu),
		cmocka_unit_test(interactive_puts_the_console_on_the_terminal),
		cmocka_unit_test(a_restore_has_the_saving_boots_devices_and_appends),
		cmocka_unit_test(a_restore_loads_the_saved_vm_with_its_line),
		cmocka_unit_test(icount_runs_one_tcg_thread_with_the_instruction_counter),
		cmocka_unit_test(apic_timer_off_is_noapictimer_on_x86),
		cmocka_unit_test(apic_timer_given_tells_the_rate),
		cmocka_unit_test(shell_join_quotes_what_needs_it),
	};
	return cmocka_run_group_tests_name("qemu", tests, NULL, NULL);
}
