/* Unit tests: the user's folders in the guest (lab/machine/guest-files.h): what
 * they hold, their hash, the machine of their ELFs and the libraries of
 * the dynamically linked ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/run-command.h"
#include "lab/machine/guest-files.h"
#include "tests/unit/scratch.h"

static char root[] = "/tmp/oomlab-test-guest-files-XXXXXX";
SCRATCH_ROOT_FIXTURES(root)

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void make_executable(const char *rel)
{
	char *path = at(rel);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

/* The hash of folder REL alone, which must be taken (a refused folder fails the test). */
static void hash_of(const char *rel, char hash[65], struct strbuf *err)
{
	struct guest_files f = GUEST_FILES_INIT(host_arch());
	char *dir = at(rel);
	assert_int_equal(guest_files_add(&f, dir, err), 0);
	guest_files_finish(&f);
	memcpy(hash, f.hash, 65);
	free(dir);
	guest_files_clear(&f);
}

static const struct guest_file *find(const struct guest_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->files[i].path, path))
			return &f->files[i];
	return NULL;
}

/* Every file at any depth, by its path in the folder; scripts with their interpreter. */
static void a_folder_is_walked_whole(void **state)
{
	(void)state;
	scratch_put(root, "walk/run.sh", "#!/bin/sh -e\necho hi\n");
	scratch_put(root, "walk/bin/tool", "#! /usr/bin/env python3\n");
	scratch_put(root, "walk/data/input.txt", "1 2 3\n");
	make_executable("walk/run.sh");
	make_executable("walk/bin/tool");
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	struct strbuf err = STRBUF_INIT;
	char *dir = at("walk");
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	guest_files_finish(&f);
	assert_int_equal(f.n, 3);
	/* sorted by path */
	assert_string_equal(f.files[0].path, "bin/tool");
	assert_string_equal(f.files[1].path, "data/input.txt");
	assert_string_equal(f.files[2].path, "run.sh");
	assert_true(f.files[0].executable);
	assert_false(f.files[1].executable);
	assert_string_equal(f.files[2].interpreter, "/bin/sh");
	assert_string_equal(f.files[0].interpreter, "/usr/bin/env");
	assert_null(f.files[1].interpreter);
	char *p = guest_files_path("bin/tool");
	assert_string_equal(p, "/oomlab/files/bin/tool");
	free(p);
	json_t *j = guest_files_json(&f);
	assert_string_equal(json_string_value(json_object_get(j, "hash")), f.hash);
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "dirs"), 0)), dir);
	json_decref(j);
	free(dir);
	guest_files_clear(&f);
	strbuf_release(&err);
}

/* The hash is of the contents: a changed byte or mode changes it, another
 * folder with the same contents has the same. */
static void the_hash_follows_the_contents(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	char first[65], again[65], copy[65], changed[65], mode[65], renamed[65];
	scratch_put(root, "h1/prog.sh", "#!/bin/sh\necho 1\n");
	scratch_put(root, "h1/lib/data", "abc");
	scratch_put(root, "h2/prog.sh", "#!/bin/sh\necho 1\n");
	scratch_put(root, "h2/lib/data", "abc");
	hash_of("h1", first, &err);
	hash_of("h1", again, &err);
	hash_of("h2", copy, &err);
	assert_string_equal(strbuf_str(&err), "");
	assert_string_equal(first, again);
	assert_string_equal(first, copy);
	scratch_put(root, "h2/lib/data", "abd");
	hash_of("h2", changed, &err);
	assert_string_not_equal(changed, first);
	scratch_put(root, "h2/lib/data", "abc");
	make_executable("h2/prog.sh");
	hash_of("h2", mode, &err);
	assert_string_not_equal(mode, first);
	assert_string_not_equal(mode, changed);
	scratch_put(root, "h3/prog2.sh", "#!/bin/sh\necho 1\n");
	scratch_put(root, "h3/lib/data", "abc");
	hash_of("h3", renamed, &err);
	assert_string_not_equal(renamed, first);
	strbuf_release(&err);
}

