/* Unit tests: variant sources (lab/kernel/kernel-source.c), the content hash of a
 * tree (tree-hash.c), the mirror a tree is built from (tree-mirror.c), git
 * exports (git-tree.c), prebuilt images (kernel-image.c) and the lab's
 * required options (kernels/required.config against base.config). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lzma.h>
#include <zlib.h>

#include "lab/kernel/git-tree.h"
#include "lab/kernel/kconfig.h"
#include "lab/kernel/kernel-image.h"
#include "lab/kernel/kernel-source.h"
#include "lab/kernel/tree-hash.h"
#include "lab/kernel/tree-mirror.h"
#include "common/paths.h"
#include "common/run-command.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-source-XXXXXX";

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void put(const char *rel, const char *text)
{
	scratch_put(root, rel, text);
}

SCRATCH_ROOT_FIXTURES(root)

static void expect_parse_error(const char *text, const char *needle)
{
	struct kernel_source s;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kernel_source_parse(&s, "/v/x", "/v/x/source", text, &err), -1);
	if (!strstr(err.buf, needle))
		fail_msg("error '%s' lacks '%s'", err.buf, needle);
	assert_null(strchr(err.buf, '\n'));
	kernel_source_clear(&s);
	strbuf_release(&err);
}

/* The one line of a `source` file; paths relative to the variant's folder. */
static void parses_sources(void **state)
{
	(void)state;
	struct kernel_source s;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kernel_source_parse(&s, "/v/x", "/v/x/source", "# mine\n\ntree ../linux\n", &err), 0);
	assert_int_equal(s.kind, SOURCE_TREE);
	assert_string_equal(s.path, "/v/x/../linux");
	assert_int_equal(s.line, 3);
	kernel_source_clear(&s);
	assert_int_equal(kernel_source_parse(&s, "/v/x", "/v/x/source", "git /src/linux v6.12.1\n", &err), 0);
	assert_int_equal(s.kind, SOURCE_GIT);
	assert_string_equal(s.path, "/src/linux");
	assert_string_equal(s.ref, "v6.12.1");
	kernel_source_clear(&s);
	assert_int_equal(kernel_source_parse(&s, "/v/x", "/v/x/source", "bzimage bzImage vmlinux", &err), 0);
	assert_int_equal(s.kind, SOURCE_BZIMAGE);
	assert_string_equal(s.path, "/v/x/bzImage");
	assert_string_equal(s.vmlinux, "/v/x/vmlinux");
	kernel_source_clear(&s);
	expect_parse_error("svn x\n", "/v/x/source:1: wants 'tree DIR', 'git DIR REF' or 'bzimage FILE [VMLINUX]', not 'svn x'");
	expect_parse_error("git /src/linux\n", "/v/x/source:1:");
	expect_parse_error("tree a b\n", "not 'tree a b'");
	expect_parse_error("# only\n", "/v/x/source: empty");
	expect_parse_error("tree a\n# c\ntree b\n", "/v/x/source:3: a source is one line (the first was line 1)");
	strbuf_release(&err);
}

static void expect_load_error(const char *variant, const char *needle)
{
	struct kernel_source s;
	struct strbuf err = STRBUF_INIT;
	char *dir = at(variant);
	assert_int_equal(kernel_source_load(&s, dir, &err), -1);
	if (!strstr(err.buf, needle))
		fail_msg("error '%s' lacks '%s'", err.buf, needle);
	assert_null(strchr(err.buf, '\n'));
	kernel_source_clear(&s);
	strbuf_release(&err);
	free(dir);
}

static void put_in(const char *dir, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", dir, rel);
	put(p, text);
	free(p);
}

/* A small tree that looks like a kernel's top. */
static void make_kernel_tree(const char *rel)
{
	put_in(rel, "Makefile", "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n");
	put_in(rel, "Kconfig", "mainmenu \"x\"\n");
	put_in(rel, "arch/x86/Kconfig", "config X86\n");
	put_in(rel, "mm/slub.c", "int slub;\n");
}

