// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-pages.c - BPF records into a trace.dat (see record-bpf-pages.h).
 *
 * The kernel side skipped what tracefs does per fence event (looking up and
 * copying two strings); here the names come back from a filtered
 * dma_fence_init stream (fence-names.c), the task names from /proc, and
 * the trace builder encodes the events with the running kernel's formats.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "fence-names.h"
#include "lockdown.h"
#include "keymap.h"
#include "proc-comm.h"
#include "record-bpf-pages.h"
#include "record-bpf-series.h"
#include "say.h"
#include "trace-builder.h"
#include "trace-builder-formats.h"

#define MAX_TASKS 4096
#define PENDING_MAX 32768		/* records */
#define ARENA_MAX (1 << 20)		/* bytes of tracefs events */
#define NO_TASK UINT32_MAX		/* a pid whose name could not be read */

/* A pending record: from BPF, or a tracefs event kept in the arena. */
struct pending {
	uint64_t ts;
	uint16_t cpu, raw;
	uint32_t off, len;		/* raw: its bytes in the arena */
	int32_t pid;			/* common_pid of either kind */
	uint16_t type;			/* !raw: enum fr_type, and its fields: */
	uint32_t a, b;			/* fence: context, seqno; vblank: crtc, seq */
	uint64_t c;			/* vblank: time or file */
};

struct bpf_pages {
	struct capture *c;
	const struct fence_names *names;	/* NULL: names unknown ("?") */
	struct trace_builder *tb;
	uint64_t *last_ts, *lost, *taken;	/* per CPU */
	uint64_t events, raw_events, reordered;
	int marked;				/* bpf_pages_mark()'s line is among raw_events */
	struct pending *pend, *pend2;		/* pend2: sort_pending()'s scratch */
	size_t n_pend, n_sorted;		/* pend[0, n_sorted): in order already */
	size_t *cpu_end;			/* sort_pending(): per CPU, cpus + 1 */
	unsigned char *arena, *arena2;		/* raw events; the next arena */
	size_t arena_used;
	struct { int pid; char comm[16]; } task[MAX_TASKS];
	unsigned int n_tasks;
	struct keymap task_seen;		/* pid -> task[] index, NO_TASK: no name */
	int last_pid;				/* bpf_pages_note_task()'s: every record of a burst has it */
	int fence_id[FR_VBLANK];		/* by enum fr_type: tb_event_id() of each */
	uint64_t last_context;			/* add_bpf_event(): the last name found */
	const struct fence_name *last_name;
};

static const char *const fence_events[] = {
	[FR_INIT] = "dma_fence_init", [FR_EMIT] = "dma_fence_emit",
	[FR_ENABLE_SIGNAL] = "dma_fence_enable_signal", [FR_SIGNALED] = "dma_fence_signaled",
	[FR_WAIT_START] = "dma_fence_wait_start", [FR_WAIT_END] = "dma_fence_wait_end",
	[FR_DESTROY] = "dma_fence_destroy",
};

static const char *event_system(int type)
{
	return type < FR_VBLANK ? "dma_fence" : "drm";
}

static const char *event_name(int type)
{
	if (type < FR_VBLANK)
		return fence_events[type];
	return type == FR_VBLANK ? "drm_vblank_event" : "drm_vblank_event_delivered";
}

/* The running kernel's format of @sys:@ev into @f. */
static int add_format(struct tb_formats *f, const char *sys, const char *ev)
{
	return tb_formats_add(f, sys, tracefs_event_file_read(NULL, sys, ev, "format", NULL));
}

/*
 * A builder that encodes with the running kernel's formats, read from
 * tracefs: the ring buffer's headers, the fence and vblank events the BPF
 * programs send and the series' events streamed through tracefs.
 */
static struct trace_builder *builder_from_kernel(int cpus, struct live_reader *series)
{
	const char *sys[SERIES_MAX_EVENTS], *ev[SERIES_MAX_EVENTS];
	unsigned int n = live_reader_events(series, sys, ev, SERIES_MAX_EVENTS);
	struct tb_formats f = { 0 };
	int err = 0;

