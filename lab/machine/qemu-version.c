/* The version line of the QEMU the lab runs, asked once per architecture. */
#include "qemu-version.h"

#include <string.h>

#include "common/run-command.h"

const char *qemu_version(enum guest_arch arch)
{
	static char *version[2];
	if (version[arch])
		return version[arch];
	const struct arch_facts *f = arch_facts(arch);
	const char *argv[] = { f->qemu, "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	if (capture_command(argv, NULL, &out) != 0)
		die("%s is not installed (scripts/install-deps installs %s)", f->qemu, f->qemu_package);
	version[arch] = xstrndup(out.buf, strcspn(out.buf, "\n"));
	strbuf_release(&out);
	return version[arch];
}
