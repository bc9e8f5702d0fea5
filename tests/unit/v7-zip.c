// SPDX-License-Identifier: GPL-2.0
/*
 * v7-zip.c - a compressed copy of an uncompressed trace.dat v7 (see
 * v7-zip.h), laid out as trace-cmd lays out its compressed files
 * (Documentation/trace-cmd/trace-cmd.dat.v7.5.txt): options sections
 * plain; every other section flagged compressed and held as one block
 * (u32 compressed size, u32 size, bytes); each CPU's flyrecord data
 * page-aligned, as a u32 chunk count and chunks of @chunk_pages pages.
 * The BUFFER option gives each CPU's exact compressed size (trace-cmd 3.2
 * and later; 3.1 gave 4 bytes less).
 *
 * Debian's trace-cmd writes only zstd, so the zlib fixture and the fuzz
 * harness's inputs are written by this.  Little-endian files only.
 *
 * The sections follow each other from the end of the file header to the
 * end of the file (libtracecmd walks them so to find the strings), so the
 * copy is made in one walk; the offsets the options hold are then mapped
 * from the input's sections to the copy's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "v7-zip.h"

#define MAX_SECTIONS	512
#define MAX_BUFFERS	16
#define MAX_CPUS	256

struct out {
	unsigned char *p;
	size_t n, cap;
};

struct buffer_opt {
	uint64_t sec;
	uint32_t count;
	uint32_t id[MAX_CPUS];
	uint64_t off[MAX_CPUS], size[MAX_CPUS];		/* in the input */
	uint64_t new_off[MAX_CPUS], new_size[MAX_CPUS];	/* in the copy */
};

struct zip {
	const unsigned char *in;
	size_t len;
	enum v7_zip_codec codec;
	unsigned int page, chunk_pages;
	int nsec, nbuf;
	uint64_t old_off[MAX_SECTIONS], new_off[MAX_SECTIONS];
	uint16_t sec_id[MAX_SECTIONS];
	struct buffer_opt buf[MAX_BUFFERS];
	struct out o;
};

static uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int reserve(struct out *o, size_t n)
{
	unsigned char *p;
	size_t cap = o->cap ? o->cap : 65536;

	if (n <= o->cap - o->n)
		return 0;
	while (cap - o->n < n)
		cap *= 2;
	p = realloc(o->p, cap);
	if (!p)
		return -1;
	o->p = p;
	o->cap = cap;
	return 0;
}

static int put(struct out *o, const void *d, size_t n)
{
	if (reserve(o, n))
		return -1;
	memcpy(o->p + o->n, d, n);
	o->n += n;
	return 0;
}

static int put32(struct out *o, uint32_t v) { return put(o, &v, 4); }

/* Compress @n bytes of @src to the end of @o; *@csize gets their size. */
static int compress_to(struct zip *z, const unsigned char *src, size_t n, uint32_t *csize)
{
	size_t bound = z->codec == V7_ZSTD ? ZSTD_compressBound(n) : compressBound(n);
	uLongf got = bound;
	ZSTD_CCtx *cc;
	size_t r;

	if (reserve(&z->o, bound))
		return -1;
	if (z->codec == V7_ZLIB) {
		if (compress2(z->o.p + z->o.n, &got, src, n, Z_BEST_COMPRESSION) != Z_OK)
			return -1;
		r = got;
	} else {
		cc = ZSTD_createCCtx();
		if (!cc)
			return -1;
		ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
		r = ZSTD_compress2(cc, z->o.p + z->o.n, bound, src, n);
		ZSTD_freeCCtx(cc);
		if (ZSTD_isError(r))
			return -1;
	}
	z->o.n += r;
	*csize = (uint32_t)r;
	return 0;
}

/* One block: u32 compressed size, u32 size, the compressed bytes. */
static int put_block(struct zip *z, const unsigned char *src, size_t n)
{
	size_t at = z->o.n;
	uint32_t csize;

	if (put32(&z->o, 0) || put32(&z->o, (uint32_t)n) || compress_to(z, src, n, &csize))
		return -1;
	memcpy(z->o.p + at, &csize, 4);
	return 0;
}

