/* test-vm-channel.c - reading a VM's channels while they grow
 * (lab/machine/vm-channel.c): incremental reads, control lines that arrive in
 * pieces, the panic mark found once even across two reads, the panic text
 * and the console's tail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/machine/vm-channel.h"

struct fixture {
	char dir[64];
	int fd;                 /* the writer's end of the channel file, as QEMU's */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	strcpy(f->dir, "/tmp/oomlab-test-vmchan.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	char *path = xasprintf("%s/ctl.jsonl", f->dir);
	f->fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	free(path);
	*state = f;
	return f->fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	close(f->fd);
	remove_tree(f->dir);
	free(f);
	return 0;
}

static void put(struct fixture *f, const char *s)
{
	assert_int_equal(write(f->fd, s, strlen(s)), (ssize_t)strlen(s));
}

static size_t sunk;
static void count_sink(const char *data, size_t len)
{
	(void)data;
	sunk += len;
}

/* A control line written in three pieces counts once it is whole. */
static void test_control_in_pieces(void **state)
{
	struct fixture *f = *state;
	struct vm_channel ch;
	vm_channel_open(&ch, f->dir, "ctl.jsonl", true);
	struct vm_control ctl = { 0 };
	sunk = 0;

	const char *first = "{\"type\":\"hello\",\"uptime\":0.9,\"machine\":\"aarch64\","
			    "\"page_size\":16384}\n{\"type\":\"rea";
	put(f, first);
	assert_int_equal(vm_channel_poll(&ch, count_sink), strlen(first));
	vm_control_parse(&ctl, &ch.data);
	assert_false(ctl.ready);
	/* the hello says what the guest is */
	assert_string_equal(ctl.machine, "aarch64");
	assert_int_equal(ctl.page_size, 16384);
	put(f, "dy\",\"uptime\":1.5");
	vm_channel_poll(&ch, count_sink);
	vm_control_parse(&ctl, &ch.data);
	assert_false(ctl.ready);
	put(f, "}\nnot json at all\n{\"type\":\"exit\",\"status\":3,\"clocksource\":\"refined-jiffies\"}\n");
	vm_channel_poll(&ch, count_sink);
	assert_int_equal(vm_channel_poll(&ch, count_sink), 0);     /* nothing new */
	vm_control_parse(&ctl, &ch.data);
	assert_true(ctl.ready);
	assert_true(ctl.ready_uptime > 1.49 && ctl.ready_uptime < 1.51);
	assert_true(ctl.exited);
	assert_int_equal(ctl.exit_status, 3);
	/* the exit says which clock the guest timed with */
	assert_string_equal(ctl.clocksource, "refined-jiffies");
	assert_int_equal(ch.size, ch.data.len);
	assert_int_equal(sunk, ch.size);
	vm_channel_close(&ch);
}

/* A channel that only counts keeps nothing; a channel whose file is not
 * there yet is created (QEMU may open it after the lab). */
static void test_counting_channel(void **state)
{
	struct fixture *f = *state;
	struct vm_channel ch;
	vm_channel_open(&ch, f->dir, "perf.data", false);
	char *path = xasprintf("%s/perf.data", f->dir);
	int w = open(path, O_WRONLY | O_APPEND);
	free(path);
	assert_true(w >= 0);
	assert_int_equal(write(w, "PERFILE2", 8), 8);
	assert_int_equal(vm_channel_poll(&ch, NULL), 8);
	assert_int_equal(ch.size, 8);
	assert_int_equal(ch.data.len, 0);
	close(w);
	vm_channel_close(&ch);
}

/* The mark cut between two reads is found; found once, it stays found. */
static void test_panic_across_reads(void **state)
{
	struct fixture *f = *state;
	struct vm_channel ch;
	vm_channel_open(&ch, f->dir, "ctl.jsonl", true);
	put(f, "[    1.0] oom-kill:constraint=CONSTRAINT_NONE\n[    1.1] Kernel pan");
	vm_channel_poll(&ch, NULL);
	assert_false(vm_channel_has_panic(&ch));
	put(f, "ic - not syncing: System is deadlocked on memory\n");
	vm_channel_poll(&ch, NULL);
	assert_true(vm_channel_has_panic(&ch));
	put(f, "[    1.2] CPU: 0 PID: 1 Comm: init\n");
	vm_channel_poll(&ch, NULL);
	assert_true(vm_channel_has_panic(&ch));

	struct vm_channel none;
	memset(&none, 0, sizeof(none));
	none.fd = -1;
	char *detail = vm_panic_detail(&ch, &none);
	assert_non_null(strstr(detail, "oom-kill:constraint"));
	assert_non_null(strstr(detail, "System is deadlocked on memory"));
	assert_non_null(strstr(detail, "Comm: init"));
	free(detail);
	vm_channel_close(&ch);
}

static void test_tails(void **state)
{
	(void)state;
	const char *text = "one\ntwo\nthree\nfour\n";
	char *t = tail_lines(text, strlen(text), 2);
	assert_string_equal(t, "three\nfour\n");
	free(t);
	t = tail_lines(text, strlen(text), 10);
	assert_string_equal(t, text);
	free(t);
	struct strbuf empty = STRBUF_INIT;
	t = vm_console_tail(&empty);
	assert_string_equal(t, "(the console stayed empty)");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_control_in_pieces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counting_channel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_panic_across_reads, setup, teardown),
		cmocka_unit_test(test_tails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