/* What a source names is checked when it loads: one line naming the file and line. */
static void checks_what_it_names(void **state)
{
	(void)state;
	char *cache = at("cache");
	setenv("OOMLAB_CACHE", cache, 1);
	put("v/missing/source", "tree ../nowhere\n");
	expect_load_error("v/missing", "v/missing/source:1: tree ");
	expect_load_error("v/missing", "nowhere: No such file or directory");
	put("notkernel/README", "x\n");
	put("v/notkernel/source", "\ntree ../../notkernel\n");
	expect_load_error("v/notkernel", "v/notkernel/source:2: tree ");
	expect_load_error("v/notkernel", "not a kernel source tree");
	make_kernel_tree("dirty");
	put("dirty/.config", "CONFIG_X=y\n");
	put("v/dirty/source", "tree ../../dirty\n");
	expect_load_error("v/dirty", "not clean: it has .config");
	put("v/noimage/source", "bzimage /nonexistent/bzImage\n");
	expect_load_error("v/noimage", "v/noimage/source:1: bzimage /nonexistent/bzImage: No such file");
	put("v/notimage/source", "bzimage ../../notkernel/README\n");
	expect_load_error("v/notimage", "not a bzImage");

	make_kernel_tree("linux");
	put("v/good/source", "tree ../../linux\n");
	struct kernel_source s;
	struct strbuf err = STRBUF_INIT;
	char *dir = at("v/good"), *real = at("linux");
	assert_int_equal(kernel_source_load(&s, dir, &err), 0);
	assert_int_equal(s.kind, SOURCE_TREE);
	assert_string_equal(s.path, real);
	assert_true(starts_with(s.id, "tree "));
	char *ws = kernel_source_workspace(&s);
	assert_true(starts_with(ws, cache));
	assert_non_null(strstr(ws, "/tree-"));
	char *desc = kernel_source_describe(&s);
	assert_true(starts_with(desc, "tree "));
	assert_non_null(strstr(desc, "(content "));
	free(desc);
	free(ws);
	kernel_source_clear(&s);
	strbuf_release(&err);
	free(dir);
	free(real);
	free(cache);
	unsetenv("OOMLAB_CACHE");
}

static void hash_of(const char *rel, const char *cache, char hex[65])
{
	char *dir = at(rel), *stat_cache = cache ? at(cache) : NULL;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_hash(dir, stat_cache, hex, &err), 0);
	free(dir);
	free(stat_cache);
	strbuf_release(&err);
}

/* The same files hash the same (wherever they are, whatever .git holds);
 * one changed byte, a mode or a link target changes the hash. */
static void hashes_content(void **state)
{
	(void)state;
	char a[65], b[65], c[65];
	make_kernel_tree("h1");
	make_kernel_tree("h2");
	hash_of("h1", NULL, a);
	hash_of("h2", NULL, b);
	assert_string_equal(a, b);
	put("h2/.git/HEAD", "ref: refs/heads/main\n");
	hash_of("h2", NULL, b);
	assert_string_equal(a, b);
	put("h2/mm/slub.c", "int slub = 1;\n");
	hash_of("h2", NULL, b);
	assert_string_not_equal(a, b);
	put("h2/mm/slub.c", "int slub;\n");
	hash_of("h2", NULL, b);
	assert_string_equal(a, b);
	char *p = at("h2/Kconfig");
	chmod(p, 0755);
	hash_of("h2", NULL, b);
	assert_string_not_equal(a, b);
	chmod(p, 0644);
	free(p);
	p = at("h2/link");
	assert_int_equal(symlink("mm", p), 0);
	hash_of("h2", NULL, b);
	assert_string_not_equal(a, b);
	unlink(p);
	free(p);

	/* the stat cache: a second hash takes remembered file hashes (of files
	 * settled for two seconds), and still sees a changed file */
	char *slub = at("h1/mm/slub.c");
	hash_of("h1", "h1.stat", a);
	char *cached = at("h1.stat");
	char *text = read_file(cached, NULL);
	assert_true(!text || !strstr(text, " mm/slub.c\n"));	/* too young to vouch for */
	free(text);
	usleep(2100 * 1000);
	hash_of("h1", "h1.stat", a);
	text = read_file(cached, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, " mm/slub.c\n"));
	free(text);
	hash_of("h1", "h1.stat", b);
	assert_string_equal(a, b);
	/* the remembered hash is what counts while the stat is the same: a
	 * forged one shows in the tree's hash */
	text = read_file(cached, NULL);
	char *line = strstr(text, " mm/slub.c\n");
	while (line > text && line[-1] != '\n')
		line--;
	memset(line, '0', 64);
	write_file_str(cached, text);
	free(text);
	hash_of("h1", "h1.stat", b);
	assert_string_not_equal(a, b);
	put("h1/mm/slub.c", "int slub = 2;\n");
	hash_of("h1", "h1.stat", c);
	assert_string_not_equal(a, c);
	free(cached);
	free(slub);
}