/* The BUFFER option at @p (@n bytes) of the input, remembered. */
static int note_buffer(struct zip *z, const unsigned char *p, uint32_t n)
{
	const unsigned char *end = p + n, *q = p + 8;
	struct buffer_opt *b;
	uint32_t i;

	if (n < 8 || z->nbuf == MAX_BUFFERS)
		return -1;
	b = &z->buf[z->nbuf++];
	b->sec = get64(p);
	for (i = 0; i < 2; i++) {	/* name, clock */
		q = memchr(q, 0, end - q);
		if (!q++)
			return -1;
	}
	if (end - q < 8)
		return -1;
	b->count = get32(q + 4);
	q += 8;
	if (b->count > MAX_CPUS || (uint64_t)(end - q) < 20ull * b->count)
		return -1;
	for (i = 0; i < b->count; i++, q += 20) {
		b->id[i] = get32(q);
		b->off[i] = get64(q + 4);
		b->size[i] = get64(q + 12);
	}
	return 0;
}

/* The input's options sections, from @off along their DONE options. */
static int read_options(struct zip *z, uint64_t off)
{
	uint64_t end, pos;
	uint32_t n;
	uint16_t id;
	int i;

	for (i = 0; off && i < 64; i++) {
		if (off > z->len || z->len - off < 16 || get16(z->in + off) != 0)
			return -1;
		end = off + 16 + get64(z->in + off + 8);
		if (end > z->len || end < off)
			return -1;
		for (pos = off + 16, off = 0; pos + 6 <= end; pos += 6ull + n) {
			id = get16(z->in + pos);
			n = get32(z->in + pos + 2);
			if (n > end - pos - 6)
				return -1;
			if (id == 3 && note_buffer(z, z->in + pos + 6, n))
				return -1;
			if (id == 0) {
				off = n >= 8 ? get64(z->in + pos + 6) : 0;
				break;
			}
		}
	}
	return 0;
}

/* A flyrecord section's body: each CPU of the BUFFER option @b in chunks. */
static int put_flyrecord(struct zip *z, struct buffer_opt *b)
{
	size_t chunk = (size_t)z->chunk_pages * z->page, at, n;
	uint64_t pos, end;
	uint32_t i, count;

	for (i = 0; i < b->count; i++) {
		if (b->off[i] > z->len || b->size[i] > z->len - b->off[i] || b->size[i] % z->page)
			return -1;
		while (z->o.n % z->page)
			if (put(&z->o, "", 1))
				return -1;
		b->new_off[i] = at = z->o.n;
		if (!b->size[i]) {
			b->new_size[i] = 0;
			continue;
		}
		end = b->off[i] + b->size[i];
		if (put32(&z->o, 0))
			return -1;
		for (count = 0, pos = b->off[i]; pos < end; pos += n, count++) {
			n = end - pos < chunk ? end - pos : chunk;
			if (put_block(z, z->in + pos, n))
				return -1;
		}
		memcpy(z->o.p + at, &count, 4);
		b->new_size[i] = z->o.n - at;
	}
	return 0;
}

static struct buffer_opt *buffer_of(struct zip *z, uint64_t sec)
{
	int i;

	for (i = 0; i < z->nbuf; i++)
		if (z->buf[i].sec == sec)
			return &z->buf[i];
	return NULL;
}

/* The input's section at @off, copied; *@next gets the offset after it. */
static int put_section(struct zip *z, uint64_t off, uint64_t *next)
{
	const unsigned char *h = z->in + off;
	uint64_t size = get64(h + 8);
	struct buffer_opt *b = NULL;
	uint16_t id = get16(h), flags;
	size_t at = z->o.n;
	int ret;

	if (size > z->len - off - 16 || z->nsec == MAX_SECTIONS || get16(h + 2))
		return -1;
	if (id == 3 && !(b = buffer_of(z, off)))
		return -1;
	z->old_off[z->nsec] = off;
	z->new_off[z->nsec] = at;
	z->sec_id[z->nsec++] = id;
	flags = id ? 1 : 0;
	if (put(&z->o, h, 2) || put(&z->o, &flags, 2) || put(&z->o, h + 4, 4) || put(&z->o, h + 8, 8))
		return -1;
	if (id == 0)
		ret = put(&z->o, h + 16, size);
	else
		ret = b ? put_flyrecord(z, b) : put_block(z, h + 16, size);
	size = z->o.n - at - 16;
	memcpy(z->o.p + at + 8, &size, 8);
	*next = off + 16 + get64(h + 8);
	return ret;
}

