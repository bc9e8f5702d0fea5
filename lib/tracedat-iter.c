// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-iter.c - deliver a trace.dat's events in timestamp order.
 *
 * DOC: checking pages, then walking them
 *
 * A page is walked twice.  First to check it (ring_buffer.c encoding: a
 * 32-bit header of type_len:5 and time_delta:27; type_len 1..28 is a data
 * event of type_len * 4 bytes, 0 a data event whose length word follows,
 * 29 padding, 30 a time extend, 31 an absolute time stamp): only a page
 * whose every read stays inside it and whose every step moves forward is
 * delivered, and each data event must be as long as the fixed fields of
 * its format, so that tep_read_number_field() stays inside the record.
 * Then, checked, its events are handed out one by one, with the time
 * stamps libtraceevent's kbuffer gives (padding and extends add their
 * delta, an absolute stamp replaces all but the time's top five bits).  That walk was kbuffer's:
 * it trusts its page (a padding event of length -4 makes it loop for
 * ever), so it could not do without the check, and on a checked page its
 * per-event calls through function pointers were a quarter of a report's
 * instructions (225 M of 943 M on a 1 M-event storm).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tracedat-priv.h"

#define RB_MISSED_EVENTS	(1ull << 31)
#define RB_MISSED_STORED	(1ull << 30)
#define RB_COMMIT_MASK		((1ull << 27) - 1)
#define RB_MAX_SMALL_TYPE	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ull << 56)

/* One CPU's position in its pages. */
struct cursor {
	const unsigned char *pages;
	unsigned long long npages, next_page;
	unsigned long long released;	/* pages before this are given back */
	void *data;			/* current event; NULL when the CPU is done */
	unsigned long long ts;
	long long missed;		/* to report on the current event */
	int size;
	unsigned long long last_ts;	/* of the event before: time must not go back */
	/* the page being walked (checked): its data area, committed size, */
	const unsigned char *page_data;	/* where the next event starts, */
	unsigned int page_size, page_pos;	/* and the time before it */
	unsigned long long page_ts;
	/* compressed data: pages is z.buf, the chunk decompressed */
	int zipped;
	struct tracedat_chunks z;
	unsigned long long first_page;	/* of the chunk, in the CPU's pages */
};

static unsigned int event_type(const struct tracedat *td, const unsigned char *rec)
{
	const unsigned char *p = rec + td->type_offset;

	if (td->type_size == 1)
		return *p;
	return td->type_size == 2 ? tracedat_u16(td, p) : tracedat_u32(td, p);
}

/* An event header's type_len and time delta (ring_buffer.c encoding). */
static unsigned int rb_type_len(const struct tracedat *td, uint32_t hdr)
{
	return td->big_endian ? hdr >> 27 : hdr & 31;
}

static unsigned long long rb_delta(const struct tracedat *td, uint32_t hdr)
{
	return td->big_endian ? hdr & RB_COMMIT_MASK : hdr >> 5;
}

/*
 * A data event's length from its header at @p (type_len 0: the word after
 * it, which counts itself, rounded up to 4) and where its data starts.
 */
static unsigned int rb_data_len(const struct tracedat *td, unsigned int type_len,
				const unsigned char *p, unsigned int *header)
{
	uint32_t len;

	*header = type_len ? 4 : 8;
	if (type_len)
		return type_len * 4;
	len = tracedat_u32(td, p + 4);
	return len < 4 ? 0 : (len - 4 + 3) & ~3u;
}

/* A page's commit word: its committed size and the missed-events flags. */
static unsigned long long page_commit(const struct tracedat *td, const unsigned char *page)
{
	return td->commit_size == 8 ? tracedat_u64(td, page + 8) : tracedat_u32(td, page + 8);
}

static const char *check_data_event(const struct tracedat *td, const unsigned char *rec,
				    unsigned long long len)
{
	unsigned int type;

	if (len < td->common_size)
		return "event shorter than the common fields";
	type = event_type(td, rec);
	if (type < 65536 && len < td->min_size[type])
		return "event shorter than its format";
	return NULL;
}

/*
 * Check a page's events as next_in_page() will walk them.  @data is the
 * page's data area of @avail bytes, @size of which are committed.  Returns
 * NULL or what is wrong.
 */
