// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-check.c - `fence-trace check`: what this machine's kernel offers the
 * other commands, in plain words, each missing piece with a one-line hint,
 * in the manner of `bpftool feature probe`.  The exit status says whether
 * `record` and `latency` can work (cli/usage.c lists the statuses).
 *
 * Probing is real where it can be: an instance is made in tracefs, a
 * do-nothing BPF program is loaded and attached to dma_fence_init for a
 * moment, a sw_sync fence is made to see whether sync/info lists it.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "attach-check.h"
#include "bpf-flavour.h"
#include "fence-trace.h"
#include "lockdown.h"
#include "own-instance.h"
#include "series-probe.h"
#include "sync.h"

#define SYNC_INFO "/sys/kernel/debug/sync/info"

struct check_ctx {
	int can_look;		/* the tracefs event folders can be read */
	int locked;		/* lockdown=confidentiality: tracing is off */
	int record_ok, latency_ok, ringbuf_ok;
	int stall_record_bpf_ok;	/* both tools' programs attached */
};

/* One probe's line: what, yes/NO/unknown, and for a NO its hint. */
static void line(const char *what, enum probe_answer a, const char *hint)
{
	printf("  %-52s %s", what, a == PROBE_PRESENT ? "yes" : a == PROBE_ABSENT ? "NO" : "unknown");
	if (a != PROBE_PRESENT && hint)
		printf("  (%s)", hint);
	printf("\n");
}

static enum probe_answer yes_no(int ok)
{
	return ok ? PROBE_PRESENT : PROBE_ABSENT;
}

static int tracefs_mounted(void)
{
	char type[64], dir[256];
	int found = 0;
	FILE *f = fopen("/proc/self/mounts", "r");

	while (f && !found && fscanf(f, "%*s %255s %63s %*[^\n]", dir, type) == 2)
		found = strcmp(type, "tracefs") == 0;
	if (f)
		fclose(f);
	return found;
}

/* Can an instance be made (and removed)?  That is what record does. */
static int tracefs_writable(void)
{
	struct tracefs_instance *inst;

	inst = own_instance_create("check");
	if (!inst)
		return 0;
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return 1;
}

static enum probe_answer have_event(const struct check_ctx *c, const char *sys, const char *ev)
{
	char path[256];

	if (!c->can_look)
		return PROBE_UNKNOWN;
	snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
	return yes_no(tracefs_file_exists(NULL, path));
}

static enum probe_answer have_field(const struct check_ctx *c, const char *sys, const char *ev,
				    const char *field)
{
	char path[256], want[80];
	char *format;
	int found;

	if (have_event(c, sys, ev) != PROBE_PRESENT)
		return have_event(c, sys, ev);
	snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
	format = tracefs_instance_file_read(NULL, path, NULL);
	if (!format)
		return PROBE_UNKNOWN;
	snprintf(want, sizeof(want), " %s;", field);
	found = strstr(format, want) != NULL;
	free(format);
	return yes_no(found);
}

/*
 * Does sync/info list a sync_file (the series' patch 0004)?  Stock 6.1
 * keeps the list but never adds to it: make one and look for it, by the
 * name the kernel gives it (sw_sync ignores the one asked for).
 */
static enum probe_answer sync_info_lists(void)
{
	int tl = sw_sync_timeline_open(), fd = -1, found = 0;
	struct sync_summary s;
	char buf[512], want[64];
	FILE *f = NULL;

	if (tl < 0)
		return PROBE_UNKNOWN;
	fd = sw_sync_fence_create(tl, 1, NULL);
	if (fd >= 0 && sync_file_summary(fd, &s) == 0) {
		snprintf(want, sizeof(want), "] %s: ", s.name);
		f = fopen(SYNC_INFO, "r");
	}
	for (int fences = 0; f && !found && fgets(buf, sizeof(buf), f);) {
		fences = fences || strncmp(buf, "fences:", 7) == 0;
		found = fences && strstr(buf, want) != NULL;
	}
	if (f)
		fclose(f);
	if (fd >= 0) {
		sw_sync_timeline_inc(tl, 1);
		close(fd);
	}
	close(tl);
	return !f ? PROBE_UNKNOWN : yes_no(found);
}

