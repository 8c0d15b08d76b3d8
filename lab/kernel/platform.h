/*
 * The guest's platform: its architecture (x86_64 or arm64) and its page
 * size (4k everywhere; 16k and 64k on arm64). Every fact that differs
 * between the architectures is in one table here: how the kernel is made
 * (ARCH=, CROSS_COMPILE=, the image make leaves), how QEMU runs it (its
 * binary, machine and console), and where the guest's programs come from
 * (build/guest for the host's own architecture, build/guest-arm64 and the
 * Debian arm64 packages scripts/install-deps unpacks for arm64).
 *
 * The default, x86_64 with 4 KiB pages, is the lab as it was: its object
 * folders, cache keys and guest images did not change.
 */
#ifndef LAB_PLATFORM_H
#define LAB_PLATFORM_H

#include <stdbool.h>

#include "common/util.h"

enum guest_arch { ARCH_X86_64, ARCH_ARM64 };

struct platform {
	enum guest_arch arch;
	unsigned page_kib;      /* 4, 16 or 64 */
};

#define PLATFORM_DEFAULT ((struct platform){ ARCH_X86_64, 4 })

struct arch_facts {
	const char *name;          /* "x86_64", "arm64": what experiments and options say */
	const char *uname;         /* what `uname -m` says in the guest */
	const char *kernel_arch;   /* make ARCH= */
	const char *cross_prefix;  /* make CROSS_COMPILE=, "" for the host's own */
	const char *compiler;      /* the C compiler of kernel and guest programs */
	const char *make_target;   /* what make builds: bzImage, Image */
	const char *image;         /* where make leaves it, in the object folder */
	const char *cached_image;  /* its name in the kernel cache entry */
	/* Where the build leaves the compressed kernel the image carries
	 * (vmlinux.bin.xz, ...), checked against it after each build
	 * (kbuild-cc.h); NULL for an image that carries none (arm64's Image). */
	const char *compressed_dir;
	const char *qemu;          /* qemu-system-x86_64, qemu-system-aarch64 */
	const char *qemu_package;  /* the Debian package that has it */
	const char *machine;       /* -machine, with its options */
	const char *virtio_bus;    /* how virtio devices attach: "device" (virtio-mmio) or "pci" */
	const char *panic_device;  /* a device that tells QEMU of a panic, or NULL: none */
	const char *machine_cmdline; /* what the machine needs on the kernel command line, "" if nothing */
	bool numa_by_emulation;    /* NUMA nodes are the kernel's numa=fake, not QEMU's -numa */
	const char *console;       /* console= of the kernel command line */
	const char *triplet;       /* Debian's multiarch folder: x86_64-linux-gnu */
	const char *page_sizes;    /* the supported ones, for messages: "4k", "4k, 16k, 64k" */
	unsigned elf_machine;      /* e_machine of its programs: EM_X86_64, EM_AARCH64 */
	/* The lab's own patch every kernel built for it gets when it applies
	 * (a path below the checkout), or NULL: x86_64's lets the lab tell the
	 * kernel its APIC timer's rate (apic-timer.h) */
	const char *lab_patch;
};

const struct arch_facts *arch_facts(enum guest_arch arch);
/* The host's own architecture (what build/guest is compiled for). */
enum guest_arch host_arch(void);

/* "x86_64" or "arm64" into *ARCH; -1 otherwise. */
int arch_parse(const char *text, enum guest_arch *arch);
/* "4k", "16k" or "64k" into *KIB; -1 otherwise. */
int page_size_parse(const char *text, unsigned *kib);
/* 0 when the arch has the page size; -1 with one line naming both, and what the arch has. */
int platform_check(const struct platform *p, struct strbuf *err);
/*
 * ARCH and PAGE as given by an option or an experiment (either may be NULL:
 * x86_64, 4k), parsed and checked; -1 with one line saying what is wrong.
 */
int platform_parse(const char *arch, const char *page, struct platform *out, struct strbuf *err);

/* "x86_64/4k", "arm64/16k" (malloc'd) */
char *platform_name(const struct platform *p);
/* "x86_64-4k", "arm64-16k": the platform in file and folder names (malloc'd) */
char *platform_slug(const struct platform *p);
bool platform_is_default(const struct platform *p);
bool platform_equal(const struct platform *a, const struct platform *b);
/* The page size in bytes, what getconf PAGESIZE says in the guest. */
unsigned long platform_page_bytes(const struct platform *p);
/* What an ELF file's header says (read with <elf.h>). */
struct elf_facts {
	bool is_elf;               /* the rest is only set for an ELF */
	bool is_64;                /* ELFCLASS64 */
	bool little_endian;        /* ELFDATA2LSB */
	unsigned machine;          /* e_machine */
	bool dynamic;              /* it has a program interpreter (PT_INTERP): it loads libraries */
};

/*
 * Reads PATH's ELF header (a file that is no ELF is no error: is_elf false):
 * 0 when PATH is no ELF, or an ELF that runs on ARCH (F is filled, may be
 * NULL); -1 with one line naming PATH, the machine it is for and ARCH's, or
 * why PATH could not be read or its header is cut short.
 */
int elf_check_arch(const char *path, enum guest_arch arch, struct elf_facts *f, struct strbuf *err);

/* Every platform the lab builds for, in the order lab kernel list shows them. */
extern const struct platform all_platforms[];
extern const unsigned all_platforms_count;

#endif
