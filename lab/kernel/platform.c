/* The guest's architecture and page size (platform.h). */
#include "platform.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct arch_facts facts[] = {
	[ARCH_X86_64] = {
		.name = "x86_64", .uname = "x86_64", .kernel_arch = "x86", .cross_prefix = "",
		.compiler = "gcc", .make_target = "bzImage", .image = "arch/x86/boot/bzImage",
		.cached_image = "bzImage", .compressed_dir = "arch/x86/boot/compressed",
		.qemu = "qemu-system-x86_64",
		.qemu_package = "qemu-system-x86",
		/*
		 * microvm: no firmware tables, no PCI, virtio over MMIO (QEMU puts
		 * each device on the kernel command line when ACPI is off), so the
		 * kernel needs neither ACPI nor PCI, a quarter of a cold build.
		 * It cannot power off: the guest reboots, and -no-reboot makes
		 * that QEMU's exit; reboot=t goes straight to the triple fault
		 * instead of trying the keyboard controller it lacks first. With
		 * no SRAT, NUMA nodes are the kernel's emulation (numa=fake).
		 */
		.machine = "microvm,acpi=off,x-option-roms=off", .virtio_bus = "device",
		.panic_device = NULL, .machine_cmdline = "reboot=t", .numa_by_emulation = true,
		.console = "ttyS0",
		.triplet = "x86_64-linux-gnu", .page_sizes = "4k", .elf_machine = EM_X86_64,
		.lab_patch = "kernels/arch/x86_64-apic-khz.patch",
	},
	[ARCH_ARM64] = {
		.name = "arm64", .uname = "aarch64", .kernel_arch = "arm64",
		.cross_prefix = "aarch64-linux-gnu-", .compiler = "aarch64-linux-gnu-gcc",
		.make_target = "Image", .image = "arch/arm64/boot/Image", .cached_image = "Image",
		.qemu = "qemu-system-aarch64", .qemu_package = "qemu-system-arm", .machine = "virt",
		/* virt's PCIe host from the device tree; NUMA from the tree's nodes */
		.virtio_bus = "pci", .panic_device = "pvpanic-pci", .machine_cmdline = "",
		.numa_by_emulation = false,
		.console = "ttyAMA0", .triplet = "aarch64-linux-gnu", .page_sizes = "4k, 16k, 64k",
		.elf_machine = EM_AARCH64,
	},
};

const struct platform all_platforms[] = {
	{ ARCH_X86_64, 4 }, { ARCH_ARM64, 4 }, { ARCH_ARM64, 16 }, { ARCH_ARM64, 64 },
};
const unsigned all_platforms_count = sizeof(all_platforms) / sizeof(all_platforms[0]);

const struct arch_facts *arch_facts(enum guest_arch arch)
{
	return &facts[arch];
}

enum guest_arch host_arch(void)
{
#if defined(__aarch64__)
	return ARCH_ARM64;
#else
	return ARCH_X86_64;
#endif
}

int arch_parse(const char *text, enum guest_arch *arch)
{
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (!strcmp(text, facts[i].name)) {
			*arch = (enum guest_arch)i;
			return 0;
		}
	return -1;
}

int page_size_parse(const char *text, unsigned *kib)
{
	static const unsigned sizes[] = { 4, 16, 64 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char word[8];
		snprintf(word, sizeof(word), "%uk", sizes[i]);
		if (!strcmp(text, word)) {
			*kib = sizes[i];
			return 0;
		}
	}
	return -1;
}

int platform_check(const struct platform *p, struct strbuf *err)
{
	for (unsigned i = 0; i < all_platforms_count; i++)
		if (platform_equal(p, &all_platforms[i]))
			return 0;
	const struct arch_facts *f = arch_facts(p->arch);
	strbuf_addf(err, "page size %uk is not supported on %s (it has %s)", p->page_kib, f->name,
		    f->page_sizes);
	return -1;
}

int platform_parse(const char *arch, const char *page, struct platform *out, struct strbuf *err)
{
	*out = PLATFORM_DEFAULT;
	if (arch && arch_parse(arch, &out->arch) < 0) {
		strbuf_addf(err, "unknown architecture '%s' (x86_64 or arm64)", arch);
		return -1;
	}
	if (page && page_size_parse(page, &out->page_kib) < 0) {
		strbuf_addf(err, "unknown page size '%s' (4k, 16k or 64k)", page);
		return -1;
	}
	return platform_check(out, err);
}

