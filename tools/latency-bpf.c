// SPDX-License-Identifier: GPL-2.0
/*
 * latency-bpf.c - load and attach bpf/fence-latency.bpf.c for the live
 * tools (latency, top): names first, rodata set between open and load,
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
#include "fence-latency.skel.h"
#include "latency.h"

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

int latency_load(struct latency_ctx *c)
{
	char skipped[512];
	int err;

	if (c->verbose)
		libbpf_set_print(libbpf_print);
	else
		libbpf_set_print(NULL);
	c->tasks = calloc(FL_MAX_HISTS, sizeof(*c->tasks));
	if (!c->tasks) {
		fprintf(stderr, "fence-trace latency: out of memory\n");
		return -1;
	}
	/* Names first: fences created while the BPF side loads get named too. */
	c->have_names = names_start(&c->names) == 0;
	if (!c->have_names)
		fprintf(stderr, "fence-trace latency: no tracefs: timeline names unknown\n");
	c->skel = fence_latency_bpf__open();
	if (!c->skel) {
		fprintf(stderr, "fence-trace latency: cannot open the BPF object: %s\n", strerror(errno));
		return -1;
	}
	c->skel->rodata->targ_ms = c->ms;
	c->skel->rodata->targ_waits = c->waits;
	c->skel->rodata->targ_per_task = c->per_task;
	if (bpf_pick_flavour(c->skel->obj, !c->raw_tp && bpf_tp_btf_usable("dma_fence_init"),
			     skipped, sizeof(skipped)))
		fprintf(stderr, "fence-trace: this kernel lacks the fence-trace series: skipped %s\n",
			skipped);
	err = fence_latency_bpf__load(c->skel);
	if (!err)
		err = fence_latency_bpf__attach(c->skel);
	if (err) {
		fprintf(stderr, "fence-trace latency: cannot load or attach the BPF programs: %s%s\n",
			strerror(-err), err == -EPERM ? " (run as root)" : " (-v for the verifier log)");
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

void latency_unload(struct latency_ctx *c)
{
	if (c->have_names)
		names_stop(&c->names);
	c->have_names = 0;
	fence_latency_bpf__destroy(c->skel);
	c->skel = NULL;
	free(c->tasks);
	c->tasks = NULL;
}
