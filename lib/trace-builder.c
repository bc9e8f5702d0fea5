// SPDX-License-Identifier: GPL-2.0
/*
 * trace-builder.c - build real trace.dat files for tests.
 *
 * A page is the 6.1 x86_64 buffer_data_page: u64 timestamp, u64 commit
 * (data length; RB_MISSED_EVENTS and RB_MISSED_STORED in bits 31 and 30
 * when events were lost before the page, the count stored as a u64 after
 * the data when STORED), then the events.  An event is a u32 header
 * type_len:5 | time_delta:27; a data event of up to 28 * 4 bytes has
 * type_len = length / 4, a longer one type_len 0 and a u32 length word
 * (the data length + 4).  A delta too wide for 27 bits goes in a time
 * extend (type_len 30: low 27 bits in time_delta, the rest in the next
 * word) and the event after it has delta 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"
#include "trace-builder.h"
#include "trace-builder-formats.h"

#define PAGE_SIZE	4096
#define PAGE_HDR	16
#define PAGE_DATA	(PAGE_SIZE - PAGE_HDR)
#define MISSED_EVENTS	(1ull << 31)
#define MISSED_STORED	(1ull << 30)
#define TYPE_EXTEND	30
#define TS_BITS		27
#define MAX_SMALL	(28 * 4)
#define COMMON_SIZE	8
#define TB_FENCE_IDS	4096	/* event ids with a fence_offset slot (others: a scan) */

struct tb_cpu {
	unsigned char *pages;
	size_t npages, cap;
	size_t used;			/* data bytes in the last page */
	int closed;			/* the next event starts a page */
	long long missed;		/* of the last page */
	int pending;			/* tb_missed() called: */
	long long pending_count;	/* the next page's count */
	int force_extend;		/* tb_force_extend() called */
	uint64_t last_ts;
};

struct trace_builder {
	unsigned int cpus;
	struct tb_cpu *cpu;
	struct tb_formats formats;	/* the events' formats (a folder or tracefs) */
	const char *trace_clock, *uname, *cmdlines, *recorder;
	const char *kallsyms, *printk_formats;
	const char *const *cpu_stats;
	int pid;
	tb_page_sink sink;		/* tb_set_page_sink(): pages leave memory */
	/* by event id: its format's fence_offset, looked up on the hot path */
	uint16_t fence_offset[TB_FENCE_IDS];
	void *sink_ctx;
	char err[256];
};

static int tb_fail(struct trace_builder *tb, int ret, const char *what)
{
	snprintf(tb->err, sizeof(tb->err), "%s", what);
	return ret;
}

/**
 * tb_new_formats() - a builder with @formats and no events
 * @cpus: CPUs of the trace
 * @formats: the event formats (tb_formats_add()); the builder takes them
 *	and leaves @formats empty, also when it fails
 *
 * Return: the builder, or NULL when out of memory.
 */
struct trace_builder *tb_new_formats(unsigned int cpus, struct tb_formats *formats)
{
	struct trace_builder *tb = calloc(1, sizeof(*tb));

	if (tb)
		tb->cpu = calloc(cpus ? cpus : 1, sizeof(*tb->cpu));
	if (!tb || !tb->cpu) {
		free(tb);
		tb_formats_free(formats);
		return NULL;
	}
	tb->cpus = cpus;
	tb->formats = *formats;
	memset(formats, 0, sizeof(*formats));
	for (unsigned int i = 0; i < tb->formats.n; i++)
		if (tb->formats.fmt[i].id >= 0 && tb->formats.fmt[i].id < TB_FENCE_IDS)
			tb->fence_offset[tb->formats.fmt[i].id] = (uint16_t)tb->formats.fmt[i].fence_offset;
	return tb;
}

/**
 * tb_new() - a builder with the formats of folder @formats_dir, no events
 * @cpus: CPUs of the trace
 * @formats_dir: header_page, header_event and SYS-EVENT.format files
 *
 * Return: the builder, or NULL when the folder cannot be read.
 */
struct trace_builder *tb_new(unsigned int cpus, const char *formats_dir)
{
	struct tb_formats formats = { 0 };

	if (!formats_dir || tb_formats_load(&formats, formats_dir)) {
		tb_formats_free(&formats);
		return NULL;
	}
	return tb_new_formats(cpus, &formats);
}

