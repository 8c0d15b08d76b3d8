/* Building kernel variants into the cache. */
#include "kbuild.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "config-memo.h"
#include "kbuild-cc.h"
#include "kernel-source.h"
#include "patchset.h"
#include "common/paths.h"
#include "lab/util/progress.h"
#include "common/run-command.h"

/* Compile steps of a cold build of the stock configuration, for the ETA
 * before one was counted: 1479 on x86_64 (microvm's kernel; 1946 with ACPI
 * and PCI) and 1395 on arm64/16k here (1491 before VT, input and the
 * other initramfs decompressors went). */
static unsigned long cold_build_steps(const struct build_target *t)
{
	return t->platform.arch == ARCH_ARM64 ? 1400 : 1480;
}
#define MIN_FREE_BYTES_COLD (4ULL << 30)
#define MIN_FREE_BYTES_WARM (1ULL << 30)

static const char *const required_tools[] = {
	"make", "gcc", "ld", "patch", "tar", "xz", "ccache", "flex", "bison", "bc", "objdump", NULL
};

char *kernel_cache_dir(const struct variant *v)
{
	return xasprintf("%s/kernels/%s", cache_root(), v->hash);
}

char *kernel_image_path(const struct variant *v)
{
	char *dir = kernel_cache_dir(v);
	char *image = xasprintf("%s/%s", dir, arch_facts(v->target.platform.arch)->cached_image);
	free(dir);
	return image;
}

bool kernel_has_lab_patch(const struct variant *v)
{
	const char *lab_patch = arch_facts(v->target.platform.arch)->lab_patch;
	if (!lab_patch)
		return false;
	char *dir = kernel_cache_dir(v), *path = xasprintf("%s/patches", dir);
	char *text = read_file(path, NULL);
	struct strlist lines = STRLIST_INIT;
	if (text)
		strlist_add_lines(&lines, text, strlen(text));
	bool has = strlist_has(&lines, lab_patch);
	strlist_clear(&lines);
	free(text);
	free(path);
	free(dir);
	return has;
}

bool kernel_is_cached(const struct variant *v)
{
	char *image = kernel_image_path(v);
	bool cached = path_exists(image);
	free(image);
	return cached;
}

static int check_tools(const struct platform *p, struct strbuf *err)
{
	const char *compiler = arch_facts(p->arch)->compiler;
	for (const char *const *t = required_tools; *t; t++)
		if (!have_program(*t)) {
			strbuf_addf(err, "the tool '%s' is missing (scripts/install-deps installs it)", *t);
			return -1;
		}
	if (!have_program(compiler)) {
		strbuf_addf(err, "the compiler '%s' of %s kernels is missing (scripts/install-deps "
			    "installs it)", compiler, arch_facts(p->arch)->name);
		return -1;
	}
	return 0;
}

static int check_disk_space(const char *dir, unsigned long long need, struct strbuf *err)
{
	struct statvfs st;
	if (statvfs(dir, &st) < 0)
		return 0;
	unsigned long long avail = (unsigned long long)st.f_bavail * st.f_frsize;
	if (avail >= need)
		return 0;
	strbuf_addf(err, "not enough free disk space in %s: %.1f GiB free, a kernel build needs %.1f GiB",
		    dir, (double)avail / (1 << 30), (double)need / (1 << 30));
	return -1;
}

static int take_lock(const char *path, struct strbuf *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		strbuf_addf(err, "cannot open the lock %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		note("another lab process is building a kernel; waiting for it");
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR) {
				strbuf_addf(err, "cannot lock %s: %s", path, strerror(errno));
				close(fd);
				return -1;
			}
	}
	return fd;
}

/* A workspace's source folder, beside its object folders (obj/, obj-debug/, ...). */
#define WORKSPACE_SRC "src"

