// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-sections.c - the sections versions 6 and 7 share: header info,
 * event formats and systems, kallsyms and printk formats, task names, the
 * options both know (clock, kernel, the recorder's CPU stats) and each
 * CPU's data.  tracedat-read.c (v6) and tracedat-read-v7.c call them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tracedat-priv.h"

#define TD_MAX_CPUS		4096

/* A NUL-terminated copy of n bytes: bounded by the file size. */
static char *copy_text(struct tracedat *td, const char *p, unsigned long long n)
{
	char *s = malloc(n + 1);

	if (!s) {
		tracedat_fail(td, "out of memory");
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static int expect_str(struct tracedat_cur *c, const char *want)
{
	const char *s = tracedat_cur_str(c);

	if (!s)
		return -EINVAL;
	if (strcmp(s, want))
		return tracedat_fail(c->td, "bad %s: no \"%s\" marker", c->what, want);
	return 0;
}

/**
 * tracedat_parse_header_info() - "header_page" and "header_event" with their
 * texts; sets the kernel long size (commit field) from header_page
 */
int tracedat_parse_header_info(struct tracedat *td, struct tracedat_cur *c,
			       unsigned int long_size)
{
	unsigned long long n;
	const char *p;
	char *text;
	int ret, commit;

	c->what = "header page";
	if (expect_str(c, "header_page") || !(p = tracedat_cur_blob(c, 1, &n)))
		return -EINVAL;
	text = copy_text(td, p, n);
	if (!text)
		return -ENOMEM;
	ret = tep_parse_header_page(td->tep, text, n, (int)long_size);
	free(text);
	commit = tep_get_header_page_size(td->tep);
	if (ret || (commit != 4 && commit != 8))
		return tracedat_fail(td, "bad header_page (commit field size %d)", commit);
	td->commit_size = (unsigned int)commit;
	c->what = "header event";
	if (expect_str(c, "header_event") || !tracedat_cur_blob(c, 1, &n))
		return -EINVAL;
	return 0;
}

/*
 * A format libtraceevent cannot parse, or one too damaged to give it (see
 * tracedat-format.c), is skipped as trace-cmd skips the first kind: its
 * events are delivered with no tep_event behind their id.  One whose only
 * doubtful part is the print format is given a harmless one instead.
 */
static int parse_format(struct tracedat *td, const char *p, unsigned long long n, const char *sys)
{
	static const char harmless[] = "print fmt: \"(print format not trusted)\"\n";
	unsigned long long at = 0;
	char *text;

	switch (tracedat_format_check(p, n, &at)) {
	case TRACEDAT_FMT_OK:
		tep_parse_event(td->tep, p, n, sys);
		return 0;
	case TRACEDAT_FMT_NO_PRINT:
		text = malloc(at + sizeof(harmless));
		if (!text)
			return tracedat_fail(td, "out of memory");
		memcpy(text, p, at);
		memcpy(text + at, harmless, sizeof(harmless));
		tep_parse_event(td->tep, text, at + sizeof(harmless) - 1, sys);
		free(text);
		return 0;
	}
	return 0;
}

/** tracedat_parse_formats() - u32 count, then u64 size + text per format of @sys */
int tracedat_parse_formats(struct tracedat *td, struct tracedat_cur *c, const char *sys)
{
	unsigned long long n;
	uint32_t count, i;
	const char *p;

	if (tracedat_cur_u32(c, &count))
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (!(p = tracedat_cur_blob(c, 1, &n)) || parse_format(td, p, n, sys))
			return -EINVAL;
	return 0;
}

/** tracedat_parse_event_systems() - u32 count, then name + formats per system */
int tracedat_parse_event_systems(struct tracedat *td, struct tracedat_cur *c)
{
	uint32_t nsys, i;
	const char *sys;

	c->what = "event formats";
	if (tracedat_cur_u32(c, &nsys))
		return -EINVAL;
	for (i = 0; i < nsys; i++)
		if (!(sys = tracedat_cur_str(c)) || tracedat_parse_formats(td, c, sys))
			return -EINVAL;
	return 0;
}

/**
 * tracedat_parse_symbols() - u32 size + kallsyms (or printk_formats) text,
 * bounds-checked and skipped
 *
 * Not handed to libtraceevent: fence-trace decodes no event that needs
 * them, and tep_parse_printk_formats() reads past the end of damaged text
 * (found by tests/fuzz/fuzz-report.c).
 */
int tracedat_parse_symbols(struct tracedat *td, struct tracedat_cur *c, int printk)
{
	unsigned long long n;

	(void)td;
	c->what = printk ? "printk formats" : "kallsyms";
	return tracedat_cur_blob(c, 0, &n) ? 0 : -EINVAL;
}

/* saved_cmdlines: "pid comm" lines; malformed lines are skipped. */
static void register_cmdlines(struct tracedat *td, const char *p, unsigned long long n)
{
	const char *end = p + n, *nl;
	char comm[256];
	size_t len;
	long pid;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		for (pid = 0; p < nl && *p >= '0' && *p <= '9' && pid < (1 << 30); p++)
			pid = pid * 10 + (*p - '0');
		if (p >= nl || *p != ' ' || nl - p < 2)
			continue;
		len = (size_t)(nl - p - 1) < sizeof(comm) - 1 ? (size_t)(nl - p - 1) : sizeof(comm) - 1;
		memcpy(comm, p + 1, len);
		comm[len] = '\0';
		tep_register_comm(td->tep, comm, (int)pid);
	}
}

/** tracedat_parse_cmdlines() - u64 size + saved_cmdlines text, into the tep handle */
int tracedat_parse_cmdlines(struct tracedat *td, struct tracedat_cur *c)
{
	unsigned long long n;
	const char *p;

	c->what = "cmdlines";
	if (!(p = tracedat_cur_blob(c, 1, &n)))
		return -EINVAL;
	register_cmdlines(td, p, n);
	return 0;
}

/*
 * The selected clock: the name in brackets of "local global [mono] ...",
 * or the first word when there are no brackets.  @n excludes the NUL.
 */
char *tracedat_selected_clock(const char *p, unsigned long long n)
{
	const char *open = memchr(p, '[', n), *close;
	size_t len = 0;

	if (!open) {
		while (len < n && p[len] != ' ' && p[len] != '\n')
			len++;
		return strndup(p, len);
	}
	close = memchr(open, ']', n - (open - p));
	if (!close)
		return NULL;
	return strndup(open + 1, close - open - 1);
}

/* A stat's number ("read events: N"), or -1 when the text lacks it. */
static long long stat_value(const char *p, unsigned long long n, const char *key)
{
	const char *k = memmem(p, n, key, strlen(key));

	return k ? (long long)strtoull(k + strlen(key), NULL, 10) : -1;
}

/*
 * What the recorder took from this CPU's ring: the events it read, plus
 * those still in the ring when the stats were taken, which its last
 * flush reads.  A file with fewer events for the CPU misses some.
 */
static void note_taken(struct tracedat *td, const char *p, unsigned long long n)
{
	long long read = stat_value(p, n, "\nread events: "), left = stat_value(p, n, "entries: ");

	if (td->n_taken >= TRACEDAT_MAX_STAT_CPUS)
		return;
	td->taken[td->n_taken++] = read >= 0 && left >= 0 ? read + left : -1;
}

/**
 * tracedat_handle_option() - TRACECLOCK, UNAME and VERSION, which both
 * versions share; other options are skipped, as the format allows
 */
int tracedat_handle_option(struct tracedat *td, uint16_t id, const char *p, unsigned long long n)
{
	char **slot;
	char *s;

	if (id == OPT_CPUSTAT) {
		/* trace-cmd's per-CPU stats: the ring buffer's exact loss count. */
		long long overrun = stat_value(p, n, "overrun: ");

		td->have_cpustat = 1;
		if (overrun > 0)
			td->overrun += (unsigned long long)overrun;
		note_taken(td, p, n);
		return 0;
	}
	if (id != OPT_TRACECLOCK && id != OPT_UNAME && id != OPT_VERSION)
		return 0;
	td->clock_option |= id == OPT_TRACECLOCK;
	slot = id == OPT_TRACECLOCK ? &td->clock : id == OPT_UNAME ? &td->uname : &td->recorder;
	s = id == OPT_TRACECLOCK ? tracedat_selected_clock(p, strnlen(p, n)) : strndup(p, strnlen(p, n));
	if (!s && id == OPT_TRACECLOCK && memchr(p, '[', strnlen(p, n)))
		return 0;	/* "[" with no "]": no clock named */
	if (!s)
		return tracedat_fail(td, "out of memory");
	free(*slot);
	*slot = s;
	return 0;
}

/** tracedat_alloc_cpus() - room for @cpus CPUs (at most TD_MAX_CPUS) */
int tracedat_alloc_cpus(struct tracedat *td, unsigned long long cpus)
{
	if (cpus > TD_MAX_CPUS)
		return tracedat_fail(td, "%llu CPUs, more than the %d supported", cpus, TD_MAX_CPUS);
	td->cpus = (int)cpus;
	td->cpu = calloc(cpus ? cpus : 1, sizeof(*td->cpu));
	return td->cpu ? 0 : tracedat_fail(td, "out of memory");
}

/** tracedat_set_cpu_data() - a CPU's pages, checked to lie in the file */
int tracedat_set_cpu_data(struct tracedat *td, unsigned int cpu,
			unsigned long long offset, unsigned long long size)
{
	if (size && (offset > td->size || size > td->size - offset))
		return tracedat_fail(td, "truncated in cpu%u data", cpu);
	if (size % td->page_size)
		return tracedat_fail(td, "cpu%u data is not a whole number of pages", cpu);
	td->cpu[cpu].offset = offset;
	td->cpu[cpu].size = size;
	return 0;
}