static ino_t inode_of(const char *rel)
{
	char *p = at(rel);
	struct stat st;
	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_ino;
}

/* The mirror: links at first, the tree's edits show, a private file with
 * the same bytes stays (a patch put back), others are fresh copies; the
 * tree is never written. */
static void mirrors_without_writing(void **state)
{
	(void)state;
	make_kernel_tree("m");
	put("m/.git/config", "[core]\n");
	char *src = at("m"), *dest = at("mirror");
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(tree_mirror(src, dest, &err), 0);
	assert_int_equal(inode_of("mirror/mm/slub.c"), inode_of("m/mm/slub.c"));
	char *git = at("mirror/.git");
	assert_false(path_exists(git));
	free(git);

	/* a patched file put back: private, the same bytes: kept as it is */
	char *mslub = at("mirror/mm/slub.c");
	assert_int_equal(copy_file(mslub, mslub), 0);
	ino_t private = inode_of("mirror/mm/slub.c");
	assert_int_not_equal(private, inode_of("m/mm/slub.c"));
	assert_int_equal(tree_mirror(src, dest, &err), 0);
	assert_int_equal(inode_of("mirror/mm/slub.c"), private);

	/* the tree's file replaced (an editor's new inode): a fresh copy, with its bytes */
	char *slub = at("m/mm/slub.c");
	assert_int_equal(write_file_str(slub, "int slub = 3;\n"), 0);
	assert_int_equal(tree_mirror(src, dest, &err), 0);
	char *text = read_file(mslub, NULL);
	assert_string_equal(text, "int slub = 3;\n");
	free(text);
	/* a file gone from the tree goes from the mirror; a new one is linked */
	put("m/mm/new.c", "int n;\n");
	char *kconfig = at("m/Kconfig");
	unlink(kconfig);
	assert_int_equal(tree_mirror(src, dest, &err), 0);
	assert_int_equal(inode_of("mirror/mm/new.c"), inode_of("m/mm/new.c"));
	char *mk = at("mirror/Kconfig");
	assert_false(path_exists(mk));
	/* nothing of the tree changed: what was written there is all there is */
	text = read_file(slub, NULL);
	assert_string_equal(text, "int slub = 3;\n");
	free(text);
	free(mk);
	free(kconfig);
	free(slub);
	free(mslub);
	free(src);
	free(dest);
	strbuf_release(&err);
}

static void sh(const char *script)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct strbuf out = STRBUF_INIT;
	if (capture_command(argv, root, &out) != 0)
		fail_msg("%s: %s", script, out.buf);
	strbuf_release(&out);
}

