/* A mistyped command and the nearest ones (command-suggest.h). */
#include "command-suggest.h"

#include <stdlib.h>

#include "common/util.h"
#include "lab/util/glob.h"

char *not_a_command(const char *command, const char *typed, const char *const *names, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	if (command)
		strbuf_addf(&sb, "%s: '%s' is not a lab %s command", command, typed, command);
	else
		strbuf_addf(&sb, "'%s' is not a lab command", typed);
	struct strbuf near = STRBUF_INIT;
	if (glob_suggest(&near, names, n, typed, COMMAND_SUGGESTED))
		strbuf_addf(&sb, ". Did you mean %s?", near.buf);
	else
		strbuf_addf(&sb, " (see lab%s%s --help)", command ? " " : "", command ? command : "");
	strbuf_release(&near);
	return strbuf_detach(&sb);
}

void die_not_a_command(const char *command, const char *typed, const char *const *names, size_t n)
{
	char *line = not_a_command(command, typed, names, n);
	die_usage("%s", line);
}
