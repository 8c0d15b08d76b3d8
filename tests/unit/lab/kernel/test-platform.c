/* Unit tests: the guest's architecture and page size (lab/kernel/platform.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/kernel/platform.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-platform-XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static void defaults_are_x86_64_4k(void **state)
{
	(void)state;
	struct platform p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(platform_parse(NULL, NULL, &p, &err), 0);
	assert_true(platform_is_default(&p));
	assert_int_equal(p.arch, ARCH_X86_64);
	assert_int_equal(platform_page_bytes(&p), 4096);
	char *name = platform_name(&p);
	assert_string_equal(name, "x86_64/4k");
	free(name);
	strbuf_release(&err);
}

static void arm64_has_every_granule(void **state)
{
	(void)state;
	const char *sizes[] = { "4k", "16k", "64k" };
	const unsigned long bytes[] = { 4096, 16384, 65536 };
	for (int i = 0; i < 3; i++) {
		struct platform p;
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(platform_parse("arm64", sizes[i], &p, &err), 0);
		assert_int_equal(p.arch, ARCH_ARM64);
		assert_int_equal(platform_page_bytes(&p), bytes[i]);
		assert_false(platform_is_default(&p));
		strbuf_release(&err);
	}
	struct platform p = { ARCH_ARM64, 16 };
	char *slug = platform_slug(&p);
	assert_string_equal(slug, "arm64-16k");
	free(slug);
	assert_string_equal(arch_facts(ARCH_ARM64)->uname, "aarch64");
	assert_string_equal(arch_facts(ARCH_ARM64)->qemu, "qemu-system-aarch64");
	assert_string_equal(arch_facts(ARCH_ARM64)->console, "ttyAMA0");
}

/* An unsupported page size for the arch is one line naming both and what the arch has. */
static void unsupported_page_size_is_one_line_naming_it(void **state)
{
	(void)state;
	struct platform p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(platform_parse("x86_64", "16k", &p, &err), -1);
	assert_string_equal(err.buf, "page size 16k is not supported on x86_64 (it has 4k)");
	strbuf_release(&err);
	/* the default arch is x86_64: a page size alone is checked against it */
	assert_int_equal(platform_parse(NULL, "64k", &p, &err), -1);
	assert_string_equal(err.buf, "page size 64k is not supported on x86_64 (it has 4k)");
	strbuf_release(&err);
	assert_int_equal(platform_parse("arm64", "8k", &p, &err), -1);
	assert_string_equal(err.buf, "unknown page size '8k' (4k, 16k or 64k)");
	strbuf_release(&err);
	assert_int_equal(platform_parse("riscv64", NULL, &p, &err), -1);
	assert_string_equal(err.buf, "unknown architecture 'riscv64' (x86_64 or arm64)");
	assert_null(strchr(err.buf, '\n'));
	strbuf_release(&err);
}

static void every_listed_platform_checks(void **state)
{
	(void)state;
	assert_int_equal(all_platforms_count, 4);
	for (unsigned i = 0; i < all_platforms_count; i++) {
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(platform_check(&all_platforms[i], &err), 0);
		strbuf_release(&err);
	}
	assert_true(platform_is_default(&all_platforms[0]));
}

/* A fake ELF: a 64-bit little-endian header for MACHINE, and a PT_INTERP
 * program header when DYNAMIC; its path, malloc'd. */
static char *fake_elf(const char *name, unsigned machine, bool dynamic)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
	} img;
	memset(&img, 0, sizeof(img));
	memcpy(img.eh.e_ident, ELFMAG, SELFMAG);
	img.eh.e_ident[EI_CLASS] = ELFCLASS64;
	img.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	img.eh.e_ident[EI_VERSION] = EV_CURRENT;
	img.eh.e_type = ET_EXEC;
	img.eh.e_machine = (Elf64_Half)machine;
	img.eh.e_phoff = sizeof(Elf64_Ehdr);
	img.eh.e_phentsize = sizeof(Elf64_Phdr);
	img.eh.e_phnum = 2;
	img.ph[0].p_type = PT_LOAD;
	img.ph[1].p_type = dynamic ? PT_INTERP : PT_NOTE;
	char *path = xasprintf("%s/%s", root, name);
	assert_int_equal(write_file_atomic(path, &img, sizeof(img)), 0);
	return path;
}

