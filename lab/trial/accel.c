/* Choosing QEMU's accelerator: KVM only where it really boots a guest. */
#include "accel.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/paths.h"
#include "lab/machine/qemu-version.h"

static char *probe_key(void)
{
	struct utsname u;
	uname(&u);
	return xasprintf("host=%s %s; %s", u.release, u.version, qemu_version(host_arch()));
}

static enum qemu_accel remembered(const char *key)
{
	char *path = cache_path("accel-probe");
	char *text = read_file(path, NULL);
	free(path);
	if (!text)
		return QEMU_ACCEL_UNSET;
	enum qemu_accel answer = QEMU_ACCEL_UNSET;
	char *nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		char *name = nl + 1;
		name[strcspn(name, "\n")] = '\0';
		/* an answer this lab cannot read is no answer: probe again */
		if (!strcmp(text, key) && !qemu_accel_parse(name, &answer))
			answer = QEMU_ACCEL_UNSET;
	}
	free(text);
	return answer;
}

static void remember(const char *key, enum qemu_accel accel)
{
	char *path = cache_path("accel-probe");
	char *text = xasprintf("%s\n%s\n", key, qemu_accel_name(accel));
	write_file_str(path, text);
	free(text);
	free(path);
}

/* OOMLAB_ACCEL when set ("tcg" or "kvm"), else UNSET. */
static enum qemu_accel forced_accel(void)
{
	const char *forced = getenv("OOMLAB_ACCEL");
	enum qemu_accel a = QEMU_ACCEL_UNSET;
	if (forced && *forced && !qemu_accel_parse(forced, &a))
		die_usage("OOMLAB_ACCEL must be tcg or kvm, not '%s'", forced);
	return a;
}

static bool kvm_device_opens(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* What is known without booting: TCG, KVM, or UNSET (only a probe can tell).
 * Another architecture than the host's is emulated, whatever KVM can do. */
static enum qemu_accel known_accel(const struct platform *p)
{
	if (p->arch != host_arch())
		return QEMU_ACCEL_TCG;
	enum qemu_accel forced = forced_accel();
	if (forced != QEMU_ACCEL_UNSET)
		return forced;
	if (!kvm_device_opens())
		return QEMU_ACCEL_TCG;
	char *key = probe_key();
	enum qemu_accel answer = remembered(key);
	free(key);
	return answer;
}

/* TCG or KVM; may call PROBE once to find out. */
static enum qemu_accel accel_choose(const struct platform *p, accel_kvm_probe *probe, void *ctx)
{
	enum qemu_accel known = known_accel(p);
	if (known != QEMU_ACCEL_UNSET)
		return known;
	note("checking once whether KVM really boots a guest here (up to %.0f s)", ACCEL_PROBE_BOOT_SECONDS);
	enum qemu_accel answer = probe(ctx) ? QEMU_ACCEL_KVM : QEMU_ACCEL_TCG;
	if (answer == QEMU_ACCEL_TCG)
		note("KVM did not boot a guest on this host: using TCG (remembered in %s/accel-probe)",
		     cache_root());
	char *key = probe_key();
	remember(key, answer);
	free(key);
	return answer;
}

static const char *kvm_reason(void)
{
	return forced_accel() != QEMU_ACCEL_UNSET ? "OOMLAB_ACCEL=kvm asks for KVM"
			      : "KVM boots guests on this host (the probe remembered in the cache)";
}

/* The one check of a clock against an accelerator (qemu_accel_runs_clock's
 * rule): 0, or -1 with the line saying how to choose. UNSET refuses nothing. */
static int check_clock(const struct clock_choice *clock, enum qemu_accel accel, struct strbuf *err)
{
	if (accel == QEMU_ACCEL_UNSET || qemu_accel_runs_clock(accel, clock->clock))
		return 0;
	strbuf_addf(err, "clock = icount (%s) needs TCG, but %s: KVM has no instruction counter; "
		    "set clock = realtime (or --clock realtime) to run under KVM, or OOMLAB_ACCEL=tcg "
		    "to emulate with the counter", clock->from ? clock->from : "default", kvm_reason());
	return -1;
}

int accel_check_clock(const struct clock_choice *clock, const struct platform *p, struct strbuf *err)
{
	return check_clock(clock, known_accel(p), err);
}

int accel_for_clock(const struct clock_choice *clock, const struct platform *p, accel_kvm_probe *probe,
		    void *ctx, enum qemu_accel *accel, struct strbuf *err)
{
	*accel = accel_choose(p, probe, ctx);
	return check_clock(clock, *accel, err);
}
