/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-builder-formats.h - the formats folder of trace-builder.c: the
 * ring buffer's header_page and header_event and one SYS-EVENT.format
 * file per event, as tracefs has them; or the same texts handed over one
 * by one (record --bpf reads them from the running kernel's tracefs).
 */
#ifndef FENCE_TRACE_TRACE_BUILDER_FORMATS_H
#define FENCE_TRACE_TRACE_BUILDER_FORMATS_H

#define TB_MAX_FORMATS	64

struct tb_format {
	char sys[64];
	char name[64];
	char *text;
	int id;
	int fence_offset;	/* of a "u64 fence" field (the series' dma_fence events), 0 none */
};

struct tb_formats {
	char *header_page, *header_event;
	struct tb_format fmt[TB_MAX_FORMATS];
	unsigned int n;
};

int tb_formats_load(struct tb_formats *f, const char *dir);
int tb_formats_add_dir(struct tb_formats *f, const char *dir);
int tb_formats_add(struct tb_formats *f, const char *sys, char *text);
void tb_formats_free(struct tb_formats *f);
unsigned int tb_formats_fence_offset(const struct tb_formats *f, int id);

#endif
