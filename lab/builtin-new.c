/* lab new: a commented experiment or profile file to fill in, made from the
 * table of keys its parser uses (file-templates.h), so that it names every
 * key the lab takes and nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "lab/cli/command-suggest.h"
#include "lab/cli/options.h"
#include "lab/machine/profile.h"
#include "lab/reference/file-templates.h"
#include "lab/run/experiment.h"

static const char new_usage[] =
	"usage: lab new experiment [--variant V] [-o FILE] NAME\n"
	"       lab new profile [-o FILE] NAME\n"
	"\n"
	"  experiment  writes NAME.conf: an experiment of a variant against stock\n"
	"              (variants = stock V; without --variant, " TEMPLATE_VARIANT " stands for\n"
	"              yours and lab run refuses it until it is replaced), on\n"
	"              " TEMPLATE_PROFILE ", its workload " TEMPLATE_WORKLOAD "\n"
	"  profile     writes NAME.conf: a machine profile of 512M\n"
	"\n"
	"Every key the file may set is in it, from the table lab keys prints and the\n"
	"parser sets keys through: the required ones set, each other one commented\n"
	"out with its default and what it means. The file is checked by the parser\n"
	"before it is written. An existing file is never overwritten (exit 2).\n"
	"\n";

/* Writes TEXT to FILE, which must not exist yet (exit 2 when it does). */
static void write_new(const char *command, const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 && errno == EEXIST)
		die_usage("%s: %s exists; not overwritten (remove it, or write another with -o FILE)",
			  command, file);
	if (fd < 0)
		die("%s: %s: %s", command, file, strerror(errno));
	size_t len = strlen(text);
	ssize_t put = write(fd, text, len);
	if (put != (ssize_t)len || close(fd) < 0) {
		int saved = errno;
		unlink(file);
		die("%s: writing %s: %s", command, file, put < 0 || saved ? strerror(saved) : "short write");
	}
}

/* The file NAME is written to: OUT, or NAME.conf (NAME if it ends so). */
static char *file_for(const char *name, const char *out)
{
	return out ? xstrdup(out) : ends_with(name, ".conf") ? xstrdup(name) : xasprintf("%s.conf", name);
}

/* NAME as a file's kind names it: its base name without .conf. */
static char *short_name(const char *name)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	return xstrndup(base, ends_with(base, ".conf") ? strlen(base) - 5 : strlen(base));
}

static int new_experiment(int argc, char **argv)
{
	const char *variant = NULL, *out = NULL;
	const struct opt opts[] = {
		OPT_STRING(0, "variant", &variant, "V", "the variant compared against stock (lab kernel list)"),
		OPT_STRING('o', "out", &out, "FILE", "write FILE rather than NAME.conf"),
		OPT_END(),
	};
	int n = lab_parse_options("new experiment", argc, argv, opts, new_usage, NULL);
	if (n != 1)
		die_usage("new experiment: name the experiment, once (see lab new --help)");
	char *name = short_name(argv[1]), *file = file_for(argv[1], out);
	if (!*name)
		die_usage("new experiment: '%s' names no experiment", argv[1]);
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	if (experiment_template(&text, name, file, variant, &err) < 0)
		die("new experiment: %s", err.buf);
	/* the parser's word on it, before it is written: a --variant it refuses is bad input */
	struct experiment e;
	if (experiment_parse(&e, name, file, text.buf, &err) < 0)
		die_usage("new experiment: --variant %s: %s", variant ? variant : "", err.buf);
	experiment_clear(&e);
	write_new("new experiment", file, text.buf);
	note("new experiment: wrote %s (%s against stock)%s", file, variant ? variant : TEMPLATE_VARIANT,
	     variant ? "" : "; replace " TEMPLATE_VARIANT " with your variant's name");
	strbuf_release(&text);
	strbuf_release(&err);
	free(name);
	free(file);
	return 0;
}

static int new_profile(int argc, char **argv)
{
	const char *out = NULL;
	const struct opt opts[] = {
		OPT_STRING('o', "out", &out, "FILE", "write FILE rather than NAME.conf"),
		OPT_END(),
	};
	int n = lab_parse_options("new profile", argc, argv, opts, new_usage, NULL);
	if (n != 1)
		die_usage("new profile: name the profile, once (see lab new --help)");
	char *name = short_name(argv[1]), *file = file_for(argv[1], out);
	if (!*name)
		die_usage("new profile: '%s' names no profile", argv[1]);
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	if (profile_template(&text, name, &err) < 0)
		die("new profile: %s", err.buf);
	struct profile p;
	if (profile_parse(&p, name, file, text.buf, &err) < 0)
		die("new profile: %s", err.buf);
	profile_clear(&p);
	write_new("new profile", file, text.buf);
	note("new profile: wrote %s", file);
	strbuf_release(&text);
	strbuf_release(&err);
	free(name);
	free(file);
	return 0;
}

int cmd_new(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_usage(argc < 2 ? stderr : stdout, new_usage, (const struct opt[]){ OPT_END() }, NULL);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} kinds[] = {
		{ "experiment", new_experiment },
		{ "profile", new_profile },
	};
	enum { N = sizeof(kinds) / sizeof(kinds[0]) };
	const char *names[N];
	for (size_t i = 0; i < N; i++) {
		if (!strcmp(argv[1], kinds[i].name))
			return kinds[i].run(argc - 1, argv + 1);
		names[i] = kinds[i].name;
	}
	die_not_a_command("new", argv[1], names, N);
}