/* Runs make in the tree with our objdir and the platform's compiler; output appended to log. */
static int run_make(const char *tree, const char *obj, const struct platform *p, const char *log,
		    const char *target, struct progress *pr, unsigned long expected_steps,
		    unsigned long *steps)
{
	const struct arch_facts *f = arch_facts(p->arch);
	char *objarg = xasprintf("O=%s", obj);
	char *jobs = xasprintf("-j%ld", sysconf(_SC_NPROCESSORS_ONLN));
	char *ccache_dir = xasprintf("CCACHE_DIR=%s/ccache", cache_root());
	struct strbuf why = STRBUF_INIT;
	char *wrapper = kbuild_cc_wrapper(&why);
	if (!wrapper) {
		FILE *logf = fopen(log, "a");
		if (logf) {
			fprintf(logf, "%s\n", why.buf);
			fclose(logf);
		}
		strbuf_release(&why);
		free(objarg);
		free(jobs);
		free(ccache_dir);
		return -1;
	}
	strbuf_release(&why);
	char *cc = xasprintf("CC=%s %s", wrapper, f->compiler);
	free(wrapper);
	char *arch = xasprintf("ARCH=%s", f->kernel_arch);
	char *cross = xasprintf("CROSS_COMPILE=%s", f->cross_prefix);
	/* CCACHE_BASEDIR makes ccache hand the compiler paths relative to the
	 * object folder, so the same file compiled in another workspace (a
	 * user's tree mirrored from the Debian source) is a cache hit; it is the
	 * realpath, as the kernel's srctree is. Every object folder sits beside
	 * the workspace's source, and the kernel's own -fmacro-prefix-map (the
	 * absolute srctree) no longer matches a relative path: the second map
	 * keeps __FILE__, and so every WARN and BUG, naming "mm/slub.c" rather
	 * than "../src/mm/slub.c". The host's own architecture is built as
	 * before, without ARCH= and CROSS_COMPILE=. */
	char *real_cache = realpath(cache_root(), NULL);
	char *ccache_base = xasprintf("CCACHE_BASEDIR=%s", real_cache ? real_cache : cache_root());
	free(real_cache);
	bool as_before = p->arch == ARCH_X86_64;
	const char *argv[] = { "make", objarg, jobs, cc, "KCPPFLAGS=-fmacro-prefix-map=../" WORKSPACE_SRC "/=",
			       target, as_before ? NULL : arch, cross, NULL };
	/*
	 * Depend mode: on a miss ccache compiles at once and records the headers
	 * from the compiler's own -MMD output, where its default mode first runs
	 * the preprocessor to hash the result, a second pass over every header
	 * of every file. Building mm/, kernel/sched/ and fs/proc/ cold took 63
	 * and 80 s without ccache, 107 s with its default mode, 64 s with depend
	 * mode, and 6 s again from its cache. What it gives up, hits on
	 * preprocessed output when a header changed only in ways the file never
	 * sees, was 2 of 2643 lookups in a rebuild here.
	 */
	/*
	 * No hash of the object folder: with -g ccache hashes the compiler's
	 * working directory (the debug info's DW_AT_comp_dir), and that is each
	 * workspace's own obj/. Only the real-mode setup code is built with -g
	 * (arch/x86/boot, realmode, compressed: no config here has DEBUG_INFO),
	 * and its debug info never reaches the image, yet those 33 files were a
	 * miss in every new workspace (a git tree's first kernel: 1119 hits, 35
	 * misses). A variant that turns DEBUG_INFO on gets, for an object
	 * compiled before in another workspace, that workspace's comp_dir.
	 */
	const char *env[] = { ccache_dir, ccache_base, "CCACHE_DEPEND=1", "CCACHE_NOHASHDIR=1",
			      "KBUILD_BUILD_USER=oomlab", "KBUILD_BUILD_HOST=oomlab", "LC_ALL=C", NULL };
	struct child_process cp = { .argv = argv, .dir = tree, .env = env, .capture = true,
				    .err_to_out = true };
	int rc = start_command(&cp);
	FILE *logf = fopen(log, "a");
	if (rc == 0) {
		FILE *in = fdopen(cp.out_fd, "r");
		char *line = NULL;
		size_t cap = 0;
		unsigned long n = 0;
		while (getline(&line, &cap, in) > 0) {
			if (logf)
				fputs(line, logf);
			/* Kbuild prints one "  CC  file" (or LD, AR, ...) per step. */
			if (pr && line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
				n++;
				progress_update(pr, expected_steps && n > expected_steps ? expected_steps : n);
			}
		}
		free(line);
		fclose(in);
		rc = finish_command(&cp);
		if (steps)
			*steps = n;
	}
	if (logf)
		fclose(logf);
	free(objarg);
	free(jobs);
	free(ccache_dir);
	free(ccache_base);
	free(cc);
	free(arch);
	free(cross);
	return rc;
}

