/* kmsg.h - the records of /dev/kmsg as the agent forwards them (kmsg.log):
 *
 *     6,1234,5678901,-;text of the message
 *      SUBSYSTEM=...          (dictionary lines: start with a blank)
 *
 * "prio,seq,usec,flags;text": prio is facility * 8 + level, usec the
 * printk time stamp (local_clock, microseconds since boot), flags '-' or
 * 'c'.  Further comma-separated fields before ';' are ignored, as the
 * kernel's documentation asks.  Non-printable bytes in the text arrive
 * escaped (\x0a), so one record is one line.
 */
#ifndef OOMLAB_KMSG_H
#define OOMLAB_KMSG_H

#include <stdbool.h>
#include <stdint.h>

struct kmsg_record {
	int level;              /* prio & 7 */
	int facility;           /* prio >> 3 */
	uint64_t seq;
	uint64_t usec;
	const char *text;       /* points into the line */
};

/* Parses one line (modified in place); false for continuation lines and
 * anything that is not a record. */
bool kmsg_parse_record(char *line, struct kmsg_record *out);

typedef void (*kmsg_record_fn)(const struct kmsg_record *r, void *ctx);

struct kmsg_stats {
	uint64_t records;
	uint64_t bad_lines;     /* neither a record nor a continuation line */
	uint64_t seq_gaps;      /* records the reader missed (overwritten in the ring) */
};

/* Reads kmsg.log, calling FN per record.  0, or -1 with errno. */
int kmsg_read(const char *path, kmsg_record_fn fn, void *ctx, struct kmsg_stats *st);
void kmsg_parse_text(char *text, kmsg_record_fn fn, void *ctx, struct kmsg_stats *st);

#endif