/* A fake ELF for MACHINE at REL. */
static void put_elf(const char *rel, unsigned machine)
{
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_machine = (Elf64_Half)machine;
	scratch_put(root, rel, "");
	char *path = at(rel);
	assert_int_equal(write_file_atomic(path, &eh, sizeof(eh)), 0);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

/* Bad input is one line naming the file: another machine's ELF at any
 * depth, a folder that is not there, a name two folders share. */
static void bad_folders_are_refused(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	put_elf("arm/deep/er/prog", EM_AARCH64);
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	char *dir = at("arm");
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	char *want = xasprintf("%s/deep/er/prog: an ELF for aarch64, but the guest is x86_64", dir);
	if (!strstr(err.buf, want))
		fail_msg("wanted '%s' in '%s'", want, err.buf);
	assert_null(strchr(err.buf, '\n'));
	free(want);
	guest_files_clear(&f);
	/* the same ELF is fine on arm64 (a static one: no libraries to find) */
	f = GUEST_FILES_INIT(ARCH_ARM64);
	strbuf_reset(&err);
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	guest_files_clear(&f);
	free(dir);

	dir = at("nowhere");
	strbuf_reset(&err);
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	want = xasprintf("%s: no such folder", dir);
	assert_string_equal(err.buf, want);
	free(want);
	free(dir);
	guest_files_clear(&f);

	scratch_put(root, "one/bin/x", "a");
	scratch_put(root, "two/bin/x", "b");
	scratch_put(root, "two/y", "c");
	char *one = at("one"), *two = at("two");
	strbuf_reset(&err);
	assert_int_equal(guest_files_add(&f, one, &err), 0);
	assert_int_equal(guest_files_add(&f, two, &err), -1);
	assert_non_null(strstr(err.buf, "/one/bin/x and "));
	assert_non_null(strstr(err.buf, "/two/bin/x would both be /oomlab/files/bin/x in the guest"));
	free(one);
	free(two);
	guest_files_clear(&f);
	strbuf_release(&err);
}

/* A link that leaves the folder (to /etc/shadow, say) is refused; one that
 * stays inside is followed (issue 37). */
static void links_stay_inside(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	scratch_put(root, "secret", "host only\n");
	scratch_put(root, "linked/bin/prog", "#!/bin/sh\n");
	char *secret = at("secret"), *out_link = at("linked/leak"), *in_link = at("linked/alias");
	assert_int_equal(symlink("bin/prog", in_link), 0);
	struct guest_files f = GUEST_FILES_INIT(host_arch());
	char *dir = at("linked");
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	assert_non_null(find(&f, "alias"));
	guest_files_clear(&f);
	assert_int_equal(symlink(secret, out_link), 0);
	f = (struct guest_files)GUEST_FILES_INIT(host_arch());
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	char *want = xasprintf("%s: a link out of ", out_link);
	if (!strstr(err.buf, want) || !strstr(err.buf, "(to ") || !strstr(err.buf, "/secret)"))
		fail_msg("wanted '%s...(to .../secret)' in '%s'", want, err.buf);
	assert_null(strchr(err.buf, '\n'));
	free(want);
	/* a linked folder out too */
	assert_int_equal(unlink(out_link), 0);
	char *outside = at("outside-dir");
	assert_int_equal(mkdir_p(outside, 0755), 0);
	assert_int_equal(symlink(outside, out_link), 0);
	guest_files_clear(&f);
	f = (struct guest_files)GUEST_FILES_INIT(host_arch());
	strbuf_reset(&err);
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	assert_non_null(strstr(err.buf, "a link out of "));
	guest_files_clear(&f);
	free(outside);
	free(dir);
	free(in_link);
	free(out_link);
	free(secret);
	strbuf_release(&err);
}

/* A link inside the folder to a folder above it loops: refused at 32 folders
 * deep, not walked for ever; a fifo is neither a file nor a folder. With
 * guest_files_add_under, the paths start with the folder's place. */
static void loops_and_odd_entries_are_refused(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	scratch_put(root, "loop/sub/f", "f");
	char *dir = at("loop"), *back = at("loop/sub/back");
	assert_int_equal(symlink("..", back), 0);
	struct guest_files f = GUEST_FILES_INIT(host_arch());
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	char *want = xasprintf("%s/sub/back/sub/back/", dir);
	if (!strstr(err.buf, want) || !strstr(err.buf, ": folders more than 32 deep (a loop of links?)"))
		fail_msg("wanted '%s...: folders more than 32 deep' in '%s'", want, err.buf);
	/* 33 folders: the root's sub, then back/sub 16 times */
	assert_int_equal(strlen(err.buf) - strlen(strstr(err.buf, ": folders")),
			 strlen(dir) + strlen("/sub") + 16 * strlen("/back/sub"));
	guest_files_clear(&f);
	assert_int_equal(unlink(back), 0);
	char *fifo = at("loop/sub/pipe");
	assert_int_equal(mkfifo(fifo, 0644), 0);
	strbuf_reset(&err);
	f = (struct guest_files)GUEST_FILES_INIT(host_arch());
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	char *neither = xasprintf("%s: neither a file nor a folder", fifo);
	assert_string_equal(err.buf, neither);
	guest_files_clear(&f);
	assert_int_equal(unlink(fifo), 0);
	f = (struct guest_files)GUEST_FILES_INIT(host_arch());
	assert_int_equal(guest_files_add_under(&f, dir, "in/here", &err), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.files[0].path, "in/here/sub/f");
	guest_files_clear(&f);
	free(neither);
	free(fifo);
	free(want);
	free(back);
	free(dir);
	strbuf_release(&err);
}

/* Folders merge; each file knows its folder. */
static void folders_merge(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	scratch_put(root, "m1/a", "a");
	scratch_put(root, "m2/bin/b", "b");
	char *m1 = at("m1"), *m2 = at("m2");
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	assert_int_equal(guest_files_add(&f, m1, &err), 0);
	assert_int_equal(guest_files_add(&f, m2, &err), 0);
	guest_files_finish(&f);
	assert_true(guest_files_any(&f));
	assert_int_equal(f.dirs.n, 2);
	assert_int_equal(find(&f, "a")->folder, 0);
	assert_int_equal(find(&f, "bin/b")->folder, 1);
	guest_files_clear(&f);
	free(m1);
	free(m2);
	strbuf_release(&err);
}

/* Runs a shell line in the scratch folder; false when it failed. */
static bool sh(const char *line)
{
	const char *argv[] = { "sh", "-c", line, root, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command(argv, NULL, &out);
	if (rc != 0)
		print_message("%s: %s\n", line, out.buf);
	strbuf_release(&out);
	return rc == 0;
}

/*
 * A program built with plain cc against a library of its own, found by an
 * RPATH outside the folder: its libraries come along as the host's loader
 * finds them, the library where the guest's loader looks by default.
 */
static void a_dynamic_program_brings_its_libraries(void **state)
{
	(void)state;
	if (host_arch() != ARCH_X86_64)
		skip();
	scratch_put(root, "dyn-src/foo.c", "int foo(void) { return 42; }\n");
	scratch_put(root, "dyn-src/prog.c", "int foo(void);\nint main(void) { return foo() - 42; }\n");
	assert_true(sh("cd \"$0\" && mkdir -p dyn/bin mylib && "
		       "cc -shared -fPIC -o mylib/libfoo.so dyn-src/foo.c && "
		       "cc -o dyn/bin/prog dyn-src/prog.c -Lmylib -lfoo -Wl,-rpath,\"$0/mylib\" && "
		       "dyn/bin/prog"));
	struct guest_files f = GUEST_FILES_INIT(ARCH_X86_64);
	struct strbuf err = STRBUF_INIT;
	char *dir = at("dyn");
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	const struct guest_file *prog = find(&f, "bin/prog");
	assert_non_null(prog);
	assert_true(prog->executable);
	bool libc = false, interp = false, foo = false;
	char *foo_entry = xasprintf("/usr/lib/x86_64-linux-gnu/libfoo.so\t%s/mylib/libfoo.so", root);
	for (size_t i = 0; i < f.libs.n; i++) {
		libc |= starts_with(f.libs.items[i], "/lib/x86_64-linux-gnu/libc.so.6\t") ||
			starts_with(f.libs.items[i], "/usr/lib/x86_64-linux-gnu/libc.so.6\t");
		interp |= starts_with(f.libs.items[i], "/lib64/ld-linux-x86-64.so.2\t");
		foo |= !strcmp(f.libs.items[i], foo_entry);
	}
	assert_true(libc);
	assert_true(interp);
	if (!foo)
		fail_msg("no '%s' among the %zu libraries", foo_entry, f.libs.n);
	free(foo_entry);
	guest_files_clear(&f);

	/* without its library the host's loader cannot run it: refused, naming both */
	assert_true(sh("rm \"$0/mylib/libfoo.so\""));
	f = GUEST_FILES_INIT(ARCH_X86_64);
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	assert_non_null(strstr(err.buf, "dyn/bin/prog needs libfoo.so, which the host's loader does "
				"not find"));
	guest_files_clear(&f);
	free(dir);
	strbuf_release(&err);
}

/* An arm64 program (where the cross compiler is) takes its libraries from
 * arm64's packages, by its NEEDED entries; on x86_64 it is refused. */
static void an_arm64_program_brings_arm64_libraries(void **state)
{
	(void)state;
	if (!sh("command -v aarch64-linux-gnu-gcc >/dev/null"))
		skip();
	scratch_put(root, "a64-src/hello.c", "int main(void) { return 0; }\n");
	assert_true(sh("cd \"$0\" && mkdir -p a64 && aarch64-linux-gnu-gcc -o a64/hello a64-src/hello.c"));
	struct guest_files f = GUEST_FILES_INIT(ARCH_ARM64);
	struct strbuf err = STRBUF_INIT;
	char *dir = at("a64");
	assert_int_equal(guest_files_add(&f, dir, &err), 0);
	bool libc = false, interp = false;
	for (size_t i = 0; i < f.libs.n; i++) {
		libc |= starts_with(f.libs.items[i], "/lib/aarch64-linux-gnu/libc.so.6\t");
		interp |= starts_with(f.libs.items[i], "/lib/ld-linux-aarch64.so.1\t");
	}
	assert_true(libc);
	assert_true(interp);
	guest_files_clear(&f);
	f = GUEST_FILES_INIT(ARCH_X86_64);
	assert_int_equal(guest_files_add(&f, dir, &err), -1);
	assert_non_null(strstr(err.buf, "a64/hello: an ELF for aarch64, but the guest is x86_64"));
	guest_files_clear(&f);
	free(dir);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_folder_is_walked_whole),
		cmocka_unit_test(the_hash_follows_the_contents),
		cmocka_unit_test(bad_folders_are_refused),
		cmocka_unit_test(folders_merge),
		cmocka_unit_test(links_stay_inside),
		cmocka_unit_test(loops_and_odd_entries_are_refused),
		cmocka_unit_test(a_dynamic_program_brings_its_libraries),
		cmocka_unit_test(an_arm64_program_brings_arm64_libraries),
	};
	return cmocka_run_group_tests_name("guest-files", tests, setup, teardown);
}
