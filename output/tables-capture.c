// SPDX-License-Identifier: GPL-2.0
/*
 * tables-capture.c - the captures table (one row per capture: where and
 * what it was recorded on, by what, its span and what it lost) and the
 * "key": value helpers every table's rows are written with.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "json-str.h"
#include "tables.h"
#include "uname-fields.h"

void tables_u64(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, ", \"%s\": %" PRIu64, key, v);
}

void tables_u64_or_null(FILE *out, const char *key, int known, uint64_t v)
{
	if (known)
		tables_u64(out, key, v);
	else
		fprintf(out, ", \"%s\": null", key);
}

void tables_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, ", \"%s\": ", key);
	if (s)
		json_str(out, s);
	else
		fprintf(out, "null");
}

/* "PREFIX_log2_ns": 64 counts, element i those in [2^i, 2^(i+1)) ns (0 also 0 ns). */
void tables_log2(FILE *out, const char *prefix, const struct hist *h)
{
	fprintf(out, ", \"%s_log2_ns\": [", prefix);
	for (unsigned int p = 0; p < 64; p++)
		fprintf(out, "%s%" PRIu64, p ? ", " : "", hist_log2_count(h, p, 1));
	fprintf(out, "]");
}

/*
 * PREFIX_count, _p50_ns, _p90_ns, _p99_ns, _max_ns (null without samples,
 * as in report --json) and PREFIX_log2_ns (tables_log2()), so that
 * percentiles over many captures are computed from the sums of its arrays.
 */
void tables_latency(FILE *out, const char *prefix, const struct hist *h)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_count", prefix);
	tables_u64(out, key, h->count);
	snprintf(key, sizeof(key), "%s_p50_ns", prefix);
	tables_u64_or_null(out, key, h->count != 0, hist_percentile(h, 0.5));
	snprintf(key, sizeof(key), "%s_p90_ns", prefix);
	tables_u64_or_null(out, key, h->count != 0, hist_percentile(h, 0.9));
	snprintf(key, sizeof(key), "%s_p99_ns", prefix);
	tables_u64_or_null(out, key, h->count != 0, hist_percentile(h, 0.99));
	snprintf(key, sizeof(key), "%s_max_ns", prefix);
	tables_u64_or_null(out, key, h->count != 0, h->max);
	tables_log2(out, prefix, h);
}

#define MAX_DRIVERS 64

/* Add @d to @seen unless there, printing it the first time. */
static void driver_once(FILE *out, const char *d, const char **seen, unsigned int *n)
{
	if (!d || !d[0] || *n == MAX_DRIVERS)
		return;
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(seen[i], d))
			return;
	fprintf(out, "%s", *n ? ", " : "");
	json_str(out, d);
	seen[(*n)++] = d;
}

/* Every driver named by a fence timeline, a group or a CRTC, once (the first 64). */
static void drivers(FILE *out, const struct ft_model *m)
{
	const char *seen[MAX_DRIVERS];
	unsigned int n = 0;

	fprintf(out, ", \"drivers\": [");
	for (size_t i = 0; i < m->fences.timelines.n; i++)
		driver_once(out, m->fences.timelines.items[i].driver, seen, &n);
	for (size_t i = 0; i < m->fences.groups.n; i++)
		if (m->fences.groups.items[i].contexts)
			driver_once(out, m->fences.groups.items[i].driver, seen, &n);
	for (size_t i = 0; i < m->display.crtcs.n; i++)
		driver_once(out, m->display.crtcs.items[i].driver, seen, &n);
	fprintf(out, "]");
}

static void labels(FILE *out, const struct tables_meta *meta)
{
	fprintf(out, ", \"labels\": {");
	for (unsigned int i = 0; i < meta->n_labels; i++) {
		fprintf(out, "%s", i ? ", " : "");
		json_str(out, meta->labels[i].key);
		fprintf(out, ": ");
		json_str(out, meta->labels[i].value);
	}
	fprintf(out, "}");
}

/*
 * The wall clock at the first fence or vblank event, from record's marker:
 * its realtime moved by the trace time between the two (the marker comes
 * first in record's files).  null without a marker.
 */
static void wall_clock(FILE *out, const struct ft_model *m, const struct capture_marker *mk)
{
	int known = mk && m->events && (m->first_ts >= mk->ts || mk->realtime_ns >= mk->ts - m->first_ts);
	unsigned long long start = !known ? 0 : m->first_ts >= mk->ts ?
		mk->realtime_ns + (m->first_ts - mk->ts) : mk->realtime_ns - (mk->ts - m->first_ts);
	time_t sec = (time_t)(start / 1000000000ull);
	char utc[64];
	struct tm tm;

	tables_u64_or_null(out, "start_realtime_ns", known, start);
	if (known && gmtime_r(&sec, &tm)) {
		strftime(utc, sizeof(utc), "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(out, ", \"start_utc\": \"%s.%03lluZ\"", utc, start / 1000000ull % 1000);
	} else {
		fprintf(out, ", \"start_utc\": null");
	}
}

/** tables_captures() - the capture's one row */
int tables_captures(const struct tables_out *t)
{
	const struct ft_model *m = t->m;
	FILE *out = t->out;
	char host[256], rel[256];

	fprintf(out, "{\"schema_version\": %d", TABLES_SCHEMA_VERSION);
	tables_str(out, "file", t->meta->file);
	labels(out, t->meta);
	uname_fields(t->ri->uname, host, sizeof(host), rel, sizeof(rel));
	tables_str(out, "uname_host", host[0] ? host : NULL);
	tables_str(out, "kernel_release", rel[0] ? rel : NULL);
	tables_str(out, "uname", t->ri->uname);
	tables_str(out, "recorded_by", t->ri->recorder);
	tables_str(out, "exported_by", t->meta->exported_by);
	fprintf(out, ", \"format_version\": %d, \"cpus\": %d", t->ri->version, t->ri->cpus);
	tables_str(out, "clock", t->ri->clock ? t->ri->clock : "local");
	fprintf(out, ", \"series\": %s", m->dec->have_set[FT_SET_SERIES] ? "true" : "false");
	drivers(out, m);
	tables_u64(out, "events", m->events);
	tables_u64_or_null(out, "first_ns", m->events != 0, m->first_ts);
	tables_u64_or_null(out, "last_ns", m->events != 0, m->last_ts);
	tables_u64(out, "span_ns", m->events ? m->last_ts - m->first_ts : 0);
	wall_clock(out, m, t->meta->marker);
	tables_u64(out, "lost_events", m->lost);
	tables_u64(out, "lost_unknown_pages", m->lost_unknown);
	tables_u64(out, "missing_events", m->missing);
	fprintf(out, "}\n");
	return 0;
}
