/* A metric's row (metric-row.h). */
#include "metric-row.h"

const char *metric_row_label_set(const struct metric_row *row, size_t i)
{
	if (!row->labels)
		return i == 0 ? "" : NULL;
	for (size_t k = 0; k < i; k++)
		if (!row->labels[k])
			return NULL;
	return row->labels[i];
}
