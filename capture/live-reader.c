// SPDX-License-Identifier: GPL-2.0
/*
 * live-reader.c - a private tracefs instance read live, by whole pages or
 * by decoded events (see live-reader.h).
 *
 * The per-CPU files stay open from start to free: a poll that finds
 * nothing is one read() per CPU (tracefs_iterate_raw_events() opened,
 * allocated for and closed every CPU's file at each poll, work that lands
 * on the traced storm when the tool shares its CPU).  Events are handed
 * out as tracefs_iterate_raw_events() did: the earliest of the CPUs' next
 * events first, so that an event on one CPU that follows one on another
 * (a wait's end after its begin, a fence's error before the wait that
 * sees it) comes after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "event-formats.h"
#include "live-reader.h"
#include "own-instance.h"

/* One CPU's trace_pipe_raw, and (decoding) the page being read from it. */
struct live_cpu {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void *page;
	int loaded;			/* @kbuf holds @page */
	int ready;			/* an event waits at the cursor: */
	struct tep_record rec;
};

struct live_reader {
	struct tracefs_instance *inst;
	char *systems[LIVE_MAX_EVENTS], *events[LIVE_MAX_EVENTS];
	unsigned int n_events;
	int cpus, page_size;
	struct live_cpu *cpu;
	struct tep_handle *tep;		/* decoding: the catalogue's systems */
	struct ft_decoder dec;
	int decoding;
};

/**
 * live_reader_new() - this process's tracefs instance of @kind (NULL: the
 * recorder's), own_instance_create() naming it, not yet read
 *
 * Return: the reader, or NULL with errno set.
 */
struct live_reader *live_reader_new(const char *kind)
{
	struct live_reader *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return NULL;
	r->inst = own_instance_create(kind);
	if (!r->inst) {
		err = errno;
		free(r);
		errno = err;
		return NULL;
	}
	r->cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	r->page_size = (int)sysconf(_SC_PAGESIZE);
	return r;
}

/**
 * live_reader_setup() - the trace @clock (LIVE_READER_CLOCK, unless record
 * -C chose another), and a @buffer_kb ring per CPU (0: as made)
 *
 * Return: 0, or -1 with errno (EINVAL from the clock: the kernel has none
 * of that name).
 */
int live_reader_setup(struct live_reader *r, const char *clock, unsigned int buffer_kb)
{
	char kb[32];

	if (tracefs_instance_file_write(r->inst, "trace_clock", clock) < 0)
		return -1;
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	if (buffer_kb && tracefs_instance_file_write(r->inst, "buffer_size_kb", kb) < 0)
		return -1;
	return 0;
}

/* The systems of the catalogue's events, each once: what the decoder reads. */
static void catalogue_systems(const char **systems, int max)
{
	int n = 0;

	for (int id = 0; id < FT_EV_COUNT && n < max - 1; id++) {
		int seen = 0;

		for (int i = 0; i < n; i++)
			seen |= !strcmp(systems[i], ft_event_system(id));
		if (!seen)
			systems[n++] = ft_event_system(id);
	}
	systems[n] = NULL;
}

/**
 * live_reader_decode() - decode what live_reader_poll() hands out with the
 * running kernel's formats of the catalogue's events
 *
 * Return: 0, or -1 with the reason in @why.
 */
int live_reader_decode(struct live_reader *r, char *why, size_t len)
{
	const char *systems[FT_EV_COUNT + 1];

	catalogue_systems(systems, FT_EV_COUNT + 1);
	r->tep = event_formats_load(NULL, systems, why, len);
	if (!r->tep)
		return -1;
	if (ft_decoder_init(&r->dec, r->tep, why, len))
		return -1;
	r->decoding = 1;
	return 0;
}

/* The decoder, for ft_event_str() of the events handed out. */
const struct ft_decoder *live_reader_decoder(const struct live_reader *r)
{
	return &r->dec;
}

/**
 * live_reader_enable() - turn @system:@event on in the instance
 *
 * Return: 0, or -1 (not enabled: no such event, or LIVE_MAX_EVENTS are).
 */
int live_reader_enable(struct live_reader *r, const char *system, const char *event)
{
	unsigned int i;

	for (i = 0; i < r->n_events; i++)
		if (!strcmp(r->systems[i], system) && !strcmp(r->events[i], event))
			break;
	if (i == r->n_events && i >= LIVE_MAX_EVENTS)
		return -1;
	if (tracefs_event_enable(r->inst, system, event))
		return -1;
	if (i < r->n_events)
		return 0;
	r->systems[i] = strdup(system);
	r->events[i] = strdup(event);
	if (!r->systems[i] || !r->events[i]) {
		free(r->systems[i]);
		free(r->events[i]);
		return -1;
	}
	r->n_events++;
	return 0;
}

