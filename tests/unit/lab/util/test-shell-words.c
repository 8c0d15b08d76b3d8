/* Unit tests: command lines are split into commands and words as /bin/sh would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/shell-words.h"

/* The guest's variables in these tests: DISK is known, UNSET is known to be
 * unset, anything else only the guest knows. */
static int lookup(void *ctx, const char *name, const char **value)
{
	(void)ctx;
	if (!strcmp(name, "DISK")) {
		*value = "/dev/vdb";
		return 1;
	}
	if (!strcmp(name, "HOME")) {
		*value = "/root";
		return 1;
	}
	if (!strcmp(name, "TWO")) {
		*value = "a  b";
		return 1;
	}
	if (!strcmp(name, "UNSET")) {
		*value = NULL;
		return 1;
	}
	return 0;
}

/* The line as "cmd|cmd", each command its words joined by ',' and an unknown
 * word marked with '?' in front. */
static char *split(const char *text)
{
	struct shell_line line;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	if (shell_line_split(text, lookup, NULL, &line, &err) < 0) {
		strbuf_addf(&out, "error: %s", err.buf);
		strbuf_release(&err);
		return strbuf_detach(&out);
	}
	for (size_t i = 0; i < line.n; i++) {
		if (i)
			strbuf_addstr(&out, "|");
		for (size_t k = 0; k < line.commands[i].n; k++)
			strbuf_addf(&out, "%s%s%s", k ? "," : "", line.commands[i].words[k].known ? "" : "?",
				    line.commands[i].words[k].text);
	}
	if (line.rest_unsplit)
		strbuf_addf(&out, " [%s]", line.rest_unsplit);
	shell_line_clear(&line);
	return strbuf_detach(&out);
}

#define assert_split(text, want)                  \
	do {                                      \
		char *got = split(text);          \
		assert_string_equal(got, want);   \
		free(got);                        \
	} while (0)

static void words_and_quotes(void **state)
{
	(void)state;
	assert_split("binder-mmap --opens 50", "binder-mmap,--opens,50");
	assert_split("  spawn\t-n  5  ", "spawn,-n,5");
	assert_split("sh -c 'echo a; b' x", "sh,-c,echo a; b,x");
	assert_split("a \"b c\" d\\ e", "a,b c,d e");
	assert_split("a \"x\\\"y\\$z\" ''", "a,x\"y$z,");
	assert_split("a#b # a comment", "a#b");
	assert_split("a 'it''s'", "a,its");
	assert_split("a 'open", "error: a ' quote that is not closed");
	assert_split("a \"open", "error: a \" quote that is not closed");
}

static void commands_and_redirections(void **state)
{
	(void)state;
	assert_split("a 1; b 2 && c || d | e & f\ng", "a,1|b,2|c|d|e|f|g");
	assert_split("(cd /tmp; ls)", "cd,/tmp|ls");
	assert_split("a > /tmp/x 2>&1 b <in c 2>/dev/null", "a,b,c");
	assert_split("a>x b", "a,b");
	assert_split("echo 2 >x", "echo,2");
	assert_split("cat <<EOF\nhello\nEOF", "cat [a here-document]");
	assert_split("f() { true; }; f", "f [a function definition]");
}

static void expansions(void **state)
{
	(void)state;
	assert_split("oom-hog --disk $DISK", "oom-hog,--disk,/dev/vdb");
	assert_split("oom-hog --disk ${DISK}", "oom-hog,--disk,/dev/vdb");
	assert_split("oom-hog --disk \"$DISK\"x", "oom-hog,--disk,/dev/vdbx");
	/* unset: the word goes, unless quoted */
	assert_split("spawn -n $UNSET", "spawn,-n");
	assert_split("spawn -n \"$UNSET\"", "spawn,-n,");
	/* an unquoted value is split at blanks, a quoted one is not */
	assert_split("a $TWO", "a,a,b");
	assert_split("a \"$TWO\"", "a,a  b");
	/* what only the guest knows */
	assert_split("spawn -n $N", "spawn,-n,?");
	assert_split("spawn -n $(nproc) x", "spawn,-n,?,x");
	assert_split("spawn -n `nproc`", "spawn,-n,?");
	assert_split("spawn -n $((2 * 3))", "spawn,-n,?");
	assert_split("a $1 $? ${N:-3}", "a,?,?,?");
	assert_split("ls /sys/node*", "ls,?/sys/node*");
	assert_split("a ~/x $HOME", "a,/root/x,/root");
	assert_split("a $ b", "a,$,b");
	assert_split("a $(b", "error: a $( without its )");
}

static void assignments(void **state)
{
	(void)state;
	/* assignments before a command are not its words; later words see them */
	assert_split("N=5 M=$N; spawn -n $M", "|spawn,-n,5");
	assert_split("N=$(nproc); spawn -n $N", "|spawn,-n,?");
	/* after the command's name NAME=value is an argument */
	assert_split("env A=1 b", "env,A=1,b");
	assert_split("'A'=1 b", "A=1,b");
	struct shell_line line;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(shell_line_split("A=1 B=2 prog x", lookup, NULL, &line, &err), 0);
	assert_int_equal(line.n, 1);
	assert_int_equal(line.commands[0].assignments, 2);
	assert_int_equal(line.commands[0].n, 2);
	shell_line_clear(&line);
}

/* A command's argv as the checks read it: from word K up to the first
 * word only the guest can know. */
static void known_words(void **state)
{
	(void)state;
	struct shell_line sl;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(shell_line_split("taskset 1 $GUEST_ONLY x", NULL, NULL, &sl, &err), 0);
	size_t n = 99;
	const char **argv = shell_command_known_words(&sl.commands[0], 0, &n);
	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "taskset");
	assert_string_equal(argv[1], "1");
	assert_null(argv[2]);
	free(argv);
	argv = shell_command_known_words(&sl.commands[0], 3, &n);
	assert_int_equal(n, 1);
	assert_string_equal(argv[0], "x");
	assert_null(argv[1]);
	free(argv);
	argv = shell_command_known_words(&sl.commands[0], 9, &n);
	assert_int_equal(n, 0);
	assert_null(argv[0]);
	free(argv);
	shell_line_clear(&sl);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words_and_quotes),
		cmocka_unit_test(commands_and_redirections),
		cmocka_unit_test(expansions),
		cmocka_unit_test(assignments),
		cmocka_unit_test(known_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