	f.header_page = tracefs_instance_file_read(NULL, "events/header_page", NULL);
	f.header_event = tracefs_instance_file_read(NULL, "events/header_event", NULL);
	if (!f.header_page || !f.header_event)
		err = -ENOENT;
	for (int i = 0; i < FR_TYPES && !err; i++)
		err = add_format(&f, event_system(i), event_name(i));
	if (!err)
		err = add_format(&f, "ftrace", "print");	/* record's marker line */
	for (unsigned int i = 0; i < n && !err; i++)
		err = add_format(&f, sys[i], ev[i]);
	if (err) {
		tb_formats_free(&f);
		return NULL;
	}
	return tb_new_formats((unsigned int)cpus, &f);
}

/* A finished page: into the CPU's temporary file, as tracefs pages go. */
static int page_to_file(void *ctx, unsigned int cpu, const unsigned char *page, size_t size)
{
	struct capture *c = ctx;

	(void)size;
	return capture_put_page(c, (int)cpu, page) ? -(c->write_errno ? c->write_errno : EIO) : 0;
}

static int name_event(struct capture *c, const char *sys, const char *ev)
{
	unsigned int i = c->n_events;

	if (i >= CAPTURE_MAX_EVENTS)
		return -1;
	c->systems[i] = strdup(sys);
	c->events[i] = strdup(ev);
	c->n_events++;
	return c->systems[i] && c->events[i] ? 0 : -1;
}

/* The events capture_gather() reads formats of: the ones we encode. */
static int name_events(struct capture *c, struct live_reader *series)
{
	const char *sys[SERIES_MAX_EVENTS], *ev[SERIES_MAX_EVENTS];
	unsigned int n = live_reader_events(series, sys, ev, SERIES_MAX_EVENTS);

	for (int i = 0; i < FR_TYPES; i++)
		if (name_event(c, event_system(i), event_name(i)))
			return -1;
	for (unsigned int i = 0; i < n; i++)
		if (name_event(c, sys[i], ev[i]))
			return -1;
	return name_event(c, "ftrace", "print");	/* record's marker line */
}

struct bpf_pages *bpf_pages_new(struct capture *c, const struct fence_names *names,
				struct live_reader *series)
{
	struct bpf_pages *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->c = c;
	p->names = names;
	c->page_size = (int)sysconf(_SC_PAGESIZE);
	if (c->page_size != 4096) {
		say("--bpf writes 4 KB pages; this kernel's are %d bytes",
			c->page_size);
		goto err;
	}
	p->last_ts = calloc((size_t)c->cpus, sizeof(*p->last_ts));
	p->lost = calloc((size_t)c->cpus, sizeof(*p->lost));
	p->taken = calloc((size_t)c->cpus, sizeof(*p->taken));
	p->pend = malloc(PENDING_MAX * sizeof(*p->pend));
	p->pend2 = malloc(PENDING_MAX * sizeof(*p->pend2));
	p->cpu_end = calloc((size_t)c->cpus + 1, sizeof(*p->cpu_end));
	p->arena = malloc(ARENA_MAX);
	p->arena2 = malloc(ARENA_MAX);
	if (!p->last_ts || !p->lost || !p->taken || !p->pend || !p->pend2 || !p->cpu_end ||
	    !p->arena || !p->arena2 ||
	    name_events(c, series) || capture_open_tmp_files(c))
		goto err;
	/* Resident now: the recorder's memory does not creep up with each new high. */
	memset(p->pend, 0, PENDING_MAX * sizeof(*p->pend));
	memset(p->pend2, 0, PENDING_MAX * sizeof(*p->pend2));
	memset(p->arena, 0, ARENA_MAX);
	memset(p->arena2, 0, ARENA_MAX);
	p->tb = builder_from_kernel(c->cpus, series);
	if (!p->tb) {
		say("cannot read the kernel's event formats from tracefs%s", refusal_hint(EPERM, ""));
		goto err;
	}
	tb_set_page_sink(p->tb, page_to_file, c);
	/* by id from here: a lookup by name is a string search of every format */
	for (int i = 0; i < FR_VBLANK; i++)
		p->fence_id[i] = tb_event_id(p->tb, fence_events[i]);
	return p;
err:
	bpf_pages_free(p);
	return NULL;
}

