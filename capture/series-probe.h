/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series-probe.h - which patches of the fence-trace kernel series
 * (kernel/series) a running kernel carries, told by what each patch adds
 * that can be seen from user space: its trace events, a field it adds to
 * an event, a debugfs file.  `fence-trace check` asks; a test can answer
 * from a made-up kernel.
 */
#ifndef FENCE_TRACE_SERIES_PROBE_H
#define FENCE_TRACE_SERIES_PROBE_H

#include <stddef.h>

/*
 * What a patch adds, one item each:
 *   "SYSTEM:EVENT"        a trace event
 *   "SYSTEM:EVENT.FIELD"  a field of an event's format
 *   "@NAME"               something else the caller knows how to probe
 *                         ("@sync_info": sync/info lists sync_files;
 *                         "@fence_timeline": dri/N/crtc-M/fence_timeline)
 */
struct series_patch {
	const char *number;		/* "0006", as in kernel/series */
	const char *adds;		/* in plain words */
	const char *const *items;	/* NULL-terminated */
};

enum probe_answer { PROBE_ABSENT, PROBE_PRESENT, PROBE_UNKNOWN };

/* Answers whether @item (above) is there; PROBE_UNKNOWN: cannot tell. */
typedef enum probe_answer (*series_have_fn)(void *ctx, const char *item);

enum patch_state {
	PATCH_ABSENT,		/* none of its items */
	PATCH_PARTIAL,		/* some of its items: an older or changed patch */
	PATCH_PRESENT,		/* all of them */
	PATCH_UNKNOWN,		/* none missing, but some could not be told */
};

#define SERIES_MAX_MISSING 512

struct patch_result {
	const struct series_patch *patch;
	enum patch_state state;
	unsigned int present, total;
	char missing[SERIES_MAX_MISSING];	/* the absent items, ", "-separated */
};

#define SERIES_MAX_PATCHES 12

struct series_result {
	struct patch_result patches[SERIES_MAX_PATCHES];
	unsigned int n_patches;
	const char *newest;	/* the newest patch present in full, or NULL */
	int complete;		/* every observable patch present (unknowns aside) */
	int any;		/* any item of the series seen */
	unsigned int n_absent;	/* patches looked at with nothing of them there */
	unsigned int n_unknown;	/* patches that could not be looked at */
};

const struct series_patch *series_patches(size_t *count);
void series_probe(series_have_fn have, void *ctx, struct series_result *out);
int series_version(const struct series_result *r, char *buf, size_t len);

#endif
