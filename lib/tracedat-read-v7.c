// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-read-v7.c - the section layout of trace-cmd version 7 files.
 *
 * After the initial format and the compression header ("none\0" and a
 * version: anything else is refused) comes the offset of the first
 * options section.  Options sections chain through their DONE option;
 * the HEADER_INFO .. CMDLINES options give the offsets of the other
 * sections, whose bodies are those of version 6, and the BUFFER option
 * gives each CPU's data.  Every section header is checked (id, not
 * compressed, size inside the file) before its body is parsed.
 *
 * The BUFFER option lists only the CPUs with data; the CPUCOUNT option
 * says how many the machine had, and the CPUSTAT options (one per CPU, in
 * order) cover them all.  A compressed file is read this far, for its
 * stats, only by tracedat_open_stats(): trace-cmd leaves options plain.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat-priv.h"

#define TD_MAX_OPT_SECTIONS	64

/* What the v7 options sections point at. */
struct v7_state {
	unsigned long long sec[SEC_LAST + 1];	/* section offsets, 0 if absent */
	int have_buffer, buffer_is_top;
	char *buffer_clock;
	uint32_t cpucount;			/* CPUCOUNT option, 0 if absent */
};

/* Open the v7 section at @off: check its header and bound @c to it. */
static int v7_section(struct tracedat *td, unsigned long long off, uint16_t want,
		      const char *what, struct tracedat_cur *c)
{
	unsigned long long size;
	uint16_t id, flags;
	uint32_t strid;

	*c = (struct tracedat_cur){ td, off, td->size, what };
	if (off > td->size)
		return tracedat_fail(td, "truncated in %s (section offset %llu)", what, off);
	if (tracedat_cur_u16(c, &id) || tracedat_cur_u16(c, &flags) ||
	    tracedat_cur_u32(c, &strid) || tracedat_cur_u64(c, &size))
		return -EINVAL;
	if (id != want)
		return tracedat_fail(td, "%s: section id %u, expected %u", what, id, want);
	if (flags & 1)
		return tracedat_unsupported(td, "compressed v7 file, not supported by the fast reader");
	if (size > c->end - c->pos)
		return tracedat_fail(td, "truncated in %s", what);
	c->end = c->pos + size;
	return 0;
}

static int v7_buffer_cpus(struct tracedat *td, struct tracedat_cur *c, uint32_t count)
{
	unsigned long long offset, size, max = 0;
	unsigned long long start = c->pos;
	uint32_t i, id;

	if (20ull * count > c->end - c->pos)
		return tracedat_fail(td, "truncated in %s", c->what);
	for (i = 0; i < count; i++) {
		id = tracedat_u32(td, td->map + c->pos + 20ull * i);
		max = id + 1ull > max ? id + 1ull : max;
	}
	free(td->cpu);
	td->cpu = NULL;
	if (tracedat_alloc_cpus(td, max))
		return -EINVAL;
	for (c->pos = start, i = 0; i < count; i++) {
		if (tracedat_cur_u32(c, &id) || tracedat_cur_u64(c, &offset) || tracedat_cur_u64(c, &size))
			return -EINVAL;
		if (td->cpu[id].size)
			return tracedat_fail(td, "cpu%u listed twice in the BUFFER option", id);
		if (tracedat_set_cpu_data(td, id, offset, size))
			return -EINVAL;
	}
	return 0;
}

/* BUFFER: the top instance ("" name) wins over others; the first one else. */
static int v7_buffer(struct tracedat *td, struct v7_state *st, struct tracedat_cur *c)
{
	unsigned long long sec;
	const char *name, *clock;
	uint32_t page, count;

	if (tracedat_cur_u64(c, &sec) || !(name = tracedat_cur_str(c)) || !(clock = tracedat_cur_str(c)) ||
	    tracedat_cur_u32(c, &page) || tracedat_cur_u32(c, &count))
		return -EINVAL;
	if (st->have_buffer && (st->buffer_is_top || *name))
		return 0;
	if (page != td->page_size)
		return tracedat_fail(td, "BUFFER page size %u differs from the file's %u",
				     page, td->page_size);
	if (v7_buffer_cpus(td, c, count))
		return -EINVAL;
	st->have_buffer = 1;
	st->buffer_is_top = !*name;
	free(st->buffer_clock);
	st->buffer_clock = strdup(clock);
	return st->buffer_clock ? 0 : tracedat_fail(td, "out of memory");
}

static int v7_option(struct tracedat *td, struct v7_state *st, uint16_t id,
		     unsigned long long at, unsigned long long n)
{
	struct tracedat_cur oc = { td, at, at + n, "BUFFER option" };

	if (id == OPT_CPUCOUNT) {
		if (n < 4)
			return tracedat_fail(td, "truncated in options");
		st->cpucount = tracedat_u32(td, td->map + at);
		return 0;
	}
	if (td->stats_only && (id == OPT_BUFFER || (id >= SEC_HEADER_INFO && id <= SEC_LAST)))
		return 0;	/* compressed data: not read, nor checked as plain */
	if (id >= SEC_HEADER_INFO && id <= SEC_LAST) {
		if (n < 8)
			return tracedat_fail(td, "truncated in options");
		st->sec[id] = tracedat_u64(td, td->map + at);
		return 0;
	}
	if (id == OPT_BUFFER)
		return v7_buffer(td, st, &oc);
	return tracedat_handle_option(td, id, (const char *)td->map + at, n);
}

