/* The guest's initramfs and tools disk, cached by content hash. */
#include "guest-image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-files.h"
#include "guest-root.h"
#include "lab/util/hash.h"
#include "lab/kernel/kbuild.h"
#include "common/paths.h"
#include "common/proto/protocol.h"
#include "common/run-command.h"

/* Bump when the image layout changes. */
#define GUEST_RECIPE "oomlab-guest-2"
/* The host's busybox lists the applets: an arm64 one cannot run here, and
 * both are Debian's busybox-static of one version (scripts/install-deps). */
#define BUSYBOX "/bin/busybox"
/* The programs the tools disk carries, in the guest's /usr/bin (guest-root.h has their files). */
static const char *const tool_programs[] = { "/usr/bin/perf", "/usr/bin/stress-ng", NULL };

static char *guest_binary(const char *name)
{
	return xasprintf("%s/guest/%s", build_dir(), name);
}

static int hash_file(struct hasher *h, const char *label, const char *path, struct strbuf *err)
{
	hasher_add_str(h, "path", label);
	return hasher_add_file(h, label, path, err);
}

/*
 * Where gen_init_cpio.c is: a kernel tree the cache unpacked, else Debian's
 * tarball, whose one file is taken out into the cache's tools/ once (about
 * 12 s: xz is read up to it). A cache that has built no kernel yet (a user's
 * fresh one with a prebuilt bzimage variant only) has no tree.
 */
#define FIND_GEN_INIT_CPIO \
	"for f in \"$0\"/linux-*/src/usr/gen_init_cpio.c; do\n" \
	"	[ -f \"$f\" ] && { echo \"$f\"; exit 0; }\n" \
	"done\n" \
	"mkdir -p \"${2%/*}\" &&\n" \
	"tar -xJOf \"$1\" --wildcards --occurrence=1 '*/usr/gen_init_cpio.c' > \"$2.$$\" &&\n" \
	"[ -s \"$2.$$\" ] && mv \"$2.$$\" \"$2\" && echo \"$2\" && exit 0\n" \
	"rm -f \"$2.$$\"; echo \"no kernel tree in $0 and no usr/gen_init_cpio.c in $1\"; exit 1\n"

/* gen_init_cpio, compiled once from a kernel tree's source into the cache. */
static const char *gen_init_cpio(struct strbuf *err)
{
	static char *tool;
	if (tool)
		return tool;
	char *path = cache_path("tools/gen_init_cpio");
	if (!path_exists(path)) {
		char *src = NULL, *extracted = cache_path("tools/gen_init_cpio.c");
		const char *argv_find[] = { "sh", "-c", FIND_GEN_INIT_CPIO, cache_root(), KERNEL_SOURCE_TARBALL,
					    extracted, NULL };
		struct strbuf out = STRBUF_INIT;
		int found = capture_command(argv_find, NULL, &out);
		free(extracted);
		if (found != 0 || !out.len) {
			strbuf_addf(err, "gen_init_cpio: %s", out.len ? strbuf_first_line(&out) : "not found");
			strbuf_release(&out);
			free(path);
			return NULL;
		}
		/* its last line: tar may have warned first */
		char *last = trim(out.buf);
		src = xstrdup(strrchr(last, '\n') ? strrchr(last, '\n') + 1 : last);
		strbuf_release(&out);
		char *dir = cache_path("tools");
		mkdir_p(dir, 0755);
		char *tmp = temp_name_beside(path);
		const char *argv[] = { "gcc", "-O2", "-o", tmp, src, NULL };
		if (capture_command(argv, NULL, &out) != 0 || rename(tmp, path) < 0) {
			strbuf_addf(err, "cannot compile %s: %s", src, strbuf_first_line(&out));
			unlink(tmp);
			free(tmp);
			free(dir);
			free(src);
			free(path);
			strbuf_release(&out);
			return NULL;
		}
		strbuf_release(&out);
		free(tmp);
		free(dir);
		free(src);
	}
	tool = path;
	return tool;
}

