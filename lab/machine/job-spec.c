/* The guest's job spec (job-spec.h). */
#include "job-spec.h"

#include <stdarg.h>
#include <string.h>


void job_spec_put(struct strbuf *sb, enum job_key key, const char *fmt, ...)
{
	if (job_keys[key].family)
		die("BUG: job key %s is a family: job_spec_put_member names the member", job_keys[key].name);
	va_list ap;
	strbuf_addf(sb, "%s=", job_keys[key].name);
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	strbuf_addstr(sb, "\n");
}

void job_spec_put_member(struct strbuf *sb, enum job_key family, const char *name, const char *fmt, ...)
{
	const char *prefix = job_keys[family].name;
	if (!job_keys[family].family || strncmp(name, prefix, strlen(prefix)) || !name[strlen(prefix)])
		die("BUG: %s is no member of the job key family %s", name, prefix);
	va_list ap;
	strbuf_addf(sb, "%s=", name);
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	strbuf_addstr(sb, "\n");
}