void bpf_pages_free(struct bpf_pages *p)
{
	if (!p)
		return;
	tb_free(p->tb);
	free(p->last_ts);
	free(p->lost);
	free(p->taken);
	free(p->pend);
	free(p->pend2);
	free(p->cpu_end);
	free(p->arena);
	free(p->arena2);
	keymap_free(&p->task_seen);
	free(p);
}

/*
 * Task names as a record arrives, while its task is likely to live (record
 * --bpf calls this during the capture; encoding comes after): the trace's
 * saved cmdlines.  Each pid is looked up once, found or not
 * (a pid read again for every record of an exited task cost an open() of
 * /proc each time: most of what this file cost per record).
 */
void bpf_pages_note_task(struct bpf_pages *p, int pid)
{
	uint32_t i;

	if (pid <= 0 || pid == p->last_pid)
		return;
	p->last_pid = pid;
	if (keymap_get(&p->task_seen, (uint64_t)pid, &i))
		return;
	i = NO_TASK;
	if (p->n_tasks < MAX_TASKS &&
	    proc_comm(pid, p->task[p->n_tasks].comm, sizeof(p->task[0].comm)) == 0) {
		p->task[p->n_tasks].pid = pid;
		i = p->n_tasks++;
	}
	keymap_put(&p->task_seen, (uint64_t)pid, i);	/* out of memory: looked up again */
}

void bpf_pages_lost(struct bpf_pages *p, int cpu, uint64_t count)
{
	if (cpu < 0 || cpu >= p->c->cpus || !count)
		return;
	p->lost[cpu] += count;
	tb_missed(p->tb, (unsigned int)cpu, (long long)count);
}

static int before(const struct pending *x, const struct pending *y)
{
	return x->cpu != y->cpu ? x->cpu < y->cpu : x->ts < y->ts;
}

/*
 * Order the pending records by CPU, then time, as the pages need them.
 * pend[0, n_sorted) is in order already (what the last encode kept); the
 * records since came from one ring in arrival order, each CPU's nearly in
 * time order (a record is stamped after its slot is reserved).  So: a
 * stable split of the new ones by CPU, an insertion sort (short moves
 * only), and a merge from the back with the kept ones: linear, where a
 * qsort of everything pending at each drain was not.
 */