/* Runs gen_init_cpio on a spec list; gzip when compress is set. */
static int make_cpio(const char *spec_text, const char *out_path, bool compress, struct strbuf *err)
{
	const char *tool = gen_init_cpio(err);
	if (!tool)
		return -1;
	/* both beside the image under names of their own: labs on one cache never meet */
	char *tmp = temp_name_beside(out_path);
	char *spec = xasprintf("%s.spec", tmp);
	if (write_file_str(spec, spec_text) < 0) {
		strbuf_addf(err, "cannot write %s: %s", spec, strerror(errno));
		free(spec);
		free(tmp);
		return -1;
	}
	char *script = xasprintf(compress ? "\"$0\" \"$1\" | gzip -n -6 > \"$2\"" : "\"$0\" \"$1\" > \"$2\"");
	const char *argv[] = { "sh", "-c", script, tool, spec, tmp, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command(argv, NULL, &out);
	if (rc != 0 || rename(tmp, out_path) < 0) {
		strbuf_addf(err, "making %s failed: %s", out_path, strbuf_first_line(&out));
		unlink(tmp);
		rc = -1;
	}
	unlink(spec);
	strbuf_release(&out);
	free(script);
	free(spec);
	free(tmp);
	return rc;
}

static int busybox_applets(struct strlist *applets, struct strbuf *err)
{
	const char *argv[] = { BUSYBOX, "--list", NULL };
	struct strlist lines = STRLIST_INIT;
	int rc = 0;
	if (capture_lines(argv, NULL, &lines) != 0) {
		strbuf_addf(err, "%s --list failed (is busybox-static installed?)", BUSYBOX);
		rc = -1;
	}
	for (size_t i = 0; i < lines.n && rc == 0; i++)
		if (*lines.items[i] && strcmp(lines.items[i], "busybox"))
			strlist_push(applets, lines.items[i]);
	strlist_clear(&lines);
	return rc;
}

static int build_initramfs(const struct guest_root *r, const char *path, struct strbuf *err)
{
	struct strlist applets = STRLIST_INIT;
	if (busybox_applets(&applets, err) < 0)
		return -1;
	struct strbuf spec = STRBUF_INIT;
	static const char *const dirs[] = { "/dev", "/bin", "/sbin", "/proc", "/sys", "/tmp", "/run",
					    "/ro", "/root", "/etc", "/mnt", NULL };
	for (const char *const *d = dirs; *d; d++)
		strbuf_addf(&spec, "dir %s 0755 0 0\n", *d);
	strbuf_addstr(&spec, "nod /dev/console 0600 0 0 c 5 1\nnod /dev/null 0666 0 0 c 1 3\n");
	strbuf_addf(&spec, "file /init %s 0755 0 0\n", r->agent);
	strbuf_addf(&spec, "file /bin/busybox %s 0755 0 0\n", r->busybox);
	for (size_t i = 0; i < applets.n; i++)
		strbuf_addf(&spec, "slink /bin/%s busybox 0777 0 0\n", applets.items[i]);
	/* Dynamically linked programs live on the tools disk, mounted at /ro, and so
	 * do the user's files. */
	strbuf_addstr(&spec, "slink /usr /ro/usr 0777 0 0\nslink /lib /ro/lib 0777 0 0\n"
			     "slink /lib64 /ro/lib64 0777 0 0\nslink /oomlab /ro/oomlab 0777 0 0\n");
	char *etc = cache_path("tools/passwd");
	write_file_str(etc, "root:x:0:0:root:/root:/bin/sh\n");
	strbuf_addf(&spec, "file /etc/passwd %s 0644 0 0\n", etc);
	free(etc);
	int rc = make_cpio(spec.buf, path, true, err);
	strbuf_release(&spec);
	strlist_clear(&applets);
	return rc;
}

static int workload_names(const char *workload_bin, struct strlist *names, struct strbuf *err)
{
	const char *argv[] = { workload_bin, "--list", NULL };
	struct strlist lines = STRLIST_INIT;
	if (capture_lines_or_say(argv, &lines, err) != 0)
		return -1;
	for (size_t i = 0; i < lines.n; i++) {
		char *line = lines.items[i];
		line[strcspn(line, " \t")] = '\0';
		if (*line)
			strlist_push(names, line);
	}
	strlist_clear(&lines);
	return 0;
}

char *guest_workload_binary(void)
{
	return guest_binary("oomlab-workload");
}

int guest_programs(struct strlist *paths, struct strlist *workloads, struct strbuf *err)
{
	struct strlist applets = STRLIST_INIT;
	char *workload_bin = guest_workload_binary();
	int rc = busybox_applets(&applets, err);
	if (rc == 0)
		rc = workload_names(workload_bin, workloads, err);
	/* where build_initramfs and stage_tools put them */
	for (size_t i = 0; rc == 0 && i < applets.n; i++)
		strlist_push_owned(paths, xasprintf("/bin/%s", applets.items[i]));
	strlist_push(paths, "/bin/busybox");
	for (const char *const *p = tool_programs; rc == 0 && *p; p++)
		strlist_push_owned(paths, xasprintf("/usr/bin/%s", strrchr(*p, '/') + 1));
	strlist_push(paths, "/usr/bin/oomlab-workload");
	for (size_t i = 0; rc == 0 && i < workloads->n; i++)
		strlist_push_owned(paths, xasprintf("/usr/bin/%s", workloads->items[i]));
	strlist_clear(&applets);
	free(workload_bin);
	return rc;
}

struct tools_inputs {
	struct strlist programs;  /* host paths */
	struct strlist libs;      /* "soname-path\treal-path" */
	struct strlist workloads; /* names to link to oomlab-workload */
	const struct guest_files *files; /* the user's, or NULL */
};

/* Where a library the guest's loader asks for at GUEST goes under STAGE (""
 * for the guest's own view of it): merged /usr, as on the host, where
 * /lib/x86_64-linux-gnu/x is /usr/lib/x86_64-linux-gnu/x. */
static char *staged_library(const char *stage, const char *guest)
{
	return starts_with(guest, "/lib64/") ? xasprintf("%s%s", stage, guest)
	     : starts_with(guest, "/lib/") ? xasprintf("%s/usr%s", stage, guest)
	     : xasprintf("%s%s", stage, guest);
}

/* The user's files' libraries join the tools'; one file in the guest cannot be two. */
static int merge_file_libraries(const struct guest_files *files, struct strlist *libs,
				struct strbuf *err)
{
	for (size_t i = 0; i < files->libs.n; i++) {
		const char *entry = files->libs.items[i], *tab = strchr(entry, '\t');
		char *guest = xstrndup(entry, (size_t)(tab - entry));
		char *at = staged_library("", guest);
		int rc = 0;
		for (size_t k = 0; rc == 0 && k < libs->n; k++) {
			const char *other = libs->items[k], *otab = strchr(other, '\t');
			char *oguest = xstrndup(other, (size_t)(otab - other));
			char *oat = staged_library("", oguest);
			if (!strcmp(at, oat) && strcmp(tab + 1, otab + 1)) {
				strbuf_addf(err, "the files need %s as %s, and the guest's own programs "
					    "need %s there", tab + 1, at, otab + 1);
				rc = -1;
			}
			free(oat);
			free(oguest);
		}
		free(at);
		free(guest);
		if (rc < 0)
			return -1;
		if (!strlist_has(libs, entry))
			strlist_push(libs, entry);
	}
	return 0;
}

static int gather_tools(const struct guest_root *r, struct tools_inputs *in, struct strbuf *err)
{
	/* in tool_programs' order, the workloads last */
	strlist_push(&in->programs, r->perf);
	strlist_push(&in->programs, r->stress_ng);
	strlist_push(&in->programs, r->workload);
	for (size_t i = 0; i < in->programs.n; i++)
		if (guest_root_libraries(r, in->programs.items[i], &in->libs, err) < 0)
			return -1;
	if (in->files && merge_file_libraries(in->files, &in->libs, err) < 0)
		return -1;
	strlist_sort(&in->libs);
	/* the host's build lists them: the same sources as any architecture's */
	char *host_workloads = guest_workload_binary();
	int rc = workload_names(host_workloads, &in->workloads, err);
	free(host_workloads);
	return rc;
}

/* The user's files under GUEST_FILES_DIR, executable or not as on the host;
 * the folder is there, empty, without them. */
static int stage_files(const struct guest_files *files, const char *stage, struct strbuf *err)
{
	char *top = xasprintf("%s" GUEST_FILES_DIR, stage);
	int rc = mkdir_p(top, 0755);
	if (rc < 0)
		strbuf_addf(err, "cannot create %s: %s", top, strerror(errno));
	for (size_t i = 0; files && rc == 0 && i < files->n; i++) {
		const struct guest_file *file = &files->files[i];
		char *to = xasprintf("%s/%s", top, file->path);
		char *dir = xstrdup(to);
		*strrchr(dir, '/') = '\0';
		rc = mkdir_p(dir, 0755);
		if (rc == 0)
			rc = copy_file(file->host, to);
		if (rc == 0)
			rc = chmod(to, file->executable ? 0755 : 0644);
		if (rc < 0)
			strbuf_addf(err, "cannot copy %s: %s", file->host, strerror(errno));
		/* the image is keyed by the hash taken when the files were checked */
		char copied[65];
		if (rc == 0 && (hash_file_content(to, copied) < 0 || strcmp(copied, file->content))) {
			strbuf_addf(err, "%s changed after the lab read it", file->host);
			rc = -1;
		}
		free(dir);
		free(to);
	}
	free(top);
	return rc;
}

static int stage_tools(const struct tools_inputs *in, const char *stage, struct strbuf *err)
{
	char *bin = xasprintf("%s/usr/bin", stage), *libdir = xasprintf("%s/usr/lib", stage);
	char *lib64 = xasprintf("%s/lib64", stage);
	mkdir_p(bin, 0755);
	mkdir_p(libdir, 0755);
	mkdir_p(lib64, 0755);
	int rc = 0;
	for (size_t i = 0; i < in->programs.n && rc == 0; i++) {
		const char *base = strrchr(in->programs.items[i], '/') + 1;
		char *to = xasprintf("%s/%s", bin, base);
		rc = copy_file(in->programs.items[i], to);
		if (rc == 0)
			rc = chmod(to, 0755);
		if (rc < 0)
			strbuf_addf(err, "cannot copy %s: %s", in->programs.items[i], strerror(errno));
		free(to);
	}
	for (size_t i = 0; i < in->libs.n && rc == 0; i++) {
		char *entry = xstrdup(in->libs.items[i]);
		char *tab = strchr(entry, '\t');
		*tab = '\0';
		char *to = staged_library(stage, entry);
		char *dir = xstrdup(to);
		*strrchr(dir, '/') = '\0';
		mkdir_p(dir, 0755);
		rc = copy_file(tab + 1, to);
		if (rc == 0)
			rc = chmod(to, 0755);
		if (rc < 0)
			strbuf_addf(err, "cannot copy %s: %s", tab + 1, strerror(errno));
		free(dir);
		free(to);
		free(entry);
	}
	for (size_t i = 0; i < in->workloads.n && rc == 0; i++) {
		char *link = xasprintf("%s/%s", bin, in->workloads.items[i]);
		rc = symlink("oomlab-workload", link);
		if (rc < 0)
			strbuf_addf(err, "cannot link %s: %s", link, strerror(errno));
		free(link);
	}
	if (rc == 0)
		rc = stage_files(in->files, stage, err);
	char *lib = xasprintf("%s/lib", stage);
	if (rc == 0 && symlink("usr/lib", lib) < 0) {
		strbuf_addf(err, "cannot link %s: %s", lib, strerror(errno));
		rc = -1;
	}
	free(lib);
	free(bin);
	free(libdir);
	free(lib64);
	return rc;
}

/*
 * The image grows to a whole number of the largest page (64 KiB): a kernel
 * with 16 KiB pages reads the disk's last page whole, and erofs failed to
 * read its last inodes (EIO) when the image ended inside one.
 */
#define IMAGE_ALIGN (64 << 10)
static int pad_image(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	off_t size = (st.st_size + IMAGE_ALIGN - 1) / IMAGE_ALIGN * IMAGE_ALIGN;
	return size == st.st_size ? 0 : truncate(path, size);
}

static int build_tools_image(const struct tools_inputs *in, const char *path, struct strbuf *err)
{
	char *tmp = temp_name_beside(path);
	char *stage = xasprintf("%s.stage", tmp);
	remove_tree(stage);
	int rc = stage_tools(in, stage, err);
	if (rc == 0) {
		const char *argv[] = { "mkfs.erofs", "--quiet", "-T0", "--all-root", tmp, stage, NULL };
		struct strbuf out = STRBUF_INIT;
		if (capture_command(argv, NULL, &out) != 0 || pad_image(tmp) < 0 || rename(tmp, path) < 0) {
			strbuf_addf(err, "mkfs.erofs failed: %s", strbuf_first_line(&out));
			unlink(tmp);
			rc = -1;
		}
		strbuf_release(&out);
	}
	remove_tree(stage);
	free(stage);
	free(tmp);
	return rc;
}

int guest_images_prepare(struct guest_images *img, enum guest_arch arch,
			 const struct guest_files *files, struct strbuf *err)
{
	memset(img, 0, sizeof(*img));
	struct guest_root root;
	struct tools_inputs in = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT,
				   files && guest_files_any(files) ? files : NULL };
	int rc = -1;
	char initramfs_hash[65], tools_hash[65];
	if (guest_root_find(&root, arch, err) < 0)
		goto out;
	/* the host's own architecture's images keep their keys; another's names itself */
	const char *arch_name = arch == host_arch() ? NULL : arch_facts(arch)->name;

	struct hasher *h = hasher_new();
	hasher_add_str(h, "recipe", GUEST_RECIPE);
	if (arch_name)
		hasher_add_str(h, "arch", arch_name);
	if (hash_file(h, "agent", root.agent, err) < 0 || hash_file(h, "busybox", root.busybox, err) < 0) {
		hasher_finish(h, initramfs_hash);
		goto out;
	}
	hasher_finish(h, initramfs_hash);

	if (gather_tools(&root, &in, err) < 0)
		goto out;
	h = hasher_new();
	hasher_add_str(h, "recipe", GUEST_RECIPE);
	if (arch_name)
		hasher_add_str(h, "arch", arch_name);
	for (size_t i = 0; i < in.programs.n; i++)
		if (hash_file(h, in.programs.items[i], in.programs.items[i], err) < 0) {
			hasher_finish(h, tools_hash);
			goto out;
		}
	for (size_t i = 0; i < in.libs.n; i++) {
		const char *real = strchr(in.libs.items[i], '\t') + 1;
		if (hash_file(h, in.libs.items[i], real, err) < 0) {
			hasher_finish(h, tools_hash);
			goto out;
		}
	}
	for (size_t i = 0; i < in.workloads.n; i++)
		hasher_add_str(h, "workload", in.workloads.items[i]);
	/* their libraries are among the libs above */
	if (in.files)
		hasher_add_str(h, "files", in.files->hash);
	hasher_finish(h, tools_hash);

	char *dir = cache_path("guest");
	mkdir_p(dir, 0755);
	img->initramfs = xasprintf("%s/initramfs-%.16s.cpio.gz", dir, initramfs_hash);
	img->tools = xasprintf("%s/tools-%.16s.erofs", dir, tools_hash);
	free(dir);
	if (!path_exists(img->initramfs) && build_initramfs(&root, img->initramfs, err) < 0)
		goto out;
	if (!path_exists(img->tools) && build_tools_image(&in, img->tools, err) < 0)
		goto out;
	h = hasher_new();
	hasher_add_str(h, "initramfs", initramfs_hash);
	hasher_add_str(h, "tools", tools_hash);
	hasher_finish(h, img->hash);
	rc = 0;
out:
	guest_root_clear(&root);
	strlist_clear(&in.programs);
	strlist_clear(&in.libs);
	strlist_clear(&in.workloads);
	return rc;
}

