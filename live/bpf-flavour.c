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

/*
 * Does the kernel's BTF have @kfunc (a series kfunc on a stock kernel: no)?
 * Return: 1 yes, 0 no, -1 no BTF to look in.
 */
int bpf_kfunc_in_btf(const char *kfunc)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int found;

	if (!btf)
		return -1;
	found = btf__find_by_name_kind(btf, kfunc, BTF_KIND_FUNC) >= 0;
	btf__free(btf);
	return found;
}

/*
 * Autoload the tp_btf/ programs of @obj, or else the raw_tp/ ones; and
 * neither for a tracepoint this kernel lacks (the series' events on a
 * stock kernel), whose names are listed in @skipped.
 *
 * Return: how many tracepoints were skipped.
 */
int bpf_pick_flavour(struct bpf_object *obj, int use_tp_btf, char *skipped, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct bpf_program *p;
	int n = 0;

	if (len)
		skipped[0] = '\0';
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		int is_btf = strncmp(sec, "tp_btf/", 7) == 0;
		const char *tp = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;
		char type[160];
		int present = 1;

		if (btf) {
			snprintf(type, sizeof(type), "btf_trace_%s", tp);
			present = btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF) >= 0;
		}
		bpf_program__set_autoload(p, present && is_btf == !!use_tp_btf);
		if (!present && is_btf) {
			size_t used = strlen(skipped);

			snprintf(skipped + used, len - used, "%s%s", used ? ", " : "", tp);
			n++;
		}
	}
	btf__free(btf);
	return n;
}
