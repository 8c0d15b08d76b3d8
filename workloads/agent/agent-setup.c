/* Guest set-up: file systems, the loopback interface, the tools disk, sysctls and zram swap. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#include "agent-log.h"
#include "common/proto/cgroup2-options.h"
#include "agent-setup.h"

static void mount_one(const char *source, const char *target, const char *type,
		      unsigned long flags, const char *data)
{
	mkdir(target, 0755);
	if (mount(source, target, type, flags, data) < 0 && errno != EBUSY)
		agent_log("mount %s on %s: %s", type, target, strerror(errno));
}

void mount_filesystems(void)
{
	mount_one("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	/* terminals for programs that want one (selftest gives a test's stdout one) */
	mount_one("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "ptmxmode=0666,mode=0620");
	mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	mount_one("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
	mount_one("cgroup2", AGENT_CGROUP_MOUNT, "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  CGROUP2_OPTIONS_DEFAULT);
	mount_one("tracefs", "/sys/kernel/tracing", "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("binder", "/dev/binderfs", "binder", 0, "stats=global");
	/* Where Android has them, for programs that look there. */
	symlink("/dev/binderfs/binder", "/dev/binder");
	symlink("/dev/binderfs/hwbinder", "/dev/hwbinder");
	symlink("/dev/binderfs/vndbinder", "/dev/vndbinder");
}

const char *find_disk_by_serial(const char *serial)
{
	static char dev[300];
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	const char *found = NULL;
	while (d && (de = readdir(d)) && !found) {
		char path[300], value[128] = "";
		snprintf(path, sizeof(path), "/sys/block/%s/serial", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(value, sizeof(value), f) && !strncmp(value, serial, strlen(serial))) {
			snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
			found = dev;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The loopback interface up and "localhost" resolvable, as on any machine:
 * programs that talk to themselves over TCP (test_memcontrol's sock case
 * serves on in6addr_any and connects to "localhost") need both. Without a
 * network stack in the kernel (INET: only the test builds have one) there
 * is no traffic either way; the interface is brought up through a Unix
 * socket, which every build has.
 */
void setup_loopback(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		agent_log("loopback: %s", strerror(errno));
	} else {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			agent_log("loopback up: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	mkdir("/etc", 0755);
	if (access("/etc/hosts", F_OK) < 0) {
		FILE *f = fopen("/etc/hosts", "w");
		if (f) {
			fputs("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n", f);
			fclose(f);
		}
	}
}

int mount_scratch_disk(void)
{
	const char *dev = find_disk_by_serial(DISK_SCRATCH_SERIAL);
	if (!dev)
		return 0;
	mkdir(GUEST_SCRATCH_DISK_DIR, 0755);
	if (mount(dev, GUEST_SCRATCH_DISK_DIR, "ext4", 0, NULL) < 0) {
		agent_log("mount %s (ext4) on " GUEST_SCRATCH_DISK_DIR ": %s%s", dev, strerror(errno),
			  errno == ENODEV ? " (the kernel has no ext4: a VARIANT+test build has)" : "");
		return -1;
	}
	return 0;
}

int mount_tools_disk(void)
{
	const char *dev = find_disk_by_serial(DISK_TOOLS_SERIAL);
	if (!dev) {
		agent_log("no tools disk (serial " DISK_TOOLS_SERIAL ")");
		return -1;
	}
	mkdir("/ro", 0755);
	if (mount(dev, "/ro", "erofs", MS_RDONLY, NULL) < 0) {
		agent_log("mount %s on /ro: %s", dev, strerror(errno));
		return -1;
	}
	return 0;
}

static void write_sysfs(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		agent_log("cannot write '%s' to %s: %s", value, path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

void apply_sysctls(const struct job *job)
{
	char value[64];
	long v;
	/*
	 * THP first: switching it (re)starts khugepaged, which raises
	 * min_free_kbytes to its own recommendation and would undo ours.
	 */
	const char *thp = job->set.thp;
	if (strcmp(thp, "default"))
		write_sysfs("/sys/kernel/mm/transparent_hugepage/enabled", thp);
	if ((v = job->set.min_free_kbytes) >= 0) {
		snprintf(value, sizeof(value), "%ld", v);
		write_sysfs("/proc/sys/vm/min_free_kbytes", value);
	}
	if ((v = job->set.watermark_scale_factor) >= 0) {
		snprintf(value, sizeof(value), "%ld", v);
		write_sysfs("/proc/sys/vm/watermark_scale_factor", value);
	}
	if ((v = job->set.compact_unevictable_allowed) >= 0) {
		snprintf(value, sizeof(value), "%ld", v);
		write_sysfs("/proc/sys/vm/compact_unevictable_allowed", value);
	}
	/* The host reads every kill report from kmsg; let none be rate-limited away. */
	write_sysfs("/proc/sys/kernel/printk_ratelimit", "0");
}

/* The profile's cgroup2 options, before any cgroup is made: cgroup2 sets or
 * clears each flag by the remount's own list (cgroup_reconfigure). */
int remount_cgroup2(const struct job *job)
{
	const char *want = job->set.cgroup2_options;
	if (!strcmp(want, CGROUP2_OPTIONS_DEFAULT))
		return 0;
	if (mount(NULL, AGENT_CGROUP_MOUNT, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  cgroup2_options_mount_data(want)) < 0) {
		agent_log("remount %s with '%s': %s", AGENT_CGROUP_MOUNT, want, strerror(errno));
		return -1;
	}
	return 0;
}

int setup_zram(const struct job *job)
{
	const char *bytes = job->set.zram_bytes;
	if (!strcmp(bytes, "0"))
		return 0;
	write_sysfs("/sys/block/zram0/comp_algorithm", job->set.zram_algorithm);
	write_sysfs("/sys/block/zram0/disksize", bytes);
	/* mkswap from busybox writes the swap signature; swapon is a plain system call. */
	if (system("/bin/mkswap /dev/zram0 >/dev/null 2>&1") != 0) {
		agent_log("mkswap /dev/zram0 failed");
		return -1;
	}
	if (swapon("/dev/zram0", 0) < 0) {
		agent_log("swapon /dev/zram0: %s", strerror(errno));
		return -1;
	}
	return 0;
}
