/* The user's own folder of variants (user-variants.h). */
#include "user-variants.h"

#include <stdlib.h>

#include "common/paths.h"

size_t user_variant_folders(struct strlist *folders)
{
	char *mine = user_config_path("variants");
	/* absent is the usual case: a user who keeps no variants of their own */
	bool there = mine && is_dir(mine);
	if (there)
		strlist_push_owned(folders, mine);
	else
		free(mine);
	return there;
}
