// SPDX-License-Identifier: GPL-2.0
/*
 * ring-floor - the least a BPF ring-buffer recorder of the fence events can
 * cost, for tests/bench/overhead-bench: `fence-trace record --bpf`'s own
 * programs (live/fence-record.bpf.c, tp_btf) and a reader that takes every
 * record off the ring every 50 ms, as record --bpf does, and keeps none.
 * No ordering, no encoding, no file.  -n also runs record --bpf's names
 * stream (fence-names.c, the filtered dma_fence_init tracefs event); -k
 * names contexts in the kernel instead, as record --bpf does on a kernel
 * with the series' kfunc (its dma_fence_init program that calls it).
 *
 *   ring-floor [-n | -k] -- COMMAND [ARG]...
 *
 * When COMMAND has exited, prints "records=N dropped=N" (dropped: the
 * ring was full) and exits with COMMAND's status.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-flavour.h"
#include "fence-names.h"
#include "fence-record.skel.h"
#include "record-bpf-init.h"

static int take(void *ctx, void *data, size_t len)
{
	(*(unsigned long long *)ctx)++;
	return 0;
}

static unsigned long long dropped(struct fence_record_bpf *skel)
{
	unsigned long long vals[256] = { 0 }, sum = 0;
	int ncpus = libbpf_num_possible_cpus();
	__u32 zero = 0;

	if (ncpus <= 0 || ncpus > 256 ||
	    bpf_map_lookup_elem(bpf_map__fd(skel->maps.dropped), &zero, vals))
		return 0;
	for (int i = 0; i < ncpus; i++)
		sum += vals[i];
	return sum;
}

static int load(struct fence_record_bpf **skel, struct ring_buffer **rb, unsigned long long *records,
		int kernel_names)
{
	int tp_btf = bpf_tp_btf_usable("dma_fence_init");
	char skipped[512];

	libbpf_set_print(NULL);
	*skel = fence_record_bpf__open();
	if (!*skel)
		return -1;
	bpf_pick_flavour((*skel)->obj, tp_btf, skipped, sizeof(skipped));
	if (record_pick_init(*skel, tp_btf, kernel_names) != kernel_names) {
		fprintf(stderr, "ring-floor: -k: this kernel has no %s (or no tp_btf)\n", NAMES_KFUNC);
		return -1;
	}
	if (fence_record_bpf__load(*skel) || fence_record_bpf__attach(*skel))
		return -1;
	*rb = ring_buffer__new(bpf_map__fd((*skel)->maps.events), take, records, NULL);
	return *rb ? 0 : -1;
}

int main(int argc, char **argv)
{
	static struct fence_names names;	/* large: not on the stack */
	struct fence_record_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	unsigned long long records = 0;
	int with_names = 0, kernel_names = 0, status = 0, opt;
	pid_t child;

	while ((opt = getopt(argc, argv, "+nk")) != -1) {
		if (opt != 'n' && opt != 'k') {
			fprintf(stderr, "usage: ring-floor [-n | -k] -- COMMAND [ARG]...\n");
			return 2;
		}
		with_names |= opt == 'n';
		kernel_names |= opt == 'k';
	}
	if (optind >= argc || (with_names && kernel_names)) {
		fprintf(stderr, "usage: ring-floor [-n | -k] -- COMMAND [ARG]...\n");
		return 2;
	}
	if (with_names && names_start(&names)) {
		fprintf(stderr, "ring-floor: cannot start the names stream (tracefs)\n");
		return 1;
	}
	if (load(&skel, &rb, &records, kernel_names)) {
		fprintf(stderr, "ring-floor: cannot load or attach the BPF recorder: %s\n", strerror(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "ring-floor: cannot run %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	while (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		usleep(50000);
		if (with_names)
			names_poll(&names);
		ring_buffer__consume(rb);
	}
	fence_record_bpf__detach(skel);
	ring_buffer__consume(rb);
	printf("records=%llu dropped=%llu\n", records, dropped(skel));
	ring_buffer__free(rb);
	fence_record_bpf__destroy(skel);
	if (with_names)
		names_stop(&names);
	return child < 0 ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
