// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf.c - `fence-trace record --bpf`: the stock fence and vblank
 * events from a BPF ring buffer (bpf/fence-record.bpf.c) instead of
 * tracefs, written as the same kind of trace.dat, so `report` reads either.
 *
 * The kernel side skips what tracefs does per fence event (looking up and
 * copying two strings); user space puts the names back from a filtered
 * dma_fence_init stream (fence-names.c), the task names from /proc, and
 * encodes the events into ring-buffer pages with the running kernel's own
 * event formats (trace-builder.c).  Events are kept in memory until the
 * end: a recording costs 40 bytes per event.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpf-flavour.h"
#include "fence-names.h"
#include "fence-record.skel.h"
#include "record-bpf.h"
#include "trace-builder.h"

#define MAX_TASKS 4096

struct bpfrec {
	struct fence_record_bpf *skel;
	struct ring_buffer *rb;
	struct fr_event *ev;
	size_t n, cap;
	struct fence_names names;
	int have_names, oom;
	struct { int pid; char comm[16]; } task[MAX_TASKS];
	unsigned int n_tasks;
};

static const char *const fence_events[] = {
	[FR_INIT] = "dma_fence_init", [FR_EMIT] = "dma_fence_emit",
	[FR_ENABLE_SIGNAL] = "dma_fence_enable_signal", [FR_SIGNALED] = "dma_fence_signaled",
	[FR_WAIT_START] = "dma_fence_wait_start", [FR_WAIT_END] = "dma_fence_wait_end",
	[FR_DESTROY] = "dma_fence_destroy",
};

/* Task names now, while the tasks live: the trace's saved cmdlines. */
static void note_task(struct bpfrec *r, int pid)
{
	char path[64];
	FILE *f;

	for (unsigned int i = 0; i < r->n_tasks; i++)
		if (r->task[i].pid == pid)
			return;
	if (r->n_tasks >= MAX_TASKS || pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	r->task[r->n_tasks].pid = pid;
	if (!fgets(r->task[r->n_tasks].comm, sizeof(r->task[0].comm), f))
		r->task[r->n_tasks].comm[0] = '\0';
	r->task[r->n_tasks].comm[strcspn(r->task[r->n_tasks].comm, "\n")] = '\0';
	fclose(f);
	r->n_tasks++;
}

static int on_event(void *ctx, void *data, size_t len)
{
	struct bpfrec *r = ctx;

	if (len < sizeof(struct fr_event))
		return 0;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 65536;
		struct fr_event *p = realloc(r->ev, cap * sizeof(*p));

		if (!p) {
			r->oom = 1;
			return -ENOMEM;
		}
		r->ev = p;
		r->cap = cap;
	}
	r->ev[r->n] = *(const struct fr_event *)data;
	note_task(r, (int)r->ev[r->n].pid);
	r->n++;
	return 0;
}

int bpfrec_setup(struct capture *c)
{
	char skipped[512];
	struct bpfrec *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -1;
	c->bpf = r;
	libbpf_set_print(NULL);
	r->have_names = names_start(&r->names) == 0;
	r->skel = fence_record_bpf__open();
	if (!r->skel) {
		fprintf(stderr, "fence-trace record: cannot open the BPF object: %s\n", strerror(errno));
		return -1;
	}
	bpf_pick_flavour(r->skel->obj, bpf_tp_btf_usable("dma_fence_init"), skipped, sizeof(skipped));
	err = fence_record_bpf__load(r->skel);
	if (!err)
		err = fence_record_bpf__attach(r->skel);
	if (!err) {
		r->rb = ring_buffer__new(bpf_map__fd(r->skel->maps.events), on_event, r, NULL);
		err = r->rb ? 0 : -errno;
	}
	if (err) {
		fprintf(stderr, "fence-trace record: cannot load or attach the BPF recorder: %s%s\n",
			strerror(-err), err == -EPERM ? " (run as root)" : "");
		return -1;
	}
	fprintf(stderr, "fence-trace record: recording dma_fence:* and drm:drm_vblank_event* with BPF\n");
	return 0;
}

int bpfrec_drain(struct capture *c)
{
	struct bpfrec *r = c->bpf;

	if (r->have_names)
		names_poll(&r->names);
	if (ring_buffer__consume(r->rb) < 0 && r->oom) {
		fprintf(stderr, "fence-trace record: out of memory for events\n");
		return -1;
	}
	return 0;
}

static uint64_t dropped(struct bpfrec *r)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t vals[256], sum = 0;
	__u32 zero = 0;

	if (ncpus > 0 && ncpus <= 256 &&
	    bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.dropped), &zero, vals) == 0)
		for (int i = 0; i < ncpus; i++)
			sum += vals[i];
	return sum;
}

