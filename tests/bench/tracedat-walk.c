// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-walk.c - the fast reader's walk over every page of a file, with
 * every check and no analysis: what `report --reader libtracecmd` does
 * before it lets libtracecmd read the file (lib/source.c: tracedat_walk()),
 * timed on its own by tests/bench/report-bench so that it can be taken off.
 *
 *   tracedat-walk FILE
 *
 * Prints the records walked; exit 1 with the reader's one-line error.
 */
#include <stdio.h>

#include "tracedat.h"

int main(int argc, char **argv)
{
	unsigned long long records = 0;
	struct tracedat *td;
	char err[256];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: tracedat-walk FILE\n");
		return 2;
	}
	td = tracedat_open(argv[1], err, sizeof(err));
	if (!td) {
		fprintf(stderr, "tracedat-walk: %s\n", err);
		return 1;
	}
	ret = tracedat_walk(td);
	for (int cpu = 0; cpu < tracedat_cpus(td); cpu++)
		records += tracedat_cpu_events(td, cpu);
	if (ret)
		fprintf(stderr, "tracedat-walk: %s\n", tracedat_error(td) ? tracedat_error(td) : "failed");
	else
		printf("%llu records\n", records);
	tracedat_close(td);
	return ret ? 1 : 0;
}
