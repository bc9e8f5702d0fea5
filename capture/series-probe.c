// SPDX-License-Identifier: GPL-2.0
/*
 * series-probe.c - which patches of the fence-trace kernel series a kernel
 * carries (see series-probe.h).  The event lists follow the format files
 * in tracepoints/formats/; a unit test holds them to each other.
 */
#include <stdio.h>
#include <string.h>

#include "series-probe.h"

static const char *const p0004[] = { "@sync_info", NULL };
static const char *const p0005[] = {
	"dma_fence:dma_fence_init.fence", "dma_fence:dma_fence_emit.fence",
	"dma_fence:dma_fence_enable_signal.fence", "dma_fence:dma_fence_signaled.fence",
	"dma_fence:dma_fence_wait_start.fence", "dma_fence:dma_fence_wait_end.fence",
	"dma_fence:dma_fence_destroy.fence", NULL,
};
static const char *const p0006[] = {
	"drm_fence:drm_fence_commit", "drm_fence:drm_fence_commit_failed",
	"drm_fence:drm_fence_commit_tail", "drm_fence:drm_fence_hw_done",
	"drm_fence:drm_fence_cleanup_done", "drm_fence:drm_fence_flip_done", NULL,
};
static const char *const p0007[] = {
	"drm_fence:drm_fence_out_create", "drm_fence:drm_fence_out_install",
	"drm_fence:drm_fence_out_signal", NULL,
};
static const char *const p0008[] = {
	"drm_fence:drm_fence_plane", "drm_fence:drm_fence_wait_begin",
	"drm_fence:drm_fence_wait_end", NULL,
};
static const char *const p0009[] = { "drm_fence:drm_fence_commit_stall", NULL };
static const char *const p0010[] = { "drm:drm_vblank_enable", "drm:drm_vblank_disable", NULL };
static const char *const p0011[] = {
	"sync_file:sync_file_create", "sync_file:sync_file_release",
	"sync_file:sync_file_poll_begin", "sync_file:sync_file_poll_ready",
	"sync_file:sync_file_merge", "sync_file:sync_file_install",
	"sync_file:sync_file_get_fence", NULL,
};
static const char *const p0012[] = {
	"drm_fence:drm_fence_out_discard", "drm_fence:drm_fence_out_create.crtc_name", NULL,
};
static const char *const p0013[] = { "dma_fence:dma_fence_error", "dma_fence:dma_fence_member", NULL };
static const char *const p0014[] = { "@fence_timeline", NULL };

/*
 * 0001-0003 fix bugs, 0015 makes drivers' execbuf
 * out-fence fds emit sync_file_install (no such driver in the lab) and 0016
 * is documentation: nothing to see from outside.
 */
static const struct series_patch patches[] = {
	{ "0004", "debugfs sync/info lists live sync_files", p0004 },
	{ "0005", "the fence's identity in the dma_fence:* events", p0005 },
	{ "0006", "drm_fence:* commit id and commit stages", p0006 },
	{ "0007", "drm_fence:* out-fence create, install, signal", p0007 },
	{ "0008", "drm_fence:* plane fences and their waits", p0008 },
	{ "0009", "drm_fence_commit_stall", p0009 },
	{ "0010", "drm:drm_vblank_enable and _disable", p0010 },
	{ "0011", "sync_file:* events", p0011 },
	{ "0012", "drm_fence_out_discard, crtc_name in drm_fence_out_create", p0012 },
	{ "0013", "dma_fence_error and dma_fence_member", p0013 },
	{ "0014", "debugfs dri/N/crtc-M/fence_timeline", p0014 },
};

const struct series_patch *series_patches(size_t *count)
{
	*count = sizeof(patches) / sizeof(patches[0]);
	return patches;
}

static void probe_patch(const struct series_patch *p, series_have_fn have, void *ctx,
			struct patch_result *r)
{
	unsigned int unknown = 0;