/* @old, an offset of an input section, in the copy; 0 stays 0. */
static int map_off(const struct zip *z, unsigned char *p)
{
	uint64_t old = get64(p);
	int i;

	for (i = 0; old && i < z->nsec; i++)
		if (z->old_off[i] == old) {
			memcpy(p, &z->new_off[i], 8);
			return 0;
		}
	return old ? -1 : 0;
}

/* A BUFFER option of the copy: its section and CPUs' data moved. */
static int patch_buffer(struct zip *z, unsigned char *p, unsigned char *end)
{
	struct buffer_opt *b = end - p >= 8 ? buffer_of(z, get64(p)) : NULL;
	unsigned char *q = p + 8;
	uint32_t i;

	if (!b || map_off(z, p))
		return -1;
	for (i = 0; i < 2; i++) {	/* name, clock */
		q = memchr(q, 0, end - q);
		if (!q++)
			return -1;
	}
	if (end - q < 8 || get32(q + 4) != b->count || (uint64_t)(end - q - 8) < 20ull * b->count)
		return -1;
	for (i = 0, q += 8; i < b->count; i++, q += 20) {
		memcpy(q + 4, &b->new_off[i], 8);
		memcpy(q + 12, &b->new_size[i], 8);
	}
	return 0;
}

/* Every offset the copy's options hold, mapped to the copy's sections. */
static int patch_options(struct zip *z)
{
	unsigned char *s, *end, *p;
	uint32_t n;
	uint16_t id;
	int i;

	for (i = 0; i < z->nsec; i++) {
		if (z->sec_id[i])
			continue;
		s = z->o.p + z->new_off[i];
		end = s + 16 + get64(s + 8);
		for (p = s + 16; p + 6 <= end; p += 6 + n) {
			id = get16(p);
			n = get32(p + 2);
			if ((id == 0 || (id >= 15 && id <= 21)) && n >= 8 && map_off(z, p + 6))
				return -1;
			if (id == 3 && patch_buffer(z, p + 6, p + 6 + n))
				return -1;
			if (id == 0)
				break;
		}
	}
	return 0;
}

/* The file header up to the compression header; 0 or -1. */
static int put_header(struct zip *z, uint64_t *first, uint64_t *sections)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const unsigned char *p = z->in + sizeof(magic) + 2;
	static const char *const names[] = { "zstd\0" "1.5.4", "zlib\0" "1.2.13" };
	size_t fixed = sizeof(magic) + 2 + 2 + 4;

	if (z->len < fixed + 5 + 1 + 8 || memcmp(z->in, magic, sizeof(magic)) ||
	    memcmp(z->in + sizeof(magic), "7", 2) || p[0] != 0)
		return -1;
	z->page = get32(p + 2);
	if (z->page < 256 || z->page > (1u << 24) || memcmp(z->in + fixed, "none", 5))
		return -1;
	p = memchr(z->in + fixed + 5, 0, z->len - fixed - 5);
	if (!p || z->in + z->len - p < 9)
		return -1;
	*first = get64(p + 1);
	*sections = p + 9 - z->in;
	return put(&z->o, z->in, fixed) || put(&z->o, names[z->codec], strlen(names[z->codec]) + 1 +
					       strlen(names[z->codec] + 5) + 1) ||
	       put(&z->o, first, 8);
}

int v7_zip(const unsigned char *in, size_t len, enum v7_zip_codec codec,
	   unsigned int chunk_pages, unsigned char **out, size_t *outlen)
{
	struct zip *z = calloc(1, sizeof(*z));
	uint64_t first, off;
	size_t first_at;
	int ret = -1;

	if (!z)
		return -1;
	*z = (struct zip){ .in = in, .len = len, .codec = codec, .chunk_pages = chunk_pages };
	if (!chunk_pages || put_header(z, &first, &off) || read_options(z, first))
		goto out;
	first_at = z->o.n - 8;
	while (off < len)
		if (len - off < 16 || put_section(z, off, &off))
			goto out;
	if (map_off(z, z->o.p + first_at) || patch_options(z))
		goto out;
	*out = z->o.p;
	*outlen = z->o.n;
	z->o.p = NULL;
	ret = 0;
out:
	free(z->o.p);
	free(z);
	return ret;
}