/* The series' per-CRTC debugfs file; unknown without a CRTC to look at. */
static enum probe_answer fence_timeline_files(void)
{
	glob_t g;
	int crtcs, files;

	if (glob("/sys/kernel/debug/dri/*/crtc-*", GLOB_ONLYDIR, NULL, &g) != 0)
		return PROBE_UNKNOWN;
	crtcs = (int)g.gl_pathc;
	globfree(&g);
	files = glob("/sys/kernel/debug/dri/*/crtc-*/fence_timeline", 0, NULL, &g) == 0;
	if (files)
		globfree(&g);
	return crtcs ? yes_no(files) : PROBE_UNKNOWN;
}

static enum probe_answer have_item(void *ctx, const char *item)
{
	const struct check_ctx *c = ctx;
	char sys[64], ev[64], field[64];

	if (strcmp(item, "@sync_info") == 0)
		return geteuid() == 0 ? sync_info_lists() : PROBE_UNKNOWN;
	if (strcmp(item, "@fence_timeline") == 0)
		return fence_timeline_files();
	field[0] = '\0';
	if (sscanf(item, "%63[^:]:%63[^.].%63s", sys, ev, field) < 2)
		return PROBE_UNKNOWN;
	return field[0] ? have_field(c, sys, ev, field) : have_event(c, sys, ev);
}

/* A set of events: "yes" with all, else NO with the missing ones named. */
static enum probe_answer event_set(const struct check_ctx *c, const char *sys,
				   const char *const *events, char *missing, size_t len)
{
	enum probe_answer all = PROBE_PRESENT;

	missing[0] = '\0';
	for (; *events; events++) {
		enum probe_answer a = have_event(c, sys, *events);
		size_t used = strlen(missing);

		if (a == PROBE_UNKNOWN)
			return a;
		if (a == PROBE_ABSENT) {
			snprintf(missing + used, len - used, "%s%s", used ? ", " : "missing: ", *events);
			all = PROBE_ABSENT;
		}
	}
	return all;
}

#define LOCKED_HINT "kernel lockdown=confidentiality turns tracing off"

/* Why the tracefs events could not be looked at. */
static const char *cannot_look(int locked)
{
	if (geteuid() != 0)
		return "cannot look without root";
	return locked ? LOCKED_HINT : "tracefs has no events folder";
}

static void check_tracing(struct check_ctx *c)
{
	static const char *const fence_events[] = {
		"dma_fence_init", "dma_fence_emit", "dma_fence_enable_signal", "dma_fence_signaled",
		"dma_fence_wait_start", "dma_fence_wait_end", "dma_fence_destroy", NULL,
	};
	static const char *const vblank_events[] = {
		"drm_vblank_event", "drm_vblank_event_queued", "drm_vblank_event_delivered", NULL,
	};
	int mounted = tracefs_mounted(), root = geteuid() == 0, writable;
	const char *dir = mounted || root ? tracefs_tracing_dir() : NULL;
	enum probe_answer fences, vblank;
	char missing[256];

	/* no events folder: tracing is off (lockdown=confidentiality does that) */
	c->can_look = dir && access(dir, R_OK | X_OK) == 0 && tracefs_dir_exists(NULL, "events");
	c->locked = lockdown_confidential();
	writable = c->can_look && tracefs_writable();
	printf("tracing (fence-trace record)\n");
	line("tracefs mounted", yes_no(mounted),
	     root ? "fence-trace mounts it itself as root" : "mount -t tracefs nodev /sys/kernel/tracing");
	line("tracefs writable (an instance can be made)", yes_no(writable),
	     !root ? "run as root" : c->locked ? LOCKED_HINT : "a kernel without CONFIG_FTRACE, or locked down");
	fences = event_set(c, "dma_fence", fence_events, missing, sizeof(missing));
	line("dma_fence:* events (stock)", fences,
	     !c->can_look ? cannot_look(c->locked) : missing[0] ? missing : "CONFIG_DMA_SHARED_BUFFER and CONFIG_FTRACE");
	vblank = event_set(c, "drm", vblank_events, missing, sizeof(missing));
	line("drm:drm_vblank_event* events (stock)", vblank,
	     !c->can_look ? cannot_look(c->locked) : vblank == PROBE_ABSENT && have_event(c, "drm", "drm_vblank_event") == PROBE_ABSENT ?
	     "CONFIG_DRM and CONFIG_FTRACE" : missing);
	c->record_ok = writable && (fences == PROBE_PRESENT || vblank == PROBE_PRESENT);
}

