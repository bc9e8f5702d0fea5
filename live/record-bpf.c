// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf.c - `fence-trace record --bpf`: the stock fence and vblank
 * events from a BPF ring buffer (live/fence-record.bpf.c) instead of
 * tracefs, written as the same kind of trace.dat, so `report` reads either.
 *
 * This file loads the programs and takes their records from the ring
 * every 50 ms, with the series' events from tracefs (record-bpf-series.c),
 * into a spill file (record-bpf-spill.c): during the capture a record costs
 * a copy.  At the end the spill is read back and record-bpf-pages.c turns
 * it into the trace.dat's pages, drain by drain as the capture took it, so
 * memory holds a few drains' worth, never the recording.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpf-flavour.h"
#include "fence-names.h"
#include "fence-record.skel.h"
#include "lockdown.h"
#include "record-bpf.h"
#include "record-bpf-pages.h"
#include "record-bpf-series.h"
#include "record-bpf-spill.h"
#include "say.h"
#include "sync.h"

/*
 * Records wait in record-bpf-pages.c's pending list until they are this
 * much older than the start of the drain that took them: by then the BPF
 * ring and the series' stream have both handed over everything before.
 * Names are needed only when the spill is read back at the end.
 */
#define SETTLE_NS 50000000ull

struct bpfrec {
	struct fence_record_bpf *skel;
	struct ring_buffer *rb;
	struct fence_names names;
	int have_stream, failed;	/* have_stream: names of kinds BPF cannot read */
	struct live_reader *series;	/* NULL: a kernel without the series */
	uint64_t *lost_seen;		/* per CPU: drops already flagged */
	struct bpf_pages *pages;
	struct spill *spill;
};

static int on_event(void *ctx, void *data, size_t len)
{
	struct bpfrec *r = ctx;

	const struct fr_event *e = data;

	if (len < sizeof(*e))
		return 0;
	if (len < fr_size(e->type))
		return 0;	/* not one of ours (fr_size() 0 is caught by the spill) */
	bpf_pages_note_task(r->pages, (int)e->pid);
	if (spill_event(r->spill, e)) {
		r->failed = 1;
		return -1;	/* stops ring_buffer__consume() */
	}
	return 0;
}

/* A series event from tracefs (record-bpf-series.c): kept as tracefs wrote it. */
static void on_series_event(void *ctx, const struct ft_event *ev)
{
	struct bpfrec *r = ctx;

	if (r->failed)
		return;
	bpf_pages_note_task(r->pages, ev->pid);
	if (spill_raw(r->spill, ev->cpu, ev->ts, ev->data, ev->size))
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
	int err, tp_btf, stream_only;

	if (!r)
		return -1;
	c->bpf = r;
	/* its names and series streams are tracefs instances: asked first, as record's */
	if (capture_tracefs_usable())
		return -1;
	libbpf_set_print(NULL);
	r->skel = fence_record_bpf__open();
	if (!r->skel) {
		say("cannot open the BPF object: %s", strerror(errno));
		return -1;
	}
	stream_only = names_stream_only();
	if (stream_only < 0)
		return -1;
	r->skel->rodata->fn_stream_only = stream_only;
	tp_btf = !c->raw_tp && bpf_tp_btf_usable("dma_fence_init");
	bpf_pick_flavour(r->skel->obj, tp_btf, skipped, sizeof(skipped));
	r->have_stream = names_start(&r->names) == 0;
	r->series = series_stream_start();
	r->lost_seen = calloc((size_t)c->cpus, sizeof(*r->lost_seen));
	r->pages = r->lost_seen ? bpf_pages_new(c, &r->names, r->series) : NULL;
	r->spill = r->pages ? spill_new(c) : NULL;
	if (!r->spill)
		return -1;
	err = c->buffer_given ? bpf_map__set_max_entries(r->skel->maps.events, ring_bytes(c->buffer_kb)) : 0;
	if (!err)
		err = fence_record_bpf__load(r->skel);
	if (!err)
		err = names_attach(&r->names, bpf_map__fd(r->skel->maps.fence_names),
				   &r->skel->bss->fn_lost) ? -errno : 0;
	if (!err)
		err = fence_record_bpf__attach(r->skel);
	if (!err) {
		r->rb = ring_buffer__new(bpf_map__fd(r->skel->maps.events), on_event, r, NULL);
		err = r->rb ? 0 : -errno;
	}
	if (err) {
		say("cannot load or attach the BPF recorder: %s%s",
			strerror(-err), refusal_hint(-err, ""));
		return -1;
	}
	say("recording dma_fence:* and drm:drm_vblank_event* with BPF%s; fence names %s",
		r->series ? "; the series' drm_fence and sync_file poll events with tracefs" :
		"; drm_fence:* (series) missing (not a fence-trace kernel)",
		stream_only ? "from a dma_fence_init tracefs stream alone (FENCE_TRACE_NAMES=stream)" :
		r->have_stream ? "read from each fence, else from a dma_fence_init tracefs stream" :
		"read from each fence (no tracefs stream for other kinds)");
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
		if (vals[cpu] > r->lost_seen[cpu] &&
		    !spill_lost(r->spill, cpu, vals[cpu] - r->lost_seen[cpu]))
			r->lost_seen[cpu] = vals[cpu];
}