static const char *check_events(const struct tracedat *td, const unsigned char *data,
				unsigned long long size, unsigned long long avail)
{
	unsigned long long pos = 0, next, len;
	unsigned int type_len, header;
	const char *bad;

	while (pos < size) {
		if (pos + 4 > avail)
			return "event header past the page";
		type_len = rb_type_len(td, tracedat_u32(td, data + pos));
		if (type_len > RB_MAX_SMALL_TYPE || type_len == 0) {
			/* the word after the header is read for these */
			if (pos + 8 > avail)
				return "event header past the page";
		}
		if (type_len == RB_TYPE_PADDING) {
			len = tracedat_u32(td, data + pos + 4);
			if (len >= 1u << 31)
				return "bad padding length";
			next = pos + 4 + len;
		} else if (type_len > RB_TYPE_PADDING) {
			next = pos + 8;
		} else {
			len = rb_data_len(td, type_len, data + pos, &header);
			pos += header;
			if (pos + len > size)
				return "event longer than the commit";
			bad = check_data_event(td, data + pos, len);
			if (bad)
				return bad;
			next = pos + len;
		}
		pos = next;
	}
	return NULL;
}

/*
 * Check a page; *missed gets the events lost before it: 0, the stored
 * count, or -1 when the kernel had no room to store it.
 */
static const char *check_page(const struct tracedat *td, const unsigned char *page,
			      long long *missed)
{
	unsigned int start = 8 + td->commit_size;
	unsigned long long avail = td->page_size - start;
	unsigned long long commit = page_commit(td, page), size = commit & RB_COMMIT_MASK;

	if (size > avail)
		return "commit larger than the page";
	*missed = 0;
	if (commit & RB_MISSED_EVENTS)
		*missed = -1;
	if ((commit & RB_MISSED_EVENTS) && (commit & RB_MISSED_STORED)) {
		if (size + td->commit_size > avail)
			return "missed-events count past the page end";
		*missed = td->commit_size == 8 ? (long long)tracedat_u64(td, page + start + size) :
			  (long long)tracedat_u32(td, page + start + size);
	}
	return check_events(td, page + start, size, avail);
}

#define RELEASE_BATCH 256	/* pages: give back 1 MiB at a time */

/*
 * Pages this cursor is done with leave our resident memory (the mapping is
 * read-only and private: a later touch would read them again), so reading
 * a 10 GB trace takes the memory of its live fences, not of its size.
 */
static void release_read_pages(struct tracedat *td, struct cursor *c)
{
	unsigned long long done = c->next_page ? c->next_page - 1 : 0;
	long host_page = sysconf(_SC_PAGESIZE);
	const unsigned char *from;

	if (c->zipped)
		return;		/* the chunk buffer is reused; tracedat-unzip.c gives back */
	if (done - c->released < RELEASE_BATCH || host_page <= 0 ||
	    td->page_size % (unsigned long)host_page)
		return;
	from = c->pages + c->released * td->page_size;
	if ((uintptr_t)from % (uintptr_t)host_page == 0)
		madvise((void *)from, (done - c->released) * td->page_size, MADV_DONTNEED);
	c->released = done;
}

/*
 * One CPU's ring buffer never goes back in time: a page whose time stamp
 * is below the event before it, or a time extend that wraps past 2^64, is
 * damage (a bit flip, a page from another trace), and every duration read
 * across it would be nonsense.  It stops the walk like any damaged page.
 */
static int check_time(struct tracedat *td, struct cursor *c, int cpu)
{
	if (c->ts < c->last_ts)
		return tracedat_fail(td, "cpu%d page %llu: time goes back (%llu ns after %llu ns)",
				     cpu, c->first_page + c->next_page - 1, c->ts, c->last_ts);
	c->last_ts = c->ts;
	return 0;
}

/* Past the last page of a compressed CPU's chunk: decompress the next one. */
static int next_chunk(struct tracedat *td, struct cursor *c, int cpu)
{
	unsigned long long n;

	if (!c->zipped || !c->z.left)
		return 0;
	if (tracedat_next_chunk(td, cpu, &c->z, &n))
		return -EINVAL;
	c->first_page += c->npages;
	c->npages = n;
	c->next_page = 0;
	return 0;
}

static int page_fail(struct tracedat *td, const struct cursor *c, int cpu, const char *bad)
{
	if (c->zipped)
		return tracedat_fail(td, "cpu%d page %llu (chunk at offset %llu): %s", cpu,
				     c->first_page + c->next_page, c->z.at, bad);
	return tracedat_fail(td, "cpu%d page %llu: %s", cpu, c->next_page, bad);
}