/** tb_free() - free @tb and its pages; NULL is fine */
void tb_free(struct trace_builder *tb)
{
	unsigned int i;

	if (!tb)
		return;
	for (i = 0; tb->cpu && i < tb->cpus; i++)
		free(tb->cpu[i].pages);
	tb_formats_free(&tb->formats);
	free(tb->cpu);
	free(tb);
}

/** tb_error() - the message of the last failure */
const char *tb_error(struct trace_builder *tb) { return tb->err; }
/** tb_set_pid() - the common_pid of events added from now on */
void tb_set_pid(struct trace_builder *tb, int pid) { tb->pid = pid; }

/** tb_set_symbols() - kallsyms and printk_formats texts for tb_write(); not copied */
void tb_set_symbols(struct trace_builder *tb, const char *kallsyms, const char *printk_formats)
{
	tb->kallsyms = kallsyms;
	tb->printk_formats = printk_formats;
}

/** tb_set_cpu_stats() - per-CPU stats texts for CPUSTAT options; not copied */
void tb_set_cpu_stats(struct trace_builder *tb, const char *const *stats)
{
	tb->cpu_stats = stats;
}

/**
 * tb_set_options() - options and cmdlines for tb_write(); strings not copied
 * @tb: the builder
 * @trace_clock: the trace_clock text ("local [mono]"), NULL to omit
 * @uname: the UNAME option, NULL to omit
 * @cmdlines: saved_cmdlines text ("pid comm\n" lines), NULL for none
 */
void tb_set_options(struct trace_builder *tb, const char *trace_clock, const char *uname,
		    const char *cmdlines)
{
	tb->trace_clock = trace_clock;
	tb->uname = uname;
	tb->cmdlines = cmdlines;
}

/** tb_set_recorder() - the VERSION option for tb_write() (not copied), NULL to omit */
void tb_set_recorder(struct trace_builder *tb, const char *recorder)
{
	tb->recorder = recorder;
}

/** tb_event_id() - the fixture id of event @name, or -1 */
int tb_event_id(struct trace_builder *tb, const char *name)
{
	unsigned int i;

	for (i = 0; i < tb->formats.n; i++)
		if (!strcmp(tb->formats.fmt[i].name, name))
			return tb->formats.fmt[i].id;
	return -1;
}

/** tb_pages() - pages written so far for @cpu */
size_t tb_pages(struct trace_builder *tb, unsigned int cpu)
{
	return cpu < tb->cpus ? tb->cpu[cpu].npages : 0;
}

/** tb_page() - page @page of @cpu, to damage on purpose; NULL if none */
unsigned char *tb_page(struct trace_builder *tb, unsigned int cpu, size_t page)
{
	if (cpu >= tb->cpus || page >= tb->cpu[cpu].npages)
		return NULL;
	return tb->cpu[cpu].pages + page * PAGE_SIZE;
}

static unsigned char *last_page(struct tb_cpu *c)
{
	return c->pages + (c->npages - 1) * PAGE_SIZE;
}

/* Rewrite the last page's commit word (and stored missed count). */
static void seal_page(struct tb_cpu *c)
{
	unsigned char *page = last_page(c);
	uint64_t commit = c->used;
	uint64_t count = (uint64_t)c->missed;

	if (c->missed > 0) {
		memcpy(page + PAGE_HDR + c->used, &count, 8);
		commit |= MISSED_STORED;
	}
	if (c->missed)
		commit |= MISSED_EVENTS;
	memcpy(page + 8, &commit, 8);
}

/* Give @c's pages to the sink, and keep none in memory. */
static int sink_pages(struct trace_builder *tb, unsigned int cpu)
{
	struct tb_cpu *c = &tb->cpu[cpu];
	int ret;

	for (size_t i = 0; i < c->npages; i++) {
		ret = tb->sink(tb->sink_ctx, cpu, c->pages + i * PAGE_SIZE, PAGE_SIZE);
		if (ret)
			return tb_fail(tb, ret, "tb: the page sink failed");
	}
	c->npages = 0;
	return 0;
}

static int start_page(struct trace_builder *tb, unsigned int cpu, uint64_t ts)
{
	struct tb_cpu *c = &tb->cpu[cpu];
	unsigned char *p;
	int ret;

	if (tb->sink && c->npages) {	/* the last page is sealed: it is done */
		ret = sink_pages(tb, cpu);
		if (ret)
			return ret;
	}
	if (c->npages == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4;

		p = realloc(c->pages, cap * PAGE_SIZE);
		if (!p)
			return -ENOMEM;
		c->pages = p;
		c->cap = cap;
	}
	c->npages++;
	memset(last_page(c), 0, PAGE_SIZE);
	memcpy(last_page(c), &ts, 8);
	c->used = 0;
	c->closed = 0;
	c->missed = c->pending ? c->pending_count : 0;
	c->pending = 0;
	c->last_ts = ts;
	return 0;
}

