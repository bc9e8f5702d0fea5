// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-json-column.c - one column of the page's data (timeline-json.c):
 * a field of every item of a tl_array, as a JSON array.
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
