/* The command lines of a run or a boot, split once (command-lines.h). */
#include "command-lines.h"

#include <stdlib.h>

void command_lines_clear(struct command_lines *c)
{
	for (size_t i = 0; i < c->n; i++) {
		shell_line_clear(&c->items[i].split);
		free(c->items[i].bad);
	}
	free(c->items);
	c->items = NULL;
	c->n = c->alloc = 0;
}