static void put32(struct tb_cpu *c, uint32_t v)
{
	memcpy(last_page(c) + PAGE_HDR + c->used, &v, 4);
	c->used += 4;
}

/* Bytes @len of payload take with their header, and the delta to @ts. */
static size_t event_bytes(size_t len)
{
	size_t data = (COMMON_SIZE + len + 3) & ~3ul;

	return data <= MAX_SMALL ? 4 + data : 8 + data;
}

static int make_room(struct trace_builder *tb, unsigned int cpu, uint64_t ts, size_t need)
{
	struct tb_cpu *c = &tb->cpu[cpu];
	int ret;
	size_t reserve = c->missed > 0 ? 8 : 0;
	uint64_t delta = ts - c->last_ts;
	size_t ext = delta >> TS_BITS || c->force_extend ? 8 : 0;

	if (!c->npages || c->closed || c->used + ext + need + reserve > PAGE_DATA) {
		ret = start_page(tb, cpu, ts);
		if (ret)
			return ret;
		reserve = c->missed > 0 ? 8 : 0;
		if (need + reserve + 8 > PAGE_DATA)
			return -E2BIG;
	}
	return 0;
}

/*
 * One event's room on @cpu's last page, its header words and common fields
 * written.  A page is zeroed when started; since then only seal_page()'s
 * missed count (8 bytes where this event's header and common fields now
 * go) may have been written past the last event, so only the padding
 * after the payload needs clearing.
 * Return: where its @len payload bytes go, or NULL with *err set; the
 * caller writes them, then seal_page().
 */
static unsigned char *event_room(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
				 size_t len, int *err)
{
	size_t data = (COMMON_SIZE + len + 3) & ~3ul;
	uint16_t type = (uint16_t)id;
	struct tb_cpu *c;
	unsigned char *p;
	uint64_t delta;
	int ret;

	if (cpu >= tb->cpus || id < 0) {
		*err = tb_fail(tb, -EINVAL, "tb_add: no such CPU or event");
		return NULL;
	}
	c = &tb->cpu[cpu];
	if (c->npages && ts < c->last_ts) {
		*err = tb_fail(tb, -EINVAL, "tb_add: timestamp goes back");
		return NULL;
	}
	ret = make_room(tb, cpu, ts, event_bytes(len));
	if (ret == -E2BIG || ret == -ENOMEM)
		ret = tb_fail(tb, ret, ret == -E2BIG ? "tb_add: event does not fit in a page" :
			      "tb_add: out of memory");
	if (ret) {
		*err = ret;	/* else the sink's failure, said */
		return NULL;
	}
	delta = ts - c->last_ts;
	if (delta >> TS_BITS || c->force_extend) {
		c->force_extend = 0;
		put32(c, TYPE_EXTEND | (uint32_t)(delta & ((1u << TS_BITS) - 1)) << 5);
		put32(c, (uint32_t)(delta >> TS_BITS));
		delta = 0;
	}
	if (data <= MAX_SMALL) {
		put32(c, (uint32_t)(data / 4) | (uint32_t)delta << 5);
	} else {
		put32(c, (uint32_t)delta << 5);
		put32(c, (uint32_t)data + 4);
	}
	p = last_page(c) + PAGE_HDR + c->used;
	memset(p + data - 8, 0, 8);	/* the padding (the payload overwrites the rest) */
	memcpy(p, &type, 2);
	p[2] = p[3] = 0;		/* flags, preempt_count */
	memcpy(p + 4, &tb->pid, 4);
	c->used += data;
	c->last_ts = ts;
	return p + COMMON_SIZE;
}

/**
 * tb_add() - append one event to a CPU's pages
 * @tb: the builder
 * @cpu: its CPU
 * @ts: its timestamp, not before the CPU's previous one
 * @id: the event id (tb_event_id())
 * @payload: the record after its 8-byte common fields
 * @len: bytes of @payload
 *
 * Return: 0, or -errno with a message in tb_error().
 */
int tb_add(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
	   const void *payload, size_t len)
{
	int err;
	unsigned char *q = event_room(tb, cpu, ts, id, len, &err);

	if (!q)
		return err;
	memcpy(q, payload, len);
	seal_page(&tb->cpu[cpu]);
	return 0;
}

