/*
 * Where a variant's kernel comes from. Without a file `source` in the
 * variant's folder: Debian's linux-source-6.12 tarball, as always. With one,
 * its one line (blank lines and '#' comments aside) says, paths relative to
 * the variant's folder:
 *
 *   tree DIR                a kernel source tree, built out of tree in the
 *                           cache from a hard-link mirror of it (tree-mirror.h):
 *                           DIR is never written; it must be clean (no .config,
 *                           as `make O=` requires)
 *   git DIR REF             REF's tree in the git repository DIR, exported into
 *                           the cache (git-tree.h)
 *   bzimage FILE [VMLINUX]  a prebuilt kernel: its configuration is its own
 *                           (IKCONFIG, else VMLINUX's, else a file `config`
 *                           beside FILE) and must have what kernels/required.config
 *                           lists; no patches, no fragment, no debug build
 *
 * Patches, `config` and `cmdline` apply on top of tree and git as on Debian's.
 *
 * The identity a cache key takes: Debian's package version; a tree's content
 * hash (tree-hash.h: the same files are a hit, one changed file a rebuild);
 * git's tree id; the image's (and VMLINUX's) SHA-256. Everything a source
 * names is checked when it is loaded: a missing DIR, REF or FILE, a tree
 * that is not a kernel's, a kernel that lacks what the lab needs, each is
 * one line "VARIANT_DIR/source:LINE: ...", before anything is built.
 */
#ifndef LAB_KERNEL_SOURCE_H
#define LAB_KERNEL_SOURCE_H

#include <stdbool.h>

#include "common/util.h"

struct progress;

#define KERNEL_SOURCE_PACKAGE "linux-source-6.12"
#define KERNEL_SOURCE_TARBALL "/usr/src/linux-source-6.12.tar.xz"
#define REQUIRED_CONFIG "kernels/required.config"

enum kernel_source_kind {
	SOURCE_DEBIAN,
	SOURCE_TREE,
	SOURCE_GIT,
	SOURCE_BZIMAGE,
};

struct kernel_source {
	enum kernel_source_kind kind;
	char *file;             /* the variant's `source` file; NULL for Debian's tarball */
	int line;               /* the line of FILE that says it */
	char *path;             /* tree, git: the folder; bzimage: the image (absolute) */
	char *ref;              /* git: the ref as written */
	char *vmlinux;          /* bzimage: its vmlinux, or NULL */
	char *tree_id;          /* git: REF's tree */
	char *commit;           /* git: REF's commit ("" when REF names a tree) */
	char *config;           /* bzimage: the kernel's configuration */
	char *config_origin;    /* bzimage: "IKCONFIG", or the file it came from */
	char *id;               /* what the cache key takes */
};

/* The installed package version, e.g. "6.12.117-1~deb12u1"; dies if missing. */
const char *kernel_source_version(void);
/* Reads VARIANT_DIR/source (Debian's tarball without one), checks what it
 * names and sets the identity; -1 with one line in ERR. */
int kernel_source_load(struct kernel_source *s, const char *variant_dir, struct strbuf *err);
/* Parses the text of a `source` file (FILE names it in messages) without
 * looking at what it names; paths are made absolute against VARIANT_DIR. */
int kernel_source_parse(struct kernel_source *s, const char *variant_dir, const char *file,
			const char *text, struct strbuf *err);
void kernel_source_copy(struct kernel_source *to, const struct kernel_source *from);
void kernel_source_clear(struct kernel_source *s);

/* "linux-source-6.12 6.12.117-1~deb12u1", "tree DIR (content 1a2b3c4d5e6f)",
 * "git DIR REF (commit ..., tree ...)", "bzimage FILE (sha256 ...)" (malloc'd). */
char *kernel_source_describe(const struct kernel_source *s);
/* The line of a `source` file that says S, its paths absolute ("tree DIR\n"),
 * or NULL for Debian's tarball, which needs no file (malloc'd). */
char *kernel_source_line(const struct kernel_source *s);
/* Whether the lab builds it (every kind but bzimage). */
bool kernel_source_builds(const struct kernel_source *s);
/* Where builds of it happen (malloc'd): <cache>/linux-VERSION for Debian's,
 * <cache>/tree-HASH and <cache>/git-HASH (of the folder's path) for the others;
 * src/ in it is the tree make reads. */
char *kernel_source_workspace(const struct kernel_source *s);
/* Makes TREE hold the source: extracts Debian's tarball (once), brings the
 * mirror of a tree or the export of a git tree up to date. -1 with why. */
int kernel_source_prepare(const struct kernel_source *s, const char *ws, const char *tree,
			  struct progress *pr, struct strbuf *err);

#endif