char *platform_name(const struct platform *p)
{
	return xasprintf("%s/%uk", arch_facts(p->arch)->name, p->page_kib);
}

char *platform_slug(const struct platform *p)
{
	return xasprintf("%s-%uk", arch_facts(p->arch)->name, p->page_kib);
}

bool platform_is_default(const struct platform *p)
{
	return platform_equal(p, &PLATFORM_DEFAULT);
}

bool platform_equal(const struct platform *a, const struct platform *b)
{
	return a->arch == b->arch && a->page_kib == b->page_kib;
}

unsigned long platform_page_bytes(const struct platform *p)
{
	return (unsigned long)p->page_kib << 10;
}

/* "x86_64", "aarch64", "i386", "arm", ...: an e_machine as uname -m says it. */
static const char *elf_machine_name(unsigned machine)
{
	switch (machine) {
	case EM_X86_64: return "x86_64";
	case EM_AARCH64: return "aarch64";
	case EM_386: return "i386";
	case EM_ARM: return "arm";
	case EM_RISCV: return "riscv";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390";
	case EM_MIPS: return "mips";
	default: return "an unknown machine";
	}
}

/* Whether a 64-bit little-endian ELF has a PT_INTERP program header. */
static int elf_has_interp(int fd, const Elf64_Ehdr *eh, bool *interp)
{
	*interp = false;
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return eh->e_phnum ? -1 : 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		off_t at = (off_t)(eh->e_phoff + (Elf64_Off)i * sizeof(ph));
		if (pread(fd, &ph, sizeof(ph), at) != (ssize_t)sizeof(ph))
			return -1;
		if (ph.p_type == PT_INTERP)
			*interp = true;
	}
	return 0;
}

static int elf_facts_read(const char *path, struct elf_facts *f, struct strbuf *err)
{
	memset(f, 0, sizeof(*f));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	/* the 32-bit header is the shorter: its e_machine is where the 64-bit one's is */
	union {
		unsigned char ident[EI_NIDENT];
		Elf32_Ehdr h32;
		Elf64_Ehdr h64;
	} u;
	memset(&u, 0, sizeof(u));
	ssize_t n = pread(fd, &u, sizeof(u), 0);
	int rc = 0;
	if (n < SELFMAG || memcmp(u.ident, ELFMAG, SELFMAG)) {
		close(fd);
		return 0;   /* a script, data, or an empty file */
	}
	f->is_elf = true;
	f->is_64 = u.ident[EI_CLASS] == ELFCLASS64;
	f->little_endian = u.ident[EI_DATA] == ELFDATA2LSB;
	size_t need = f->is_64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (n < (ssize_t)need) {
		strbuf_addf(err, "%s: an ELF whose header is cut short (%zd of %zu bytes)", path, n, need);
		close(fd);
		return -1;
	}
	uint16_t m = u.h32.e_machine;
	f->machine = f->little_endian ? m : (unsigned)((m >> 8) | ((m & 0xff) << 8));
	if (f->is_64 && f->little_endian && elf_has_interp(fd, &u.h64, &f->dynamic) < 0) {
		strbuf_addf(err, "%s: an ELF whose program headers cannot be read", path);
		rc = -1;
	}
	close(fd);
	return rc;
}

int elf_check_arch(const char *path, enum guest_arch arch, struct elf_facts *f, struct strbuf *err)
{
	struct elf_facts local;
	if (!f)
		f = &local;
	if (elf_facts_read(path, f, err) < 0)
		return -1;
	const struct arch_facts *a = arch_facts(arch);
	if (!f->is_elf || (f->machine == a->elf_machine && f->is_64 && f->little_endian))
		return 0;
	strbuf_addf(err, "%s: an ELF for %s%s%s, but the guest is %s (build it with %s)", path,
		    elf_machine_name(f->machine), f->is_64 ? "" : " (32-bit)",
		    f->little_endian ? "" : " (big-endian)", a->name, a->compiler);
	return -1;
}
