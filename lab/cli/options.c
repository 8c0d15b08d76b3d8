/* The lab's manners for its commands' options (options.h). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/compare_fail_on.h"
#include "common/util.h"
#include "lab/machine/clock.h"

int lab_parse_options(const char *command, int argc, char **argv, const struct opt *opts,
		      const char *head, const char *tail)
{
	return lab_parse_options_until(command, argc, argv, opts, head, tail, -1);
}

int lab_parse_options_until(const char *command, int argc, char **argv, const struct opt *opts,
			    const char *head, const char *tail, int operands_before)
{
	char err[OPT_ERR_MAX];
	int n = parse_options_until(argc, argv, opts, operands_before, err);
	if (n == OPT_PARSE_HELP) {
		print_usage(stdout, head, opts, tail);
		exit(0);
	}
	if (n == OPT_PARSE_ERROR)
		die_usage("%s: %s (see lab %s --help)", command, err, command);
	return n;
}

/* The widest line of the heads' paragraphs (print_usage wraps options' help
 * at 80, from their column). */
#define PARAGRAPH_WIDTH 78

void usage_add_paragraph(struct strbuf *sb, const char *text)
{
	size_t at = 0;

	for (;;) {
		text += strspn(text, " \n");
		if (!*text)
			break;
		size_t word = strcspn(text, " \n");
		if (at && at + 1 + word > PARAGRAPH_WIDTH) {
			strbuf_addstr(sb, "\n");
			at = 0;
		} else if (at) {
			strbuf_addstr(sb, " ");
			at++;
		}
		strbuf_add(sb, text, word);
		at += word;
		text += word;
	}
	if (at)
		strbuf_addstr(sb, "\n");
}

int opt_push(const struct opt *o, const char *value, char *err, size_t err_size)
{
	(void)err;
	(void)err_size;
	strlist_push(o->target, value);
	return 0;
}

int opt_seconds(const struct opt *o, const char *value, char *err, size_t err_size)
{
	double v;
	if (!parse_double(value, &v) || v <= 0) {
		snprintf(err, err_size, "wants a positive number of seconds, not '%s'", value);
		return -1;
	}
	*(double *)o->target = v;
	return 0;
}

int opt_clock(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct clock_choice *c = o->target;
	if (guest_clock_parse(value, &c->clock) < 0) {
		snprintf(err, err_size, "%s, not '%s'", guest_clock_bad_value, value);
		return -1;
	}
	c->from = "--clock";
	return 0;
}

int opt_fail_on(const struct opt *o, const char *value, char *err, size_t err_size)
{
	struct strbuf why = STRBUF_INIT;
	int rc = compare_fail_on_parse(value, o->target, &why);
	if (rc < 0)
		snprintf(err, err_size, "%s", why.buf);
	strbuf_release(&why);
	return rc;
}

const char *opt_fail_on_help(void)
{
	static struct strbuf help = STRBUF_INIT;
	if (!help.len) {
		strbuf_addstr(&help, "exit 3 when a row of the table (the headline metrics, or those "
			      "--metric names) has one of these verdicts, a comma list of: ");
		compare_fail_on_list(&help);
		strbuf_addstr(&help, " (1 stays an error, 2 bad input)");
	}
	return help.buf;
}
