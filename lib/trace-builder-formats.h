/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-builder-formats.h - the formats folder of trace-builder.c: the
 * ring buffer's header_page and header_event and one SYS-EVENT.format
 * file per event, as tracefs has them.  Not part of the builder's API.
 */
#ifndef FENCE_TRACE_TRACE_BUILDER_FORMATS_H
#define FENCE_TRACE_TRACE_BUILDER_FORMATS_H

#define TB_MAX_FORMATS	64

struct tb_format {
	char sys[64];
	char name[64];
	char *text;
	int id;
};

struct tb_formats {
	char *header_page, *header_event;
	struct tb_format fmt[TB_MAX_FORMATS];
	unsigned int n;
};

int tb_formats_load(struct tb_formats *f, const char *dir);
void tb_formats_free(struct tb_formats *f);

#endif