/* Walk checked @page from its start: its time stamp, its committed data. */
static void start_page(const struct tracedat *td, struct cursor *c, const unsigned char *page)
{
	c->page_ts = tracedat_u64(td, page);
	c->page_data = page + 8 + td->commit_size;
	c->page_size = (unsigned int)(page_commit(td, page) & RB_COMMIT_MASK);
	c->page_pos = 0;
}

/*
 * The next data event of the page (checked by check_page(): no bounds to
 * test) into @c->data, @c->size and @c->ts; 0 when the page has no more.
 */
static int next_in_page(const struct tracedat *td, struct cursor *c)
{
	while (c->page_pos < c->page_size) {
		const unsigned char *p = c->page_data + c->page_pos;
		uint32_t hdr = tracedat_u32(td, p);
		unsigned int type_len = rb_type_len(td, hdr), len, header;
		unsigned long long delta = rb_delta(td, hdr);

		if (type_len == RB_TYPE_PADDING) {
			c->page_ts += delta;
			c->page_pos += 4 + tracedat_u32(td, p + 4);
			continue;
		}
		if (type_len > RB_TYPE_PADDING) {
			delta += (unsigned long long)tracedat_u32(td, p + 4) << RB_TS_SHIFT;
			/* an absolute stamp lacks the top 5 bits: they stay (rb_fix_abs_ts()) */
			c->page_ts = type_len == RB_TYPE_TIME_STAMP ? delta | (c->page_ts & RB_TS_MSB) :
				     c->page_ts + delta;
			c->page_pos += 8;
			continue;
		}
		c->page_ts += delta;
		len = rb_data_len(td, type_len, p, &header);
		p += header;
		c->page_pos = (unsigned int)(p - c->page_data) + len;
		c->data = (void *)p;
		c->size = (int)len;
		c->ts = c->page_ts;
		return 1;
	}
	c->data = NULL;
	return 0;
}

/* Load the next page holding an event; data stays NULL at the end. */
static int load_page(struct tracedat *td, struct cursor *c, int cpu)
{
	const unsigned char *page;
	const char *bad;
	long long missed;

	c->data = NULL;
	release_read_pages(td, c);
	for (;;) {
		if (c->next_page == c->npages && next_chunk(td, c, cpu))
			return -EINVAL;
		if (c->next_page >= c->npages)
			break;
		page = c->pages + c->next_page * td->page_size;
		bad = check_page(td, page, &missed);
		if (bad)
			return page_fail(td, c, cpu, bad);
		c->next_page++;
		start_page(td, c, page);
		if (missed)
			c->missed = missed;	/* an empty page passes it on */
		if (next_in_page(td, c))
			return check_time(td, c, cpu);
	}
	return 0;
}

static int advance(struct tracedat *td, struct cursor *c, int cpu)
{
	if (!next_in_page(td, c))
		return load_page(td, c, cpu);
	return check_time(td, c, cpu);
}

static void free_cursors(struct cursor *cur, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(cur[i].z.buf);
	free(cur);
}

/* A compressed CPU: no pages until the first chunk; room for its largest. */
static int init_chunks(struct tracedat *td, struct cursor *c, int cpu)
{
	const struct tracedat_cpu *tc = &td->cpu[cpu];

	c->zipped = 1;
	c->z = (struct tracedat_chunks){ .pos = tc->offset + 4, .at = tc->offset,
		.released = tc->offset, .left = tc->chunks, .cap = tc->max_chunk };
	if (!tc->chunks)
		return 0;
	c->z.buf = malloc(tc->max_chunk);
	c->pages = c->z.buf;
	return c->z.buf ? 0 : -ENOMEM;
}

static struct cursor *alloc_cursors(struct tracedat *td)
{
	struct cursor *cur = calloc(td->cpus ? td->cpus : 1, sizeof(*cur));
	int i;

	for (i = 0; cur && i < td->cpus; i++) {
		td->cpu[i].events = 0;
		if (td->cpu[i].zipped && init_chunks(td, &cur[i], i)) {
			free_cursors(cur, td->cpus);
			return NULL;
		}
		if (td->cpu[i].zipped)
			continue;
		cur[i].pages = td->map + td->cpu[i].offset;
		cur[i].npages = td->cpu[i].size / td->page_size;
	}
	return cur;
}

