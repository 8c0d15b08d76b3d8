/* CSV fields (csv.h). */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

/* Whether a spreadsheet would take S as a formula: it starts with = + - @
 * (or a tab or carriage return, which some strip first), and is no number
 * and no lone "-" (OWASP's CSV injection). */
static bool formula_like(const char *s)
{
	if (!*s || !strchr("=+-@\t\r", s[0]))
		return false;
	if (!strcmp(s, "-"))
		return false;
	char *end;
	strtod(s, &end);
	return end == s || *end;
}

void csv_put_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!s)
		return;
	/* a name a guest chose (a metric, a unit) can be a formula: a ' before it */
	bool guard = formula_like(s);
	if (!strpbrk(s, ",\"\r\n")) {
		if (guard)
			fputc('\'', out);
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (guard)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
