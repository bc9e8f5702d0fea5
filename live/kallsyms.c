// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - the kernel's text and data symbols from /proc/kallsyms,
 * modules included, sorted so that an address (a stack entry, a fence's
 * ops) finds the symbol it lies in.  The names stay in one buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "read-file.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int grow(struct ksyms *k, size_t *cap)
{
	struct ksym *grown;

	if (k->n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 65536;
	grown = realloc(k->syms, *cap * sizeof(*grown));
	if (!grown)
		return -1;
	k->syms = grown;
	return 0;
}

/*
 * One line "ADDR T name" or "ADDR T name\t[module]" at @p, made the
 * string "name" or "name [module]" in place; the next line, or NULL at
 * the end.  By hand rather than sscanf(): a distribution kernel has
 * 100,000 lines, and stall reads them all before it can say it watches.
 */
static char *parse_line(char *p, struct ksym *sym)
{
	char *name, *end;

	sym->addr = strtoull(p, &end, 16);
	if (end == p || end[0] != ' ' || !end[1] || end[2] != ' ')
		sym->addr = 0;		/* not a symbol line: skipped */
	name = end[0] && end[1] && end[2] ? end + 3 : end;
	end = strchr(name, '\n');
	if (end)
		*end++ = '\0';
	sym->name = name;
	name = strchr(name, '\t');
	if (name)
		*name = ' ';
	return end && *end ? end : NULL;
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
	struct ksym sym;
	size_t cap = 0;
	char *p;

	memset(k, 0, sizeof(*k));
	k->names = read_file(path, NULL);
	if (!k->names)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	for (p = k->names; p; ) {
		p = parse_line(p, &sym);
		if (!sym.addr)
			continue;
		if (grow(k, &cap))
			return -ENOMEM;
		k->syms[k->n++] = sym;
	}
	if (!k->n)
		return -EPERM;
	qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
	return 0;
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