/* The running kernel's formats as SYSTEM-EVENT.format files for the builder. */
static int copy_formats(const char *dir)
{
	static const char *const vblank[] = { "drm_vblank_event", "drm_vblank_event_queued",
					      "drm_vblank_event_delivered" };
	char path[4096], *text;
	FILE *f;
	int ok = 1;

	for (int i = 0; i < 2 && ok; i++) {
		const char *name = i ? "header_event" : "header_page";

		snprintf(path, sizeof(path), "events/%s", name);
		text = tracefs_instance_file_read(NULL, path, NULL);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		ok = text && (f = fopen(path, "w")) && fputs(text, f) >= 0 && fclose(f) == 0;
		free(text);
	}
	for (size_t i = 0; i < FR_TYPES && ok; i++) {
		const char *sys = i < FR_VBLANK ? "dma_fence" : "drm";
		const char *ev = i < FR_VBLANK ? fence_events[i] : vblank[i == FR_VBLANK ? 0 : 2];

		text = tracefs_event_file_read(NULL, sys, ev, "format", NULL);
		snprintf(path, sizeof(path), "%s/%s-%s.format", dir, sys, ev);
		ok = text && (f = fopen(path, "w")) && fputs(text, f) >= 0 && fclose(f) == 0;
		free(text);
	}
	return ok ? 0 : -1;
}

static int by_cpu_then_time(const void *a, const void *b)
{
	const struct fr_event *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int add_event(struct bpfrec *r, struct trace_builder *tb, const struct fr_event *e)
{
	const struct fence_name *n;

	tb_set_pid(tb, (int)e->pid);
	if (e->type < FR_VBLANK) {
		n = r->have_names ? names_find(&r->names, e->a) : NULL;
		return tb_fence(tb, e->cpu, e->ts, fence_events[e->type], n ? n->driver : "?",
				n ? n->timeline : "?", (uint32_t)e->a, (uint32_t)e->b);
	}
	if (e->type == FR_VBLANK)
		return tb_vblank(tb, e->cpu, e->ts, (int)e->a, (uint32_t)e->b, (int64_t)e->c, 1);
	return tb_vblank_delivered(tb, e->cpu, e->ts, e->c, (int)e->a, (uint32_t)e->b);
}

static char *cmdlines(struct bpfrec *r)
{
	char *text = malloc(r->n_tasks * 32 + 1), *p = text;

	if (!text)
		return NULL;
	*p = '\0';
	for (unsigned int i = 0; i < r->n_tasks; i++)
		p += sprintf(p, "%d %.16s\n", r->task[i].pid, r->task[i].comm);
	return text;
}

static int build(struct capture *c, struct bpfrec *r, const char *dir)
{
	struct trace_builder *tb = tb_new((unsigned int)c->cpus, dir);
	uint64_t lost = dropped(r);
	char uname_text[512], *cmd = cmdlines(r);
	struct utsname u;
	int ret = -1;

	if (!tb || !cmd)
		goto out;
	uname(&u);
	snprintf(uname_text, sizeof(uname_text), "%s %s %s %s", u.sysname, u.release, u.version,
		 u.machine);
	tb_set_options(tb, "local global [mono]", uname_text, cmd);
	qsort(r->ev, r->n, sizeof(*r->ev), by_cpu_then_time);
	if (lost)	/* where they fell is unknown: said once, at the start */
		tb_missed(tb, 0, (long long)lost);
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].cpu < c->cpus && add_event(r, tb, &r->ev[i]))
			goto out;
	ret = tb_write(tb, c->path);
	if (ret)
		fprintf(stderr, "fence-trace record: %s\n", tb_error(tb));
	else
		fprintf(stderr, "fence-trace record: wrote %s: %zu events from BPF, %llu lost (ring buffer full)\n",
			c->path, r->n, (unsigned long long)lost);
out:
	if (!tb)
		fprintf(stderr, "fence-trace record: cannot use the kernel's event formats\n");
	tb_free(tb);
	free(cmd);
	return ret;
}

/* The formats folder and its files (made by us: no subfolders). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d) {
		closedir(d);
		rmdir(dir);
	}
}

int bpfrec_finish(struct capture *c)
{
	struct bpfrec *r = c->bpf;
	char dir[] = "/tmp/fence-trace-formats.XXXXXX";
	int ret = -1;

	if (bpfrec_drain(c))
		goto out;
	fence_record_bpf__detach(r->skel);
	ring_buffer__consume(r->rb);
	if (r->have_names)
		names_poll(&r->names);
	if (!mkdtemp(dir) || copy_formats(dir)) {
		fprintf(stderr, "fence-trace record: cannot read the event formats from tracefs\n");
		goto out;
	}
	ret = build(c, r, dir);
out:
	remove_dir(dir);
	bpfrec_teardown(c);
	return ret;
}

void bpfrec_teardown(struct capture *c)
{
	struct bpfrec *r = c->bpf;

	if (!r)
		return;
	ring_buffer__free(r->rb);
	fence_record_bpf__destroy(r->skel);
	if (r->have_names)
		names_stop(&r->names);
	free(r->ev);
	free(r);
	c->bpf = NULL;
}
