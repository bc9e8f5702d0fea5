// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto-write.c - what every writer of the Perfetto export needs: a
 * time field in trace-event microseconds, a track's name and sort index.
 */
#include <inttypes.h>

#include "json-str.h"
#include "perfetto.h"

/* Trace-event times are microseconds; keep the nanoseconds as decimals. */
void perfetto_us(FILE *out, const char *key, uint64_t ns)
{
	fprintf(out, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned int)(ns % 1000));
}

/* A process or thread name (@what: "process_name", "thread_name") and its sort index. */
void perfetto_meta(FILE *out, const char *what, int pid, uint64_t tid, const char *name, int sort)
{
	fprintf(out, ",\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu64 ",\"args\":{\"name\":",
		what, pid, tid);
	json_str(out, name);
	fputs("}}", out);
	fprintf(out, ",\n{\"name\":\"%s_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu64
		",\"args\":{\"sort_index\":%d}}", what[0] == 'p' ? "process" : "thread", pid, tid, sort);
}
