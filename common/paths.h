/* Where things live: the repository the lab runs from, and the cache. */
#ifndef LAB_PATHS_H
#define LAB_PATHS_H

/* The oomlab checkout: $OOMLAB_ROOT, else the directory above build/lab. */
const char *repo_root(void);
/* A path inside the checkout; the result is malloc'd. */
char *repo_path(const char *relative);
/* $OOMLAB_CACHE, else $XDG_CACHE_HOME/oomlab, else ~/.cache/oomlab; created. */
const char *cache_root(void);
char *cache_path(const char *relative);
/* The running lab binary (/proc/self/exe): a child `lab` is this one. */
const char *lab_binary(void);
/* The folder the lab binary is in (build/): the guest programs are under guest/. */
const char *build_dir(void);
/* Results of runs: $OOMLAB_RESULTS, else <repo>/results. */
const char *results_root(void);

#endif