/* Each architecture takes its own ELFs and refuses the other's, naming the file. */
static void elf_machine_is_checked_against_the_arch(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct elf_facts f;
	char *x86 = fake_elf("x86-prog", EM_X86_64, true);
	char *arm = fake_elf("arm-prog", EM_AARCH64, false);

	assert_int_equal(elf_check_arch(x86, ARCH_X86_64, &f, &err), 0);
	assert_true(f.is_elf && f.is_64 && f.little_endian && f.dynamic);
	assert_int_equal(f.machine, EM_X86_64);
	assert_int_equal(elf_check_arch(arm, ARCH_ARM64, &f, &err), 0);
	assert_false(f.dynamic);
	assert_string_equal(strbuf_str(&err), "");

	assert_int_equal(elf_check_arch(x86, ARCH_ARM64, NULL, &err), -1);
	char *want = xasprintf("%s: an ELF for x86_64, but the guest is arm64 (build it with "
			       "aarch64-linux-gnu-gcc)", x86);
	assert_string_equal(err.buf, want);
	free(want);
	strbuf_reset(&err);
	assert_int_equal(elf_check_arch(arm, ARCH_X86_64, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "arm-prog: an ELF for aarch64, but the guest is x86_64"));
	strbuf_reset(&err);

	/* a 32-bit x86 program is another machine too */
	char *i386 = xasprintf("%s/i386-prog", root);
	Elf32_Ehdr eh32;
	memset(&eh32, 0, sizeof(eh32));
	memcpy(eh32.e_ident, ELFMAG, SELFMAG);
	eh32.e_ident[EI_CLASS] = ELFCLASS32;
	eh32.e_ident[EI_DATA] = ELFDATA2LSB;
	eh32.e_machine = EM_386;
	assert_int_equal(write_file_atomic(i386, &eh32, sizeof(eh32)), 0);
	assert_int_equal(elf_check_arch(i386, ARCH_X86_64, &f, &err), -1);
	assert_non_null(strstr(err.buf, "an ELF for i386 (32-bit), but the guest is x86_64"));
	strbuf_reset(&err);
	free(i386);
	free(arm);
	free(x86);
	strbuf_release(&err);
}

/* A script or data is no ELF and no error; an ELF cut short is one line. */
static void files_that_are_no_elf_pass(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct elf_facts f;
	scratch_put(root, "script.sh", "#!/bin/sh\necho hi\n");
	scratch_put(root, "empty", "");
	scratch_put(root, "cut", "\177ELF\002\001");
	char *script = xasprintf("%s/script.sh", root), *empty = xasprintf("%s/empty", root);
	char *cut = xasprintf("%s/cut", root), *missing = xasprintf("%s/missing", root);
	assert_int_equal(elf_check_arch(script, ARCH_ARM64, &f, &err), 0);
	assert_false(f.is_elf);
	assert_int_equal(elf_check_arch(empty, ARCH_X86_64, &f, &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(elf_check_arch(cut, ARCH_X86_64, &f, &err), -1);
	assert_non_null(strstr(err.buf, "cut: an ELF whose header is cut short"));
	strbuf_reset(&err);
	assert_int_equal(elf_check_arch(missing, ARCH_X86_64, &f, &err), -1);
	assert_non_null(strstr(err.buf, "missing: cannot read"));
	free(script);
	free(empty);
	free(cut);
	free(missing);
	strbuf_release(&err);
}

/* The lab's own programs are ELFs of the host's architecture. */
static void the_lab_binary_is_the_hosts(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct elf_facts f;
	assert_int_equal(elf_check_arch("/proc/self/exe", host_arch(), &f, &err), 0);
	assert_true(f.is_elf);
	assert_int_equal(f.machine, arch_facts(host_arch())->elf_machine);
	/* a real header, not a made one: the test binary is 64-bit, little-endian and loads libc */
	assert_true(f.is_64);
	assert_true(f.little_endian);
	assert_true(f.dynamic);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_x86_64_4k),
		cmocka_unit_test(arm64_has_every_granule),
		cmocka_unit_test(unsupported_page_size_is_one_line_naming_it),
		cmocka_unit_test(every_listed_platform_checks),
		cmocka_unit_test(elf_machine_is_checked_against_the_arch),
		cmocka_unit_test(files_that_are_no_elf_pass),
		cmocka_unit_test(the_lab_binary_is_the_hosts),
	};
	return cmocka_run_group_tests_name("platform", tests, setup, teardown);
}
