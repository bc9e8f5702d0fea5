// SPDX-License-Identifier: GPL-2.0
/*
 * fleet-synth.c - a fleet of small captures for the fleet tables' test
 * and benchmark: N trace.dat files, each a compositor run on one vkms CRTC
 * at 60 Hz with two producer timelines (as timeline-synth), varied by
 * host (20), kernel (3: the uname option), producer driver (3), length
 * (30-89 frames) and latency (each run's own producer delay); every 20th
 * frame slow.  Runs whose index is in the regression set are slow every 3rd
 * frame instead, on a kernel other than the baseline; their names go to
 * DIR/regressed.txt, the answer the regression query must give, and every
 * run's host and kernel to DIR/fleet.tsv (what the queries group by, told
 * by the generator rather than read back from the tables).
 *
 *   fleet-synth [-n CAPTURES] DIR   (run from the repo root)
 *
 * Each capture starts with record's marker line (a print event): the wall
 * clock and the labels run=nightly (the same in every capture: export must
 * not let it merge them) and batch=N.
 *
 * Files are DIR/run-NNNN.dat; deterministic, the same N gives the same fleet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture-marker.h"
#include "fixture-formats.h"
#include "synth-time.h"
#include "trace-builder.h"
#include "trace-builder-formats.h"
#include "vblank-land.h"

static const char *const kernels[] = { "6.1.0-57-amd64", "6.1.0-58-amd64", "6.6.0-1-amd64" };
static const char *const drivers[] = { "sw_sync", "amdgpu", "i915" };

struct run {
	unsigned int index;
	const char *driver;
	uint64_t base_ns;		/* the producers' usual delay */
	unsigned int slow_every, frames;
};

/* Run 13, then every 97th: regressed (on kernels other than the baseline, index 0). */
static int regressed(unsigned int i)
{
	return i % 97 == 13;
}

static int fence(struct trace_builder *tb, uint64_t ts, const char *ev, const struct run *r,
		 char who, uint32_t seqno)
{
	if (who == 'O')
		return tb_fence(tb, 1, ts, ev, "vkms", "CRTC:51-crtc-0", 1, seqno);
	return tb_fence(tb, 1, ts, ev, r->driver, who == 'A' ? "producer-A" : "producer-B",
			who == 'A' ? 6 : 7, seqno);
}

/* Frame @f, committed 1 ms into vblank period *@vbl; lands on the vblank after B signals. */
static int frame(struct trace_builder *tb, const struct run *r, uint32_t f, uint64_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + 1 * MS;
	uint64_t b_ready = t + (f % r->slow_every == r->slow_every - 1 ? 30 * MS : r->base_ns);
	uint64_t land;
	int err = 0;

	tb_set_pid(tb, 47);
	err |= fence(tb, t, "dma_fence_init", r, 'A', f);
	err |= fence(tb, t + 1000, "dma_fence_init", r, 'B', f);
	err |= fence(tb, t + 2000, "dma_fence_init", r, 'O', f);
	err |= fence(tb, t + 3000, "dma_fence_wait_start", r, 'A', f);
	err |= fence(tb, t + r->base_ns / 2, "dma_fence_signaled", r, 'A', f);
	err |= fence(tb, t + r->base_ns / 2 + 1000, "dma_fence_wait_end", r, 'A', f);
	err |= fence(tb, t + r->base_ns / 2 + 2000, "dma_fence_wait_start", r, 'B', f);
	err |= fence(tb, b_ready, "dma_fence_signaled", r, 'B', f);
	err |= fence(tb, b_ready + 1000, "dma_fence_wait_end", r, 'B', f);
	tb_set_pid(tb, 0);
	do {
		(*vbl)++;
		land = *vbl * FRAME_NS;
		err |= vblank_land(tb, &(struct vblank_land){ .t = land, .seq = (uint32_t)*vbl,
							     .out_seqno = land > b_ready ? f : 0 });
	} while (land <= b_ready);
	err |= fence(tb, land + 40000, "dma_fence_destroy", r, 'A', f);
	err |= fence(tb, land + 41000, "dma_fence_destroy", r, 'B', f);
	err |= fence(tb, land + 42000, "dma_fence_destroy", r, 'O', f);
	return err;
}

