/* The binder device a workload talks through. */
#include <errno.h>
#include <string.h>

#include "args.h"
#include "binder_setup.h"
#include "report.h"

int wl_binder_device_setup(const char *workload, struct binder_device *dev,
			   const char *device, const char *binderfs)
{
	if (device) {
		binder_device_use(dev, device);
	} else {
		int r = binder_device_create(dev, binderfs, NULL);
		if (r) {
			wl_err(workload, "cannot make a binder device in %s: %s%s",
			       binderfs ? binderfs : BINDERFS_DEFAULT, strerror(-r),
			       r == -ENOENT ? " (is binderfs mounted?)" : "");
			return WL_EXIT_FAIL;
		}
	}
	struct jl j;
	report_begin_event(&j, "binder-device");
	jl_str(&j, "path", dev->path);
	jl_bool(&j, "created", dev->created);
	report_end(&j);
	return 0;
}