/**
 * tb_force_extend() - write the next event of @cpu after a time extend
 * @tb: the builder
 * @cpu: the CPU
 *
 * The kernel does this for forced or absolute stamps, also as the first
 * thing on a page; readers must not lose a page's missed-events flag then.
 */
int tb_force_extend(struct trace_builder *tb, unsigned int cpu)
{
	if (cpu >= tb->cpus)
		return tb_fail(tb, -EINVAL, "tb_force_extend: no such CPU");
	tb->cpu[cpu].force_extend = 1;
	return 0;
}

/**
 * tb_missed() - flag lost events before the next event of @cpu
 * @tb: the builder
 * @cpu: the CPU
 * @count: how many; -1 for a page that says "some" (RB_MISSED_STORED clear)
 *
 * The next event starts a new page whose commit word has RB_MISSED_EVENTS,
 * and RB_MISSED_STORED with @count after the data when @count > 0.
 */
int tb_missed(struct trace_builder *tb, unsigned int cpu, long long count)
{
	if (cpu >= tb->cpus || !count)
		return tb_fail(tb, -EINVAL, "tb_missed: no such CPU or zero count");
	tb->cpu[cpu].closed = 1;
	tb->cpu[cpu].pending = 1;
	tb->cpu[cpu].pending_count = count;
	return 0;
}

/**
 * tb_fence() - append a dma_fence class event (init, signaled, destroy, ...)
 * @tb: the builder
 * @cpu: its CPU
 * @ts: its timestamp
 * @event: the event name, e.g. "dma_fence_init"
 * @driver: the __data_loc driver string
 * @timeline: the __data_loc timeline string
 * @context: the fence context
 * @seqno: the fence seqno
 *
 * Return: as tb_add().
 */
int tb_fence(struct trace_builder *tb, unsigned int cpu, uint64_t ts, const char *event,
	     const char *driver, const char *timeline, uint32_t context, uint32_t seqno)
{
	return tb_fence_id(tb, cpu, ts, tb_event_id(tb, event), driver, timeline, context, seqno);
}

/*
 * A dma_fence event: driver and timeline (__data_loc), context, seqno and,
 * where the format has it right after them (the series), the fence's
 * identity; the strings follow.
 */
static int fence_event(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
		       const char *driver, const char *timeline, uint32_t context, uint32_t seqno,
		       uint64_t fence)
{
	size_t dl = strlen(driver) + 1, tl = strlen(timeline) + 1, fixed = 16;
	unsigned int fence_at = id >= 0 && id < TB_FENCE_IDS ? tb->fence_offset[id] :
				tb_formats_fence_offset(&tb->formats, id);
	uint32_t loc[4];
	unsigned char *q;
	int err;

	if (dl + tl > 512)
		return tb_fail(tb, -E2BIG, "tb_fence: names too long");
	if (fence_at) {
		if (fence_at != COMMON_SIZE + 16)
			return tb_fail(tb, -EINVAL, "tb_fence: the fence field is not after seqno");
		fixed += 8;
	}
	loc[0] = (uint32_t)(dl << 16) | (uint32_t)(COMMON_SIZE + fixed);
	loc[1] = (uint32_t)(tl << 16) | (uint32_t)(COMMON_SIZE + fixed + dl);
	loc[2] = context;
	loc[3] = seqno;
	/* straight into the page: this is record --bpf's per-event path */
	q = event_room(tb, cpu, ts, id, fixed + dl + tl, &err);
	if (!q)
		return err;
	memcpy(q, loc, 16);
	if (fence_at)
		memcpy(q + 16, &fence, 8);
	memcpy(q + fixed, driver, dl);
	memcpy(q + fixed + dl, timeline, tl);
	seal_page(&tb->cpu[cpu]);
	return 0;
}

/**
 * tb_fence_id() - tb_fence() by event id (tb_event_id(), looked up once by a
 * hot caller); a "fence" field the format has is 0, none known (record --bpf)
 */
int tb_fence_id(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
		const char *driver, const char *timeline, uint32_t context, uint32_t seqno)
{
	return fence_event(tb, cpu, ts, id, driver, timeline, context, seqno, 0);
}

/** tb_fence_with_id() - tb_fence() with the fence's identity (the series' "fence" field) */
int tb_fence_with_id(struct trace_builder *tb, unsigned int cpu, uint64_t ts, const char *event,
		     const char *driver, const char *timeline, uint32_t context, uint32_t seqno,
		     uint64_t fence)
{
	return fence_event(tb, cpu, ts, tb_event_id(tb, event), driver, timeline, context, seqno,
			   fence);
}