/* The formats of the lab's 6.1 kernel, and ftrace's print for the marker line. */
static struct trace_builder *builder(void)
{
	struct tb_formats f = { 0 };

	if (tb_formats_load(&f, TB_FIXTURES) || tb_formats_add_dir(&f, "tests/fixtures/formats-6.1-ftrace")) {
		tb_formats_free(&f);
		return NULL;
	}
	return tb_new_formats(2, &f);
}

/* record's marker line, 1 ms before the first frame: wall clock 2026-12-01 + @i minutes. */
static int marker(struct trace_builder *tb, unsigned int i, uint64_t ts)
{
	char batch[16], text[CAPTURE_MARKER_MAX];
	struct capture_label labels[] = { { "run", "nightly" }, { "batch", batch } };
	unsigned char raw[8 + CAPTURE_MARKER_MAX] = { 0 };

	snprintf(batch, sizeof(batch), "%u", i / 100);
	if (capture_marker_format(text, sizeof(text), 1796083200000000000ull + i * 60000000000ull,
				  labels, 2))
		return -1;
	memcpy(raw + 8, text, strlen(text) + 1);	/* after the print's ip */
	tb_set_pid(tb, 46);
	return tb_add(tb, 0, ts, tb_event_id(tb, "print"), raw, 8 + strlen(text) + 1);
}

static int write_run(const char *dir, unsigned int i, FILE *manifest, FILE *tsv)
{
	unsigned int k = regressed(i) ? 1 + i % 2 : (i / 20) % 3;
	struct run r = { i, drivers[i % 3], (1 + (i * 7) % 5) * MS, regressed(i) ? 3 : 20,
			 30 + (i * 13) % 60 };
	char uname[128], path[4096];
	struct trace_builder *tb = builder();
	uint64_t vbl = 100;
	int err = !tb;

	if (err)
		return fprintf(stderr, "fleet-synth: cannot read %s (run from the repo root)\n", TB_FIXTURES), 1;
	snprintf(uname, sizeof(uname), "Linux host-%02u %s x86_64", i % 20, kernels[k]);
	tb_set_options(tb, "local global [mono]", uname, "46 fence-trace\n47 compositor\n");
	tb_set_recorder(tb, "fleet-synth");
	err = marker(tb, i, vbl * FRAME_NS);
	for (uint32_t f = 1; f <= r.frames && !err; f++)
		err = frame(tb, &r, f, &vbl);
	snprintf(path, sizeof(path), "%s/run-%04u.dat", dir, i);
	if (!err)
		err = tb_write(tb, path) != 0;
	if (err)
		fprintf(stderr, "fleet-synth: %s: %s\n", path, tb_error(tb));
	else
		fprintf(tsv, "run-%04u\thost-%02u\t%s\n", i, i % 20, kernels[k]);
	if (!err && regressed(i))
		fprintf(manifest, "run-%04u\n", i);
	tb_free(tb);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int n = 1000;
	char path[4096];
	FILE *manifest, *tsv;
	int ret = 0;

	if (argc == 4 && argv[1][0] == '-' && argv[1][1] == 'n')
		n = (unsigned int)strtoul(argv[2], NULL, 10), argv += 2, argc -= 2;
	if (argc != 2 || !n) {
		fprintf(stderr, "usage: fleet-synth [-n CAPTURES] DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/regressed.txt", argv[1]);
	manifest = fopen(path, "w");
	if (!manifest)
		return perror(path), 1;
	snprintf(path, sizeof(path), "%s/fleet.tsv", argv[1]);
	tsv = fopen(path, "w");
	if (!tsv)
		return perror(path), fclose(manifest), 1;
	for (unsigned int i = 0; i < n && !ret; i++)
		ret = write_run(argv[1], i, manifest, tsv);
	return fclose(manifest) | fclose(tsv) || ret ? 1 : 0;
}
