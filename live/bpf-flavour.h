/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf-flavour.h - every hook of our BPF objects exists twice, as tp_btf
 * (cheapest, needs the kernel's BTF for the tracepoint) and raw_tp; load
 * one set.
 */
#ifndef FENCE_TRACE_BPF_FLAVOUR_H
#define FENCE_TRACE_BPF_FLAVOUR_H

struct bpf_object;

int bpf_tp_btf_usable(const char *tracepoint);
#include <stddef.h>

int bpf_pick_flavour(struct bpf_object *obj, int use_tp_btf, char *skipped, size_t len);

#endif
