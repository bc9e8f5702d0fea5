// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-check.c - `fence-trace check`: what this machine's kernel offers the
 * other commands, in plain words, each missing piece with a one-line hint,
 * in the manner of `bpftool feature probe`.  Exit status 0 when `record`
 * and `latency` can both work, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpf-flavour.h"
#include "fence-trace.h"

struct check_ctx {
	int record_ok, latency_ok;
};

static void line(const char *what, int ok, const char *hint)
{
	printf("  %-44s %s", what, ok ? "yes" : "NO");
	if (!ok && hint)
		printf("  (%s)", hint);
	printf("\n");
}

static int have_event(const char *sys, const char *ev)
{
	char path[256];

	snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
	return tracefs_file_exists(NULL, path);
}

static int have_system(const char *sys)
{
	char path[256];

	snprintf(path, sizeof(path), "events/%s", sys);
	return tracefs_dir_exists(NULL, path);
}

static void check_tracing(struct check_ctx *c)
{
	const char *dir = tracefs_tracing_dir();
	int writable = dir && access(dir, W_OK) == 0;
	int fences = dir && have_system("dma_fence");
	int vblank = dir && have_event("drm", "drm_vblank_event");
	/* Without root the event directories cannot even be looked into. */
	const char *unseen = writable ? NULL : "cannot look without root";

	printf("tracing (fence-trace record)\n");
	line("tracefs mounted", dir != NULL, "mount -t tracefs nodev /sys/kernel/tracing");
	line("tracefs writable (instances can be made)", writable, "run as root");
	line("dma_fence events", fences, unseen ? unseen : "CONFIG_DMA_SHARED_BUFFER and CONFIG_FTRACE");
	line("drm vblank events", vblank, unseen ? unseen : "CONFIG_DRM and CONFIG_FTRACE");
	line("fence-trace series events (drm_fence:*)", dir && have_system("drm_fence"),
	     unseen ? unseen : "optional: a kernel with kernel/patches applied explains more");
	c->record_ok = dir && writable && (fences || vblank);
}

static void check_bpf(struct check_ctx *c)
{
	int btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	int tracing = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL) == 1;
	int raw = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) == 1;

	printf("BPF (fence-trace latency, top)\n");
	line("kernel BTF (/sys/kernel/btf/vmlinux)", btf, "CONFIG_DEBUG_INFO_BTF");
	line("tp_btf programs", btf && tracing && bpf_tp_btf_usable("dma_fence_init"), "falls back to raw_tp");
	line("raw_tp programs", raw, "CONFIG_BPF_SYSCALL and CONFIG_BPF_EVENTS; run as root");
	c->latency_ok = btf && raw;
}

static void check_debugfs(void)
{
	/* debugfs is mode 0700: a user cannot tell missing from forbidden. */
	int root = geteuid() == 0;

	printf("debugfs (names, stall snapshots, the lab)\n");
	line("DRM devices (/sys/kernel/debug/dri)", access("/sys/kernel/debug/dri", R_OK) == 0,
	     root ? "mount -t debugfs none /sys/kernel/debug" : "run as root");
	line("sync_file list (/sys/kernel/debug/sync/info)",
	     access("/sys/kernel/debug/sync/info", R_OK) == 0,
	     root ? "CONFIG_SW_SYNC and debugfs" : "run as root");
	line("sw_sync timelines (/sys/kernel/debug/sync/sw_sync)",
	     access("/sys/kernel/debug/sync/sw_sync", R_OK) == 0,
	     root ? "CONFIG_SW_SYNC, for the workload" : "run as root");
}

int cmd_check(int argc, char **argv)
{
	struct check_ctx c = { 0 };

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		print_usage("check");
		return 0;
	}
	if (argc > 1) {
		usage_error("check", "takes no arguments ('%s')", argv[1]);
		return EXIT_USAGE;
	}
	libbpf_set_print(NULL);
	check_tracing(&c);
	check_bpf(&c);
	check_debugfs();
	printf("record: %s; latency and top: %s\n", c.record_ok ? "can work" : "CANNOT work",
	       c.latency_ok ? "can work" : "CANNOT work");
	return c.record_ok && c.latency_ok ? 0 : 1;
}
