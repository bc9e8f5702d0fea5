// SPDX-License-Identifier: GPL-2.0
/*
 * stall-series-waits.c - which commit and plane a wait belongs to, and when
 * that commit entered, from what stall-series.c keeps of the series'
 * events: looked up by stall-print.c when it names a stall, so the printer
 * and the stream reader do not call each other.
 */
#include <stddef.h>

#include "stall-series.h"

/*
 * The in-progress wait of task @pid on the fence (@context, @seqno): what the
 * BPF side saw as a wait, found among the series' waits.  Not by the fence's
 * identity: the series carries dma_fence_trace_id(), the BPF side only the
 * address, and the two cannot be compared.
 */
const struct series_wait *series_wait_of(const struct stall_series *s, uint64_t context,
					 uint64_t seqno, uint32_t pid)
{
	for (unsigned int i = 0; i < s->n_waits; i++)
		if (s->waits[i].context == context && s->waits[i].seqno == seqno &&
		    s->waits[i].pid == pid)
			return &s->waits[i];
	return NULL;
}

/*
 * The in-fence wait of @commit: in progress, else its latest that ended
 * (a commit-behind-commit stall is traced when it is over, and so may be
 * the earlier commit's wait by then).
 */
const struct series_wait *series_wait_of_commit(const struct stall_series *s, uint64_t commit)
{
	const struct series_wait *latest = NULL;

	for (unsigned int i = 0; i < s->n_waits; i++)
		if (s->waits[i].commit == commit)
			return &s->waits[i];
	for (unsigned int i = 0; i < SERIES_RECENT && i < s->n_ended; i++)
		if (s->ended[i].commit == commit && (!latest || s->ended[i].end > latest->end))
			latest = &s->ended[i];
	return latest;
}

/* When @commit's atomic ioctl entered, if it is among the last commits; else 0. */
uint64_t series_commit_entry(const struct stall_series *s, uint64_t commit)
{
	for (unsigned int i = 0; i < SERIES_COMMITS && i < s->n_commits; i++)
		if (s->commits[i].commit == commit)
			return s->commits[i].ts;
	return 0;
}
