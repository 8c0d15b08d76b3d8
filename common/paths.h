/* Where things live: the lab's own files, the user's, the cache and the results. */
#ifndef LAB_PATHS_H
#define LAB_PATHS_H

/* The lab's own files (kernels/, configs/): $OOMLAB_ROOT, else found from the
 * binary's place: PREFIX/share/oomlab for PREFIX/bin/lab (make install), else
 * the checkout above build/lab; else the current folder. */
const char *repo_root(void);
/* A path among the lab's own files; the result is malloc'd. */
char *repo_path(const char *relative);
/* A path among the user's own variants, experiments and profiles, malloc'd:
 * under $XDG_CONFIG_HOME/oomlab, else ~/.config/oomlab; NULL without either
 * variable. Nothing is created there. */
char *user_config_path(const char *relative);
/* $OOMLAB_CACHE, else $XDG_CACHE_HOME/oomlab, else ~/.cache/oomlab; created. */
const char *cache_root(void);
char *cache_path(const char *relative);
/* The running lab binary (/proc/self/exe): a child `lab` is this one. */
const char *lab_binary(void);
/* The folder of the guest programs' folders guest/ and guest-ARCH/: build/ in
 * a checkout, PREFIX/lib/oomlab installed. */
const char *build_dir(void);
/* Results of runs: $OOMLAB_RESULTS, else results/ of the current folder. */
const char *results_root(void);
/* The first character of PATH that a trial's folders cannot hold, or NULL:
 * a blank, newline, ',' (QEMU's -drive and -chardev options), a quote or a
 * backslash (the initramfs list). Checked where a folder is chosen, before
 * anything is built (path_plain_or_die). */
const char *path_unplain(const char *path);
/* Dies (bad input, one line) when WHAT's PATH has such a character. */
void path_plain_or_die(const char *command, const char *what, const char *path);

#endif
