/* The files lab new writes (file-templates.h). */
#include "file-templates.h"

#include <stdlib.h>
#include <string.h>

#include "key-template.h"
#include "lab/machine/profile.h"
#include "lab/run/experiment.h"

int experiment_template(struct strbuf *sb, const char *name, const char *file, const char *variant,
			struct strbuf *err)
{
	/* as lab run -x takes a path: with a '/' or ending in .conf */
	char *path = strchr(file, '/') || ends_with(file, ".conf") ? xstrdup(file)
								    : xasprintf("./%s", file);
	char *head = xasprintf(
		"Experiment %s: %s against stock, written by lab new experiment from the lab's table of "
		"experiment keys (lab keys experiment has the same rows). Run it with lab run -x "
		"%s, or put it in configs/experiments/ as %s.conf and run lab run -x %s. "
		"The required keys are set; every other key is commented out with its default: "
		"remove the '#' to set it. A '#' starts a comment only at the start of a line.%s",
		name, variant ? variant : "your variant", path, name, name,
		variant ? "" : " Replace " TEMPLATE_VARIANT " in variants with your variant's name (lab "
			       "kernel list), or write the file with lab new experiment --variant V.");
	char *description = xasprintf("%s against stock: OOM kills and memory under a memcg memory "
				      "hog on %s", variant ? variant : TEMPLATE_VARIANT, TEMPLATE_PROFILE);
	char *variants = xasprintf("stock %s", variant ? variant : TEMPLATE_VARIANT);
	const struct key_value values[] = {
		{ "description", description },
		{ "variants", variants },
		{ "profile", TEMPLATE_PROFILE },
		{ "workload", TEMPLATE_WORKLOAD },
	};
	int rc = key_template(sb, &experiment_keys, head, values, sizeof(values) / sizeof(values[0]),
			      err);
	free(variants);
	free(description);
	free(head);
	free(path);
	return rc;
}

int profile_template(struct strbuf *sb, const char *name, struct strbuf *err)
{
	char *head = xasprintf(
		"Profile %s: a machine the trials boot, written by lab new profile from the lab's table "
		"of profile keys (lab keys profile has the same rows). Put this file in "
		"configs/profiles/ as %s.conf: lab profiles lists it, and profile = %s in an experiment (or lab run -p %s) "
		"boots it. The required keys are set; every other key is commented out with its "
		"default: remove the '#' to set it.",
		name, name, name, name);
	char *description = xasprintf("%s: 512 MiB, 2 CPUs, no swap", name);
	const struct key_value values[] = {
		{ "description", description },
		{ "memory", "512M" },
	};
	int rc = key_template(sb, &profile_keys, head, values, sizeof(values) / sizeof(values[0]), err);
	free(description);
	free(head);
	return rc;
}
