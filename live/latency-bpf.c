// SPDX-License-Identifier: GPL-2.0
/*
 * latency-bpf.c - load and attach live/fence-latency.bpf.c for the live
 * tools (latency, top): rodata set between open and load,
 * tp_btf where the kernel's BTF has the tracepoint, raw_tp otherwise.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf-flavour.h"
#include "fence-latency.h"	/* before the skeleton: its .bss uses struct fl_live */
#include "fence-latency.skel.h"
#include "latency.h"
#include "lockdown.h"
#include "say.h"

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

int latency_load(struct latency_ctx *c)
{
	char skipped[512];
	int err, stream_only;

	if (c->verbose)
		libbpf_set_print(libbpf_print);
	else
		libbpf_set_print(NULL);
	c->tasks = calloc(FL_MAX_HISTS, sizeof(*c->tasks));
	if (!c->tasks) {
		say("out of memory");
		return -1;
	}
	/* names of kinds BPF cannot read come from tracefs (fence-names.h) */
	if (names_start(&c->names))	/* the reader keeps no errno: say what usually refuses it */
		say("no tracefs: names of fences BPF cannot read unknown%s", refusal_hint(EPERM, ""));
	c->skel = fence_latency_bpf__open();
	if (!c->skel) {
		say("cannot open the BPF object: %s", strerror(errno));
		return -1;
	}
	c->skel->rodata->targ_ms = c->ms;
	c->skel->rodata->targ_waits = c->waits;
	c->skel->rodata->targ_per_task = c->per_task;
	stream_only = names_stream_only();
	if (stream_only < 0)
		return -1;
	c->skel->rodata->fn_stream_only = stream_only;
	if (bpf_pick_flavour(c->skel->obj, !c->raw_tp && bpf_tp_btf_usable("dma_fence_init"),
			     skipped, sizeof(skipped)))
		say("this kernel lacks the fence-trace series: skipped %s",
			skipped);
	err = fence_latency_bpf__load(c->skel);
	if (!err)
		err = names_attach(&c->names, bpf_map__fd(c->skel->maps.fence_names),
				   &c->skel->bss->fn_lost) ? -errno : 0;
	if (!err)
		err = fence_latency_bpf__attach(c->skel);
	if (err) {
		say("cannot load or attach the BPF programs: %s%s",
			strerror(-err), refusal_hint(-err, " (-v for the verifier log)"));
		return -1;
	}
	return 0;
}

uint64_t latency_counter(struct latency_ctx *c, enum fl_counter which)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t vals[256] = { 0 }, sum = 0;
	__u32 key = which;

	if (ncpus <= 0 || ncpus > 256 ||
	    bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.counters), &key, vals))
		return 0;
	for (int i = 0; i < ncpus; i++)
		sum += vals[i];
	return sum;
}

/*
 * The fences in flight now, copied out of the BPF side's live table (its
 * .bss, mapped here): a slot counts when its fence is the same before and
 * after the copy, so a record being rewritten is skipped, never torn
 * (see struct fl_live).
 */
unsigned int latency_live_copy(struct latency_ctx *c, struct fl_live *out, unsigned int max)
{
	const struct fl_live *slots = c->skel->bss->live;
	unsigned int n = 0;

	for (unsigned int i = 0; i < FL_MAX_LIVE && n < max; i++) {
		uint64_t fence = __atomic_load_n(&slots[i].fence, __ATOMIC_ACQUIRE);

		if (!fence || (fence & 1))	/* empty, or being written */
			continue;
		out[n] = slots[i];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&slots[i].fence, __ATOMIC_RELAXED) == fence && out[n].fence == fence)
			n++;
	}
	return n;
}

/*
 * Ask the stream for every context the histograms hold that has no name:
 * one whose names record the BPF ring had no room for, or whose kind the
 * BPF side cannot read (then asked already; names_want() knows).
 */
void latency_want_names(struct latency_ctx *c)
{
	int fd = bpf_map__fd(c->skel->maps.hists);
	struct fl_key key, next;
	struct fl_key *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		uint64_t context = next.kind == FL_WAIT_TASK ? next.context : next.id;

		if (next.kind <= FL_WAIT_TASK && !names_find(&c->names, context))
			names_want(&c->names, context);
		key = next;
		prev = &key;
	}
}

void latency_unload(struct latency_ctx *c)
{
	names_stop(&c->names);
	fence_latency_bpf__destroy(c->skel);
	c->skel = NULL;
	free(c->tasks);
	c->tasks = NULL;
}
