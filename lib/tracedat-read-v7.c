// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-read-v7.c - the section layout of trace-cmd version 7 files.
 *
 * After the initial format and the compression header (a name and a
 * version: "none", or the "zstd" and "zlib" of tracedat-unzip.c) comes the
 * offset of the first options section.  Options sections chain through
 * their DONE option; the HEADER_INFO .. CMDLINES options give the offsets
 * of the other sections, whose bodies are those of version 6, and the
 * BUFFER option gives each CPU's data.  Every section header is checked
 * (id, size inside the file) before its body is parsed; a compressed body
 * is decompressed first, and parsed from the decompressed bytes with the
 * same bounded cursor.
 *
 * The BUFFER option lists only the CPUs with data; the CPUCOUNT option
 * says how many the machine had, and the CPUSTAT options (one per CPU, in
 * order) cover them all.  tracedat_open_stats() reads only the options.
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

/* The header of the v7 section at @off: its id checked, @c bounded to its body. */
static int v7_section_header(struct tracedat *td, unsigned long long off, uint16_t want,
			     const char *what, struct tracedat_cur *c, uint16_t *flags)
{
	unsigned long long size;
	uint32_t strid;
	uint16_t id;

	*c = (struct tracedat_cur){ td, off, td->size, what, NULL };
	if (off > td->size)
		return tracedat_fail(td, "truncated in %s (section offset %llu)", what, off);
	if (tracedat_cur_u16(c, &id) || tracedat_cur_u16(c, flags) ||
	    tracedat_cur_u32(c, &strid) || tracedat_cur_u64(c, &size))
		return -EINVAL;
	if (id != want)
		return tracedat_fail(td, "%s section at offset %llu: id %u, expected %u",
				     what, off, id, want);
	if (size > c->end - c->pos)
		return tracedat_fail(td, "truncated in %s (section at offset %llu, %llu bytes)",
				     what, off, size);
	c->end = c->pos + size;
	return 0;
}

/*
 * Open the v7 section at @off: @c views its body, decompressed into *@buf
 * (freed by the caller; NULL when the section is plain) if it is compressed.
 */
static int v7_section(struct tracedat *td, unsigned long long off, uint16_t want,
		      const char *what, struct tracedat_cur *c, unsigned char **buf)
{
	uint16_t flags;

	*buf = NULL;
	if (v7_section_header(td, off, want, what, c, &flags))
		return -EINVAL;
	return flags & 1 ? tracedat_unzip_section(td, c, off, buf) : 0;
}

