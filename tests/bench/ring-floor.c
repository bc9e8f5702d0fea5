// SPDX-License-Identifier: GPL-2.0
/*
 * ring-floor - the least a BPF ring-buffer recorder of the fence events can
 * cost, for tests/bench/overhead-bench: `fence-trace record --bpf`'s own
 * programs (live/fence-record.bpf.c, tp_btf) and a reader that takes every
 * record off the ring every 50 ms, as record --bpf does, and keeps none.
 * No ordering, no encoding, no file.  The programs send each new
 * context's names (fence-names.bpf.h); without -n they are taken off
 * their ring and dropped, with -n they go to record --bpf's names
 * (fence-names.c: kept, and the tracefs stream asked for what BPF
 * cannot read).
 *
 *   ring-floor [-n] -- COMMAND [ARG]...
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
		struct fence_names *names)
{
	int tp_btf = bpf_tp_btf_usable("dma_fence_init");
	char skipped[512];

	libbpf_set_print(NULL);
	*skel = fence_record_bpf__open();
	if (!*skel)
		return -1;
	bpf_pick_flavour((*skel)->obj, tp_btf, skipped, sizeof(skipped));
	if (fence_record_bpf__load(*skel))
		return -1;
	*rb = ring_buffer__new(bpf_map__fd((*skel)->maps.events), take, records, NULL);
	if (!*rb)
		return -1;
	if (names ? names_attach(names, bpf_map__fd((*skel)->maps.fence_names), &(*skel)->bss->fn_lost) :
		    ring_buffer__add(*rb, bpf_map__fd((*skel)->maps.fence_names), take, records))
		return -1;
	return fence_record_bpf__attach(*skel) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct fence_names names;	/* large: not on the stack */
	struct fence_record_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	unsigned long long records = 0;
	int with_names = 0, status = 0, opt;
	pid_t child;

	while ((opt = getopt(argc, argv, "+n")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: ring-floor [-n] -- COMMAND [ARG]...\n");
			return 2;
		}
		with_names = 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: ring-floor [-n] -- COMMAND [ARG]...\n");
		return 2;
	}
	if (with_names && names_start(&names)) {
		fprintf(stderr, "ring-floor: cannot start the names stream (tracefs)\n");
		return 1;
	}
	if (load(&skel, &rb, &records, with_names ? &names : NULL)) {
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
