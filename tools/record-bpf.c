// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf.c - `fence-trace record --bpf`: the stock fence and vblank
 * events from a BPF ring buffer (bpf/fence-record.bpf.c) instead of
 * tracefs, written as the same kind of trace.dat, so `report` reads either.
 *
 * This file loads the programs and takes their records from the ring
 * every 50 ms, with the series' events from tracefs (record-bpf-series.c);
 * record-bpf-pages.c turns them into the trace.dat's pages as it goes, so
 * memory holds a few drains' worth, never the recording.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpf-flavour.h"
#include "fence-names.h"
#include "fence-record.skel.h"
#include "record-bpf.h"
#include "record-bpf-init.h"
#include "record-bpf-pages.h"
#include "record-bpf-series.h"
#include "sync.h"

/*
 * Records wait in record-bpf-pages.c's pending list until they are this
 * much older than the start of the drain that took them: by then the BPF
 * ring and the series' stream have both handed over everything before, and
 * the names stream has the first fence of each new context.
 */
#define SETTLE_NS 50000000ull

struct bpfrec {
	struct fence_record_bpf *skel;
	struct ring_buffer *rb;
	struct fence_names names;
	int have_names, failed;
	int kernel_names;		/* names from the series' kfunc, not a stream */
	struct series_stream *series;	/* NULL: a kernel without the series */
	uint64_t *lost_seen;		/* per CPU: drops already flagged */
	struct bpf_pages *pages;
};

static int on_event(void *ctx, void *data, size_t len)
{
	struct bpfrec *r = ctx;

	if (len < sizeof(struct fr_event))
		return 0;
	if (((const struct fr_event *)data)->type == FR_NAME) {
		const struct fr_name *n = data;

		if (len >= sizeof(*n))
			names_set(&r->names, n->hdr.a, n->driver, n->timeline);
		return 0;
	}
	if (bpf_pages_put(r->pages, data)) {
		r->failed = 1;
		return -1;	/* stops ring_buffer__consume() */
	}
	return 0;
}

static void on_series_event(void *ctx, int cpu, uint64_t ts, const void *data, size_t size)
{
	struct bpfrec *r = ctx;

	if (!r->failed && bpf_pages_put_raw(r->pages, cpu, ts, data, size))
		r->failed = 1;
}

/* -b KB as a BPF ring size: a power of two of whole pages (the kernel's rule). */
static __u32 ring_bytes(unsigned int kb)
{
	__u32 bytes = 4096;

	while (bytes < kb * 1024u && bytes < (1u << 30))
		bytes <<= 1;
	return bytes;
}

int bpfrec_setup(struct capture *c)
{
	char skipped[512];
	struct bpfrec *r = calloc(1, sizeof(*r));
	int err, tp_btf;

	if (!r)
		return -1;
	c->bpf = r;
	libbpf_set_print(NULL);
	r->skel = fence_record_bpf__open();
	if (!r->skel) {
		fprintf(stderr, "fence-trace record: cannot open the BPF object: %s\n", strerror(errno));
		return -1;
	}
	tp_btf = !c->raw_tp && bpf_tp_btf_usable("dma_fence_init");
	bpf_pick_flavour(r->skel->obj, tp_btf, skipped, sizeof(skipped));
	r->kernel_names = record_pick_init(r->skel, tp_btf, 1);
	/* without the kfunc, names come from a filtered dma_fence_init stream */
	r->have_names = r->kernel_names || names_start(&r->names) == 0;
	r->series = series_stream_start();
	r->lost_seen = calloc((size_t)c->cpus, sizeof(*r->lost_seen));
	r->pages = r->lost_seen ? bpf_pages_new(c, r->have_names ? &r->names : NULL, r->series) : NULL;
	if (!r->pages)
		return -1;
	err = c->buffer_given ? bpf_map__set_max_entries(r->skel->maps.events, ring_bytes(c->buffer_kb)) : 0;
	if (!err)
		err = fence_record_bpf__load(r->skel);
	if (!err)
		err = fence_record_bpf__attach(r->skel);
	if (!err) {
		r->rb = ring_buffer__new(bpf_map__fd(r->skel->maps.events), on_event, r, NULL);
		err = r->rb ? 0 : -errno;
	}
	if (err) {
		fprintf(stderr, "fence-trace record: cannot load or attach the BPF recorder: %s%s\n",
			strerror(-err), err == -EPERM ? " (run as root)" : "");
		return -1;
	}
	fprintf(stderr, "fence-trace record: recording dma_fence:* and drm:drm_vblank_event* with BPF%s; fence names %s\n",
		r->series ? "; the series' drm_fence and sync_file poll events with tracefs" :
		"; drm_fence:* (series) missing (not a fence-trace kernel)",
		r->kernel_names ? "from the kernel (" NAMES_KFUNC ")" :
		"from a dma_fence_init tracefs stream");
	return 0;
}

