/*
 * An Android app's importance as the platform tells the kernel: its
 * process's oom_score_adj (ProcessList's values). Defined once for the
 * guest's low-memory killer (which kills the highest tier first), the apps
 * workload (which sets the adj when an app changes state) and the host
 * (which counts kills by tier).
 */
#ifndef OOMLAB_APP_TIERS_H
#define OOMLAB_APP_TIERS_H

enum app_tier {
	APP_TIER_FOREGROUND,    /* oom_score_adj 0: the app on screen */
	APP_TIER_VISIBLE,       /* 100: visible but not in front */
	APP_TIER_PERCEPTIBLE,   /* 200: the user would notice (music, say) */
	APP_TIER_SERVICE,       /* 500: a background service (service A) */
	APP_TIER_HOME,          /* 600: the launcher, when not in front */
	APP_TIER_PREVIOUS,      /* 700: the app the user left last, for 60 s */
	APP_TIER_SERVICE_B,     /* 800: a service beyond the newest third */
	APP_TIER_CACHED,        /* 900..999: kept only to start warm */
	APP_TIER_COUNT
};

/* The lowest oom_score_adj of each tier; cached apps use 900..999. */
#define APP_ADJ_FOREGROUND   0
#define APP_ADJ_VISIBLE      100
#define APP_ADJ_PERCEPTIBLE  200
#define APP_ADJ_SERVICE      500
#define APP_ADJ_HOME         600
#define APP_ADJ_PREVIOUS     700
#define APP_ADJ_SERVICE_B    800
#define APP_ADJ_CACHED_MIN   900
#define APP_ADJ_CACHED_MAX   999

/* "foreground", "visible", "perceptible", "service", "home", "previous",
 * "service-b", "cached"; NULL out of range. */
const char *app_tier_name(enum app_tier tier);
/* The tier named NAME, or -1. */
int app_tier_from_name(const char *name);
/* The tier's lowest oom_score_adj. */
int app_tier_adj(enum app_tier tier);
/* The highest tier whose lowest adj is at most ADJ; a negative adj (system
 * processes) is foreground. */
enum app_tier app_tier_of_adj(int adj);

#endif
