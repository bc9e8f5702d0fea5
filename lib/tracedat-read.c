// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-read.c - open and validate a trace-cmd trace.dat file.
 *
 * DOC: the fast reader
 *
 * The file is mapped read-only and parsed with bounded cursors: every size
 * and offset is checked against the part of the file it must lie in before
 * it is used, so a damaged file ends in a one-line error naming the part
 * that is wrong ("truncated in event formats"), never in a read past the
 * mapping (tracedat-cursor.c).  Allocations are bounded by the file size.
 * Version 6 is read here, with the section parsers both versions share
 * (tracedat-sections.c); version 7 by tracedat-read-v7.c, its compressed
 * sections and chunks by tracedat-unzip.c.  Event formats are
 * checked by tracedat-format.c before libtraceevent parses them; events
 * are read by tracedat-iter.c.
 *
 * The mapping assumes the file does not shrink while it is open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tracedat-priv.h"

static int map_file(struct tracedat *td, const char *path)
{
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tracedat_fail(td, "%s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return tracedat_fail(td, st.st_size == 0 ? "empty file" : "not a regular file");
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return tracedat_fail(td, "mmap: %s", strerror(errno));
	td->map = map;
	td->size = (unsigned long long)st.st_size;
	return 0;
}

static int parse_version(struct tracedat *td, struct tracedat_cur *c)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned long long have = td->size < sizeof(magic) ? td->size : sizeof(magic);
	const char *v;

	if (memcmp(td->map, magic, have))
		return tracedat_fail(td, "not a trace-cmd file");
	c->what = "file header";
	if (!tracedat_cur_take(c, sizeof(magic)) || !(v = tracedat_cur_str(c)))
		return -EINVAL;
	if (strlen(v) > 8 || strspn(v, "0123456789") != strlen(v) || !*v)
		return tracedat_fail(td, "bad version string");
	td->version = atoi(v);
	if (td->version != 6 && td->version != 7)
		return tracedat_fail(td, "version %s not supported", v);
	return 0;
}