static void sort_pending(struct bpf_pages *p)
{
	size_t s = p->n_sorted, n = p->n_pend, fresh = n - s, i, j, w;
	struct pending *tmp = p->pend2, x;
	size_t *end = p->cpu_end;

	memset(end, 0, ((size_t)p->c->cpus + 1) * sizeof(*end));
	for (i = s; i < n; i++)
		end[p->pend[i].cpu + 1]++;
	for (int cpu = 0; cpu < p->c->cpus; cpu++)
		end[cpu + 1] += end[cpu];
	for (i = s; i < n; i++)			/* end[cpu]: where its next one goes */
		tmp[end[p->pend[i].cpu]++] = p->pend[i];
	for (i = 1; i < fresh; i++) {
		x = tmp[i];
		for (j = i; j > 0 && before(&x, &tmp[j - 1]); j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = x;
	}
	i = s;
	j = fresh;
	for (w = n; j > 0; w--) {		/* equal keys: the newer one after */
		if (i > 0 && before(&tmp[j - 1], &p->pend[i - 1]))
			p->pend[w - 1] = p->pend[--i];
		else
			p->pend[w - 1] = tmp[--j];
	}
	p->n_sorted = n;
}

static int add_bpf_event(struct bpf_pages *p, const struct pending *r)
{
	const struct fence_name *n = NULL;
	struct trace_builder *tb = p->tb;

	if (r->type < FR_VBLANK) {
		/* A context's fences come in runs; an entry never moves. */
		if (p->last_name && p->last_context == r->a) {
			n = p->last_name;
		} else if (p->names) {
			n = names_find(p->names, r->a);
			p->last_name = n;
			p->last_context = r->a;
		}
		return tb_fence_id(tb, r->cpu, r->ts, p->fence_id[r->type], n ? n->driver : "?",
				   n ? n->timeline : "?", r->a, r->b);
	}
	if (r->type == FR_VBLANK)
		return tb_vblank(tb, r->cpu, r->ts, (int32_t)r->a, r->b, (int64_t)r->c, 1);
	return tb_vblank_delivered(tb, r->cpu, r->ts, r->c, (int32_t)r->a, r->b);
}

/* A tracefs event as it was: its id and fields after the common ones. */
static int add_raw_event(struct bpf_pages *p, const struct pending *r)
{
	const unsigned char *data = p->arena + r->off;
	uint16_t id;

	memcpy(&id, data, 2);
	return tb_add(p->tb, r->cpu, r->ts, id, data + 8, r->len - 8);
}

static int add_record(struct bpf_pages *p, struct pending *r)
{
	/*
	 * A BPF record is stamped after its slot is reserved: one from an
	 * interrupt in between is stamped earlier, and the sort puts it right.
	 * A page must never go back in time, so anything else out of order (a
	 * pending list emptied in a hurry) moves up to its predecessor.
	 */
	if (r->ts < p->last_ts[r->cpu]) {
		r->ts = p->last_ts[r->cpu];
		p->reordered++;
	}
	p->last_ts[r->cpu] = r->ts;
	tb_set_pid(p->tb, r->pid);
	if (r->raw ? add_raw_event(p, r) : add_bpf_event(p, r)) {
		if (!p->c->write_errno)	/* else capture_put_page() said it */
			say("%s", tb_error(p->tb));
		return -1;
	}
	p->events++;
	p->raw_events += r->raw;
	p->taken[r->cpu]++;
	return 0;
}

/* Keep the raw bytes of the records still pending, at the arena's start. */
static void compact_arena(struct bpf_pages *p)
{
	unsigned char *swap;
	size_t used = 0;

	for (size_t i = 0; i < p->n_pend; i++)
		if (p->pend[i].raw) {
			memcpy(p->arena2 + used, p->arena + p->pend[i].off, p->pend[i].len);
			p->pend[i].off = (uint32_t)used;
			used += p->pend[i].len;
		}
	swap = p->arena;
	p->arena = p->arena2;
	p->arena2 = swap;
	p->arena_used = used;
}

int bpf_pages_encode_before(struct bpf_pages *p, uint64_t watermark)
{
	size_t kept = 0;

	sort_pending(p);
	for (size_t i = 0; i < p->n_pend; i++) {
		if (p->pend[i].ts >= watermark) {
			p->pend[kept++] = p->pend[i];
			continue;
		}
		if (add_record(p, &p->pend[i]))
			return -1;
	}
	p->n_pend = kept;
	p->n_sorted = kept;
	compact_arena(p);
	return 0;
}

/* Room for one more record of @bytes raw bytes: when full, encode all. */
static int make_room(struct bpf_pages *p, size_t bytes)
{
	if (p->n_pend < PENDING_MAX && p->arena_used + bytes <= ARENA_MAX)
		return 0;
	return bpf_pages_encode_before(p, UINT64_MAX);
}

int bpf_pages_put(struct bpf_pages *p, const struct fr_event *e)
{
	struct pending *r;

	if (e->cpu >= p->c->cpus || e->type >= FR_TYPES)
		return 0;
	if (make_room(p, 0))
		return -1;
	r = &p->pend[p->n_pend++];
	r->ts = e->ts;
	r->cpu = e->cpu;
	r->raw = 0;
	r->pid = (int32_t)e->pid;
	r->type = e->type;
	if (e->type < FR_VBLANK) {
		const struct fr_fence *f = (const struct fr_fence *)e;

		r->a = f->context;
		r->b = f->seqno;
	} else {
		const struct fr_vblank *v = (const struct fr_vblank *)e;

		r->a = (uint32_t)v->crtc;
		r->b = v->seq;
		r->c = v->time_or_file;
	}
	return 0;
}

int bpf_pages_put_raw(struct bpf_pages *p, int cpu, uint64_t ts, const void *data, size_t size)
{
	struct pending *r;

	if (cpu < 0 || cpu >= p->c->cpus || size < 8 || size > 4096)
		return 0;
	if (make_room(p, size))
		return -1;
	r = &p->pend[p->n_pend++];
	r->ts = ts;
	r->cpu = (uint16_t)cpu;
	r->raw = 1;
	r->off = (uint32_t)p->arena_used;
	r->len = (uint32_t)size;
	memcpy(&r->pid, (const unsigned char *)data + 4, 4);	/* common_pid */
	memcpy(p->arena + p->arena_used, data, size);
	p->arena_used += size;
	return 0;
}

/**
 * bpf_pages_mark() - record's marker line @text as an ftrace print event of
 * this task at @ts (CLOCK_MONOTONIC: the BPF records' clock) on @cpu, as
 * trace_marker would have written it; 0, or -1 (said)
 */
int bpf_pages_mark(struct bpf_pages *p, int cpu, uint64_t ts, const char *text)
{
	unsigned char raw[8 + 8 + CAPTURE_MARKER_MAX];
	int id = tb_event_id(p->tb, "print");
	int32_t pid = (int32_t)getpid();
	uint16_t type = (uint16_t)id;
	size_t n = strlen(text) + 1;

	if (id < 0 || n > CAPTURE_MARKER_MAX) {
		say("cannot write the capture's marker line: %s", id < 0 ? "no ftrace print format" : "too long");
		return -1;
	}
	memset(raw, 0, 16);	/* common flags and preempt count, the print's ip */
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &pid, 4);
	memcpy(raw + 16, text, n);
	bpf_pages_note_task(p, pid);	/* its name among the file's tasks */
	if (bpf_pages_put_raw(p, cpu, ts, raw, 16 + n))
		return -1;
	p->marked = 1;
	return 0;
}

