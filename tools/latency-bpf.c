// SPDX-License-Identifier: GPL-2.0
/*
 * latency-bpf.c - load and attach bpf/fence-latency.bpf.c for the live
 * tools (latency, top): names first, rodata set between open and load,
 * tp_btf where the kernel's BTF has the tracepoint, raw_tp otherwise.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "fence-latency.skel.h"
#include "latency.h"

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

/* tp_btf needs the kernel's BTF to describe the tracepoint; else raw_tp. */
static int have_tp_btf(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char type[128];
	int ok;

	if (!btf)
		return 0;
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	ok = btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF) >= 0;
	btf__free(btf);
	return ok;
}

static void choose_programs(struct fence_latency_bpf *s, int force_raw)
{
	int btf = !force_raw && have_tp_btf("dma_fence_init");
	struct bpf_program *tp[] = { s->progs.tp_btf_init, s->progs.tp_btf_signaled,
				     s->progs.tp_btf_destroy, s->progs.tp_btf_wait_start,
				     s->progs.tp_btf_wait_end };
	struct bpf_program *raw[] = { s->progs.raw_tp_init, s->progs.raw_tp_signaled,
				      s->progs.raw_tp_destroy, s->progs.raw_tp_wait_start,
				      s->progs.raw_tp_wait_end };

	for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++) {
		bpf_program__set_autoload(tp[i], btf);
		bpf_program__set_autoload(raw[i], !btf);
	}
}

int latency_load(struct latency_ctx *c)
{
	int err;

	if (c->verbose)
		libbpf_set_print(libbpf_print);
	else
		libbpf_set_print(NULL);
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
	choose_programs(c->skel, c->raw_tp);
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
}
