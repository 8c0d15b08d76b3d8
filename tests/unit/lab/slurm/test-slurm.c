/* test-slurm.c - reading Slurm's answers (lab/slurm/slurm.c): squeue's and
 * sacct's lines as the lab asks for them, and which states are live. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "lab/slurm/slurm.h"

static void test_parse_answers(void **state)
{
	(void)state;
	struct slurm_job_state st;
	assert_int_equal(slurm_parse_squeue_line("103|PENDING|DependencyNeverSatisfied|", &st), 0);
	assert_string_equal(st.id, "103");
	assert_string_equal(st.state, "PENDING");
	assert_string_equal(st.reason, "DependencyNeverSatisfied");
	assert_null(st.node);
	assert_int_equal(st.exit_code, -1);
	assert_true(slurm_state_live(st.state));
	free(st.id), free(st.state), free(st.reason);
	assert_int_equal(slurm_parse_squeue_line("102_1|RUNNING|None|node3", &st), 0);
	assert_null(st.reason);
	assert_string_equal(st.node, "node3");
	free(st.id), free(st.state), free(st.node);
	assert_int_equal(slurm_parse_squeue_line("102_1|RUNNING", &st), -1);

	assert_int_equal(slurm_parse_sacct_line("102_2|FAILED|2:0|node4", &st), 0);
	assert_string_equal(st.id, "102_2");
	assert_string_equal(st.state, "FAILED");
	assert_int_equal(st.exit_code, 2);
	assert_false(slurm_state_live(st.state));
	free(st.id), free(st.state), free(st.node);
	assert_int_equal(slurm_parse_sacct_line("104|CANCELLED by 0|0:15|None assigned", &st), 0);
	assert_string_equal(st.state, "CANCELLED");
	assert_int_equal(st.exit_code, 0);
	free(st.id), free(st.state), free(st.node);
	assert_int_equal(slurm_parse_sacct_line("|COMPLETED|0:0|n", &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