/* Writes the configuration remembered under KEY to OBJ's .config, unless
 * it holds that text already (so kbuild's syncconfig has nothing to redo),
 * and says so in LOG. 1 when there was one, 0 when nothing is remembered,
 * -1 with err. */
static int configure_remembered(const char *key, const char *obj, const char *log, struct strbuf *err)
{
	char *memo = config_memo_load(key);
	if (!memo)
		return 0;
	char *dotconfig = xasprintf("%s/.config", obj);
	char *now = read_file(dotconfig, NULL);
	bool unchanged = now && !strcmp(now, memo);
	int rc = 1;
	if (!unchanged && write_file_str(dotconfig, memo) < 0) {
		strbuf_addf(err, "cannot write %s: %s", dotconfig, strerror(errno));
		rc = -1;
	}
	FILE *f = rc == 1 ? fopen(log, "a") : NULL;
	if (f) {
		fprintf(f, "oomlab: configuration remembered (%.12s)%s\n", key,
			unchanged ? ", .config unchanged" : "");
		fclose(f);
	}
	free(now);
	free(dotconfig);
	free(memo);
	return rc;
}

/* V's .config in OBJ: the one remembered for its key (config-memo.h), else
 * make tinyconfig, the fragments merged over it, make olddefconfig, and a
 * check that every option wanted survived; then remembered. */
static int configure(const char *tree, const char *obj, const char *log, const struct variant *v,
		     const struct kconfig *base, struct progress *pr, struct strbuf *err)
{
	progress_step(pr, "configuring", 0);
	struct kconfig wanted = KCONFIG_INIT, config = KCONFIG_INIT, result = KCONFIG_INIT;
	char *dotconfig = xasprintf("%s/.config", obj);
	char key[65];
	int rc = -1;
	if (variant_config(v, base, &wanted, err) < 0 ||
	    config_memo_key(&v->target.platform, &wanted, tree, key, err) < 0)
		goto out;
	int remembered = configure_remembered(key, obj, log, err);
	if (remembered != 0) {
		rc = remembered < 0 ? -1 : 0;
		goto out;
	}
	if (run_make(tree, obj, &v->target.platform, log, "tinyconfig", pr, 0, NULL) != 0) {
		strbuf_addf(err, "make tinyconfig failed (see %s)", log);
		goto out;
	}
	if (kconfig_load(&config, dotconfig, err) < 0)
		goto out;
	kconfig_merge(&config, &wanted);
	char *text = kconfig_format(&config);
	if (write_file_str(dotconfig, text) < 0) {
		strbuf_addf(err, "cannot write %s: %s", dotconfig, strerror(errno));
		free(text);
		goto out;
	}
	free(text);
	if (run_make(tree, obj, &v->target.platform, log, "olddefconfig", pr, 0, NULL) != 0) {
		strbuf_addf(err, "make olddefconfig failed (see %s)", log);
		goto out;
	}
	if (kconfig_load(&result, dotconfig, err) < 0)
		goto out;
	struct strbuf lost = STRBUF_INIT;
	size_t misses = kconfig_check(&wanted, &result, &lost);
	if (misses) {
		char *first = xstrndup(lost.buf, strcspn(lost.buf, "\n"));
		strbuf_addf(err, "%zu required option%s did not survive olddefconfig; first: %s "
			    "(all of them in %s)", misses, misses == 1 ? "" : "s", first, log);
		FILE *f = fopen(log, "a");
		if (f) {
			fprintf(f, "oomlab: options lost by olddefconfig:\n%s", lost.buf);
			fclose(f);
		}
		free(first);
	} else {
		rc = 0;
		config_memo_store(key, dotconfig);
	}
	strbuf_release(&lost);
out:
	free(dotconfig);
	kconfig_clear(&wanted);
	kconfig_clear(&config);
	kconfig_clear(&result);
	return rc;
}

