// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-json-column.c - what the writers of the page's data share
 * (timeline-json.c, timeline-json-frames.c): a column (a field of every
 * item of a tl_array, as a JSON array), a time as the page gives it.
 */
#include <inttypes.h>

#include "timeline.h"

/*
 * With @delta, each value is written as the difference to the previous
 * one (the first to @base): start times, and links that mostly grow.
 */
void tl_json_column(FILE *out, const char *name, const struct tl_array *a, tl_column_get get,
		    int first, int delta, int64_t base)
{
	int64_t prev = base;

	fprintf(out, "%s\"%s\":[", first ? "" : ",", name);
	for (size_t i = 0; i < a->n; i++) {
		int64_t v = get((const char *)a->v + i * a->size);

		fprintf(out, "%s%" PRId64, i ? "," : "", delta ? v - prev : v);
		prev = v;
	}
	fputc(']', out);
}

/* A model time as the page's: ns from the first event; -1 unknown (0). */
int64_t tl_since_start(const struct tl_data *d, uint64_t ts)
{
	return ts ? (int64_t)(ts - d->first_ts) : -1;
}
