/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat-priv.h - what the trace.dat parser (tracedat-read.c) hands to
 * the event iterator (tracedat-iter.c).  Not part of the API.
 */
#ifndef FENCE_TRACE_TRACEDAT_PRIV_H
#define FENCE_TRACE_TRACEDAT_PRIV_H

#include <stdint.h>

#include "tracedat.h"

/* One CPU's ring-buffer pages inside the mapped file. */
struct tracedat_cpu {
	unsigned long long offset;	/* file offset of the first page */
	unsigned long long size;	/* bytes, a whole number of pages */
	unsigned long long events;	/* delivered by the last iterate */
	int zipped;			/* compressed: chunks (tracedat-unzip.c) */
	uint32_t chunks, max_chunk;	/* count, largest decompressed size */
};

#define TD_MAX_CHUNK	(1u << 20)	/* decompressed bytes of a flyrecord chunk: 10 pages of 64 KiB fit */

/* A walk through one CPU's compressed chunks (tracedat-unzip.c). */
struct tracedat_chunks {
	unsigned long long pos;		/* file offset of the next chunk */
	unsigned long long at;		/* file offset of the chunk in buf */
	unsigned long long released;	/* compressed bytes before this are given back */
	uint32_t left;			/* chunks not yet decompressed */
	uint32_t cap;			/* bytes buf holds */
	unsigned char *buf;		/* the current chunk, decompressed */
};

enum { TD_CODEC_NONE, TD_CODEC_ZSTD, TD_CODEC_ZLIB, TD_CODEC_OTHER };

#define TRACEDAT_MAX_STAT_CPUS 256

struct tracedat {
	char *path;			/* for messages */
	const unsigned char *map;	/* the whole file, read-only */
	unsigned long long size;
	int version;
	int big_endian;			/* file byte order */
	unsigned int page_size;
	unsigned int commit_size;	/* kernel long: 4 or 8, from header_page */
	struct tep_handle *tep;
	int cpus;
	struct tracedat_cpu *cpu;
	char *clock;
	int clock_option;		/* a TRACECLOCK option was seen */
	char *uname;
	char *recorder;		/* the VERSION option: who wrote the file */
	unsigned long long overrun;	/* from CPUSTAT options */
	int have_cpustat;
	/* per CPU, in CPUSTAT order: read events + entries, -1 unknown */
	long long taken[TRACEDAT_MAX_STAT_CPUS];
	int n_taken;
	/* Shortest valid record per event id: the fixed part of its format. */
	uint16_t *min_size;
	unsigned int type_offset, type_size;	/* common_type in a record */
	unsigned int common_size;		/* the common fields */
	char err[256];
	int unsupported;	/* valid, but not for this reader (see tracedat-unzip.c) */
	int stats_only;		/* tracedat_open_stats(): the options, not the data */
	int codec;		/* TD_CODEC_*, from the v7 compression header */
	void *zstd;		/* ZSTD_DCtx, made at the first zstd block */
};

/* trace-cmd option and v7 section ids (TRACECMD_OPTION_*). */
enum {
	OPT_DONE = 0, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4, OPT_UNAME = 5,
	OPT_CPUCOUNT = 8, OPT_VERSION = 9,
	SEC_HEADER_INFO = 16, SEC_FTRACE_EVENTS, SEC_EVENT_FORMATS,
	SEC_KALLSYMS, SEC_PRINTK, SEC_CMDLINES, SEC_LAST = SEC_CMDLINES,
};

/*
 * A bounded view of [pos, end) of the file, named for error messages; or,
 * with base set, of a decompressed section held at base.
 */
struct tracedat_cur {
	struct tracedat *td;
	unsigned long long pos, end;
	const char *what;
	const unsigned char *base;	/* NULL: the file (td->map) */
};

/* The cursor (tracedat-cursor.c) and the section parsers both versions
 * share (tracedat-sections.c). */
const unsigned char *tracedat_cur_take(struct tracedat_cur *c, unsigned long long n);
int tracedat_cur_u16(struct tracedat_cur *c, uint16_t *v);
int tracedat_cur_u32(struct tracedat_cur *c, uint32_t *v);
int tracedat_cur_u64(struct tracedat_cur *c, unsigned long long *v);
const char *tracedat_cur_str(struct tracedat_cur *c);
const char *tracedat_cur_blob(struct tracedat_cur *c, int size64, unsigned long long *n);
int tracedat_parse_header_info(struct tracedat *td, struct tracedat_cur *c, unsigned int long_size);
int tracedat_parse_formats(struct tracedat *td, struct tracedat_cur *c, const char *sys);
int tracedat_parse_event_systems(struct tracedat *td, struct tracedat_cur *c);
int tracedat_parse_symbols(struct tracedat *td, struct tracedat_cur *c, int printk);
int tracedat_parse_cmdlines(struct tracedat *td, struct tracedat_cur *c);
int tracedat_handle_option(struct tracedat *td, uint16_t id, const char *p, unsigned long long n);
char *tracedat_selected_clock(const char *p, unsigned long long n);
int tracedat_alloc_cpus(struct tracedat *td, unsigned long long cpus);
int tracedat_set_cpu_data(struct tracedat *td, unsigned int cpu,
			  unsigned long long offset, unsigned long long size);

/* Version 7 after the initial format (tracedat-read-v7.c). */
int tracedat_parse_v7(struct tracedat *td, struct tracedat_cur *c, unsigned int long_size);

/* Its compressed sections and chunks (tracedat-unzip.c). */
int tracedat_set_codec(struct tracedat *td, const char *name);
int tracedat_unzip_section(struct tracedat *td, struct tracedat_cur *c, unsigned long long off,
			   unsigned char **buf);
int tracedat_set_cpu_chunks(struct tracedat *td, unsigned int cpu, unsigned long long offset,
			    unsigned long long size);
int tracedat_next_chunk(struct tracedat *td, int cpu, struct tracedat_chunks *z,
			unsigned long long *npages);
void tracedat_free_codec(struct tracedat *td);

enum { TRACEDAT_FMT_BAD, TRACEDAT_FMT_OK, TRACEDAT_FMT_NO_PRINT };
int tracedat_format_check(const char *text, unsigned long long n, unsigned long long *print_at);
int tracedat_format_printable(const char *p, unsigned long long n);
int tracedat_unsupported(struct tracedat *td, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int tracedat_fail(struct tracedat *td, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline uint32_t tracedat_u32(const struct tracedat *td, const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return td->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ?
		__builtin_bswap32(v) : v;
}

static inline uint64_t tracedat_u64(const struct tracedat *td, const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return td->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ?
		__builtin_bswap64(v) : v;
}

static inline uint16_t tracedat_u16(const struct tracedat *td, const void *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return td->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ?
		__builtin_bswap16(v) : v;
}

#endif
