/* Unit tests: a mistyped command (lab/cli/command-suggest.h) is one line naming
 * the commands nearest it, through the suggestions a mistyped metric or key
 * gets (glob_suggest()); a swap of two letters is one slip; with none near,
 * where the commands are listed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lab/cli/command-suggest.h"

/* words like the lab's commands (lab.c's table is the binary's own) */
static const char *const commands[] = { "kernel", "boot", "profiles", "keys", "new", "run",
					"compare", "results", "report", "export", "bisect", "version" };
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void expect_line(const char *command, const char *typed, const char *const *names, size_t n,
			const char *want)
{
	char *line = not_a_command(command, typed, names, n);
	assert_string_equal(line, want);
	free(line);
}

static void a_mistyped_command_gets_the_nearest(void **state)
{
	(void)state;
	expect_line(NULL, "rnu", commands, N_COMMANDS, "'rnu' is not a lab command. Did you mean 'run'?");
	expect_line(NULL, "comapre", commands, N_COMMANDS,
		    "'comapre' is not a lab command. Did you mean 'compare'?");
	expect_line(NULL, "bisetc", commands, N_COMMANDS,
		    "'bisetc' is not a lab command. Did you mean 'bisect'?");
	/* several near, nearest first */
	expect_line(NULL, "reports", commands, N_COMMANDS,
		    "'reports' is not a lab command. Did you mean 'report', 'results' or 'export'?");
	/* none near */
	expect_line(NULL, "xyzzy", commands, N_COMMANDS, "'xyzzy' is not a lab command (see lab --help)");
}

static void a_mistyped_subcommand_too(void **state)
{
	(void)state;
	static const char *const kernel[] = { "list", "build", "path" };
	expect_line("kernel", "biuld", kernel, 3,
		    "kernel: 'biuld' is not a lab kernel command. Did you mean 'build'?");
	expect_line("kernel", "lsit", kernel, 3,
		    "kernel: 'lsit' is not a lab kernel command. Did you mean 'list'?");
	expect_line("kernel", "frobnicate", kernel, 3,
		    "kernel: 'frobnicate' is not a lab kernel command (see lab kernel --help)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_mistyped_command_gets_the_nearest),
		cmocka_unit_test(a_mistyped_subcommand_too),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
