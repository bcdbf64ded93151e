// SPDX-License-Identifier: MIT
/*
 * The machine's own floor for a paced sender: a loop that does nothing but wait for each
 * deadline of a RATE schedule for SECS seconds, by spinning on the clock or by sleeping to it
 * (clock_nanosleep, absolute, 1 ns timer slack), and says how late it woke, as pktbench's
 * rows do (pace_error_p50_us, p99): pktbench's pacer cannot be more exact than this loop on
 * the same machine at the same moment. bench/pace.sh runs it beside pktbench.
 *   bench_pace spin|sleep RATE SECS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double rate, secs, gap, t0, *late, cpu;
	struct rusage ru;
	long n, i;
	int spin;

	if (argc != 4 || (strcmp(argv[1], "spin") && strcmp(argv[1], "sleep")) ||
	    (rate = atof(argv[2])) <= 0 || (secs = atof(argv[3])) <= 0) {
		fprintf(stderr, "usage: bench_pace spin|sleep RATE SECS\n");
		return 2;
	}
	spin = !strcmp(argv[1], "spin");
	gap = 1.0 / rate;
	n = (long)(secs * rate);
	late = malloc(n * sizeof(*late));
	if (!late)
		return 1;
	prctl(PR_SET_TIMERSLACK, 1UL);
	t0 = now() + 0.01;
	for (i = 0; i < n; i++) {
		double due = t0 + (double)(i + 1) * gap, t;

		if (!spin) {
			struct timespec ts = { .tv_sec = (time_t)due,
					       .tv_nsec = (long)((due - (time_t)due) * 1e9) };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		while ((t = now()) < due)
			;
		late[i] = (t - due) * 1e6;
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	      ru.ru_stime.tv_usec / 1e6;
	qsort(late, n, sizeof(*late), cmp);
	printf("%s %.0f pps: late p50 %.1f p99 %.1f max %.0f us, cpu %.1f %%\n", argv[1], rate,
	       late[n / 2], late[n * 99 / 100], late[n - 1], 100 * cpu / secs);
	free(late);
	return 0;
}
