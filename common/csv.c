/* CSV fields (csv.h). */
#include "csv.h"

#include <string.h>

void csv_put_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
