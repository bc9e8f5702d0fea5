/* SPDX-License-Identifier: GPL-2.0 */
/* kallsyms.h - the kernel's text symbols (/proc/kallsyms), by address. */
#ifndef FENCE_TRACE_KALLSYMS_H
#define FENCE_TRACE_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;	/* "name" or "name [module]" */
};

struct ksyms {
	struct ksym *syms;	/* sorted by address */
	size_t n;
	char *names;
};

int ksyms_load(struct ksyms *k, const char *path);
const struct ksym *ksyms_find(const struct ksyms *k, uint64_t addr);
uint64_t ksyms_addr(const struct ksyms *k, const char *name);
void ksyms_free(struct ksyms *k);

#endif