static char *cmdlines(struct bpf_pages *p)
{
	char *text = malloc(p->n_tasks * 32 + 1), *s = text;

	if (!text)
		return NULL;
	*s = '\0';
	for (unsigned int i = 0; i < p->n_tasks; i++)
		s += sprintf(s, "%d %.16s\n", p->task[i].pid, p->task[i].comm);
	return text;
}

/*
 * What tracefs has no part in: our clock, tasks, and per CPU, as the stats
 * of a tracefs ring would say them, the events taken and those lost.
 */
static int own_metadata(struct bpf_pages *p, struct capture_meta *md)
{
	free(md->cmdlines);
	md->cmdlines = cmdlines(p);
	md->clock = strdup("local global [mono]");
	for (int cpu = 0; cpu < p->c->cpus; cpu++)
		if (asprintf(&md->stats[cpu], "entries: 0\noverrun: %llu\nread events: %llu\n",
			     (unsigned long long)p->lost[cpu], (unsigned long long)p->taken[cpu]) < 0)
			md->stats[cpu] = NULL;
	return md->cmdlines && md->clock ? 0 : -1;
}

uint64_t bpf_pages_events(const struct bpf_pages *p)
{
	return p->events;
}

int bpf_pages_finish(struct bpf_pages *p)
{
	struct capture *c = p->c;
	struct capture_meta md = { 0 };
	uint64_t lost = 0;
	int ret = -1;

	if (!c->write_errno && !bpf_pages_encode_before(p, UINT64_MAX) && tb_flush_pages(p->tb) &&
	    !c->write_errno)
		say("%s", tb_error(p->tb));
	if (capture_gather(c, &md) || own_metadata(p, &md)) {
		say("cannot read the event formats from tracefs");
		goto out;
	}
	ret = capture_write_trace(c, &md);
	for (int cpu = 0; cpu < c->cpus; cpu++)
		lost += p->lost[cpu];
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);	/* end the progress line */
	if (!ret)
		say("wrote %s: %llu events from BPF and %llu from tracefs (the series'), %llu lost (ring buffer full)%s",
			c->path, (unsigned long long)(p->events - p->raw_events),
			(unsigned long long)(p->raw_events - (uint64_t)p->marked), (unsigned long long)lost,
			c->dropped_pages ? " and the latest pages dropped to make room" : "");
	if (p->reordered)
		say("%llu events were stamped before their CPU's previous one: moved up to it",
			(unsigned long long)p->reordered);
out:
	capture_meta_free(c, &md);
	return ret || c->write_errno ? -1 : 0;
}
