/* The profile's key table (profile-keys.c). */
#ifndef LAB_PROFILE_KEYS_H
#define LAB_PROFILE_KEYS_H

#include "lab/keys/key-table.h"

/* Every key a profile may set, the table profile_parse() sets them through
 * (profile-keys.c). */
extern const struct key_table profile_keys;

#endif
