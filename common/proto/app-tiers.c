/* Android's process tiers and their oom_score_adj (app-tiers.h). */
#include "app-tiers.h"

#include <string.h>

static const struct {
	const char *name;
	int adj;
} tiers[APP_TIER_COUNT] = {
	[APP_TIER_FOREGROUND] = { "foreground", APP_ADJ_FOREGROUND },
	[APP_TIER_VISIBLE] = { "visible", APP_ADJ_VISIBLE },
	[APP_TIER_PERCEPTIBLE] = { "perceptible", APP_ADJ_PERCEPTIBLE },
	[APP_TIER_SERVICE] = { "service", APP_ADJ_SERVICE },
	[APP_TIER_HOME] = { "home", APP_ADJ_HOME },
	[APP_TIER_PREVIOUS] = { "previous", APP_ADJ_PREVIOUS },
	[APP_TIER_SERVICE_B] = { "service-b", APP_ADJ_SERVICE_B },
	[APP_TIER_CACHED] = { "cached", APP_ADJ_CACHED_MIN },
};

const char *app_tier_name(enum app_tier tier)
{
	return (unsigned)tier < APP_TIER_COUNT ? tiers[tier].name : NULL;
}

int app_tier_from_name(const char *name)
{
	for (int t = 0; t < APP_TIER_COUNT; t++)
		if (!strcmp(tiers[t].name, name))
			return t;
	return -1;
}

int app_tier_adj(enum app_tier tier)
{
	return (unsigned)tier < APP_TIER_COUNT ? tiers[tier].adj : APP_ADJ_FOREGROUND;
}

enum app_tier app_tier_of_adj(int adj)
{
	enum app_tier found = APP_TIER_FOREGROUND;
	for (int t = 0; t < APP_TIER_COUNT; t++)
		if (adj >= tiers[t].adj)
			found = (enum app_tier)t;
	return found;
}
