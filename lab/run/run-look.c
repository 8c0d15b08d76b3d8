/* One look of a sequential run (run-look.h). */
#include "run-look.h"

#include "analysis/compare/compare.h"
#include "analysis/run/run-data.h"
#include "analysis/verdict/compare_family.h"

int run_look(const char *run_dir, size_t *decided, size_t *rows, struct strbuf *err)
{
	struct run_data rd = { 0 };
	struct compare_family_spec spec = { .seed = 1 };
	struct compare_family family;
	*decided = *rows = 0;
	if (run_data_add(&rd, run_dir, err) < 0 || compare_family_build(&rd, &spec, &family, err) < 0) {
		run_data_free(&rd);
		return -1;
	}
	bool all = compare_table_decided(&family.table, decided, rows);
	compare_family_free(&family);
	run_data_free(&rd);
	return all ? 1 : 0;
}
