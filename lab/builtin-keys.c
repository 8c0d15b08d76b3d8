/* lab keys: every key an experiment or a profile may set, from the tables
 * their parsers use (key-table.h), as text, JSON or Markdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lab/cli/options.h"
#include "lab/keys/key-listing.h"
#include "lab/machine/profile.h"
#include "lab/run/experiment.h"
#include "lab/util/glob.h"

static const char keys_usage[] =
	"usage: lab keys [--format text|json|markdown] [experiment|profile]\n"
	"\n"
	"Lists every key of an experiment file (configs/experiments/NAME.conf) and of\n"
	"a profile (configs/profiles/NAME.conf), or of the one kind named: its type,\n"
	"default, the values it takes and what it means. The list is printed from the\n"
	"tables the parsers set the keys through, so it is what they take. A default\n"
	"in parentheses describes what holds without the key; any other default is\n"
	"the value a file without the key has.\n"
	"\n";

static const struct key_table *const all_tables[] = { &experiment_keys, &profile_keys };
#define N_TABLES (sizeof(all_tables) / sizeof(all_tables[0]))

/* The table of the kind named NAME; bad input, with the nearest kinds, when none is. */
static const struct key_table *table_named(const char *name)
{
	const char *kinds[N_TABLES];
	for (size_t i = 0; i < N_TABLES; i++) {
		if (!strcmp(name, all_tables[i]->kind))
			return all_tables[i];
		kinds[i] = all_tables[i]->kind;
	}
	struct strbuf near = STRBUF_INIT;
	if (glob_suggest(&near, kinds, N_TABLES, name, N_TABLES))
		die_usage("keys: no file kind '%s'. Did you mean %s?", name, near.buf);
	die_usage("keys: no file kind '%s' (experiment or profile)", name);
}

int cmd_keys(int argc, char **argv)
{
	enum { TEXT, JSON, MARKDOWN };
	static const char *const formats[] = { [TEXT] = "text", [JSON] = "json", [MARKDOWN] = "markdown",
					       NULL };
	int format = TEXT;
	const struct opt opts[] = {
		OPT_CHOICE('f', "format", &format, "F", formats, "text (the default), json or markdown"),
		OPT_END(),
	};
	int n = lab_parse_options("keys", argc, argv, opts, keys_usage, NULL);
	if (n > 1)
		die_usage("keys: unexpected argument '%s'", argv[2]);
	const struct key_table *one[1];
	const struct key_table *const *tables = all_tables;
	size_t n_tables = N_TABLES;
	if (n == 1) {
		one[0] = table_named(argv[1]);
		tables = one;
		n_tables = 1;
	}
	if (format == JSON) {
		json_t *list = key_listing_json(tables, n_tables);
		char *text = json_dumps(list, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("%s\n", text);
		free(text);
		json_decref(list);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	if (format == MARKDOWN)
		key_listing_markdown(&sb, tables, n_tables);
	else
		key_listing_text(&sb, tables, n_tables);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return 0;
}