static int stage_copy(const char *from, const char *dir, const char *name, struct strbuf *err)
{
	char *to = xasprintf("%s/%s", dir, name);
	int rc = copy_file(from, to);
	if (rc < 0)
		strbuf_addf(err, "cannot copy %s to %s: %s", from, to, strerror(errno));
	free(to);
	return rc;
}

/* What a cache entry holds besides its meta: paths, NULL when there is none. */
struct entry_files {
	const char *bzimage, *vmlinux, *config, *log;
	const char *image_name;  /* the image's name in the entry: bzImage, Image */
};

static int install_into_cache(const struct variant *v, const struct entry_files *f,
			      const char *staging, bool lab_patched, double seconds, struct strbuf *err)
{
	int rc = stage_copy(f->bzimage, staging, f->image_name, err);
	if (rc == 0 && f->log)
		rc = stage_copy(f->log, staging, "build.log", err);
	if (rc == 0 && f->vmlinux)
		rc = stage_copy(f->vmlinux, staging, "vmlinux", err);
	if (rc == 0 && f->config)
		rc = stage_copy(f->config, staging, "config", err);
	if (rc < 0)
		return -1;

	struct strbuf list = STRBUF_INIT, meta = STRBUF_INIT;
	for (size_t i = 0; i < v->patches.n; i++) {
		const char *name = strrchr(v->patches.items[i], '/');
		strbuf_addf(&list, "%s\n", name ? name + 1 : v->patches.items[i]);
	}
	/* the lab's patch by its path in the checkout: kernel_has_lab_patch() looks for it */
	if (lab_patched)
		strbuf_addf(&list, "%s\n", arch_facts(v->target.platform.arch)->lab_patch);
	char *source = kernel_source_describe(&v->source);
	char *platform = platform_name(&v->target.platform);
	strbuf_addf(&meta, "variant=%s\nhash=%s\nsource=%s\ncmdline=%s\nbuild_seconds=%.0f\nbuilt=%ld\n"
		    "platform=%s\n", v->name, v->hash, source, v->cmdline, seconds, (long)time(NULL),
		    platform);
	free(platform);
	free(source);
	char *list_path = xasprintf("%s/patches", staging);
	char *meta_path = xasprintf("%s/meta", staging);
	rc = write_file_str(list_path, list.buf ? list.buf : "");
	if (rc == 0)
		rc = write_file_str(meta_path, meta.buf);
	if (rc < 0)
		strbuf_addf(err, "cannot write into %s: %s", staging, strerror(errno));
	free(list_path);
	free(meta_path);
	strbuf_release(&list);
	strbuf_release(&meta);
	if (rc < 0)
		return -1;

	char *final = kernel_cache_dir(v);
	if (rename(staging, final) < 0 && !path_exists(final)) {
		strbuf_addf(err, "cannot move %s to %s: %s", staging, final, strerror(errno));
		rc = -1;
	}
	free(final);
	return rc;
}

static int install_built(const struct variant *v, const char *obj, const char *staging,
			 const char *log, bool lab_patched, double seconds, struct strbuf *err)
{
	char *bz = xasprintf("%s/%s", obj, build_target_image(&v->target));
	char *vmlinux = xasprintf("%s/vmlinux", obj);
	char *config = xasprintf("%s/.config", obj);
	const struct entry_files f = { .bzimage = bz, .vmlinux = vmlinux, .config = config, .log = log,
				       .image_name = arch_facts(v->target.platform.arch)->cached_image };
	int rc = install_into_cache(v, &f, staging, lab_patched, seconds, err);
	free(bz);
	free(vmlinux);
	free(config);
	return rc;
}

/* Each target's object folder has its own length: "cold-build-steps", "cold-build-steps-obj-debug". */
static char *steps_path(const char *ws, const struct build_target *t)
{
	char *obj = build_target_objdir(t);
	char *path = !strcmp(obj, "obj") ? xasprintf("%s/cold-build-steps", ws)
					 : xasprintf("%s/cold-build-steps-%s", ws, obj);
	free(obj);
	return path;
}

