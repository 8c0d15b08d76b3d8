/* Unit tests: kernel config fragments are parsed, merged and checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/kernel/kconfig.h"

static void parses_values_and_not_set(void **state)
{
	(void)state;
	struct kconfig kc = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *text = "# a comment\n\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x y\"\nCONFIG_D=64\n";
	assert_int_equal(kconfig_parse(&kc, text, "frag", &err), 0);
	assert_int_equal(kc.n, 4);
	assert_string_equal(kconfig_get(&kc, "CONFIG_A")->value, "y");
	assert_null(kconfig_get(&kc, "CONFIG_B")->value);
	assert_string_equal(kconfig_get(&kc, "CONFIG_C")->value, "\"x y\"");
	assert_string_equal(kconfig_get(&kc, "CONFIG_D")->origin, "frag:6");
	kconfig_clear(&kc);
}

static void rejects_garbage_with_file_and_line(void **state)
{
	(void)state;
	struct kconfig kc = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kconfig_parse(&kc, "CONFIG_A=y\nSLUB=y\n", "base.config", &err), -1);
	assert_non_null(strstr(err.buf, "base.config:2"));
	strbuf_reset(&err);
	assert_int_equal(kconfig_parse(&kc, "CONFIG_A=\n", "f", &err), -1);
	assert_non_null(strstr(err.buf, "f:1"));
	strbuf_reset(&err);
	assert_int_equal(kconfig_parse(&kc, "CONFIG_S=\"open\n", "f", &err), -1);
	strbuf_release(&err);
	kconfig_clear(&kc);
}

static void later_fragment_wins_on_merge(void **state)
{
	(void)state;
	struct kconfig base = KCONFIG_INIT, frag = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kconfig_parse(&base, "CONFIG_A=y\nCONFIG_B=y\n", "base", &err), 0);
	assert_int_equal(kconfig_parse(&frag, "# CONFIG_A is not set\nCONFIG_C=m\n", "v", &err), 0);
	kconfig_merge(&base, &frag);
	assert_int_equal(base.n, 3);
	assert_null(kconfig_get(&base, "CONFIG_A")->value);
	assert_string_equal(kconfig_get(&base, "CONFIG_A")->origin, "v:1");
	char *text = kconfig_format(&base);
	assert_string_equal(text, "CONFIG_B=y\n# CONFIG_A is not set\nCONFIG_C=m\n");
	free(text);
	kconfig_clear(&base);
	kconfig_clear(&frag);
}

static void check_reports_options_lost(void **state)
{
	(void)state;
	struct kconfig wanted = KCONFIG_INIT, actual = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT, report = STRBUF_INIT;
	assert_int_equal(kconfig_parse(&wanted,
				       "CONFIG_A=y\n# CONFIG_SLUB_TINY is not set\nCONFIG_EROFS_FS=y\n",
				       "base.config", &err), 0);
	/* Absent counts as "not set"; EROFS was dropped by olddefconfig. */
	assert_int_equal(kconfig_parse(&actual, "CONFIG_A=y\n# CONFIG_EROFS_FS is not set\n", ".config",
				       &err), 0);
	assert_int_equal(kconfig_check(&wanted, &actual, &report), 1);
	assert_non_null(strstr(report.buf, "CONFIG_EROFS_FS: wanted y (base.config:3), got not set"));
	strbuf_reset(&report);
	kconfig_set(&actual, "CONFIG_SLUB_TINY", "y", "x");
	assert_int_equal(kconfig_check(&wanted, &actual, &report), 2);
	kconfig_clear(&wanted);
	kconfig_clear(&actual);
	strbuf_release(&report);
}

