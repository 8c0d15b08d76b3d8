/* stamp-lines: copies stdin to stdout, each line led by the host seconds
 * (CLOCK_MONOTONIC) since the program started, "%.3f ": when each line of a
 * guest's serial console came (tests/bench/boot-phases). */
#include <stdio.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	double start = now();
	int c, at_start = 1;
	while ((c = getchar()) != EOF) {
		if (at_start)
			printf("%.3f ", now() - start);
		putchar(c);
		at_start = c == '\n';
		if (at_start)
			fflush(stdout);
	}
	return 0;
}