/* The series, patch by patch, and its version. */
static void check_series(struct check_ctx *c)
{
	struct series_result r;
	char what[96], version[256];

	series_probe(have_item, c, &r);
	printf("fence-trace kernel series (kernel/series; 0001-0003, 0015 and 0016 leave nothing to see)\n");
	for (unsigned int i = 0; i < r.n_patches; i++) {
		const struct patch_result *p = &r.patches[i];
		enum probe_answer a = p->state == PATCH_PRESENT ? PROBE_PRESENT :
			p->state == PATCH_UNKNOWN ? PROBE_UNKNOWN : PROBE_ABSENT;
		char hint[SERIES_MAX_MISSING + 32];

		if (p->total > 1)
			snprintf(what, sizeof(what), "%s %s (%u of %u)", p->patch->number, p->patch->adds,
				 p->present, p->total);
		else
			snprintf(what, sizeof(what), "%s %s", p->patch->number, p->patch->adds);
		if (a == PROBE_UNKNOWN)
			snprintf(hint, sizeof(hint), "%s", p->patch->items[0][0] != '@' ?
				 cannot_look(c->locked) : geteuid() ? "cannot look without root" :
				 "cannot tell: no sw_sync or no CRTC in debugfs");
		else if (p->state == PATCH_PARTIAL)
			snprintf(hint, sizeof(hint), "missing: %s", p->missing);
		else
			snprintf(hint, sizeof(hint), "kernel/build-kernel patched builds a kernel with it");
		line(what, a, hint);
	}
	series_version(&r, version, sizeof(version));
	printf("  series: %s\n", version);
}

/*
 * Load a do-nothing program of @type and attach it to dma_fence_init for a
 * moment: the only way to know that tp_btf or raw_tp programs work here.
 */
static int attach_probe(enum bpf_prog_type type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct btf *btf = NULL;
	int prog, link;

	if (type == BPF_PROG_TYPE_TRACING) {
		btf = btf__load_vmlinux_btf();
		if (!btf)
			return 0;
		opts.expected_attach_type = BPF_TRACE_RAW_TP;
		opts.attach_btf_id = (__u32)btf__find_by_name_kind(btf, "btf_trace_dma_fence_init",
								   BTF_KIND_TYPEDEF);
		btf__free(btf);
		if ((int)opts.attach_btf_id < 0)
			return 0;
	}
	prog = bpf_prog_load(type, "ft_check", "GPL", insns, 2, &opts);
	if (prog < 0)
		return 0;
	link = bpf_raw_tracepoint_open(type == BPF_PROG_TYPE_TRACING ? NULL : "dma_fence_init", prog);
	if (link >= 0)
		close(link);
	close(prog);
	return link >= 0;
}

/*
 * One line per tool: every program it would load here loaded and attached
 * (how many, in which flavour), the tracepoints this kernel lacks named.
 * Return: 1 when they all attached.
 */
static int tool_attaches(const char *tool, enum attach_tool which)
{
	struct attach_report r;
	char what[96], hint[640];
	int ok;

	attach_check(which, &r);
	ok = !r.err && r.attached == r.wanted;
	snprintf(what, sizeof(what), "%s: %u of %u programs attach (%s)", tool, r.attached, r.wanted,
		 r.tp_btf ? "tp_btf" : "raw_tp");
	if (r.err)
		snprintf(hint, sizeof(hint), "load or attach failed: %s%s", strerror(-r.err),
			 refusal_hint(-r.err, ""));
	else
		snprintf(hint, sizeof(hint), "some did not attach");
	line(what, yes_no(ok), hint);
	if (ok && r.skipped[0])
		printf("    not in this kernel, so not loaded: %s\n", r.skipped);
	return ok;
}

/* What the BPF tools promise, tried: their programs, not a probe's. */
static void check_tools_attach(struct check_ctx *c)
{
	int latency = tool_attaches("latency, top", ATTACH_LATENCY);
	int stall = tool_attaches("stall", ATTACH_STALL);
	int record = tool_attaches("record --bpf", ATTACH_RECORD);

	c->latency_ok = latency;
	c->stall_record_bpf_ok = stall && record;
}