/* git: REF's tree, read-only; the export follows the tree id, in parts. */
static void exports_git_trees(void **state)
{
	(void)state;
	if (!have_program("git"))
		skip();
	make_kernel_tree("g");
	sh("cd g && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && "
	   "git tag one && echo 'int slub = 4;' > mm/slub.c && git rm -q Kconfig && "
	   "echo 'config X' > Kconfig.new && git add -A && git -c user.name=t -c user.email=t@t commit -qm two");
	char *repo = at("g"), *dest = at("export"), *state_file = at("export.tree");
	char *tree1, *commit1, *tree2, *commit2;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(git_resolve(repo, "one", &tree1, &commit1, &err), 0);
	assert_int_equal(git_resolve(repo, "HEAD", &tree2, &commit2, &err), 0);
	assert_string_not_equal(tree1, tree2);
	assert_int_equal(strlen(tree1), 40);
	assert_true(git_tree_has(repo, tree1, "Kconfig"));
	assert_false(git_tree_has(repo, tree2, "Kconfig"));
	char *none, *no_commit;
	assert_int_equal(git_resolve(repo, "no-such-ref", &none, &no_commit, &err), -1);
	assert_non_null(strstr(err.buf, "no ref 'no-such-ref'"));
	assert_null(none);

	assert_int_equal(git_tree_export(repo, tree1, dest, state_file, &err), 0);
	char *slub = at("export/mm/slub.c"), *kconfig = at("export/Kconfig"), *added = at("export/Kconfig.new");
	char *text = read_file(slub, NULL);
	assert_string_equal(text, "int slub;\n");
	free(text);
	assert_true(path_exists(kconfig));
	text = read_file(state_file, NULL);
	assert_string_equal(text, tree1);
	free(text);
	/* the next tree in parts: changed, deleted and added files */
	assert_int_equal(git_tree_export(repo, tree2, dest, state_file, &err), 0);
	text = read_file(slub, NULL);
	assert_string_equal(text, "int slub = 4;\n");
	free(text);
	assert_false(path_exists(kconfig));
	assert_true(path_exists(added));
	/* the repository has no worktree of ours and no index change */
	char *worktrees = at("g/.git/worktrees");
	assert_false(path_exists(worktrees));
	sh("cd g && test -z \"$(git status --porcelain)\"");
	free(worktrees);
	free(slub);
	free(kconfig);
	free(added);
	free(tree1);
	free(tree2);
	free(commit1);
	free(commit2);
	free(repo);
	free(dest);
	free(state_file);
	strbuf_release(&err);
}

/* A bzImage-shaped file: the boot header, and a payload compressed with
 * xz (or gzip) holding a "kernel" with the IKCONFIG markers. */
static size_t gzip_into(const void *data, size_t len, unsigned char *out, size_t cap)
{
	z_stream z = { 0 };
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = z.total_out;
	deflateEnd(&z);
	return n;
}

static void write_image(const char *rel, const char *config, bool xz)
{
	static unsigned char kernel[1 << 16], payload[1 << 16], image[1 << 17];
	size_t k = 0;
	memcpy(kernel + k, "\x7f" "ELF padding", 12);
	k += 12;
	if (config) {
		memcpy(kernel + k, "IKCFG_ST", 8);
		k += 8;
		k += gzip_into(config, strlen(config), kernel + k, sizeof(kernel) - k);
		memcpy(kernel + k, "IKCFG_ED", 8);
		k += 8;
	}
	size_t n = 0;
	if (xz)
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, kernel, k, payload, &n,
							 sizeof(payload)), LZMA_OK);
	else
		n = gzip_into(kernel, k, payload, sizeof(payload));
	memset(image, 0, sizeof(image));
	image[0x1f1] = 2;			/* setup sectors: protected mode code at 3 * 512 */
	memcpy(image + 0x202, "HdrS", 4);
	image[0x206] = 0x0f;			/* protocol 2.15 */
	image[0x207] = 0x02;
	uint32_t off = 100, len = (uint32_t)n;
	memcpy(image + 0x248, &off, 4);
	memcpy(image + 0x24c, &len, 4);
	memcpy(image + 3 * 512 + off, payload, n);
	size_t total = 3 * 512 + off + n + 4;	/* the kernel's size follows, as in a real one */
	char *path = at(rel);
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	assert_int_equal(write_file_atomic(path, image, total), 0);
	free(dir);
	free(path);
}

