// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - the kernel's text and data symbols from /proc/kallsyms,
 * modules included, sorted so that an address (a stack entry, a fence's
 * ops) finds the symbol it lies in.  The names stay in one buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append "name" or "name [module]" to the names buffer; its offset, or -1. */
static long add_name(char **buf, size_t *len, size_t *cap, const char *name, const char *mod)
{
	size_t need = strlen(name) + (mod[0] ? strlen(mod) + 1 : 0) + 1;
	long at = (long)*len;

	if (*len + need > *cap) {
		size_t cap2 = (*cap + need) * 2;
		char *grown = realloc(*buf, cap2);

		if (!grown)
			return -1;
		*buf = grown;
		*cap = cap2;
	}
	*len += (size_t)sprintf(*buf + *len, mod[0] ? "%s %s" : "%s", name, mod) + 1;
	return at;
}

static int grow(struct ksyms *k, size_t *cap)
{
	struct ksym *grown;

	if (k->n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 4096;
	grown = realloc(k->syms, *cap * sizeof(*grown));
	if (!grown)
		return -1;
	k->syms = grown;
	return 0;
}

/**
 * ksyms_load() - read @path (/proc/kallsyms), every symbol with an address
 * @k: filled; ksyms_free() it
 * @path: the file
 *
 * Return: 0, -ENOENT when it cannot be read, -EPERM when every address
 * reads 0 (kptr_restrict: not root), -ENOMEM.
 */
int ksyms_load(struct ksyms *k, const char *path)
{
	size_t cap = 0, len = 0, ncap = 0;
	char line[512], name[256], mod[128];
	FILE *f = fopen(path, "r");
	uint64_t addr;
	char type;
	long at;
	int err = 0;

	memset(k, 0, sizeof(*k));
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		if (sscanf(line, "%" SCNx64 " %c %255s %127s", &addr, &type, name, mod) < 3 || !addr)
			continue;
		at = add_name(&k->names, &len, &ncap, name, mod);
		if (at < 0 || grow(k, &cap)) {
			err = -ENOMEM;
			break;
		}
		k->syms[k->n++] = (struct ksym){ addr, (const char *)(uintptr_t)at };
	}
	fclose(f);
	for (size_t i = 0; i < k->n; i++)	/* offsets into names, now that it stays put */
		k->syms[i].name = k->names + (uintptr_t)k->syms[i].name;
	qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
	return err ? err : k->n ? 0 : -EPERM;
}

/* The symbol @addr lies in (the last one at or below it), or NULL. */
const struct ksym *ksyms_find(const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &k->syms[lo - 1] : NULL;
}

/* The address of the symbol @name (not a module's), or 0. */
uint64_t ksyms_addr(const struct ksyms *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->syms[i].name, name))
			return k->syms[i].addr;
	return 0;
}

void ksyms_free(struct ksyms *k)
{
	free(k->syms);
	free(k->names);
	memset(k, 0, sizeof(*k));
}