/* Each CPU's (id, offset, size); compressed data is a table of chunks. */
static int v7_buffer_cpus(struct tracedat *td, struct tracedat_cur *c, uint32_t count, int zipped)
{
	unsigned long long offset, size, max = 0;
	struct tracedat_cur ids = *c;
	uint32_t i, id;

	if (20ull * count > c->end - c->pos)
		return tracedat_fail(td, "truncated in %s", c->what);
	for (i = 0; i < count; i++) {
		if (tracedat_cur_u32(&ids, &id) || !tracedat_cur_take(&ids, 16))
			return -EINVAL;
		max = id + 1ull > max ? id + 1ull : max;
	}
	free(td->cpu);
	td->cpu = NULL;
	if (tracedat_alloc_cpus(td, max))
		return -EINVAL;
	for (i = 0; i < count; i++) {
		if (tracedat_cur_u32(c, &id) || tracedat_cur_u64(c, &offset) || tracedat_cur_u64(c, &size))
			return -EINVAL;
		if (td->cpu[id].size || td->cpu[id].zipped)
			return tracedat_fail(td, "cpu%u listed twice in the BUFFER option", id);
		if (zipped ? tracedat_set_cpu_chunks(td, id, offset, size) :
			     tracedat_set_cpu_data(td, id, offset, size))
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
	struct tracedat_cur body;
	uint16_t flags;

	if (tracedat_cur_u64(c, &sec) || !(name = tracedat_cur_str(c)) || !(clock = tracedat_cur_str(c)) ||
	    tracedat_cur_u32(c, &page) || tracedat_cur_u32(c, &count))
		return -EINVAL;
	if (st->have_buffer && (st->buffer_is_top || *name))
		return 0;
	if (page != td->page_size)
		return tracedat_fail(td, "BUFFER page size %u differs from the file's %u",
				     page, td->page_size);
	if (v7_section_header(td, sec, OPT_BUFFER, "flyrecord", &body, &flags) ||
	    v7_buffer_cpus(td, c, count, flags & 1))
		return -EINVAL;
	st->have_buffer = 1;
	st->buffer_is_top = !*name;
	free(st->buffer_clock);
	st->buffer_clock = strdup(clock);
	return st->buffer_clock ? 0 : tracedat_fail(td, "out of memory");
}

/* The option at @at of @c (the options section, plain or decompressed). */
static int v7_option(struct tracedat *td, struct v7_state *st, uint16_t id,
		     const struct tracedat_cur *c, unsigned long long at, unsigned long long n)
{
	struct tracedat_cur oc = { td, at, at + n, "BUFFER option", c->base };
	const unsigned char *p = (c->base ? c->base : td->map) + at;

	if (id == OPT_CPUCOUNT) {
		if (n < 4)
			return tracedat_fail(td, "truncated in options");
		st->cpucount = tracedat_u32(td, p);
		return 0;
	}
	if (td->stats_only && (id == OPT_BUFFER || (id >= SEC_HEADER_INFO && id <= SEC_LAST)))
		return 0;	/* compressed data: not read, nor checked as plain */
	if (id >= SEC_HEADER_INFO && id <= SEC_LAST) {
		if (n < 8)
			return tracedat_fail(td, "truncated in options");
		st->sec[id] = tracedat_u64(td, p);
		return 0;
	}
	if (id == OPT_BUFFER)
		return v7_buffer(td, st, &oc);
	return tracedat_handle_option(td, id, (const char *)p, n);
}

/* One options section; *next gets the offset of the next one (0: last). */
static int v7_options(struct tracedat *td, struct v7_state *st, unsigned long long off,
		      unsigned long long *next)
{
	unsigned char *buf;
	unsigned long long n;
	struct tracedat_cur c;
	const char *p;
	uint16_t id;
	int ret = -EINVAL;

	if (v7_section(td, off, OPT_DONE, "options", &c, &buf))
		goto out;
	for (;;) {
		if (tracedat_cur_u16(&c, &id) || !(p = tracedat_cur_blob(&c, 0, &n)))
			goto out;
		if (id == OPT_DONE) {
			if (n < 8) {
				tracedat_fail(td, "truncated in options");
				goto out;
			}
			*next = tracedat_u64(td, p);
			ret = 0;
			goto out;
		}
		if (v7_option(td, st, id, &c, c.pos - n, n))
			goto out;
	}
out:
	free(buf);
	return ret;
}

/* One of the sections the options point at, parsed by its version 6 parser. */
static int v7_parse_section(struct tracedat *td, const struct v7_state *st, uint16_t id,
			    unsigned int long_size)
{
	static const char *const what[] = {
		[SEC_HEADER_INFO] = "header info", [SEC_FTRACE_EVENTS] = "ftrace formats",
		[SEC_EVENT_FORMATS] = "event formats", [SEC_KALLSYMS] = "kallsyms",
		[SEC_PRINTK] = "printk formats", [SEC_CMDLINES] = "cmdlines",
	};
	struct tracedat_cur c;
	unsigned char *buf;
	int ret;

	if (v7_section(td, st->sec[id], id, what[id], &c, &buf))
		return -EINVAL;
	switch (id) {
	case SEC_HEADER_INFO:	ret = tracedat_parse_header_info(td, &c, long_size); break;
	case SEC_FTRACE_EVENTS:	ret = tracedat_parse_formats(td, &c, "ftrace"); break;
	case SEC_EVENT_FORMATS:	ret = tracedat_parse_event_systems(td, &c); break;
	case SEC_KALLSYMS:	ret = tracedat_parse_symbols(td, &c, 0); break;
	case SEC_PRINTK:	ret = tracedat_parse_symbols(td, &c, 1); break;
	default:		ret = tracedat_parse_cmdlines(td, &c); break;
	}
	free(buf);
	return ret;
}

static int v7_sections(struct tracedat *td, struct v7_state *st, unsigned int long_size)
{
	uint16_t id;

	if (!st->sec[SEC_HEADER_INFO])
		return tracedat_fail(td, "no header info section");
	for (id = SEC_HEADER_INFO; id <= SEC_LAST; id++)
		if (st->sec[id] && v7_parse_section(td, st, id, long_size))
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
 * For tracedat_open_stats() only the options are read, of any compression
 * (a compressed options section needs a known one).
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
	if (tracedat_set_codec(td, name)) {
		if (!td->stats_only)
			return -EINVAL;
		td->unsupported = 0;	/* the options may still be plain */
	}
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
