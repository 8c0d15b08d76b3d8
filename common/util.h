/* Small helpers every lab file uses: errors, allocation, files, strings. */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/alloc-grow.h"
#include "base/str-list.h"

/* Exit statuses: 1 for failures of the work, 2 for bad usage or input. */
#define EXIT_USAGE 2
/* What die() and die_usage() exit with: 1 and EXIT_USAGE, unless a command
 * whose own statuses mean something else sets them (lab boot: its status is
 * its command's, so the lab's own errors take codes git bisect run aborts on). */
void set_die_statuses(int failure, int usage);

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Set by --quiet: suppresses note(), never errors. */
extern bool quiet;

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* realloc(P, N * SIZE), dying when the product overflows or memory runs out. */
void *xrealloc_array(void *p, size_t n, size_t size);
/* ARR resized to exactly N items (REALLOC_ARRAY), or grown to hold at least
 * NEED, ALLOC its capacity (ALLOC_GROW, common/base/alloc-grow.h): both die
 * when the size overflows or memory runs out. */
#define REALLOC_ARRAY(arr, n) ((arr) = xrealloc_array((arr), (n), sizeof(*(arr))))
#define ALLOC_GROW(arr, need, alloc)                                                   \
	do {                                                                           \
		size_t alloc_grow_want_ = (need);                                      \
		if (!ALLOC_GROW_TRY(arr, alloc_grow_want_, alloc))                     \
			die("out of memory (%zu items of %zu bytes)", alloc_grow_want_, \
			    sizeof(*(arr)));                                           \
	} while (0)
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string, NUL-terminated at all times. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
const char *strbuf_str(const struct strbuf *sb);
/* Hands the buffer to the caller (always a malloc'd string) and resets sb. */
char *strbuf_detach(struct strbuf *sb);

/* A growable list of owned strings. */
struct strlist {
	char **items;
	size_t n, alloc;
};
#define STRLIST_INIT { NULL, 0, 0 }
void strlist_push(struct strlist *l, const char *s);
void strlist_push_owned(struct strlist *l, char *s);
void strlist_sort(struct strlist *l);
bool strlist_has(const struct strlist *l, const char *s);
void strlist_clear(struct strlist *l);
/* TEXT's lines (LEN bytes) appended to L, each without its newline: an
 * empty line as "", a last line without a newline as a line too. */
void strlist_add_lines(struct strlist *l, const char *text, size_t len);
/* The items as a NULL-terminated argv (valid until the list changes). */
const char *const *strlist_argv(struct strlist *l);
/* The text with surrounding blanks removed, "" when empty; modifies sb. */
const char *strbuf_trimmed(struct strbuf *sb);
/* The first line of the trimmed text, for one-line error messages; modifies sb. */
const char *strbuf_first_line(struct strbuf *sb);

/* Words joined into one /bin/sh line, each quoted only if it needs it: the
 * one quoting function of every script the lab writes. */
char *shell_join(const char *const *words, size_t n);
/* One word of it (malloc'd): shell_join(&word, 1). */
char *shell_quote(const char *word);
/* WORD quoted for a '#' line of a script (a comment, an #SBATCH line): as
 * shell_quote(), and no control character, which could end the comment
 * (a newline, say), each one '?' (malloc'd). */
char *shell_comment_word(const char *word);
/* TEXT for a '#' line as it stands (an #SBATCH option, read by sbatch, not
 * by sh): each control character '?' (malloc'd). */
char *shell_comment_text(const char *text);

/* Whole-file I/O. read_file returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);
/* Writes to a new PATH.tmp.XXXXXX (mkstemp: unique, never through a link)
 * then renames, so readers never see half a file; mode 0644. */
int write_file_atomic(const char *path, const void *data, size_t len);
/* A sparse file of SIZE bytes at PATH, made anew (a disk image the host
 * stores nothing of until the guest writes): 0, or -1 with the reason in ERR. */
int sparse_file_make(const char *path, unsigned long long size, struct strbuf *err);
int write_file_str(const char *path, const char *s);
/* Writes TEXT to PATH (atomically) as a program: mode 0755; -1 with the reason in ERR. */
int write_script(const char *path, const char *text, struct strbuf *err);
bool path_exists(const char *path);
bool is_dir(const char *path);
int mkdir_p(const char *path, unsigned mode);
int remove_tree(const char *path);
int copy_file(const char *from, const char *to);
/* A name beside PATH no other writer takes: PATH.tmp.HOST.PID.N (malloc'd).
 * Unique across the nodes that share a cache and across a process's calls;
 * for what mkstemp cannot make (a folder tree, a program's output file). */
char *temp_name_beside(const char *path);
/* The name of an entry of DIR (malloc'd), or NULL when it is empty or absent:
 * a folder the lab did not make, which it must not write into as its own. */
char *folder_first_entry(const char *dir);

char *trim(char *s);
bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
/* Parses a size such as 512M, 1G, 4096 or 64k into bytes; false if malformed. */
bool parse_size(const char *s, unsigned long long *bytes);
bool parse_ulong(const char *s, unsigned long *v);
bool parse_double(const char *s, double *v);
/* Seconds on the monotonic clock. */
double now_monotonic(void);
/* "3m12s", "41s", "1h02m" */
void format_duration(char *buf, size_t size, double seconds);

#endif