static void check_bpf(struct check_ctx *c)
{
	int btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	int tp_btf = btf && attach_probe(BPF_PROG_TYPE_TRACING);
	int raw = attach_probe(BPF_PROG_TYPE_RAW_TRACEPOINT);
	const char *priv = geteuid() ? "run as root" : NULL;

	c->ringbuf_ok = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) == 1;
	printf("BPF (fence-trace latency, top, stall, record --bpf)\n");
	line("kernel BTF (/sys/kernel/btf/vmlinux)", yes_no(btf), "CONFIG_DEBUG_INFO_BTF");
	line("tp_btf programs attach (dma_fence_init)", yes_no(tp_btf),
	     priv ? priv : "the tools fall back to raw_tp");
	line("raw_tp programs attach (dma_fence_init)", yes_no(raw),
	     priv ? priv : "CONFIG_BPF_SYSCALL and CONFIG_BPF_EVENTS");
	line("BPF ring buffer maps (record --bpf, stall)", yes_no(c->ringbuf_ok),
	     priv ? priv : "Linux 5.8 or later");
	c->latency_ok = btf && (tp_btf || raw);
	if (c->latency_ok && c->ringbuf_ok)
		check_tools_attach(c);
}

static void check_debugfs(void)
{
	/* debugfs is mode 0700: a user cannot tell missing from forbidden. */
	int root = geteuid() == 0;
	const char *hint = root ? NULL : "run as root";

	printf("debugfs (names, stall snapshots, the lab)\n");
	line("DRM devices (/sys/kernel/debug/dri)", yes_no(access("/sys/kernel/debug/dri", R_OK) == 0),
	     hint ? hint : "mount -t debugfs none /sys/kernel/debug");
	line("sync_file list (/sys/kernel/debug/sync/info)", yes_no(access(SYNC_INFO, R_OK) == 0),
	     hint ? hint : "CONFIG_SW_SYNC and debugfs");
	line("sw_sync timelines (/sys/kernel/debug/sync/sw_sync)", yes_no(access(SW_SYNC_PATH, R_OK) == 0),
	     hint ? hint : "CONFIG_SW_SYNC, for the workload");
}

/* Lockdown's integrity level leaves tracing alone; confidentiality does not. */
static void check_lockdown(void)
{
	char buf[128];
	const char *level = lockdown_level(buf, sizeof(buf));

	printf("kernel lockdown (%s)\n", LOCKDOWN_PATH);
	if (!level) {
		printf("  level: unknown (%s)\n", geteuid() ? "run as root" :
		       "no lockdown LSM, or securityfs not mounted");
		return;
	}
	printf("  level: %s", level);
	if (!strcmp(level, "confidentiality")) {
		printf("  (refuses tracefs and BPF's reads of kernel memory: the checks above say what failed)\n");
	} else {
		printf("  (%s)\n", !strcmp(level, "none") ? "nothing refused" :
		       "tracing and BPF allowed; debugfs files read-only");
	}
}

/* 0 both work, 3 record only, 4 latency only, 1 neither (2 is a usage error). */
static int check_status(const struct check_ctx *c)
{
	if (c->record_ok && c->latency_ok)
		return 0;
	if (c->record_ok)
		return 3;
	return c->latency_ok ? 4 : 1;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	cmd_getopt_start(&g, "check");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		if (opt != 'h')
			return usage_bad_option("check", opt, argv);
		print_usage("check");
		return 1;
	}
	if (optind < argc) {
		usage_error("check", "takes no arguments ('%s')", argv[optind]);
		return -1;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct check_ctx c = { 0 };
	int ret = parse_args(argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	libbpf_set_print(NULL);
	check_tracing(&c);
	check_series(&c);
	check_bpf(&c);
	check_debugfs();
	check_lockdown();
	printf("record: %s\n", c.record_ok ? "can work" : "CANNOT work");
	printf("record --bpf and stall: %s\n", c.stall_record_bpf_ok ? "can work" : "CANNOT work");
	printf("latency and top: %s\n", c.latency_ok ? "can work" : "CANNOT work");
	return check_status(&c);
}
