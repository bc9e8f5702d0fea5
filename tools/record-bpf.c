// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf.c - `fence-trace record --bpf`: the stock fence and vblank
 * events from a BPF ring buffer (bpf/fence-record.bpf.c) instead of
 * tracefs, written as the same kind of trace.dat, so `report` reads either.
 *
 * This file loads the programs and takes their records from the ring
 * every 50 ms; record-bpf-pages.c turns them into the trace.dat's pages as
 * it goes, so memory holds one batch, never the recording.
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
#include "record-bpf-pages.h"

/*
 * The batch is what one drain (every 50 ms) takes from the ring; it is
 * encoded at the next drain, after the names stream was read again, so
 * that the first fence of a new context has its name by then.  It has a
 * fixed size, touched once at the start: a drain that finds more records
 * (a slow moment) encodes a full batch at once, so the recorder's memory
 * does not creep up with each new high-water mark.
 */
#define BATCH_MAX 16384

struct bpfrec {
	struct fence_record_bpf *skel;
	struct ring_buffer *rb;
	struct fr_event *batch;
	size_t n;
	struct fence_names names;
	int have_names, failed;
	uint64_t *lost_seen;		/* per CPU: drops already flagged */
	struct bpf_pages *pages;
};

static int encode_batch(struct bpfrec *r)
{
	if (r->have_names)
		names_poll(&r->names);
	if (bpf_pages_add(r->pages, r->batch, r->n))
		return -1;
	r->n = 0;
	return 0;
}

static int on_event(void *ctx, void *data, size_t len)
{
	struct bpfrec *r = ctx;

	if (len < sizeof(struct fr_event))
		return 0;
	if (r->n == BATCH_MAX && encode_batch(r)) {
		r->failed = 1;
		return -1;	/* stops ring_buffer__consume() */
	}
	r->batch[r->n++] = *(const struct fr_event *)data;
	return 0;
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
	int err;

	if (!r)
		return -1;
	c->bpf = r;
	libbpf_set_print(NULL);
	r->have_names = names_start(&r->names) == 0;
	r->lost_seen = calloc((size_t)c->cpus, sizeof(*r->lost_seen));
	r->batch = calloc(BATCH_MAX, sizeof(*r->batch));
	if (r->batch)
		memset(r->batch, 0xff, BATCH_MAX * sizeof(*r->batch));	/* resident now */
	r->pages = r->lost_seen && r->batch ? bpf_pages_new(c, r->have_names ? &r->names : NULL) : NULL;
	if (!r->pages)
		return -1;
	r->skel = fence_record_bpf__open();
	if (!r->skel) {
		fprintf(stderr, "fence-trace record: cannot open the BPF object: %s\n", strerror(errno));
		return -1;
	}
	bpf_pick_flavour(r->skel->obj, bpf_tp_btf_usable("dma_fence_init"), skipped, sizeof(skipped));
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
	fprintf(stderr, "fence-trace record: recording dma_fence:* and drm:drm_vblank_event* with BPF\n");
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

/* Encode the batch taken last time; the ring's new records are the next. */
static int take(struct bpfrec *r, struct capture *c)
{
	if (encode_batch(r))
		return -1;
	note_drops(r, c);
	ring_buffer__consume(r->rb);
	return r->failed ? -1 : 0;	/* an encoding failure is said */
}

int bpfrec_drain(struct capture *c)
{
	return take(c->bpf, c);
}

/*
 * Detach first: nothing more enters the ring.  Two more takes: the first
 * encodes the batch in hand and takes the last records, the second
 * encodes those.
 */
int bpfrec_finish(struct capture *c)
{
	struct bpfrec *r = c->bpf;
	int ret = -1;

	fence_record_bpf__detach(r->skel);
	if (!c->write_errno && (take(r, c) || take(r, c)) && !c->write_errno)
		goto out;	/* an encoding failure, said */
	ret = bpf_pages_finish(r->pages);
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
	bpf_pages_free(r->pages);
	free(r->batch);
	free(r->lost_seen);
	free(r);
	c->bpf = NULL;
	capture_teardown(c);
}
