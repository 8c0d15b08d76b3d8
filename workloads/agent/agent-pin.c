/*
 * Keeps a helper's file pages resident: the recorder's binary and libraries
 * live on the tools disk, so their pages are page cache that the workload's
 * reclaim takes and perf then reads back. Measured on phone-512m, fragmented,
 * binder-mmap, debug companions: up to 13,926 high-order page-cache folios
 * a trial window allocated by perf alone (up to 1,391 of them failed), more
 * than the workload's own. The lab was measuring its own recorder.
 *
 * Locking only the pages perf had mapped at set-up (12 MB) was not enough:
 * the record loop runs code that set-up did not, and one boot still read
 * 11,204 pages back. Locking every text segment it had run at all, whole
 * (22 MB, most of it libraries' code), brought that to 1,043 (libc's data)
 * and perf's high-order allocations in the window from 1,402 to 62.
 *
 * A page locked in any mapping of a file stays in memory for every process
 * that maps it (reclaim finds the locked mapping and keeps the page). So the
 * agent maps the same file ranges as the helper and mlocks what it ran and
 * touched once it is set up, not whole files. The mappings stay until the
 * guest ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent-pin.h"

#define PAGEMAP_PRESENT (1ull << 63)

/*
 * Locks the pages of the helper's mapping [START, END) of PATH at OFFSET
 * that the helper has present in its page tables (PAGEMAP, its
 * /proc/PID/pagemap): what it touched, not what readahead brought in
 * around it; all of an EXECUTABLE mapping it touched at all. Returns the
 * bytes locked.
 */
static uint64_t pin_mapping(int pagemap, const char *path, uint64_t start, uint64_t end, uint64_t offset,
			    bool executable, long page)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size <= offset) {
		close(fd);
		return 0;
	}
	uint64_t len = end - start;
	/* a mapping may reach past the end of the file; those pages are not the file's */
	if (len > (uint64_t)st.st_size - offset)
		len = (uint64_t)st.st_size - offset;
	size_t pages = (len + (uint64_t)page - 1) / (uint64_t)page;
	uint64_t *entries = malloc(pages * sizeof(*entries));
	off_t at = (off_t)(start / (uint64_t)page * sizeof(*entries));
	if (!entries || pread(pagemap, entries, pages * sizeof(*entries), at) != (ssize_t)(pages * sizeof(*entries))) {
		free(entries);
		close(fd);
		return 0;
	}
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)offset);
	close(fd);
	uint64_t locked = 0;
	/* code runs paths later that set-up did not: a text segment it ran at all is locked whole */
	bool any = false;
	for (size_t i = 0; i < pages && !any; i++)
		any = (entries[i] & PAGEMAP_PRESENT) != 0;
	if (executable && any && map != MAP_FAILED) {
		if (mlock(map, len) == 0)
			locked = len;
		else
			munmap(map, len);
		free(entries);
		return locked;
	}
	for (size_t i = 0; map != MAP_FAILED && i < pages;) {
		if (!(entries[i] & PAGEMAP_PRESENT)) {
			i++;
			continue;
		}
		size_t run = i;
		while (run < pages && (entries[run] & PAGEMAP_PRESENT))
			run++;
		if (mlock((char *)map + i * (size_t)page, (run - i) * (size_t)page) == 0)
			locked += (run - i) * (uint64_t)page;
		i = run;
	}
	free(entries);
	if (map != MAP_FAILED && !locked)
		munmap(map, len);
	return locked;
}

uint64_t pin_file_pages_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *maps = fopen(path, "r");
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	int pagemap = open(path, O_RDONLY | O_CLOEXEC);
	if (!maps || pagemap < 0) {
		if (maps)
			fclose(maps);
		if (pagemap >= 0)
			close(pagemap);
		return 0;
	}
	long page = sysconf(_SC_PAGESIZE);
	uint64_t locked = 0;
	char line[4096];
	while (fgets(line, sizeof(line), maps)) {
		uint64_t start, end, offset;
		unsigned long inode;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %lu %n", &start, &end, perms,
			   &offset, &inode, &name_at) < 5 || !inode || !name_at || line[name_at] != '/')
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		if (strstr(name, " (deleted)"))
			continue;
		locked += pin_mapping(pagemap, name, start, end, offset, strchr(perms, 'x') != NULL, page);
	}
	fclose(maps);
	close(pagemap);
	return locked;
}
