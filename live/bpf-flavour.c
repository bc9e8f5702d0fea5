// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-flavour.c - tp_btf or raw_tp programs (see bpf-flavour.h).
 *
 * A tracepoint is looked for in the BTF of vmlinux and of every loaded
 * module (/sys/kernel/btf/MODULE, split BTF on top of vmlinux's): on a
 * distribution kernel DRM is a module, and its drm_vblank_event
 * tracepoints are described in drm's BTF only.  libbpf looks in module BTF
 * too when it attaches a tp_btf program; judging from vmlinux alone
 * switched the vblank programs off in both flavours.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf-flavour.h"

#define SYS_BTF "/sys/kernel/btf"

/*
 * vmlinux's BTF and each loaded module's.  The modules' are parsed only
 * when a name is not in vmlinux's (drm's tracepoints on a distribution
 * kernel): the tools' own tracepoints are in vmlinux, and parsing every
 * module's BTF at each start would be wasted there.
 */
struct kernel_btf {
	struct btf *vmlinux;
	struct btf **modules;
	size_t n_modules;
	int modules_loaded;
};

static void kernel_btf_free(struct kernel_btf *kb)
{
	for (size_t i = 0; i < kb->n_modules; i++)
		btf__free(kb->modules[i]);
	free(kb->modules);
	btf__free(kb->vmlinux);
}

static void add_module(struct kernel_btf *kb, const char *name)
{
	char path[512];
	struct btf **grown, *btf;

	snprintf(path, sizeof(path), SYS_BTF "/%s", name);
	btf = btf__parse_split(path, kb->vmlinux);
	if (!btf)
		return;	/* unreadable: as if the module had no BTF */
	grown = realloc(kb->modules, (kb->n_modules + 1) * sizeof(*grown));
	if (!grown) {
		btf__free(btf);
		return;
	}
	kb->modules = grown;
	kb->modules[kb->n_modules++] = btf;
}

static void load_modules(struct kernel_btf *kb)
{
	struct dirent *e;
	DIR *d = opendir(SYS_BTF);

	kb->modules_loaded = 1;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "vmlinux"))
			add_module(kb, e->d_name);
	closedir(d);
}

/* Return: 0, or -1 when the kernel has no BTF (vmlinux's) to look in. */
static int kernel_btf_load(struct kernel_btf *kb)
{
	memset(kb, 0, sizeof(*kb));
	kb->vmlinux = btf__load_vmlinux_btf();
	return kb->vmlinux ? 0 : -1;
}

static int kernel_btf_has(struct kernel_btf *kb, const char *name, __u32 kind)
{
	if (btf__find_by_name_kind(kb->vmlinux, name, kind) >= 0)
		return 1;
	if (!kb->modules_loaded)
		load_modules(kb);
	for (size_t i = 0; i < kb->n_modules; i++)
		if (btf__find_by_name_kind(kb->modules[i], name, kind) >= 0)
			return 1;
	return 0;
}

static int has_tracepoint(struct kernel_btf *kb, const char *tracepoint)
{
	char type[160];

	snprintf(type, sizeof(type), "btf_trace_%s", tracepoint);
	return kernel_btf_has(kb, type, BTF_KIND_TYPEDEF);
}

/* Does the kernel's BTF describe @tracepoint (so tp_btf can attach)? */
int bpf_tp_btf_usable(const char *tracepoint)
{
	struct kernel_btf kb;
	int ok;

	if (kernel_btf_load(&kb))
		return 0;
	ok = has_tracepoint(&kb, tracepoint);
	kernel_btf_free(&kb);
	return ok;
}

/* "drm_vblank_event" of section "tp_btf/drm_vblank_event" (or raw_tp/). */
static const char *section_tracepoint(const char *sec)
{
	const char *slash = strchr(sec, '/');

	return slash ? slash + 1 : sec;
}

/*
 * Autoload the tp_btf/ programs of @obj, or else the raw_tp/ ones; and
 * neither for a tracepoint this kernel lacks (the series' events on a
 * stock kernel, drm's before its module is loaded), whose names are listed
 * in @skipped.  Without BTF every raw_tp program is tried.
 *
 * Return: how many tracepoints were skipped.
 */
int bpf_pick_flavour(struct bpf_object *obj, int use_tp_btf, char *skipped, size_t len)
{
	struct kernel_btf kb;
	int have_btf = kernel_btf_load(&kb) == 0;
	struct bpf_program *p;
	int n = 0;

	if (len)
		skipped[0] = '\0';
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		int is_btf = strncmp(sec, "tp_btf/", 7) == 0;
		const char *tp = section_tracepoint(sec);
		int present = !have_btf || has_tracepoint(&kb, tp);

		bpf_program__set_autoload(p, present && is_btf == !!use_tp_btf);
		if (!present && is_btf) {
			size_t used = strlen(skipped);

			snprintf(skipped + used, len - used, "%s%s", used ? ", " : "", tp);
			n++;
		}
	}
	if (have_btf)
		kernel_btf_free(&kb);
	return n;
}