/* Flag on each CPU's pages the drops its counter gained since last time. */
static void note_drops(struct bpfrec *r, struct capture *c)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t vals[256];
	__u32 zero = 0;

	if (ncpus <= 0 || ncpus > 256 ||
	    bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.dropped), &zero, vals))
		return;
	for (int cpu = 0; cpu < ncpus && cpu < c->cpus; cpu++)
		if (vals[cpu] > r->lost_seen[cpu]) {
			bpf_pages_lost(r->pages, cpu, vals[cpu] - r->lost_seen[cpu]);
			r->lost_seen[cpu] = vals[cpu];
		}
}

/*
 * Take what both sources have, then encode what has settled (all of it
 * when @all).  Names first: records encoded now were made before it.
 */
static int take(struct bpfrec *r, struct capture *c, int all)
{
	uint64_t start = now_ns();

	if (r->have_names)
		names_poll(&r->names);
	series_stream_poll(r->series, on_series_event, r);
	ring_buffer__consume(r->rb);
	note_drops(r, c);
	if (r->failed)
		return -1;	/* an encoding failure, said */
	return bpf_pages_encode_before(r->pages, all ? UINT64_MAX : start - SETTLE_NS);
}

/* One status line on a terminal, rewritten in place: never into a pipe. */
void bpfrec_progress(struct capture *c, double seconds)
{
	struct bpfrec *r = c->bpf;
	uint64_t lost = 0;

	if (!isatty(STDERR_FILENO))
		return;
	for (int cpu = 0; cpu < c->cpus; cpu++)
		lost += r->lost_seen[cpu];
	fprintf(stderr, "\rfence-trace record: %.0f s, %llu KB, %llu events, %llu lost   ", seconds,
		capture_kb(c), (unsigned long long)bpf_pages_events(r->pages), (unsigned long long)lost);
}

int bpfrec_drain(struct capture *c)
{
	return take(c->bpf, c, 0);
}

/* Detach and stop first: nothing more comes; take the rest, encode all. */
int bpfrec_finish(struct capture *c)
{
	struct bpfrec *r = c->bpf;
	int ret = -1;

	fence_record_bpf__detach(r->skel);
	series_stream_off(r->series);
	if (!c->write_errno && take(r, c, 1) && !c->write_errno)
		goto out;	/* an encoding failure, said */
	for (int cpu = 0; cpu < c->cpus; cpu++)
		bpf_pages_lost(r->pages, cpu, series_stream_lost(r->series, cpu));
	ret = bpf_pages_finish(r->pages);
	if (r->skel->bss->names_dropped)
		fprintf(stderr, "fence-trace record: %llu fence context name records lost (ring buffer full): each is asked for again at its context's next fence, '?' if none came\n",
			(unsigned long long)r->skel->bss->names_dropped);
out:
	bpfrec_teardown(c);
	return ret;
}

void bpfrec_teardown(struct capture *c)
{
	struct bpfrec *r = c->bpf;

	if (!r)
		return;
	ring_buffer__free(r->rb);
	fence_record_bpf__destroy(r->skel);
	if (r->have_names)
		names_stop(&r->names);
	series_stream_stop(r->series);
	bpf_pages_free(r->pages);
	free(r->lost_seen);
	free(r);
	c->bpf = NULL;
	capture_teardown(c);
}
