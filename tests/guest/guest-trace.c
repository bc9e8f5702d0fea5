// SPDX-License-Identifier: GPL-2.0
/*
 * guest-trace.c - private tracefs instances for guest tests (libtracefs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "guest-trace.h"

/**
 * guest_trace_start() - create instance @name and enable @events of @system
 * @events: NULL-terminated event names, or NULL for the whole system
 *
 * Return: 0, or -1 when tracefs or an event is missing.
 */
int guest_trace_start(struct guest_trace *t, const char *name, const char *system,
		      const char *const *events)
{
	memset(t, 0, sizeof(*t));
	t->inst = tracefs_instance_create(name);
	if (!t->inst)
		return -1;
	/* Generous per-CPU buffers: the tests check counts, so nothing may drop. */
	tracefs_instance_set_buffer_size(t->inst, 8192, -1);
	tracefs_instance_file_write(t->inst, "trace_clock", "mono");
	if (!events) {
		if (tracefs_event_enable(t->inst, system, NULL))
			goto fail;
	} else {
		for (; *events; events++)
			if (tracefs_event_enable(t->inst, system, *events))
				goto fail;
	}
	tracefs_trace_on(t->inst);
	return 0;
fail:
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	return -1;
}

static unsigned long long overrun_of(struct tracefs_instance *inst)
{
	unsigned long long total = 0;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	for (long cpu = 0; cpu < cpus; cpu++) {
		char file[64], *stats, *p;

		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", cpu);
		stats = tracefs_instance_file_read(inst, file, NULL);
		p = stats ? strstr(stats, "overrun: ") : NULL;
		if (p)
			total += strtoull(p + 9, NULL, 10);
		free(stats);
	}
	return total;
}

/* Stop tracing, keep the text and the overrun count, remove the instance. */
int guest_trace_stop(struct guest_trace *t)
{
	if (!t->inst)
		return -1;
	tracefs_trace_off(t->inst);
	t->text = tracefs_instance_file_read(t->inst, "trace", NULL);
	t->overrun = overrun_of(t->inst);
	tracefs_event_disable(t->inst, NULL, NULL);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	return t->text ? 0 : -1;
}

void guest_trace_free(struct guest_trace *t)
{
	free(t->text);
	t->text = NULL;
}

/* @needle in @line, followed by a space or the end: "seqno=3" is not "seqno=31". */
static int has_word(const char *line, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = strstr(line, needle); p; p = strstr(p + 1, needle))
		if (p[n] == '\0' || p[n] == ' ')
			return 1;
	return 0;
}

/* Lines of @event ("name:") that also contain @needle (NULL: any). */
unsigned int trace_count(const char *text, const char *event, const char *needle)
{
	char tag[96];
	unsigned int n = 0;

	snprintf(tag, sizeof(tag), " %s: ", event);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[512];

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			if (buf[0] != '#' && strstr(buf, tag) && (!needle || has_word(buf, needle)))
				n++;
		}
		line = end ? end + 1 : NULL;
	}
	return n;
}