/* The CPU with the earliest current event (lowest CPU on ties), or -1. */
static int earliest(const struct cursor *cur, const int *active, int nactive)
{
	int i, best = active[0];

	for (i = 1; i < nactive; i++)
		if (cur[active[i]].ts < cur[best].ts)
			best = active[i];
	return nactive ? best : -1;
}

static int merge(struct tracedat *td, struct cursor *cur, int *active, tracedat_cb cb, void *ctx)
{
	struct tep_record rec = { 0 };
	int i, n = 0, cpu, ret;

	for (i = 0; i < td->cpus; i++) {
		if (load_page(td, &cur[i], i))
			return -EINVAL;
		if (cur[i].data)
			active[n++] = i;
	}
	while (n) {
		cpu = earliest(cur, active, n);
		rec.ts = cur[cpu].ts;
		rec.cpu = cpu;
		rec.data = cur[cpu].data;
		rec.offset = cur[cpu].zipped ? cur[cpu].z.at :
			     (unsigned long long)((const unsigned char *)rec.data - td->map);
		rec.size = rec.record_size = cur[cpu].size;
		rec.missed_events = cur[cpu].missed;
		cur[cpu].missed = 0;
		td->cpu[cpu].events++;
		ret = cb(&rec, ctx);
		if (ret)
			return ret;
		if (advance(td, &cur[cpu], cpu))
			return -EINVAL;
		if (!cur[cpu].data) {
			for (i = 0; active[i] != cpu; i++)
				;
			for (n--; i < n; i++)
				active[i] = active[i + 1];
		}
	}
	return 0;
}

/**
 * tracedat_iterate() - call @cb for every event, merged in timestamp order
 * @td: an opened file
 * @cb: called per event; a non-zero return stops the walk and is returned
 * @ctx: passed to @cb
 *
 * See tracedat.h.  Each page is checked before its first event is
 * delivered; a damaged page stops the walk with -EINVAL and a message
 * naming the CPU and page in tracedat_error().  Per-CPU counts of the
 * events delivered are in tracedat_cpu_events() afterwards.
 *
 * Return: 0, @cb's non-zero return, -EINVAL or -ENOMEM.
 */
int tracedat_iterate(struct tracedat *td, tracedat_cb cb, void *ctx)
{
	struct cursor *cur = alloc_cursors(td);
	int *active = malloc((td->cpus ? td->cpus : 1) * sizeof(*active));
	int ret;

	if (!cur || !active) {
		free(active);
		if (cur)
			free_cursors(cur, td->cpus);
		return -ENOMEM;
	}
	td->err[0] = '\0';
	ret = merge(td, cur, active, cb, ctx);
	free(active);
	free_cursors(cur, td->cpus);
	return ret;
}

static int skip_record(struct tep_record *rec, void *ctx)
{
	(void)rec;
	(void)ctx;
	return 0;
}

/**
 * tracedat_walk() - read every page of @td with every check and deliver
 * nothing: what lets another reader take a file (libtracecmd is not
 * hardened against damaged pages).  The counts are tracedat_cpu_events()'s.
 *
 * Return: 0, -EINVAL (the damage in tracedat_error()) or -ENOMEM.
 */
int tracedat_walk(struct tracedat *td)
{
	return tracedat_iterate(td, skip_record, NULL);
}

/**
 * tracedat_cpu_events() - events of @cpu delivered by the last iterate
 * @td: an opened file
 * @cpu: a CPU number; out of range gives 0
 */
unsigned long long tracedat_cpu_events(struct tracedat *td, int cpu)
{
	return cpu >= 0 && cpu < td->cpus ? td->cpu[cpu].events : 0;
}

/**
 * tracedat_data_loc() - a __data_loc (or __rel_loc) field, checked
 * @tep: the file's handle (for its byte order)
 * @rec: the record
 * @field: the field, from tep_find_field()
 * @len: gets the length the field gives (a string's includes its NUL)
 *
 * Return: a pointer into @rec, or NULL when the field is missing or points
 * outside the record.
 */
const char *tracedat_data_loc(struct tep_handle *tep, struct tep_record *rec,
			      struct tep_format_field *field, unsigned int *len)
{
	unsigned long long v, off;

	if (!field || field->offset < 0 || field->offset + 4 > rec->size)
		return NULL;
	v = tep_read_number(tep, (char *)rec->data + field->offset, 4);
	off = v & 0xffff;
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		off += field->offset + 4;
	if (off + (v >> 16) > (unsigned long long)rec->size)
		return NULL;
	*len = (unsigned int)(v >> 16);
	return (const char *)rec->data + off;
}
