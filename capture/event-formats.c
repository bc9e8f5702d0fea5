// SPDX-License-Identifier: GPL-2.0
/*
 * event-formats.c - the sub-buffer header and the events of the systems
 * asked for, parsed into a fresh tep handle.
 *
 * Why not tracefs_local_events_system(): it also loads /proc/kallsyms,
 * saved_cmdlines and printk_formats into the handle, for printing events
 * as text.  The live readers only decode fields, and on a distribution
 * kernel the kallsyms part alone is 100,000 symbols: 0.3-0.7 s of every
 * live tool's start in the lab's emulated guest, paid again by each
 * reader a tool opens (stall opens two), while a stuck wait it is meant
 * to find may end meanwhile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* sysconf() */

#include <event-parse.h>
#include <tracefs.h>

#include "event-formats.h"
#include "read-file.h"

/* Every event of @system into @tep; a system the kernel lacks is none. */
static int load_system(struct tep_handle *tep, const char *dir, const char *system)
{
	char **events = tracefs_system_events(dir, system);
	char path[4096];
	size_t size;
	char *text;
	int err = 0;

	for (int i = 0; events && events[i] && !err; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, system, events[i]);
		text = read_file(path, &size);
		if (!text)
			continue;	/* gone meanwhile (a module unloaded) */
		err = tep_parse_event(tep, text, size, system) == TEP_ERRNO__MEM_ALLOC_FAILED;
		free(text);
	}
	tracefs_list_free(events);
	return err ? -1 : 0;
}

/**
 * event_formats_load() - the formats of @systems (NULL-terminated) under
 * @tracing_dir (NULL: the mounted tracefs), with the sub-buffer header
 *
 * Return: the handle (tep_free() it), or NULL with the reason in @why.
 */
struct tep_handle *event_formats_load(const char *tracing_dir, const char *const *systems,
				      char *why, size_t len)
{
	const char *dir = tracing_dir ? tracing_dir : tracefs_tracing_dir();
	struct tep_handle *tep = dir ? tep_alloc() : NULL;
	char path[4096];
	size_t size;
	char *header;

	if (!tep) {
		snprintf(why, len, dir ? "out of memory" : "tracefs is not mounted");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	header = read_file(path, &size);
	if (!header || tep_parse_header_page(tep, header, (unsigned long)size, sizeof(long))) {
		snprintf(why, len, "cannot read the kernel's event formats (%s)", path);
		free(header);
		tep_free(tep);
		return NULL;
	}
	free(header);
	for (int i = 0; systems[i]; i++)
		if (load_system(tep, dir, systems[i])) {
			snprintf(why, len, "out of memory");
			tep_free(tep);
			return NULL;
		}
	tep_set_cpus(tep, (int)sysconf(_SC_NPROCESSORS_CONF));
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	return tep;
}
