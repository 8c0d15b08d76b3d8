/*
 * Where the guest's programs of each architecture come from, and the
 * shared libraries they load.
 *
 * x86_64 (the host's): our programs from build/guest/, busybox, perf and
 * stress-ng as installed on the host, libraries as ldd resolves them.
 * arm64: our programs cross-compiled into build/guest-arm64/; Debian's
 * arm64 busybox-static, stress-ng and linux-perf, which cannot be
 * installed beside the host's, unpacked by scripts/install-deps into
 * <cache>/arm64-root; libraries from there or from the arm64 packages
 * installed with multiarch (/usr/lib/aarch64-linux-gnu), found by their
 * ELF NEEDED entries (readelf: ldd cannot run a foreign program).
 */
#ifndef LAB_GUEST_ROOT_H
#define LAB_GUEST_ROOT_H

#include "lab/kernel/platform.h"
#include "common/util.h"

struct guest_root {
	enum guest_arch arch;
	char *agent;       /* static, the initramfs's /init */
	char *workload;    /* oomlab-workload */
	char *busybox;     /* busybox-static's */
	char *perf;
	char *stress_ng;
};

/* The programs' paths on the host for ARCH; -1 with what is missing (and what makes it). */
/* bash-static's program for ARCH (malloc'd), which only the selftests' runner
 * scripts need (selftest-build.h); whether it is there is the caller's to check. */
char *guest_root_bash(enum guest_arch arch);
int guest_root_find(struct guest_root *r, enum guest_arch arch, struct strbuf *err);
/*
 * Appends the shared libraries PROGRAM loads, its interpreter among them,
 * to LIBS as "guest-path\thost-file" (the path the guest's loader asks for,
 * the real file's content), each once.
 */
int guest_root_libraries(const struct guest_root *r, const char *program, struct strlist *libs,
			 struct strbuf *err);
void guest_root_clear(struct guest_root *r);

#endif