/** tb_vblank() - append drm_vblank_event: crtc, seq, time, high_prec */
int tb_vblank(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int crtc,
	      uint32_t seq, int64_t time, int high_prec)
{
	unsigned char buf[17];

	memcpy(buf, &crtc, 4);
	memcpy(buf + 4, &seq, 4);
	memcpy(buf + 8, &time, 8);
	buf[16] = !!high_prec;
	return tb_add(tb, cpu, ts, tb_event_id(tb, "drm_vblank_event"), buf, sizeof(buf));
}

/** tb_vblank_delivered() - append drm_vblank_event_delivered: file, crtc, seq */
int tb_vblank_delivered(struct trace_builder *tb, unsigned int cpu, uint64_t ts,
			uint64_t file, int crtc, uint32_t seq)
{
	unsigned char buf[16];

	memcpy(buf, &file, 8);
	memcpy(buf + 8, &crtc, 4);
	memcpy(buf + 12, &seq, 4);
	return tb_add(tb, cpu, ts, tb_event_id(tb, "drm_vblank_event_delivered"),
		      buf, sizeof(buf));
}

void tb_set_page_sink(struct trace_builder *tb, tb_page_sink sink, void *ctx)
{
	tb->sink = sink;
	tb->sink_ctx = ctx;
}

/**
 * tb_flush_pages() - hand every CPU's open last page to the sink too
 * @tb: the builder, with a sink
 *
 * For the end of a stream: a later event on a CPU starts a new page.
 *
 * Return: 0, or the sink's -errno with a message in tb_error().
 */
int tb_flush_pages(struct trace_builder *tb)
{
	int ret = 0;

	for (unsigned int cpu = 0; cpu < tb->cpus && !ret && tb->sink; cpu++) {
		ret = sink_pages(tb, cpu);
		tb->cpu[cpu].closed = 1;
	}
	return ret;
}

static int pages_to_file(struct tb_cpu *c, FILE **f)
{
	*f = tmpfile();
	if (!*f)
		return -errno;
	if (c->npages && fwrite(c->pages, PAGE_SIZE, c->npages, *f) != c->npages)
		return -EIO;
	return fflush(*f) ? -errno : 0;
}

static int write_out(struct trace_builder *tb, const char *path, const int *fds)
{
	const char *sys[TB_MAX_FORMATS], *text[TB_MAX_FORMATS];
	struct tracedat_out out = {
		.page_size = PAGE_SIZE, .cpus = tb->cpus,
		.header_page = tb->formats.header_page, .header_event = tb->formats.header_event,
		.n_formats = tb->formats.n, .format_systems = sys, .formats = text,
		.cmdlines = tb->cmdlines, .trace_clock = tb->trace_clock,
		.kallsyms = tb->kallsyms, .printk_formats = tb->printk_formats,
		.uname = tb->uname, .recorder = tb->recorder, .cpu_stats = tb->cpu_stats, .cpu_data_fds = fds,
	};
	unsigned int i;

	for (i = 0; i < tb->formats.n; i++) {
		sys[i] = tb->formats.fmt[i].sys;
		text[i] = tb->formats.fmt[i].text;
	}
	return tracedat_write(path, &out, tb->err, sizeof(tb->err));
}

/**
 * tb_write() - write the pages to one temporary file per CPU and those,
 * with the fixture formats and the options, through tracedat_write()
 * @tb: the builder
 * @path: the trace.dat to write
 *
 * Return: 0, or -errno with a message in tb_error().
 */
int tb_write(struct trace_builder *tb, const char *path)
{
	FILE **files = calloc(tb->cpus ? tb->cpus : 1, sizeof(*files));
	int *fds = calloc(tb->cpus ? tb->cpus : 1, sizeof(*fds));
	unsigned int i;
	int ret = files && fds ? 0 : -ENOMEM;

	for (i = 0; !ret && i < tb->cpus; i++) {
		ret = pages_to_file(&tb->cpu[i], &files[i]);
		if (files[i])
			fds[i] = fileno(files[i]);
	}
	if (ret)
		tb_fail(tb, ret, "tb_write: cannot write the per-CPU page files");
	else
		ret = write_out(tb, path, fds);
	for (i = 0; files && i < tb->cpus; i++)
		if (files[i])
			fclose(files[i]);
	free(files);
	free(fds);
	return ret;
}
