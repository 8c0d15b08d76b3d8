/* Small helpers every lab file uses: errors, allocation, files, strings. */
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool quiet;

static int die_status = 1, die_usage_status = EXIT_USAGE;

void set_die_statuses(int failure, int usage)
{
	die_status = failure;
	die_usage_status = usage;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "lab: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(die_status);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(die_usage_status);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;
	if (quiet)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die("out of memory (%zu bytes)", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory (%zu bytes)", size);
	return p;
}

void *xrealloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die("out of memory (%zu items of %zu bytes)", n, size);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (!d)
		die("out of memory");
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (extra >= SIZE_MAX - sb->len)
		die("out of memory (a string of %zu and %zu more bytes)", sb->len, extra);
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		die("bad format string");
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void strlist_push_owned(struct strlist *l, char *s)
{
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n++] = s;
}

void strlist_push(struct strlist *l, const char *s)
{
	strlist_push_owned(l, xstrdup(s));
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strlist_sort(struct strlist *l)
{
	if (l->n)
		qsort(l->items, l->n, sizeof(*l->items), compare_strings);
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i], s))
			return true;
	return false;
}

void strlist_clear(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->n = l->alloc = 0;
}

void strlist_add_lines(struct strlist *l, const char *text, size_t len)
{
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;
		strlist_push_owned(l, xstrndup(text + pos, line_len));
		pos += line_len + 1;
	}
}

const char *const *strlist_argv(struct strlist *l)
{
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n] = NULL;
	return (const char *const *)l->items;
}

const char *strbuf_trimmed(struct strbuf *sb)
{
	return sb->buf ? trim(sb->buf) : "";
}

const char *strbuf_first_line(struct strbuf *sb)
{
	if (!sb->buf)
		return ""; /* nothing captured: no line to cut, and "" must not be written */
	char *t = (char *)strbuf_trimmed(sb);
	t[strcspn(t, "\n")] = '\0';
	return t;
}

char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			close(fd);
			strbuf_release(&sb);
			errno = saved;
			return NULL;
		}
		if (n == 0)
			break;
		strbuf_add(&sb, chunk, (size_t)n);
	}
	close(fd);
	if (len)
		*len = sb.len;
	return strbuf_detach(&sb);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	/* A name no one else has, in PATH's folder (rename stays on one file
	 * system): mkstemp makes it with O_EXCL, so no link or other process's
	 * file there is written through. PIDs repeat across the nodes of a
	 * shared cache; these names do not. */
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	/* mkstemp's 0600, as the 0644 open() gave before (write_script makes it 0755) */
	if (fchmod(fd, 0644) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	close(fd);
	int rc = rename(tmp, path);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

int write_file_str(const char *path, const char *s)
{
	return write_file_atomic(path, s, strlen(s));
}

int sparse_file_make(const char *path, unsigned long long size, struct strbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		strbuf_addf(err, "cannot create %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int write_script(const char *path, const char *text, struct strbuf *err)
{
	int rc = write_file_str(path, text);
	if (rc == 0)
		rc = chmod(path, 0755);
	if (rc < 0)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	return rc;
}

bool path_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mkdir_p(const char *path, unsigned mode)
{
	char *copy = xstrdup(path);
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, mode) < 0 && errno != EEXIST) {
			free(copy);
			return -1;
		}
		*p = '/';
	}
	int rc = mkdir(copy, mode);
	free(copy);
	return rc < 0 && errno != EEXIST ? -1 : 0;
}

int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *dir = opendir(path);
	if (!dir)
		return -1;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *child = xasprintf("%s/%s", path, de->d_name);
		if (remove_tree(child) < 0)
			rc = -1;
		free(child);
	}
	closedir(dir);
	if (rmdir(path) < 0)
		rc = -1;
	return rc;
}

int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	if (!data)
		return -1;
	int rc = write_file_atomic(to, data, len);
	free(data);
	return rc;
}

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*v = (unsigned long)x;
	return true;
}

bool parse_double(const char *s, double *v)
{
	char *end;
	if (!*s)
		return false;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

bool parse_size(const char *s, unsigned long long *bytes)
{
	char *end;
	if (!*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno)
		return false;
	unsigned shift = 0;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: return false;
	}
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return false;
	if (shift && x > (~0ULL >> shift))
		return false;
	*bytes = x << shift;
	return true;
}

double now_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void format_duration(char *buf, size_t size, double seconds)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
	if (s >= 3600)
		snprintf(buf, size, "%ldh%02ldm", s / 3600, (s / 60) % 60);
	else if (s >= 60)
		snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, size, "%lds", s);
}

static bool needs_quoting(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=,.:/+@%", *s))
			return true;
	return false;
}

char *shell_join(const char *const *words, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&sb, " ");
		const char *a = words[i];
		if (!needs_quoting(a)) {
			strbuf_addstr(&sb, a);
			continue;
		}
		strbuf_addstr(&sb, "'");
		for (; *a; a++) {
			if (*a == '\'')
				strbuf_addstr(&sb, "'\\''");
			else
				strbuf_add(&sb, a, 1);
		}
		strbuf_addstr(&sb, "'");
	}
	return strbuf_detach(&sb);
}

char *shell_quote(const char *word)
{
	return shell_join(&word, 1);
}

char *shell_comment_text(const char *text)
{
	char *out = xstrdup(text);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

char *shell_comment_word(const char *word)
{
	char *quoted = shell_quote(word);
	char *out = shell_comment_text(quoted);
	free(quoted);
	return out;
}

char *temp_name_beside(const char *path)
{
	static unsigned counter;
	char host[64] = "";
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "host");
	for (char *p = host; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	return xasprintf("%s.tmp.%s.%ld.%u", path, host, (long)getpid(), counter++);
}

char *folder_first_entry(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;
	while (d && !found && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			found = xstrdup(de->d_name);
	if (d)
		closedir(d);
	return found;
}
