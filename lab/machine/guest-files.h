/*
 * The user's own folders in the guest: `files = DIR` in an experiment,
 * `lab boot --files DIR`. Their contents, merged, are GUEST_FILES_DIR
 * (/oomlab/files) of the tools disk (guest-image.h): read-only, and the
 * executables of their top level and of bin/ are on the guest's PATH
 * (after the guest's own programs, which they never shadow). Every file at
 * any depth is there, and runs by its path.
 *
 * Checked before any boot: every ELF among them must be for the run's
 * architecture, and the shared libraries a dynamically linked one loads are
 * resolved as guest-root.h resolves the guest's own programs' (ldd on the
 * host's architecture), to come along on the tools disk. The content hash
 * (each file's path in its folder, whether it is executable, its bytes) is
 * part of the tools disk's key and is named by trial.json, run.json and the
 * store.
 */
#ifndef LAB_GUEST_FILES_H
#define LAB_GUEST_FILES_H

#include <jansson.h>
#include <stdbool.h>

#include "lab/kernel/platform.h"
#include "common/util.h"

struct guest_file {
	char *path;                 /* relative to its folder: its place under GUEST_FILES_DIR */
	char *host;                 /* the file on the host */
	bool executable;
	char *interpreter;          /* a "#!" script's, else NULL */
	char content[65];           /* the SHA-256 of its bytes, as they were read */
	size_t folder;              /* the index of its folder in dirs */
};

struct guest_files {
	enum guest_arch arch;
	struct strlist dirs;        /* the host folders, as given, in order */
	struct guest_file *files;   /* sorted by path */
	size_t n, alloc;
	struct strlist libs;        /* "guest-path\thost-file" (guest_root_libraries) */
	char hash[65];              /* "" until guest_files_finish */
};

#define GUEST_FILES_INIT(a) ((struct guest_files){ .arch = (a) })

/*
 * Adds folder DIR (every file at any depth; symbolic links followed):
 * refuses a file that is not a regular file or folder, a name another
 * folder already brought, and an ELF for another machine than the
 * architecture's, and resolves the libraries of each dynamically linked
 * one. 0, or -1 with one line naming the file in ERR.
 */
int guest_files_add(struct guest_files *f, const char *dir, struct strbuf *err);
/* The same, with DIR's files under the subfolder UNDER of GUEST_FILES_DIR ("": at its top). */
int guest_files_add_under(struct guest_files *f, const char *dir, const char *under,
			  struct strbuf *err);
/* The content hash of the files as they were added, once every folder is. */
void guest_files_finish(struct guest_files *f);
/* True when there is at least one folder. */
bool guest_files_any(const struct guest_files *f);
/* The guest path of a relative path among the files (malloc'd). */
char *guest_files_path(const char *relative);
/* {"hash": ..., "dirs": [...]} for trial.json and run.json. */
json_t *guest_files_json(const struct guest_files *f);
void guest_files_clear(struct guest_files *f);

#endif