static void reads_images(void **state)
{
	(void)state;
	static const char config[] = "CONFIG_64BIT=y\nCONFIG_ANDROID_BINDER_IPC=y\n";
	struct strbuf err = STRBUF_INIT;
	write_image("img/xz", config, true);
	write_image("img/gz", config, false);
	write_image("img/bare", NULL, true);
	char *xz = at("img/xz"), *gz = at("img/gz"), *bare = at("img/bare"), *notone = at("m/mm/new.c");
	assert_int_equal(kernel_image_check(xz, &err), 0);
	char *text = kernel_image_config(xz, &err);
	assert_non_null(text);
	assert_string_equal(text, config);
	free(text);
	text = kernel_image_config(gz, &err);
	assert_non_null(text);
	assert_string_equal(text, config);
	free(text);
	assert_null(kernel_image_config(bare, &err));
	assert_non_null(strstr(err.buf, "built without CONFIG_IKCONFIG=y"));
	strbuf_reset(&err);
	assert_int_equal(kernel_image_check(notone, &err), -1);
	assert_non_null(strstr(err.buf, "not a bzImage"));
	free(xz);
	free(gz);
	free(bare);
	free(notone);
	strbuf_release(&err);
}

/* A prebuilt kernel without binder is refused, its missing options named;
 * one without IKCONFIG is checked against the config beside it. Runs with
 * the checkout's kernels/required.config. */
static void refuses_what_the_lab_cannot_use(void **state)
{
	(void)state;
	char *required = repo_path(REQUIRED_CONFIG), *base_path = repo_path("kernels/base.config");
	char *x86_path = repo_path("kernels/arch/x86_64.config");
	struct kconfig want = KCONFIG_INIT, base = KCONFIG_INIT, x86 = KCONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kconfig_load(&want, required, &err), 0);
	/* a prebuilt kernel is an x86_64 one: base.config with x86_64's fragment */
	assert_int_equal(kconfig_load(&base, base_path, &err), 0);
	assert_int_equal(kconfig_load(&x86, x86_path, &err), 0);
	kconfig_merge(&base, &x86);
	kconfig_clear(&x86);
	free(x86_path);
	/* the kernels the lab builds have everything the lab needs */
	struct strlist lacking = STRLIST_INIT;
	assert_int_equal(kconfig_lacking(&want, &base, &lacking), 0);
	/* base.config without binder: two options named */
	struct strbuf no_binder = STRBUF_INIT;
	for (size_t i = 0; i < base.n; i++)
		if (!starts_with(base.opts[i].name, "CONFIG_ANDROID_BINDER"))
			strbuf_addf(&no_binder, "%s=%s\n", base.opts[i].name, base.opts[i].value ? base.opts[i].value : "n");
	strbuf_addstr(&no_binder, "CONFIG_ANDROID_BINDERFS=m\n");
	write_image("pre/nobinder/bzImage", no_binder.buf, true);
	put("pre/v-nobinder/source", "bzimage ../nobinder/bzImage\n");
	expect_load_error("pre/v-nobinder",
			  "lacks what the lab needs (kernels/required.config says why): "
			  "CONFIG_ANDROID_BINDER_IPC, CONFIG_ANDROID_BINDERFS (is m)");
	/* no IKCONFIG, no config beside it */
	write_image("pre/bare/bzImage", NULL, true);
	put("pre/v-bare/source", "bzimage ../bare/bzImage\n");
	expect_load_error("pre/v-bare", "no configuration to check");
	/* the config beside it is read instead, and it is enough */
	struct strbuf full = STRBUF_INIT;
	for (size_t i = 0; i < base.n; i++)
		if (base.opts[i].value)
			strbuf_addf(&full, "%s=%s\n", base.opts[i].name, base.opts[i].value);
	put("pre/bare/config", full.buf);
	struct kernel_source s;
	char *dir = at("pre/v-bare"), *beside = at("pre/bare/config");
	assert_int_equal(kernel_source_load(&s, dir, &err), 0);
	assert_string_equal(s.config_origin, beside);
	assert_true(starts_with(s.id, "bzimage "));
	assert_false(kernel_source_builds(&s));
	kernel_source_clear(&s);
	free(dir);
	free(beside);
	strbuf_release(&full);
	strbuf_release(&no_binder);
	strlist_clear(&lacking);
	kconfig_clear(&want);
	kconfig_clear(&base);
	free(required);
	free(base_path);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_sources),
		cmocka_unit_test(checks_what_it_names),
		cmocka_unit_test(hashes_content),
		cmocka_unit_test(mirrors_without_writing),
		cmocka_unit_test(exports_git_trees),
		cmocka_unit_test(reads_images),
		cmocka_unit_test(refuses_what_the_lab_cannot_use),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
