// SPDX-License-Identifier: GPL-2.0
/* bpf-flavour.c - tp_btf or raw_tp programs (see bpf-flavour.h). */
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf-flavour.h"

/* Does the kernel's BTF describe @tracepoint (so tp_btf can attach)? */
int bpf_tp_btf_usable(const char *tracepoint)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char type[128];
	int ok;

	if (!btf)
		return 0;
	snprintf(type, sizeof(type), "btf_trace_%s", tracepoint);
	ok = btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF) >= 0;
	btf__free(btf);
	return ok;
}

/* Autoload the tp_btf/ programs of @obj, or else the raw_tp/ ones. */
void bpf_pick_flavour(struct bpf_object *obj, int use_tp_btf)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		int is_btf = strncmp(sec, "tp_btf/", 7) == 0;

		bpf_program__set_autoload(p, is_btf == !!use_tp_btf);
	}
}
