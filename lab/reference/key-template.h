/*
 * A commented `key = value` file of a table's keys (key-table.h), for a
 * user to fill in: lab new writes one. Every key the table lists
 * (key_table_list(), a family's members one each) is in it, in the table's
 * order, under a comment of its meaning, type, values and default. A key
 * given a value is set; every other is commented out ('#' at the start of
 * its line), with its default when the default is a value a file may write.
 * It is made from the table the parser sets keys through, so it names what
 * the parser takes.
 */
#ifndef LAB_KEY_TEMPLATE_H
#define LAB_KEY_TEMPLATE_H

#include <stddef.h>

#include "common/util.h"
#include "lab/keys/key-table.h"

/* A key set in the template: KEY (a name key_table_list() gives) = VALUE. */
struct key_value {
	const char *key;
	const char *value;
};

/*
 * Appends to SB: HEAD (a paragraph, NULL for none) as comment lines, then
 * the keys of T. VALUES (N of them) are the keys set, in the order given
 * for one key (a key that repeats may be given more than once). -1 with one
 * line in ERR when a required key (KEY_REQUIRED) has no value, or a value
 * names no key T lists, or a second value a key that does not repeat.
 */
int key_template(struct strbuf *sb, const struct key_table *t, const char *head,
		 const struct key_value *values, size_t n, struct strbuf *err);

#endif