static int parse_initial(struct tracedat *td, struct tracedat_cur *c, unsigned int *long_size)
{
	const unsigned char *p;
	uint32_t page;

	if (parse_version(td, c) || !(p = tracedat_cur_take(c, 2)))
		return -EINVAL;
	if (p[0] > 1 || (p[1] != 4 && p[1] != 8))
		return tracedat_fail(td, "bad endian flag %u or long size %u", p[0], p[1]);
	td->big_endian = p[0];
	*long_size = p[1];
	if (tracedat_cur_u32(c, &page))
		return -EINVAL;
	if (page < 256 || page > (1u << 24) || (page & (page - 1)))
		return tracedat_fail(td, "page size %u not supported", page);
	td->page_size = page;
	td->tep = tep_alloc();
	if (!td->tep)
		return tracedat_fail(td, "out of memory");
	tep_set_file_bigendian(td->tep, td->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(td->tep, (int)*long_size);
	tep_set_page_size(td->tep, (int)page);
	return 0;
}

static int parse_v6_options(struct tracedat *td, struct tracedat_cur *c)
{
	unsigned long long n;
	const char *p;
	uint16_t id;

	c->what = "options";
	for (;;) {
		if (tracedat_cur_u16(c, &id))
			return -EINVAL;
		if (id == OPT_DONE)
			return 0;
		if (!(p = tracedat_cur_blob(c, 0, &n)) || tracedat_handle_option(td, id, p, n))
			return -EINVAL;
	}
}

/*
 * With a TRACECLOCK option, v6 trace-cmd writes the clock again after the
 * flyrecord table as u64 size + "[mono]", and reads it from there.  Older
 * writers left it out, so a missing or implausible one is ignored.
 */
static int parse_clock_trailer(struct tracedat *td, struct tracedat_cur *c)
{
	unsigned long long n;
	const char *p;
	char *clock;

	if (tracedat_cur_u64(c, &n) || n == 0 || n > 256 || n > c->end - c->pos) {
		td->err[0] = '\0';
		return 0;
	}
	p = (const char *)td->map + c->pos;
	if (!tracedat_format_printable(p, n) || !memchr(p, '[', n))
		return 0;
	clock = tracedat_selected_clock(p, n);
	if (!clock)
		return 0;
	free(td->clock);
	td->clock = clock;
	return 0;
}

static int parse_flyrecord(struct tracedat *td, struct tracedat_cur *c, uint32_t cpus)
{
	unsigned long long offset, size;
	uint32_t cpu;

	c->what = "flyrecord table";
	if (16ull * cpus > c->end - c->pos)
		return tracedat_fail(td, "truncated in flyrecord table");
	if (tracedat_alloc_cpus(td, cpus))
		return -EINVAL;
	for (cpu = 0; cpu < cpus; cpu++)
		if (tracedat_cur_u64(c, &offset) || tracedat_cur_u64(c, &size) ||
		    tracedat_set_cpu_data(td, cpu, offset, size))
			return -EINVAL;
	return td->clock_option ? parse_clock_trailer(td, c) : 0;
}

static int parse_v6_tail(struct tracedat *td, struct tracedat_cur *c)
{
	const unsigned char *mark;
	uint32_t cpus;

	c->what = "cpu count";
	if (tracedat_cur_u32(c, &cpus))
		return -EINVAL;
	c->what = "options";
	if (!(mark = tracedat_cur_take(c, 10)))
		return -EINVAL;
	if (!memcmp(mark, "options  ", 10)) {
		if (parse_v6_options(td, c) || !(mark = tracedat_cur_take(c, 10)))
			return -EINVAL;
	}
	if (!memcmp(mark, "latency  ", 10))
		return tracedat_fail(td, "latency (text) trace, no per-CPU data to read");
	if (memcmp(mark, "flyrecord", 10))
		return tracedat_fail(td, "bad marker after the options (want flyrecord)");
	return parse_flyrecord(td, c, cpus);
}

static int parse_v6(struct tracedat *td, struct tracedat_cur *c, unsigned int long_size)
{
	c->what = "ftrace formats";
	if (tracedat_parse_header_info(td, c, long_size) || tracedat_parse_formats(td, c, "ftrace") ||
	    tracedat_parse_event_systems(td, c) || tracedat_parse_symbols(td, c, 0) ||
	    tracedat_parse_symbols(td, c, 1) || tracedat_parse_cmdlines(td, c))
		return -EINVAL;
	return parse_v6_tail(td, c);
}

/* The fixed part of an event's format: how long its records must be. */
static unsigned int fixed_size(const struct tep_event *ev, int common)
{
	const struct tep_format_field *f;
	long long end = 0, e;

	for (f = common ? ev->format.common_fields : ev->format.fields; f; f = f->next) {
		/* a damaged format may claim anything: clamp to what a u16 holds */
		e = (long long)f->offset + f->size;
		if (f->offset < 0 || f->size < 0 || e > 65535)
			e = 65535;
		end = e > end ? e : end;
	}
	return (unsigned int)end;
}

static int setup_min_sizes(struct tracedat *td)
{
	struct tep_event *ev = tep_get_first_event(td->tep);
	struct tep_format_field *type = ev ? tep_find_common_field(ev, "common_type") : NULL;
	unsigned int i, size;
	int n = tep_get_events_count(td->tep);

	if (type && (type->offset < 0 || type->offset > 1024 ||
		     (type->size != 1 && type->size != 2 && type->size != 4)))
		return tracedat_fail(td, "common_type of %d bytes at %d not supported",
				     type->size, type->offset);
	td->type_offset = type ? (unsigned int)type->offset : 0;
	td->type_size = type ? (unsigned int)type->size : 2;
	td->common_size = ev ? fixed_size(ev, 1) : 8;
	if (td->common_size < td->type_offset + td->type_size)
		td->common_size = td->type_offset + td->type_size;
	td->min_size = malloc(65536 * sizeof(*td->min_size));
	if (!td->min_size)
		return tracedat_fail(td, "out of memory");
	for (i = 0; i < 65536; i++)
		td->min_size[i] = (uint16_t)td->common_size;
	for (i = 0; i < (unsigned int)n; i++) {
		ev = tep_get_event(td->tep, (int)i);
		if (!ev || ev->id < 0 || ev->id > 65535)
			continue;
		size = fixed_size(ev, 0) > fixed_size(ev, 1) ? fixed_size(ev, 0) : fixed_size(ev, 1);
		td->min_size[ev->id] = (uint16_t)size;
	}
	return 0;
}

static int parse_file(struct tracedat *td)
{
	struct tracedat_cur c = { td, 0, td->size, "file header", NULL };
	unsigned int long_size = 0;

	if (parse_initial(td, &c, &long_size))
		return -EINVAL;
	if (td->version == 6 ? parse_v6(td, &c, long_size) : tracedat_parse_v7(td, &c, long_size))
		return -EINVAL;
	return td->stats_only ? 0 : setup_min_sizes(td);
}

static struct tracedat *open_file(const char *path, int stats_only, char *err, size_t errlen)
{
	struct tracedat *td = calloc(1, sizeof(*td));

	if (!td || !(td->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(td);
		return NULL;
	}
	td->stats_only = stats_only;
	if (map_file(td, path) || parse_file(td)) {
		int unsupported = td->unsupported;

		snprintf(err, errlen, "%s", td->err);
		tracedat_close(td);
		errno = unsupported ? ENOTSUP : EINVAL;
		return NULL;
	}
	return td;
}

/**
 * tracedat_open() - map and validate a trace.dat file
 * @path: the file
 * @err: gets a one-line message ("PATH: truncated in event formats") on failure
 * @errlen: size of @err
 *
 * Reads the headers, event formats, symbols, cmdlines and options into a
 * libtraceevent handle and checks that every CPU's data lies in the file.
 * Pages themselves are checked as tracedat_iterate() reaches them.
 *
 * Return: the opened file, or NULL with a message in @err.
 */
struct tracedat *tracedat_open(const char *path, char *err, size_t errlen)
{
	return open_file(path, 0, err, errlen);
}

/**
 * tracedat_open_stats() - read only what the recorder said about its rings
 * @path: the file, typically one tracedat_open() refused with ENOTSUP
 * @err: gets a one-line message on failure
 * @errlen: size of @err
 *
 * trace-cmd compresses a v7 file's sections and per-CPU data but writes its
 * options sections plain, and those hold the per-CPU stats (CPUSTAT) and
 * the CPU count.  So the stats of a file tracedat_open() refuses (an
 * unknown compression, a chunk too large) and libtracecmd reads, whose API
 * does not give them, are read here: tracedat_overrun() and
 * tracedat_missing_of() answer as for a file tracedat_open() reads.  The
 * result is not for tracedat_iterate().
 *
 * Return: the stats, or NULL with a message in @err (an options section
 * compressed with an algorithm this reader does not know: ENOTSUP).
 */
struct tracedat *tracedat_open_stats(const char *path, char *err, size_t errlen)
{
	return open_file(path, 1, err, errlen);
}

/**
 * tracedat_close() - unmap the file and free everything, the tep handle too
 * @td: an opened file, or NULL
 */
void tracedat_close(struct tracedat *td)
{
	if (!td)
		return;
	if (td->map)
		munmap((void *)td->map, td->size);
	if (td->tep)
		tep_free(td->tep);
	tracedat_free_codec(td);
	free(td->min_size);
	free(td->cpu);
	free(td->clock);
	free(td->uname);
	free(td->recorder);
	free(td->path);
	free(td);
}

/** tracedat_tep() - the libtraceevent handle with the file's formats, owned by @td */
struct tep_handle *tracedat_tep(struct tracedat *td) { return td->tep; }
/**
 * tracedat_overrun() - events the ring buffer overwrote while recording,
 * summed from the CPUSTAT options ("overrun: N"); -1 when the file has none
 */
long long tracedat_overrun(struct tracedat *td) { return td->have_cpustat ? (long long)td->overrun : -1; }

/* What the stats say CPU @cpu's recorder took beyond the @have events it has. */
static unsigned long long missing_on(struct tracedat *td, int cpu, unsigned long long have)
{
	long long taken = td->taken[cpu];

	return taken > 0 && (unsigned long long)taken > have ? (unsigned long long)taken - have : 0;
}

/**
 * tracedat_missing() - events the recorder's own per-CPU stats say it took
 * (read events + entries) beyond those the file holds, summed over CPUs;
 * call after tracedat_iterate().  0 when the stats do not say.
 *
 * A CPU with stats but no data slot holds none: a v7 BUFFER option lists
 * only the CPUs trace-cmd saved data for.
 */
unsigned long long tracedat_missing(struct tracedat *td)
{
	unsigned long long missing = 0;

	for (int cpu = 0; cpu < td->n_taken; cpu++)
		missing += missing_on(td, cpu, tracedat_cpu_events(td, cpu));
	return missing;
}

/**
 * tracedat_missing_of() - tracedat_missing() for events another reader
 * (libtracecmd) delivered from the file
 * @td: the file's stats (tracedat_open_stats())
 * @events: events delivered per CPU
 * @cpus: entries in @events; CPUs beyond it delivered none
 */
unsigned long long tracedat_missing_of(struct tracedat *td, const unsigned long long *events, int cpus)
{
	unsigned long long missing = 0;

	for (int cpu = 0; cpu < td->n_taken; cpu++)
		missing += missing_on(td, cpu, cpu < cpus ? events[cpu] : 0);
	return missing;
}
/** tracedat_version() - the file format version: 6 or 7 */
int tracedat_version(struct tracedat *td) { return td->version; }
/** tracedat_cpus() - how many CPUs the file has data slots for */
int tracedat_cpus(struct tracedat *td) { return td->cpus; }
/** tracedat_clock() - the selected trace clock ("mono", "local", ...), or NULL */
const char *tracedat_clock(struct tracedat *td) { return td->clock; }
/** tracedat_uname() - the UNAME option of the recording machine, or NULL */
const char *tracedat_uname(struct tracedat *td) { return td->uname; }
/** tracedat_recorder() - the VERSION option: the recording tool's version, or NULL */
const char *tracedat_recorder(struct tracedat *td) { return td->recorder; }
/** tracedat_error() - the message of the last failure of tracedat_iterate() */
const char *tracedat_error(struct tracedat *td) { return td->err; }