static void base_config_of_the_repo_parses(void **state)
{
	(void)state;
	struct kconfig kc = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kconfig_load(&kc, "kernels/base.config", &err), 0);
	/* What the issue requires the base to carry. */
	const char *must[] = { "CONFIG_ANDROID_BINDER_IPC", "CONFIG_ANDROID_BINDERFS", "CONFIG_MEMCG",
			       "CONFIG_PSI", "CONFIG_NUMA", "CONFIG_ZRAM", "CONFIG_COMPACTION",
			       "CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_SLUB_DEBUG",
			       "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE", "CONFIG_PERF_EVENTS",
			       "CONFIG_KPROBE_EVENTS", "CONFIG_VIRTIO_CONSOLE", "CONFIG_VIRTIO_BLK",
			       "CONFIG_EROFS_FS", "CONFIG_DEVTMPFS", "CONFIG_TMPFS",
			       /* fault injection, idle until a trial arms it (issue 26) */
			       "CONFIG_FAULT_INJECTION", "CONFIG_FAIL_PAGE_ALLOC", "CONFIG_FAILSLAB",
			       "CONFIG_FAULT_INJECTION_DEBUG_FS", NULL };
	for (const char **m = must; *m; m++) {
		const struct kconfig_option *o = kconfig_get(&kc, *m);
		assert_non_null(o);
		assert_string_equal(o->value, "y");
	}
	assert_null(kconfig_get(&kc, "CONFIG_SLUB_TINY")->value);
	/* one architecture's options are in its own fragment */
	assert_null(kconfig_get(&kc, "CONFIG_SERIAL_8250_CONSOLE"));
	assert_null(kconfig_get(&kc, "CONFIG_NUMA_EMU"));
	/* and so is how virtio reaches the devices: MMIO on microvm, PCI on virt */
	assert_null(kconfig_get(&kc, "CONFIG_PCI"));
	assert_null(kconfig_get(&kc, "CONFIG_VIRTIO_MMIO"));
	/* what a headless guest never uses is off */
	assert_null(kconfig_get(&kc, "CONFIG_VT")->value);
	assert_null(kconfig_get(&kc, "CONFIG_INPUT")->value);
	kconfig_clear(&kc);
}

/* Each fragment of kernels/arch/ parses and has its console and page size. */
static void arch_fragments_of_the_repo_parse(void **state)
{
	(void)state;
	const struct { const char *file, *option; } want[] = {
		{ "kernels/arch/x86_64.config", "CONFIG_SERIAL_8250_CONSOLE" },
		{ "kernels/arch/x86_64.config", "CONFIG_NUMA_EMU" },
		{ "kernels/arch/x86_64.config", "CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES" },
		{ "kernels/arch/arm64.config", "CONFIG_SERIAL_AMBA_PL011_CONSOLE" },
		{ "kernels/arch/arm64.config", "CONFIG_PCI_HOST_GENERIC" },
		{ "kernels/arch/arm64.config", "CONFIG_VIRTIO_PCI" },
		{ "kernels/arch/arm64.config", "CONFIG_PVPANIC_PCI" },
		{ "kernels/arch/arm64-4k.config", "CONFIG_ARM64_4K_PAGES" },
		{ "kernels/arch/arm64-16k.config", "CONFIG_ARM64_16K_PAGES" },
		{ "kernels/arch/arm64-64k.config", "CONFIG_ARM64_64K_PAGES" },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct kconfig kc = KCONFIG_INIT;
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(kconfig_load(&kc, want[i].file, &err), 0);
		const struct kconfig_option *o = kconfig_get(&kc, want[i].option);
		assert_non_null(o);
		assert_string_equal(o->value, "y");
		kconfig_clear(&kc);
		strbuf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_values_and_not_set),
		cmocka_unit_test(arch_fragments_of_the_repo_parse),
		cmocka_unit_test(rejects_garbage_with_file_and_line),
		cmocka_unit_test(later_fragment_wins_on_merge),
		cmocka_unit_test(check_reports_options_lost),
		cmocka_unit_test(base_config_of_the_repo_parses),
	};
	return cmocka_run_group_tests_name("kconfig", tests, NULL, NULL);
}