/* One options section; *next gets the offset of the next one (0: last). */
static int v7_options(struct tracedat *td, struct v7_state *st, unsigned long long off,
		      unsigned long long *next)
{
	unsigned long long n;
	struct tracedat_cur c;
	uint16_t id;

	if (v7_section(td, off, OPT_DONE, "options", &c))
		return -EINVAL;
	for (;;) {
		if (tracedat_cur_u16(&c, &id) || !tracedat_cur_blob(&c, 0, &n))
			return -EINVAL;
		if (id == OPT_DONE) {
			if (n < 8)
				return tracedat_fail(td, "truncated in options");
			*next = tracedat_u64(td, td->map + c.pos - n);
			return 0;
		}
		if (v7_option(td, st, id, c.pos - n, n))
			return -EINVAL;
	}
}

static int v7_sections(struct tracedat *td, struct v7_state *st, unsigned int long_size)
{
	struct tracedat_cur c;

	if (!st->sec[SEC_HEADER_INFO])
		return tracedat_fail(td, "no header info section");
	if (v7_section(td, st->sec[SEC_HEADER_INFO], SEC_HEADER_INFO, "header info", &c) ||
	    tracedat_parse_header_info(td, &c, long_size))
		return -EINVAL;
	if (st->sec[SEC_FTRACE_EVENTS] &&
	    (v7_section(td, st->sec[SEC_FTRACE_EVENTS], SEC_FTRACE_EVENTS, "ftrace formats", &c) ||
	     tracedat_parse_formats(td, &c, "ftrace")))
		return -EINVAL;
	if (st->sec[SEC_EVENT_FORMATS] &&
	    (v7_section(td, st->sec[SEC_EVENT_FORMATS], SEC_EVENT_FORMATS, "event formats", &c) ||
	     tracedat_parse_event_systems(td, &c)))
		return -EINVAL;
	if (st->sec[SEC_KALLSYMS] &&
	    (v7_section(td, st->sec[SEC_KALLSYMS], SEC_KALLSYMS, "kallsyms", &c) ||
	     tracedat_parse_symbols(td, &c, 0)))
		return -EINVAL;
	if (st->sec[SEC_PRINTK] &&
	    (v7_section(td, st->sec[SEC_PRINTK], SEC_PRINTK, "printk formats", &c) ||
	     tracedat_parse_symbols(td, &c, 1)))
		return -EINVAL;
	if (st->sec[SEC_CMDLINES] &&
	    (v7_section(td, st->sec[SEC_CMDLINES], SEC_CMDLINES, "cmdlines", &c) ||
	     tracedat_parse_cmdlines(td, &c)))
		return -EINVAL;
	return 0;
}

/* CPUCOUNT above the CPUs with data: the others get empty slots. */
static int v7_cpu_count(struct tracedat *td, const struct v7_state *st)
{
	struct tracedat_cpu *have = td->cpu;
	int n = td->cpus;

	if (have && st->cpucount <= (uint32_t)n)
		return 0;
	td->cpu = NULL;
	if (tracedat_alloc_cpus(td, st->cpucount > (uint32_t)n ? st->cpucount : (unsigned int)n)) {
		td->cpu = have;
		td->cpus = n;
		return -EINVAL;
	}
	if (have)
		memcpy(td->cpu, have, n * sizeof(*have));
	free(have);
	return 0;
}

/**
 * tracedat_parse_v7() - read a version 7 file from the compression header on
 * @td: the file, its initial format read
 * @c: a view positioned after the page size
 * @long_size: the file's user-space long size
 *
 * Without a TRACECLOCK option the clock is the one the BUFFER option names.
 * For tracedat_open_stats() only the options are read, of any compression.
 *
 * Return: 0, or -EINVAL with the reason in @td's error.
 */
int tracedat_parse_v7(struct tracedat *td, struct tracedat_cur *c, unsigned int long_size)
{
	struct v7_state st = { 0 };
	unsigned long long off;
	const char *name;
	int n, ret = -EINVAL;

	c->what = "compression header";
	if (!(name = tracedat_cur_str(c)) || !tracedat_cur_str(c) || tracedat_cur_u64(c, &off))
		return -EINVAL;
	if (strcmp(name, "none") && !td->stats_only)
		return tracedat_unsupported(td, "compressed v7 file, not supported by the fast reader");
	for (n = 0; off; n++) {
		if (n == TD_MAX_OPT_SECTIONS) {
			tracedat_fail(td, "more than %d options sections", n);
			goto out;
		}
		if (v7_options(td, &st, off, &off))
			goto out;
	}
	ret = td->stats_only ? 0 : v7_sections(td, &st, long_size);
	if (!ret)
		ret = v7_cpu_count(td, &st);
	if (!ret && !td->clock && st.buffer_clock && *st.buffer_clock) {
		td->clock = st.buffer_clock;
		st.buffer_clock = NULL;
	}
out:
	free(st.buffer_clock);
	return ret;
}
