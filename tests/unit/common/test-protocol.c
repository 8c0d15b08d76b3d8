/* test-protocol.c - the guest/host protocol (common/proto/protocol.c): the
 * files.bin record as docs/FORMATS.md defines it, and the tables both sides
 * read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "common/proto/protocol.h"

static void header_round_trip(void **state)
{
	(void)state;
	char buf[FILES_RECORD_NAME_MAX + 64];
	int n = files_record_header(buf, sizeof(buf), "after/vmstat", 4123);
	assert_string_equal(buf, "oomlab-file after/vmstat 4123\n");
	assert_int_equal(n, (int)strlen(buf));
	struct files_record rec;
	assert_int_equal(files_record_parse(buf, (size_t)n, &rec), 0);
	assert_string_equal(rec.name, "after/vmstat");
	assert_int_equal(rec.size, 4123);
	assert_int_equal(rec.data, (size_t)n);
}

static void parse_in_a_stream(void **state)
{
	(void)state;
	/* Two records back to back, the second read from its own start. */
	const char stream[] = "oomlab-file a 3\nabc\noomlab-file before/b 0\n\n";
	struct files_record rec;
	assert_int_equal(files_record_parse(stream, sizeof(stream) - 1, &rec), 0);
	assert_string_equal(rec.name, "a");
	assert_memory_equal(stream + rec.data, "abc", 3);
	size_t next = rec.data + rec.size + 1;
	assert_int_equal(files_record_parse(stream + next, sizeof(stream) - 1 - next, &rec), 0);
	assert_string_equal(rec.name, "before/b");
	assert_int_equal(rec.size, 0);
}

static void malformed_headers(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"oomlab-file a 3",              /* no newline yet: not a whole header */
		"oomlab-fil a 3\n",
		"oomlab-file  3\n",             /* no name */
		"oomlab-file a\n",              /* no size */
		"oomlab-file a \n",
		"oomlab-file a 3x\n",
		"oomlab-file a -3\n",
		"oomlab-file ../etc/passwd 3\n",
		"oomlab-file before/../../x 3\n",
		"oomlab-file a 99999999999999999999999\n",
		"",
	};
	struct files_record rec;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (files_record_parse(bad[i], strlen(bad[i]), &rec) != -1)
			fail_msg("accepted: '%s'", bad[i]);
	char longname[FILES_RECORD_NAME_MAX + 32];
	memset(longname, 'x', sizeof(longname));
	memcpy(longname, "oomlab-file ", 12);
	snprintf(longname + 12 + FILES_RECORD_NAME_MAX + 1, 16, " 1\n");
	assert_int_equal(files_record_parse(longname, strlen(longname), &rec), -1);
	/* exactly the longest name is fine */
	snprintf(longname + 12 + FILES_RECORD_NAME_MAX, 16, " 1\n");
	assert_int_equal(files_record_parse(longname, strlen(longname), &rec), 0);
	assert_int_equal(strlen(rec.name), FILES_RECORD_NAME_MAX);
}

/* The restore's line (protocol.h): what the lab writes, the agent reads back;
 * anything else is refused whole. */
static void restore_line_round_trip_and_refusals(void **state)
{
	(void)state;
	char line[128], trial[RESTORE_TRIAL_ID_MAX];
	unsigned long long seed = 0;
	assert_int_equal(restore_line_format(line, sizeof(line), 18446744073709551615ULL, "restore-12"),
			 (int)strlen("seed=18446744073709551615 trial=restore-12\n"));
	assert_string_equal(line, "seed=18446744073709551615 trial=restore-12\n");
	assert_int_equal(restore_line_parse(line, &seed, trial), 0);
	assert_true(seed == 18446744073709551615ULL);
	assert_string_equal(trial, "restore-12");
	assert_int_equal(restore_line_parse("seed=0 trial=a.b_c", &seed, trial), 0);
	assert_true(seed == 0);
	assert_string_equal(trial, "a.b_c");
	/* ids the lab will not write: blank, a space, a slash, too long */
	assert_int_equal(restore_line_format(line, sizeof(line), 1, ""), -1);
	assert_int_equal(restore_line_format(line, sizeof(line), 1, "a b"), -1);
	assert_int_equal(restore_line_format(line, sizeof(line), 1, "../x"), -1);
	char longest[RESTORE_TRIAL_ID_MAX + 1];
	memset(longest, 'x', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	assert_int_equal(restore_line_format(line, sizeof(line), 1, longest), -1);
	longest[RESTORE_TRIAL_ID_MAX - 1] = '\0';
	assert_true(restore_line_format(line, sizeof(line), 1, longest) > 0);
	const char *bad[] = { "", "seed= trial=a", "seed=-1 trial=a", "seed=1", "seed=1 trial=",
			      "seed=1  trial=a", "seed=1 trial=a b", "seed=1 trial=a\nx",
			      "seed=99999999999999999999 trial=a", "trial=a seed=1", "seed=1x trial=a",
			      "seed=1 trial=a/b" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		seed = 5;
		if (restore_line_parse(bad[i], &seed, trial) == 0)
			fail_msg("the restore line '%s' was taken", bad[i]);
		assert_true(seed == 5);
	}
}

static void tables(void **state)
{
	(void)state;
	/* the port names and files are distinct, and every file the host reads is a snapshot */
	for (int i = 0; i < CHANNEL_COUNT; i++)
		for (int k = i + 1; k < CHANNEL_COUNT; k++) {
			assert_string_not_equal(channel_port_name[i], channel_port_name[k]);
			assert_string_not_equal(channel_file_name[i], channel_file_name[k]);
		}
	assert_string_equal(channel_file_name[CHANNEL_FILES], "files.bin");
	static const char *const read_by_host[] = { SNAP_BUDDYINFO, SNAP_VMSTAT, SNAP_SLABINFO,
						    SNAP_PRESSURE_MEMORY, SNAP_CGROUP_EVENTS,
						    SNAP_CGROUP_PRESSURE, SNAP_BINDER_STATS };
	for (size_t i = 0; i < sizeof(read_by_host) / sizeof(read_by_host[0]); i++) {
		size_t found = 0;
		for (const struct snapshot_file *f = snapshot_files; f->name; f++)
			found += !strcmp(f->name, read_by_host[i]);
		if (found != 1)
			fail_msg("snapshot %s listed %zu times", read_by_host[i], found);
	}
	size_t n = 0;
	for (const char *const *h = heartbeat_fields; *h; h++)
		n++;
	assert_int_equal(n, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_round_trip),
		cmocka_unit_test(parse_in_a_stream),
		cmocka_unit_test(malformed_headers),
		cmocka_unit_test(tables),
		cmocka_unit_test(restore_line_round_trip_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