int guest_write_initrd(const struct guest_images *img, const struct job_file *files, size_t n,
		       const char *job_cpio, const char *path, struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;
	struct strlist written = STRLIST_INIT;
	int rc = 0;
	strbuf_addstr(&list, "dir " JOB_DIR " 0755 0 0\n");
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *tmp = xasprintf("%s.file-%s", job_cpio, files[i].name);
		if (write_file_str(tmp, files[i].content) < 0) {
			strbuf_addf(err, "cannot write %s: %s", tmp, strerror(errno));
			rc = -1;
		}
		strbuf_addf(&list, "file " JOB_DIR "/%s %s 0644 0 0\n", files[i].name, tmp);
		strlist_push_owned(&written, tmp);
	}
	if (rc == 0)
		rc = make_cpio(list.buf, job_cpio, false, err);
	if (rc == 0) {
		/* The uncompressed job archive goes first, as early microcode does: the kernel unpacks both. */
		const char *argv[] = { "sh", "-c", "cat \"$0\" \"$1\" > \"$2\"", job_cpio, img->initramfs,
				       path, NULL };
		struct strbuf out = STRBUF_INIT;
		if (capture_command(argv, NULL, &out) != 0) {
			strbuf_addf(err, "cannot write %s: %s", path, strbuf_first_line(&out));
			rc = -1;
		}
		strbuf_release(&out);
	}
	for (size_t i = 0; i < written.n; i++)
		unlink(written.items[i]);
	strlist_clear(&written);
	strbuf_release(&list);
	return rc;
}

void guest_images_clear(struct guest_images *img)
{
	free(img->initramfs);
	free(img->tools);
	memset(img, 0, sizeof(*img));
}
