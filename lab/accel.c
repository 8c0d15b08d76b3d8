/* Choosing QEMU's accelerator: KVM only where it really boots a guest. */
#include "accel.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/paths.h"
#include "qemu-version.h"
#include "trial.h"

#define PROBE_BOOT_SECONDS 40.0

static char *probe_key(void)
{
	struct utsname u;
	uname(&u);
	return xasprintf("host=%s %s; %s", u.release, u.version, qemu_version(host_arch()));
}

static const char *remembered(const char *key)
{
	char *path = cache_path("accel-probe");
	char *text = read_file(path, NULL);
	free(path);
	if (!text)
		return NULL;
	const char *answer = NULL;
	char *nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		if (!strcmp(text, key))
			answer = !strncmp(nl + 1, "kvm", 3) ? "kvm" : "tcg";
	}
	free(text);
	return answer;
}

static void remember(const char *key, const char *accel)
{
	char *path = cache_path("accel-probe");
	char *text = xasprintf("%s\n%s\n", key, accel);
	write_file_str(path, text);
	free(text);
	free(path);
}

static bool kvm_boots(const struct variant *v, const struct profile *p)
{
	char *probe = cache_path("accel-probe.d");
	char *dir = temp_name_beside(probe);
	free(probe);
	remove_tree(dir);
	struct trial_spec spec = {
		.variant = v, .profile = p, .command = "true", .dir = dir, .accel = "kvm",
		.watchdogs = { PROBE_BOOT_SECONDS, PROBE_BOOT_SECONDS, PROBE_BOOT_SECONDS * 2 },
	};
	struct vm_run vm;
	struct strbuf err = STRBUF_INIT;
	bool ok = trial_run(&spec, &vm, &err) == 0 && vm.outcome == VM_OK;
	free(vm.detail);
	strbuf_release(&err);
	remove_tree(dir);
	free(dir);
	return ok;
}

/* OOMLAB_ACCEL when set ("tcg" or "kvm"), else NULL. */
static const char *forced_accel(void)
{
	const char *forced = getenv("OOMLAB_ACCEL");
	if (forced && (!strcmp(forced, "tcg") || !strcmp(forced, "kvm")))
		return forced;
	if (forced && *forced)
		die_usage("OOMLAB_ACCEL must be tcg or kvm, not '%s'", forced);
	return NULL;
}

static bool kvm_device_opens(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* What is known without booting: "tcg", "kvm", or NULL (only a probe can tell).
 * Another architecture than the host's is emulated, whatever KVM can do. */
static const char *known_accel(const struct platform *p)
{
	if (p->arch != host_arch())
		return "tcg";
	const char *forced = forced_accel();
	if (forced)
		return forced;
	if (!kvm_device_opens())
		return "tcg";
	char *key = probe_key();
	const char *answer = remembered(key);
	free(key);
	return answer;
}

const char *accel_choose(const struct variant *v, const struct profile *p)
{
	const char *known = known_accel(&v->target.platform);
	if (known)
		return known;
	note("checking once whether KVM really boots a guest here (up to %.0f s)", PROBE_BOOT_SECONDS);
	const char *answer = kvm_boots(v, p) ? "kvm" : "tcg";
	if (!strcmp(answer, "tcg"))
		note("KVM did not boot a guest on this host: using TCG (remembered in %s/accel-probe)",
		     cache_root());
	char *key = probe_key();
	remember(key, answer);
	free(key);
	return answer;
}

static int refuse_icount(const struct clock_choice *clock, const char *why, struct strbuf *err)
{
	strbuf_addf(err, "clock = icount (%s) needs TCG, but %s: KVM has no instruction counter; "
		    "set clock = realtime (or --clock realtime) to run under KVM, or OOMLAB_ACCEL=tcg "
		    "to emulate with the counter", clock->from ? clock->from : "default", why);
	return -1;
}

static const char *kvm_reason(void)
{
	return forced_accel() ? "OOMLAB_ACCEL=kvm asks for KVM"
			      : "KVM boots guests on this host (the probe remembered in the cache)";
}

int accel_check_clock(const struct clock_choice *clock, const struct platform *p, struct strbuf *err)
{
	const char *known = known_accel(p);
	if (clock->clock == GUEST_CLOCK_ICOUNT && known && !strcmp(known, "kvm"))
		return refuse_icount(clock, kvm_reason(), err);
	return 0;
}

int accel_for_clock(const struct clock_choice *clock, const struct variant *v,
		    const struct profile *p, const char **accel, struct strbuf *err)
{
	*accel = accel_choose(v, p);
	if (clock->clock == GUEST_CLOCK_ICOUNT && !strcmp(*accel, "kvm"))
		return refuse_icount(clock, kvm_reason(), err);
	return 0;
}
