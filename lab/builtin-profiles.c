/* lab profiles: list the machine profiles, each validated on load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lab/cli/options.h"
#include "lab/machine/profile.h"

static const char profiles_usage[] =
	"usage: lab profiles [--verbose]\n"
	"\n"
	"Lists the machine profiles in the lab's configs/profiles/ and the user's\n"
	"$XDG_CONFIG_HOME/oomlab/profiles/ (~/.config/oomlab/profiles/) with a line\n"
	"each. A profile that does not load, or a name in both, is an error naming\n"
	"its files.\n"
	"\n";

int cmd_profiles(int argc, char **argv)
{
	bool verbose = false;
	const struct opt opts[] = {
		OPT_FLAG('v', "verbose", &verbose, "also print every setting of each profile"),
		OPT_END(),
	};
	if (lab_parse_options("profiles", argc, argv, opts, profiles_usage, NULL))
		die_usage("profiles: unexpected argument '%s'", argv[1]);
	struct strlist names = STRLIST_INIT;
	profile_names(&names);
	int rc = 0;
	for (size_t i = 0; i < names.n; i++) {
		struct profile p;
		struct strbuf err = STRBUF_INIT;
		if (profile_load(&p, names.items[i], &err) < 0) {
			error("%s", err.buf);
			rc = 2;
		} else {
			printf("%-22s %s\n", p.name, p.description);
			if (verbose) {
				char *text = profile_format(&p);
				for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
					printf("    %s\n", line);
				free(text);
			}
		}
		profile_clear(&p);
		strbuf_release(&err);
	}
	strlist_clear(&names);
	return rc;
}
