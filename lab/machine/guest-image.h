/*
 * The guest's two images, cached by the hash of their contents:
 * - the initramfs: busybox-static and the agent (made with the kernel
 *   tree's usr/gen_init_cpio, so no root privileges are needed);
 * - the tools disk: an erofs image with perf, stress-ng, our workloads and
 *   every library they load, so these programs cost reclaimable page cache
 *   in the guest, as on a phone, instead of pinned initramfs memory; and the
 *   user's files (guest-files.h) with the libraries they load, their hash
 *   in its key. One disk rather than a disk of their own: no other device
 *   for QEMU and the agent to know, and their libraries are where the
 *   guest's loader already looks. Each set of files costs a copy of the
 *   tools (about 60 MB here, built in under a second) in the cache.
 * Plus the small per-boot archive carrying the job.
 */
#ifndef LAB_GUEST_IMAGE_H
#define LAB_GUEST_IMAGE_H

#include "lab/kernel/platform.h"
#include "common/util.h"

struct guest_images {
	char *initramfs;   /* gzip'd cpio */
	char *tools;       /* erofs */
	char hash[65];     /* of both, for the trial record */
};

/* Builds ARCH's images, with FILES (NULL: none) on the tools disk, unless
 * cached (guest-root.h says where their programs come from); 0 or -1 with
 * the reason in err. */
struct guest_files;
int guest_images_prepare(struct guest_images *img, enum guest_arch arch,
			 const struct guest_files *files, struct strbuf *err);
/* A file of the job archive: /job/<name> in the guest. */
struct job_file {
	const char *name;
	const char *content;
};

/*
 * Writes the initrd of one boot to path: the job archive (the files, under
 * /job) followed by the cached initramfs. The job archive alone is kept as
 * job_cpio so reproduce.sh can rebuild the initrd.
 */
int guest_write_initrd(const struct guest_images *img, const struct job_file *files, size_t n,
		       const char *job_cpio, const char *path, struct strbuf *err);
void guest_images_clear(struct guest_images *img);

/* The programs a guest has, by their paths there (busybox's applets in /bin;
 * perf, stress-ng, oomlab-workload and a link per workload in /usr/bin), and
 * the workloads' names; 0 or -1 with the reason in err. */
int guest_programs(struct strlist *paths, struct strlist *workloads, struct strbuf *err);
/* The workloads' binary on the host (build/guest/oomlab-workload): the guest's
 * copy, and the host's check mode of every workload line. */
char *guest_workload_binary(void);

#endif
