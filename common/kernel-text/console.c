/* console.c - the kernel's lines of the serial console (console.h). */
#include "console.h"

#include <ctype.h>
#include <string.h>

bool console_parse_line(char *line, uint64_t *usec, const char **text)
{
	line[strcspn(line, "\r\n")] = '\0';
	const char *p = line;
	if (*p++ != '[')
		return false;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	uint64_t seconds = 0, micro = 0;
	while (isdigit((unsigned char)*p))
		seconds = seconds * 10 + (uint64_t)(*p++ - '0');
	if (*p++ != '.')
		return false;
	int digits = 0;
	for (; isdigit((unsigned char)*p); p++, digits++)
		micro = micro * 10 + (uint64_t)(*p - '0');
	if (digits != 6 || p[0] != ']' || p[1] != ' ')
		return false;
	*usec = seconds * 1000000 + micro;
	*text = p + 2;
	return true;
}