/*
 * live_reader_enable_id() - turn catalogue event @id on.  Decoding, only
 * when the decoder can read it (the kernel has it, with the fields the
 * catalogue names): what it cannot read, the offline report could not
 * either.  Return: 0, or -1 when not enabled.
 */
int live_reader_enable_id(struct live_reader *r, enum ft_event_id id)
{
	const char *sys = ft_event_system(id), *ev = ft_event_name(id);

	if (r->decoding ? !r->dec.have_event[id] : !tracefs_event_file_exists(NULL, sys, ev, "format"))
		return -1;
	return live_reader_enable(r, sys, ev);
}

int live_reader_disable_id(struct live_reader *r, enum ft_event_id id)
{
	return tracefs_event_disable(r->inst, ft_event_system(id), ft_event_name(id)) ? -1 : 0;
}

/* The kernel's filter of catalogue event @id in the instance.  Return: 0 or -1. */
int live_reader_filter_id(struct live_reader *r, enum ft_event_id id, const char *filter)
{
	return tracefs_event_file_write(r->inst, ft_event_system(id), ft_event_name(id), "filter",
					filter) > 0 ? 0 : -1;
}

/* The events enabled so far, as "system:event" pairs: a trace's formats. */
unsigned int live_reader_events(const struct live_reader *r, const char **systems,
				const char **events, unsigned int max)
{
	unsigned int i;

	for (i = 0; r && i < r->n_events && i < max; i++) {
		systems[i] = r->systems[i];
		events[i] = r->events[i];
	}
	return i;
}

