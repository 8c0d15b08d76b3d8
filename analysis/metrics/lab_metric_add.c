/* lab_metric_add.c - a lab figure added under its row (lab_metric_add.h). */
#include "lab_metric_add.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "metric_catalog.h"

static void add_as(struct metric_set *m, enum lab_metric id, const char *name, double value,
		   const char *source)
{
	const struct metric_def *row = metric_catalog_row_of(id, name);
	if (!row)
		die("BUG: lab metric %s is not of its row %s (lab_metric_rows.h)", name,
		    metric_catalog_row(id)->name);
	if (!*row->unit)
		die("BUG: lab metric %s: its row %s has no unit", name, row->name);
	metric_set_add(m, name, value, row->unit, source);
}

void lab_metric_add(struct metric_set *m, enum lab_metric id, double value, const char *source)
{
	const struct metric_def *row = metric_catalog_row(id);
	if (strchr(row->name, '*'))
		die("BUG: lab metric row %s is a family: add its figures by name", row->name);
	add_as(m, id, row->name, value, source);
}

void lab_metric_add_part(struct metric_set *m, enum lab_metric id, double value, const char *source,
			 const char *part)
{
	const char *glob = metric_catalog_row(id)->name, *star = strchr(glob, '*');
	if (!star || strchr(star + 1, '*'))
		die("BUG: lab metric row %s has not one '*' for %s", glob, part);
	char *name = xasprintf("%.*s%s%s", (int)(star - glob), glob, part, star + 1);
	add_as(m, id, name, value, source);
	free(name);
}

void lab_metric_addf(struct metric_set *m, enum lab_metric id, double value, const char *source,
		     const char *fmt, ...)
{
	struct strbuf name = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&name, fmt, ap);
	va_end(ap);
	add_as(m, id, name.buf, value, source);
	strbuf_release(&name);
}