/*
 * Take what both sources have into the spill, with the mark that says what
 * has settled by now (all of it when @all): reading back, the pages get
 * what is older than the mark.  Names first: records spilled now were made
 * before it, and names are needed only when the spill is read back.
 */
static int take(struct bpfrec *r, struct capture *c, int all)
{
	uint64_t start = now_ns();

	names_poll(&r->names);
	live_reader_poll(r->series, on_series_event, r);
	ring_buffer__consume(r->rb);
	note_drops(r, c);
	if (r->failed)
		return -1;	/* a failed write, said */
	return spill_mark(r->spill, all ? UINT64_MAX : start - SETTLE_NS);
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
	fprintf(stderr, "\r%s: %.0f s, %llu KB, %llu events, %llu lost   ", say_who(), seconds,
		capture_kb(c), (unsigned long long)spill_records(r->spill), (unsigned long long)lost);
}

int bpfrec_drain(struct capture *c)
{
	return take(c->bpf, c, 0);
}

/* Reading the spill back: each kind of record to its bpf_pages call. */
static int back_event(void *ctx, const struct fr_event *e)
{
	return bpf_pages_put(ctx, e);
}

static int back_raw(void *ctx, int cpu, uint64_t ts, const void *data, size_t size)
{
	return bpf_pages_put_raw(ctx, cpu, ts, data, size);
}

static void back_lost(void *ctx, int cpu, uint64_t count)
{
	bpf_pages_lost(ctx, cpu, count);
}

static int back_mark(void *ctx, uint64_t watermark)
{
	return bpf_pages_encode_before(ctx, watermark);
}

static const struct spill_reader to_pages = {
	.event = back_event, .raw = back_raw, .lost = back_lost, .mark = back_mark,
};

/*
 * Detach and stop first: nothing more comes; take the rest, then encode
 * the spill.  After a failed write (said) the trace still gets what the
 * spill holds, and the result is -1.
 */
/**
 * bpfrec_mark() - record's marker line, stamped now on the BPF records'
 * clock (CLOCK_MONOTONIC, bpf_ktime_get_ns()); 0, or -1 (said)
 */
int bpfrec_mark(struct capture *c)
{
	char text[CAPTURE_MARKER_MAX];
	struct timespec now;
	int cpu = sched_getcpu();

	if (capture_marker_text(c, text, sizeof(text)))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return bpf_pages_mark(c->bpf->pages, cpu >= 0 && cpu < c->cpus ? cpu : 0,
			      (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec, text);
}

int bpfrec_finish(struct capture *c)
{
	struct bpfrec *r = c->bpf;
	int ret = -1;

	fence_record_bpf__detach(r->skel);
	live_reader_off(r->series);
	if (!spill_failed(r->spill))
		take(r, c, 1);
	if (spill_read_back(r->spill, &to_pages, r->pages) && !c->write_errno &&
	    !spill_failed(r->spill))
		goto out;	/* an encoding or read failure, said */
	for (int cpu = 0; cpu < c->cpus; cpu++)
		bpf_pages_lost(r->pages, cpu, live_reader_stat(r->series, cpu, "overrun"));
	ret = bpf_pages_finish(r->pages) || spill_failed(r->spill) ? -1 : 0;
	{
		char line[256];

		names_counts_line(&r->names, line, sizeof(line));
		say("%s", line);
	}
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
	names_stop(&r->names);
	live_reader_free(r->series);
	bpf_pages_free(r->pages);
	spill_free(r->spill);
	free(r->lost_seen);
	free(r);
	c->bpf = NULL;
	capture_teardown(c);
}