static int open_cpu(struct live_reader *r, struct live_cpu *lc, int cpu, char *why, size_t len)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	/*
	 * Close-on-exec: a COMMAND that `record` runs, holding trace_pipe_raw
	 * open, would keep the instance busy, and it could not be removed.
	 */
	fd = tracefs_instance_file_open(r->inst, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	lc->tcpu = fd < 0 ? NULL : tracefs_cpu_alloc_fd(fd, r->page_size, true);
	if (!lc->tcpu) {
		snprintf(why, len, "cannot open %s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!r->decoding)
		return 0;
	/* the header page's commit field has the kernel's long size */
	lc->kbuf = kbuffer_alloc(tep_get_header_page_size(r->tep) == 8 ? KBUFFER_LSIZE_8 :
				 KBUFFER_LSIZE_4, tep_is_file_bigendian(r->tep) ?
				 KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	lc->page = malloc((size_t)r->page_size);
	if (!lc->kbuf || !lc->page) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	return 0;
}

/**
 * live_reader_start() - open every CPU's trace_pipe_raw and start tracing
 *
 * Return: 0, or -1 with the reason in @why.
 */
int live_reader_start(struct live_reader *r, char *why, size_t len)
{
	r->cpu = r->cpus > 0 ? calloc((size_t)r->cpus, sizeof(*r->cpu)) : NULL;
	if (!r->cpu) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (int cpu = 0; cpu < r->cpus; cpu++)
		if (open_cpu(r, &r->cpu[cpu], cpu, why, len))
			return -1;
	tracefs_trace_on(r->inst);
	return 0;
}

int live_reader_cpus(const struct live_reader *r)
{
	return r->cpus;
}

int live_reader_page_size(const struct live_reader *r)
{
	return r->page_size;
}

/**
 * live_reader_page() - the next page of @cpu's ring into @page
 * (live_reader_page_size() bytes), padded with zeroes when short
 *
 * Return: its bytes, 0 when the ring has none now, -1 on an error.
 */
ssize_t live_reader_page(struct live_reader *r, int cpu, void *page)
{
	int n;

	do
		n = tracefs_cpu_read(r->cpu[cpu].tcpu, page, true);
	while (n < 0 && errno == EINTR);
	/* trace_pipe_raw hands out whole pages; pad a short read anyway */
	if (n > 0 && n < r->page_size)
		memset((char *)page + n, 0, (size_t)(r->page_size - n));
	return n;
}

/**
 * live_reader_splice() - move @cpu's full pages into @fd without copying
 * them through us (splice, as trace-cmd does; read and write where @fd's
 * file system cannot splice); the page the kernel is still writing stays
 * for live_reader_page()
 *
 * Return: the bytes moved (whole pages), 0 when no full page is waiting,
 * -1 on an error (errno).
 */
ssize_t live_reader_splice(struct live_reader *r, int cpu, int fd)
{
	int n;

	do
		n = tracefs_cpu_write(r->cpu[cpu].tcpu, fd, true);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;	/* the nonblocking splice found no full page */
	return n;
}

/* Put @cpu's next event at its cursor, reading pages as it needs.  Return: 1, or 0 (none now). */
static int next_event(struct live_reader *r, int cpu)
{
	struct live_cpu *lc = &r->cpu[cpu];
	unsigned long long ts;
	void *data;

	for (;;) {
		data = lc->loaded ? kbuffer_read_event(lc->kbuf, &ts) : NULL;
		if (data) {
			memset(&lc->rec, 0, sizeof(lc->rec));
			lc->rec.ts = ts;
			lc->rec.size = kbuffer_event_size(lc->kbuf);
			lc->rec.missed_events = kbuffer_missed_events(lc->kbuf);
			lc->rec.cpu = cpu;
			lc->rec.data = data;
			return lc->ready = 1;
		}
		lc->loaded = 0;
		if (live_reader_page(r, cpu, lc->page) <= 0)
			return lc->ready = 0;
		lc->loaded = !kbuffer_load_subbuffer(lc->kbuf, lc->page);
	}
}

/* The CPU whose next event is the earliest, or -1 when none has one. */
static int earliest(const struct live_reader *r)
{
	int best = -1;

	for (int cpu = 0; cpu < r->cpus; cpu++)
		if (r->cpu[cpu].ready && (best < 0 || r->cpu[cpu].rec.ts < r->cpu[best].rec.ts))
			best = cpu;
	return best;
}

/**
 * live_reader_poll() - hand every catalogue event the rings hold now to
 * @fn, earliest first, decoded (live_reader_decode() first)
 *
 * Other events (none, when only catalogue events are enabled) are skipped.
 */
void live_reader_poll(struct live_reader *r, live_event_fn fn, void *ctx)
{
	struct ft_event ev = { 0 };	/* reused: ft_decode() clears what is left */
	int cpu;

	if (!r || !r->decoding || !r->cpu)
		return;
	for (cpu = 0; cpu < r->cpus; cpu++)
		next_event(r, cpu);
	while ((cpu = earliest(r)) >= 0) {
		struct live_cpu *lc = &r->cpu[cpu];

		if (ft_decode(&r->dec, &lc->rec, &ev) == 1)
			fn(ctx, &ev);
		kbuffer_next_event(lc->kbuf, NULL);
		next_event(r, cpu);
	}
}

/* The instance's file @name ("trace_clock", ...): free() it; NULL when unread. */
char *live_reader_file(struct live_reader *r, const char *name)
{
	return tracefs_instance_file_read(r->inst, name, NULL);
}

/**
 * live_reader_mark() - write @text into the instance's trace_marker: an
 * ftrace print event on this CPU's ring, stamped by the trace clock
 *
 * Return: 0, or -1 with errno set.
 */
int live_reader_mark(struct live_reader *r, const char *text)
{
	int n = tracefs_instance_file_write(r->inst, "trace_marker", text);

	if (n == (int)strlen(text))
		return 0;
	if (n >= 0)
		errno = EMSGSIZE;	/* cut short: the kernel kept only part of it */
	return -1;
}

/* One field ("overrun", "read events", ...) of @cpu's ring's stats; 0 when unread. */
uint64_t live_reader_stat(struct live_reader *r, int cpu, const char *field)
{
	char name[64], key[64], *stats, *p;
	uint64_t value = 0;

	if (!r)
		return 0;
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	snprintf(key, sizeof(key), "%s: ", field);
	stats = live_reader_file(r, name);
	p = stats ? strstr(stats, key) : NULL;
	if (p)
		value = strtoull(p + strlen(key), NULL, 10);
	free(stats);
	return value;
}

const char *live_reader_name(const struct live_reader *r)
{
	return tracefs_instance_get_name(r->inst);
}

/* Stop tracing: what was traced can still be read. */
void live_reader_off(struct live_reader *r)
{
	if (r)
		tracefs_trace_off(r->inst);
}

/**
 * live_reader_free() - leave tracefs as we found it: files closed (an open
 * trace_pipe_raw keeps the instance busy, so first), events off, instance
 * gone
 *
 * Return: 0, or -1 when the instance could not be removed.
 */
int live_reader_free(struct live_reader *r)
{
	int ret;

	if (!r)
		return 0;
	for (int cpu = 0; r->cpu && cpu < r->cpus; cpu++) {
		if (r->cpu[cpu].tcpu)
			tracefs_cpu_close(r->cpu[cpu].tcpu);
		if (r->cpu[cpu].kbuf)
			kbuffer_free(r->cpu[cpu].kbuf);
		free(r->cpu[cpu].page);
	}
	free(r->cpu);
	tracefs_trace_off(r->inst);
	tracefs_event_disable(r->inst, NULL, NULL);
	ret = tracefs_instance_destroy(r->inst) ? -1 : 0;
	tracefs_instance_free(r->inst);
	ft_decoder_free(&r->dec);
	if (r->tep)
		tep_free(r->tep);
	for (unsigned int i = 0; i < r->n_events; i++) {
		free(r->systems[i]);
		free(r->events[i]);
	}
	free(r);
	return ret;
}