	memset(r, 0, sizeof(*r));
	r->patch = p;
	for (const char *const *item = p->items; *item; item++) {
		enum probe_answer a = have(ctx, *item);
		size_t used = strlen(r->missing);

		r->total++;
		if (a == PROBE_PRESENT)
			r->present++;
		else if (a == PROBE_UNKNOWN)
			unknown++;
		else
			snprintf(r->missing + used, sizeof(r->missing) - used, "%s%s",
				 used ? ", " : "", *item);
	}
	if (r->present == r->total)
		r->state = PATCH_PRESENT;
	else if (r->present + unknown == r->total)
		r->state = PATCH_UNKNOWN;
	else
		r->state = r->present ? PATCH_PARTIAL : PATCH_ABSENT;
}

/**
 * series_probe() - ask @have about every observable patch of the series
 * @out: per patch, what is there and what is missing; the newest patch
 *       present in full; whether the series is complete
 */
void series_probe(series_have_fn have, void *ctx, struct series_result *out)
{
	memset(out, 0, sizeof(*out));
	out->complete = 1;
	for (size_t i = 0; i < sizeof(patches) / sizeof(patches[0]); i++) {
		struct patch_result *r = &out->patches[out->n_patches++];

		probe_patch(&patches[i], have, ctx, r);
		if (r->state == PATCH_PRESENT)
			out->newest = patches[i].number;
		if (r->state == PATCH_ABSENT || r->state == PATCH_PARTIAL)
			out->complete = 0;
		if (r->present)
			out->any = 1;
		if (r->state == PATCH_UNKNOWN)
			out->n_unknown++;
		if (r->state == PATCH_ABSENT)
			out->n_absent++;
	}
}

/* After the first @used bytes of @buf, " NNNN" for each patch in state @a or @b. */
static void list_patches(const struct series_result *r, enum patch_state a, enum patch_state b,
			 char *buf, size_t len, size_t used)
{
	for (unsigned int i = 0; i < r->n_patches && used < len; i++)
		if (r->patches[i].state == a || r->patches[i].state == b)
			used += (size_t)snprintf(buf + used, len - used, " %s",
						 r->patches[i].patch->number);
}

/**
 * series_version() - the series as one phrase: "present in full, up to patch
 * 0014 ...", "cannot tell in full (...); present: 0006", "partial or older:
 * the newest patch present in full is 0011; incomplete: 0012 0013 0014",
 * "absent (...)", "cannot tell (...)".  A patch that cannot be
 * looked at (0004 needs sw_sync, which distribution kernels lack) does not
 * undo what the others show: with nothing present and more patches seen
 * absent than not looked at, the series is absent, and the patches not
 * looked at are named.  With fewer an older series could hide in them:
 * cannot tell.
 *
 * Return: 1 when the series is there in full, else 0.
 */
int series_version(const struct series_result *r, char *buf, size_t len)
{
	size_t used;

	if (!r->any && r->n_unknown && !r->n_absent) {
		snprintf(buf, len, "cannot tell (nothing of it could be looked at)");
		return 0;
	}
	if (!r->any && r->n_unknown && r->n_absent <= r->n_unknown) {
		used = (size_t)snprintf(buf, len, "cannot tell (most of it could not be looked at; absent:");
		list_patches(r, PATCH_ABSENT, PATCH_ABSENT, buf, len, used);
		used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, ")");
		return 0;
	}
	if (!r->any && r->n_unknown) {
		used = (size_t)snprintf(buf, len, "absent (a kernel without the fence-trace series; "
					"not looked at:");
		list_patches(r, PATCH_UNKNOWN, PATCH_UNKNOWN, buf, len, used);
		used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, ")");
		return 0;
	}
	if (!r->any) {
		snprintf(buf, len, "absent (a kernel without the fence-trace series)");
		return 0;
	}
	if (r->n_unknown) {	/* present, and some not looked at: an older series? */
		used = (size_t)snprintf(buf, len, "cannot tell in full (not every patch could be looked at); present:");
		list_patches(r, PATCH_PRESENT, PATCH_PRESENT, buf, len, used);
		return 0;
	}
	if (r->complete) {
		snprintf(buf, len, "present in full, up to patch %s of kernel/series", r->newest ? r->newest : "?");
		return 1;
	}
	used = (size_t)snprintf(buf, len, "partial or older: the newest patch present in full is %s; "
				"incomplete:", r->newest ? r->newest : "none");
	list_patches(r, PATCH_ABSENT, PATCH_PARTIAL, buf, len, used);
	return 0;
}
