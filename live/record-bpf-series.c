// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-series.c - the series' events from the live reader's private
 * tracefs instance (see record-bpf-series.h): which of the catalogue's
 * events, and a ring of 1 MB per CPU for them.
 */
#include "record-bpf-series.h"

struct live_reader *series_stream_start(void)
{
	struct live_reader *s = live_reader_new("series");
	unsigned int n = 0;
	char why[128];

	if (!s || live_reader_setup(s, LIVE_READER_CLOCK, 1024) || live_reader_decode(s, why, sizeof(why)))
		goto none;
	/* what report reads of the series, nothing more */
	for (int id = 0; id < FT_EV_COUNT && n < SERIES_MAX_EVENTS; id++)
		if ((ft_event_set(id) == FT_SET_SERIES || ft_event_set(id) == FT_SET_DMA_SERIES) &&
		    !live_reader_enable_id(s, id))
			n++;
	if (!n || live_reader_start(s, why, sizeof(why)))
		goto none;
	return s;
none:
	live_reader_free(s);
	return NULL;
}