static unsigned long remembered_steps(const char *ws, const struct build_target *t)
{
	char *path = steps_path(ws, t);
	char *text = read_file(path, NULL);
	unsigned long n = cold_build_steps(t);
	if (text)
		parse_ulong(trim(text), &n);
	free(text);
	free(path);
	return n;
}

static void remember_steps(const char *ws, const struct build_target *t, unsigned long steps)
{
	/* Only a build that compiled most of the tree tells how long a cold one is. */
	if (steps < cold_build_steps(t) / 2)
		return;
	char *path = steps_path(ws, t);
	char *text = xasprintf("%lu\n", steps);
	write_file_str(path, text);
	free(text);
	free(path);
}

/*
 * A staging folder ".tmp-HASH-PID" whose process is gone belongs to a build
 * that was killed: remove it. Builds of other sources hold other locks and
 * stage beside ours, so a living process's folder stays.
 */
static void remove_stale_staging(const char *kernels)
{
	DIR *d = opendir(kernels);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!starts_with(de->d_name, ".tmp-"))
			continue;
		const char *dash = strrchr(de->d_name, '-');
		unsigned long pid = 0;
		if (dash && parse_ulong(dash + 1, &pid) && pid > 0 && (pid_t)pid != getpid() &&
		    (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;
		char *path = xasprintf("%s/%s", kernels, de->d_name);
		remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
}

/*
 * V's patches, then its platform's lab patch, into TREE. The lab's patch
 * fits the kernels of its time; a tree it does not fit (an older kernel of
 * the user's) builds without it, said in ERR's place on the terminal, and
 * boots the kernel's own way (apic-timer.h). *LAB_PATCHED says which.
 */
static int apply_patches(const struct variant *v, const char *tree, const char *state,
			 bool *lab_patched, struct strbuf *err)
{
	*lab_patched = false;
	if (!v->platform_patch)
		return tree_apply_patches(tree, state, &v->patches, err);
	struct strbuf why = STRBUF_INIT;
	int rc = tree_apply_patches_then(tree, state, &v->patches, v->platform_patch, lab_patched, &why,
					 err);
	if (rc == 0 && !*lab_patched)
		note("kernel %s: built without the lab's patch (%s), so its boot calibrates the APIC timer",
		     v->name, why.buf);
	strbuf_release(&why);
	return rc;
}

/*
 * FN on V's tree in workspace WS, the caller holding its lock: what a killed
 * build left applied is undone, the source brought up to date, V's patches
 * and the platform's applied (*LAB_PATCHED: whether the platform's were,
 * may be NULL); after FN the shared tree goes back to pristine whatever
 * happened.
 */
static int with_patched_tree(const struct variant *v, const char *ws, struct progress *pr,
			     int (*fn)(const char *tree, const char *ws, void *arg, struct strbuf *err),
			     void *arg, bool *lab_patched, struct strbuf *err)
{
	bool patched;
	char *tree = xasprintf("%s/" WORKSPACE_SRC, ws), *state = xasprintf("%s/applied", ws);
	int rc = -1;
	if (!is_dir(tree))
		remove_tree(state);
	if (tree_restore(tree, state, err) < 0)
		goto out;
	if (!is_dir(tree) && check_disk_space(ws, MIN_FREE_BYTES_COLD, err) < 0)
		goto out;
	if (kernel_source_prepare(&v->source, ws, tree, pr, err) < 0 ||
	    check_disk_space(ws, MIN_FREE_BYTES_WARM, err) < 0)
		goto out;
	if (v->patches.n || v->platform_patch)
		progress_step(pr, "applying patches", 0);
	if (apply_patches(v, tree, state, &patched, err) == 0)
		rc = fn(tree, ws, arg, err);
	if (lab_patched)
		*lab_patched = patched;
	if (tree_restore(tree, state, err) < 0)
		rc = -1;
out:
	free(tree);
	free(state);
	return rc;
}

struct compile {
	const struct variant *v;
	const struct kconfig *base;
	const char *obj, *log;
	struct progress *pr;
};

/* Configures and compiles V in the patched TREE into its object folder. */
static int compile_in_tree(const char *tree, const char *ws, void *arg, struct strbuf *err)
{
	const struct compile *c = arg;
	if (configure(tree, c->obj, c->log, c->v, c->base, c->pr, err) < 0)
		return -1;
	/* A tree that was built before rebuilds only what changed: its length is unknown. */
	char *vmlinux = xasprintf("%s/vmlinux", c->obj);
	unsigned long steps = 0, expected = path_exists(vmlinux) ? 0 : remembered_steps(ws, &c->v->target);
	free(vmlinux);
	progress_step(c->pr, "compiling", expected);
	int status = run_make(tree, c->obj, &c->v->target.platform, c->log,
			      arch_facts(c->v->target.platform.arch)->make_target, c->pr, expected, &steps);
	if (status != 0) {
		char *tail = kbuild_log_tail(c->log);
		strbuf_addf(err, "the kernel build failed (status %d): %s (full log: %s)", status, tail,
			    c->log);
		free(tail);
		return -1;
	}
	remember_steps(ws, &c->v->target, steps);
	const char *carried = arch_facts(c->v->target.platform.arch)->compressed_dir;
	if (carried) {
		char *image = xasprintf("%s/%s", c->obj, build_target_image(&c->v->target));
		char *compressed = xasprintf("%s/%s", c->obj, carried);
		int rc = kbuild_check_payload(image, compressed, err);
		free(image);
		free(compressed);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/*
 * A companion's first build (VARIANT+debug, VARIANT+test) starts from a copy
 * of its variant's objects when they are there: kbuild keeps a dependency on
 * each configuration option a file uses, so it rebuilds what the
 * companion's options change (and what the tree changed since), not every
 * file. A copy that fails leaves a cold build, as before.
 */
static void seed_companion_objects(const char *ws, const struct build_target *t, const char *obj,
				   struct progress *pr)
{
	struct build_target own = { .companion = BUILD_OWN, .platform = t->platform };
	char *own_dir = build_target_objdir(&own);
	char *from = xasprintf("%s/%s", ws, own_dir);
	char *config = xasprintf("%s/.config", from);
	char *tmp = xasprintf("%s.seed-%d", obj, (int)getpid());
	if (t->companion != BUILD_OWN && !is_dir(obj) && path_exists(config)) {
		progress_step(pr, "copying the variant's objects", 0);
		const char *argv[] = { "cp", "-a", "--reflink=auto", from, tmp, NULL };
		struct child_process cp = { .argv = argv, .out_path = "/dev/null", .err_to_out = true };
		if (run_command(&cp) != 0 || rename(tmp, obj) < 0)
			remove_tree(tmp);
	}
	free(own_dir);
	free(from);
	free(config);
	free(tmp);
}

static int build_locked(const struct variant *v, const struct kconfig *base, const char *ws,
			struct progress *pr, struct strbuf *err)
{
	/* One object folder per target, so a debug build does not undo the plain one's objects. */
	char *objdir = build_target_objdir(&v->target);
	char *obj = xasprintf("%s/%s", ws, objdir);
	free(objdir);
	char *kernels = xasprintf("%s/kernels", cache_root());
	char *staging = xasprintf("%s/.tmp-%s-%d", kernels, v->hash, (int)getpid());
	/* The log lives beside the cache entry so a failed build keeps it. */
	char *log = xasprintf("%s/build-%s.log", kernels, v->name);
	double start = now_monotonic();
	int rc = -1;

	seed_companion_objects(ws, &v->target, obj, pr);
	mkdir_p(obj, 0755);
	remove_stale_staging(kernels);
	unlink(log);
	if (mkdir_p(staging, 0755) < 0) {
		strbuf_addf(err, "cannot create %s: %s", staging, strerror(errno));
		goto out;
	}
	struct compile c = { .v = v, .base = base, .obj = obj, .log = log, .pr = pr };
	bool lab_patched = false;
	rc = with_patched_tree(v, ws, pr, compile_in_tree, &c, &lab_patched, err);
	if (rc == 0)
		rc = install_built(v, obj, staging, log, lab_patched, now_monotonic() - start, err);
	if (rc == 0)
		unlink(log);
out:
	/* Never a half-built kernel in the cache; the log of a failure stays for the user. */
	if (rc < 0 || path_exists(staging))
		remove_tree(staging);
	free(obj);
	free(kernels);
	free(staging);
	free(log);
	return rc;
}

/* A prebuilt kernel goes into the cache as it is, with the configuration it was checked by. */
static int install_prebuilt(const struct variant *v, struct strbuf *err)
{
	char *kernels = xasprintf("%s/kernels", cache_root());
	char *staging = xasprintf("%s/.tmp-%s-%d", kernels, v->hash, (int)getpid());
	char *config = xasprintf("%s/config", staging);
	mkdir_p(kernels, 0755);
	int rc = mkdir_p(staging, 0755) < 0 || write_file_str(config, v->source.config) < 0 ? -1 : 0;
	if (rc < 0) {
		strbuf_addf(err, "cannot write %s: %s", config, strerror(errno));
	} else {
		const struct entry_files f = { .bzimage = v->source.path, .vmlinux = v->source.vmlinux,
					       .image_name = "bzImage" };
		rc = install_into_cache(v, &f, staging, false, 0, err);
	}
	if (rc == 0)
		note("kernel %s: the prebuilt %s is in the cache (%.12s)", v->name, v->source.path, v->hash);
	if (path_exists(staging))
		remove_tree(staging);
	free(config);
	free(staging);
	free(kernels);
	return rc;
}

char *kbuild_log_tail(const char *log)
{
	char *text = read_file(log, NULL);
	if (!text)
		return xstrdup("");
	size_t len = strlen(text);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	char *nl = strrchr(text, '\n');
	char *last = xstrdup(nl ? nl + 1 : text);
	free(text);
	return last;
}

int kbuild_make(const char *tree, const char *obj, const struct platform *p, const char *log,
		const char *target)
{
	return run_make(tree, obj, p, log, target, NULL, 0, NULL);
}

int kbuild_with_tree(const struct variant *v, struct progress *pr,
		     int (*fn)(const char *tree, const char *ws, void *arg, struct strbuf *err),
		     void *arg, struct strbuf *err)
{
	if (!kernel_source_builds(&v->source)) {
		strbuf_addf(err, "variant %s is a prebuilt kernel: it has no source tree", v->name);
		return -1;
	}
	char *ws = kernel_source_workspace(&v->source);
	mkdir_p(ws, 0755);
	char *lock_path = xasprintf("%s/lock", ws);
	int rc = -1, lock = take_lock(lock_path, err);
	if (lock >= 0) {
		rc = with_patched_tree(v, ws, pr, fn, arg, NULL, err);
		close(lock);
	}
	free(lock_path);
	free(ws);
	return rc;
}

int kernel_build(const struct variant *v, const struct kconfig *base, struct strbuf *err)
{
	if (kernel_is_cached(v))
		return 0;
	if (!kernel_source_builds(&v->source))
		return install_prebuilt(v, err);
	if (check_tools(&v->target.platform, err) < 0)
		return -1;
	char *ws = kernel_source_workspace(&v->source);
	char *kernels = xasprintf("%s/kernels", cache_root());
	mkdir_p(ws, 0755);
	mkdir_p(kernels, 0755);
	/* what a workspace of the cache is for, for whoever finds it */
	char *origin = xasprintf("%s/origin", ws), *described = kernel_source_describe(&v->source);
	char *line = xasprintf("%s\n", described);
	if (v->source.kind != SOURCE_DEBIAN)
		write_file_str(origin, line);
	free(line);
	free(described);
	free(origin);
	char *lock_path = xasprintf("%s/lock", ws);
	int lock = take_lock(lock_path, err);
	int rc = -1;
	if (lock >= 0) {
		/* Someone may have built it while we waited for the lock. */
		if (kernel_is_cached(v)) {
			rc = 0;
		} else {
			struct progress pr;
			char label[128];
			snprintf(label, sizeof(label), "kernel %s", v->name);
			progress_begin(&pr, label);
			rc = build_locked(v, base, ws, &pr, err);
			char took[32];
			format_duration(took, sizeof(took), now_monotonic() - pr.start);
			if (rc == 0)
				progress_end(&pr, "built in %s (%.12s)", took, v->hash);
			else
				progress_end(&pr, "failed after %s", took);
		}
		close(lock);
	}
	free(lock_path);
	free(kernels);
	free(ws);
	return rc;
}
