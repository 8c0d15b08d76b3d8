/* The experiment's key table (experiment-keys.c). */
#ifndef LAB_EXPERIMENT_KEYS_H
#define LAB_EXPERIMENT_KEYS_H

#include "lab/keys/key-table.h"

/* Every key an experiment may set, the table experiment_parse() sets them
 * through (experiment-keys.c). */
extern const struct key_table experiment_keys;

#endif
