/*
 * Variants given on the command line (lab run --variant NAME=SPEC, lab boot
 * --variant): each becomes a variant folder like those of kernels/variants/,
 * staged in the cache under the hash of what it holds
 * (<cache>/given/HASH/NAME/), so that the catalogue reads it as any other
 * (kernel_catalog_add_folder) and the same spec is the same folder. A run
 * keeps a copy in <run>/variants/, so that --resume and a run folder taken
 * elsewhere need nothing else.
 *
 *   NAME                  a variant the lab knows, as it is
 *   NAME=OTHER            a copy of the known variant OTHER, named NAME
 *   NAME=patch:F[,F...]   the baseline's source, fragment, command line and
 *                         patches, then the files F, applied in the order given
 *   NAME=git:DIR@REF      REF of the git repository DIR; its commit is what
 *                         the folder keeps, so a branch that moves on does
 *                         not move a run
 *   NAME=tree:DIR         the kernel source tree DIR
 *   NAME=bzimage:FILE     a prebuilt kernel
 *
 * Everything a spec names is checked as it is staged: bad input is one line
 * "--variant 'ARG': ...", before anything is built or booted.
 */
#ifndef LAB_VARIANT_GIVEN_H
#define LAB_VARIANT_GIVEN_H

#include <jansson.h>

#include "common/util.h"

struct given_variant {
	char *name;
	char *spec;    /* as given after NAME=, or NULL for a known variant */
	char *folder;  /* the staged NAME/ (NULL for a known variant) */
};

struct given_variants {
	struct given_variant *items;
	size_t n;
};

/* The variant name ARG gives ("mine" of "mine=patch:x.patch"; malloc'd). */
char *given_variant_name(const char *arg);
/*
 * Stages every ARGS (--variant's values, in order); BASELINE names the
 * variant patch: specs go on top of (one of ARGS or a known variant). Adds
 * each staged folder's parent to the catalogue. -1 with one line in ERR.
 */
int given_variants_stage(struct given_variants *out, const struct strlist *args, const char *baseline,
			 struct strbuf *err);
/* Copies the staged folders into DIR/variants/ (a run's own copy); -1 with ERR. */
int given_variants_keep(const struct given_variants *set, const char *dir, struct strbuf *err);
/* [{"name", "spec"}...] of the staged ones, for run.json. */
json_t *given_variants_json(const struct given_variants *set);
void given_variants_clear(struct given_variants *set);

#endif
