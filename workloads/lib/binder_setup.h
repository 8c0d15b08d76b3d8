/* The binder device a workload talks through: the one named with --device,
 * or a fresh one made in binderfs for this run (removed at the end). */
#ifndef OOMLAB_BINDER_SETUP_H
#define OOMLAB_BINDER_SETUP_H

#include "binder.h"

/* Uses DEVICE if given, else creates one in BINDERFS (NULL: the default
 * mount); reports a "binder-device" event.  On failure prints one line
 * naming WORKLOAD and returns WL_EXIT_FAIL; 0 on success. */
int wl_binder_device_setup(const char *workload, struct binder_device *dev,
			   const char *device, const char *binderfs);

#endif
