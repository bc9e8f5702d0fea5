// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-unzip.c - the compressed parts of a trace-cmd version 7 file.
 *
 * DOC: compressed v7 files
 *
 * The compression header names the algorithm ("zstd" or "zlib": the two
 * trace-cmd writes; any other is refused with ENOTSUP).  A section whose
 * header has flag 1 holds one block: u32 compressed size, u32 size once
 * decompressed, then the compressed bytes.  A compressed BUFFER section
 * holds, at each CPU's offset, a u32 count of chunks, each a u32
 * compressed size, a u32 decompressed size (whole pages) and the bytes.
 * trace-cmd cuts chunks of 10 pages.
 *
 * Every size is checked against the part of the file it must lie in, and
 * the chunk table of each CPU is walked at open time (it must end where
 * the BUFFER option says the CPU's data ends), so tracedat_iterate() only
 * meets bad bytes inside a chunk: the decompressor's error, or a damaged
 * page that the page checks catch as for a plain file.  The walk holds one
 * decompressed chunk per CPU; a chunk above TD_MAX_CHUNK is refused with
 * ENOTSUP (libtracecmd reads it, through temporary files).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "tracedat-priv.h"

#define TD_MAX_SECTION	(256ull << 20)	/* a decompressed section: kallsyms is ~10 MB */

/**
 * tracedat_set_codec() - the algorithm the compression header names
 * @td: the file
 * @name: "none", "zstd" or "zlib"
 *
 * Return: 0, or -EINVAL (ENOTSUP: another algorithm) with the reason in @td.
 */
int tracedat_set_codec(struct tracedat *td, const char *name)
{
	if (!strcmp(name, "none"))
		td->codec = TD_CODEC_NONE;
	else if (!strcmp(name, "zstd"))
		td->codec = TD_CODEC_ZSTD;
	else if (!strcmp(name, "zlib"))
		td->codec = TD_CODEC_ZLIB;
	else
		td->codec = TD_CODEC_OTHER;
	if (td->codec == TD_CODEC_OTHER)
		return tracedat_unsupported(td, "compression \"%.40s\", not supported by the fast reader",
					    name);
	return 0;
}

static const char *codec_name(const struct tracedat *td)
{
	return td->codec == TD_CODEC_ZSTD ? "zstd" : "zlib";
}

/* Decompress exactly @usize bytes; NULL or what went wrong. */
static const char *inflate_block(struct tracedat *td, const unsigned char *in, uint32_t csize,
				 unsigned char *out, uint32_t usize)
{
	uLongf got = usize;
	size_t n;
	int ret;

	if (td->codec == TD_CODEC_ZSTD) {
		if (!td->zstd && !(td->zstd = ZSTD_createDCtx()))
			return "out of memory";
		n = ZSTD_decompressDCtx(td->zstd, out, usize, in, csize);
		if (ZSTD_isError(n))
			return ZSTD_getErrorName(n);
		return n == usize ? NULL : "fewer bytes than the block header says";
	}
	ret = uncompress(out, &got, in, csize);
	if (ret == Z_BUF_ERROR)
		return got == usize ? "more bytes than the block header says" :
				      "compressed data cut short";
	if (ret != Z_OK)
		return ret == Z_MEM_ERROR ? "out of memory" : "corrupt compressed data";
	return got == usize ? NULL : "fewer bytes than the block header says";
}

/**
 * tracedat_unzip_section() - replace the view of a compressed section's
 * body by a view of its decompressed bytes
 * @td: the file
 * @c: the section's body, bounded to the section; on success it views *@buf
 * @off: the section's file offset, for messages
 * @buf: gets the decompressed bytes; the caller frees them
 *
 * Return: 0, or -EINVAL with "WHAT section at offset N: ..." in @td.
 */
int tracedat_unzip_section(struct tracedat *td, struct tracedat_cur *c, unsigned long long off,
			   unsigned char **buf)
{
	const unsigned char *in;
	uint32_t csize, usize;
	const char *bad;

	*buf = NULL;
	if (td->codec == TD_CODEC_OTHER)
		return tracedat_unsupported(td, "%s section at offset %llu: compressed with an algorithm the fast reader does not know",
					    c->what, off);
	if (td->codec == TD_CODEC_NONE)
		return tracedat_fail(td, "%s section at offset %llu: compressed, in a file that says none",
				     c->what, off);
	if (tracedat_cur_u32(c, &csize) || tracedat_cur_u32(c, &usize))
		return -EINVAL;
	if (csize > c->end - c->pos)
		return tracedat_fail(td, "%s section at offset %llu: %u compressed bytes, %llu in the section",
				     c->what, off, csize, c->end - c->pos);
	if (usize > TD_MAX_SECTION)
		return tracedat_fail(td, "%s section at offset %llu: %u bytes decompressed, more than %llu",
				     c->what, off, usize, TD_MAX_SECTION);
	in = tracedat_cur_take(c, csize);
	*buf = malloc(usize ? usize : 1);
	if (!*buf)
		return tracedat_fail(td, "out of memory");
	bad = inflate_block(td, in, csize, *buf, usize);
	if (bad) {
		free(*buf);
		*buf = NULL;
		return tracedat_fail(td, "%s section at offset %llu: %s: %s", c->what, off,
				     codec_name(td), bad);
	}
	*c = (struct tracedat_cur){ td, 0, usize, c->what, *buf };
	return 0;
}

/* One chunk header at @pos of CPU @cpu's data [.., end); 0 or -EINVAL. */
static int chunk_header(struct tracedat *td, int cpu, unsigned long long pos,
			unsigned long long end, uint32_t *csize, uint32_t *usize)
{
	if (end - pos < 8)
		return tracedat_fail(td, "cpu%d data at offset %llu: chunk header past the data end",
				     cpu, pos);
	*csize = tracedat_u32(td, td->map + pos);
	*usize = tracedat_u32(td, td->map + pos + 4);
	if (*csize > end - pos - 8)
		return tracedat_fail(td, "cpu%d chunk at offset %llu: %u compressed bytes, %llu left in the data",
				     cpu, pos, *csize, end - pos - 8);
	if (!*usize || *usize % td->page_size)
		return tracedat_fail(td, "cpu%d chunk at offset %llu: %u bytes decompressed, not whole pages",
				     cpu, pos, *usize);
	if (*usize > TD_MAX_CHUNK)
		return tracedat_unsupported(td, "cpu%d chunk at offset %llu: %u bytes decompressed, above the fast reader's %u",
					    cpu, pos, *usize, TD_MAX_CHUNK);
	return 0;
}

/**
 * tracedat_set_cpu_chunks() - a CPU's compressed data, its chunk table
 * walked and checked to end where the data ends
 * @td: the file
 * @cpu: the CPU
 * @offset: file offset of the chunk count
 * @size: bytes of compressed data the BUFFER option gives (0: no data)
 *
 * trace-cmd before 3.2 gave a size 4 bytes short (it left out the chunk
 * count: kernel bugzilla 217367), and its reader walks the chunks without
 * looking at the size; so the chunks may end 4 bytes past it, no further.
 *
 * Return: 0, or -EINVAL with the reason in @td.
 */
int tracedat_set_cpu_chunks(struct tracedat *td, unsigned int cpu, unsigned long long offset,
			    unsigned long long size)
{
	struct tracedat_cpu *tc = &td->cpu[cpu];
	unsigned long long pos = offset + 4, end;
	uint32_t count, i, csize, usize;

	tc->zipped = 1;
	if (!size)
		return 0;
	if (offset > td->size || size > td->size - offset || size < 4)
		return tracedat_fail(td, "truncated in cpu%u data (offset %llu, %llu bytes)",
				     cpu, offset, size);
	end = td->size - (offset + size) >= 4 ? offset + size + 4 : td->size;
	count = tracedat_u32(td, td->map + offset);
	for (i = 0; i < count; i++) {
		if (chunk_header(td, (int)cpu, pos, end, &csize, &usize))
			return -EINVAL;
		tc->max_chunk = usize > tc->max_chunk ? usize : tc->max_chunk;
		pos += 8ull + csize;
	}
	if (pos != offset + size && pos != offset + size + 4)
		return tracedat_fail(td, "cpu%u data at offset %llu: %u chunks end at %llu, the data at %llu",
				     cpu, offset, count, pos, offset + size);
	tc->offset = offset;
	tc->size = pos - offset;
	tc->chunks = count;
	return 0;
}

/*
 * Compressed bytes already decompressed leave our resident memory, as
 * plain pages do in tracedat-iter.c: the mapping is read-only.
 */
static void release_read_bytes(struct tracedat *td, struct tracedat_chunks *z)
{
	long host = sysconf(_SC_PAGESIZE);
	unsigned long long from, to;

	if (host <= 0)
		return;
	from = (z->released + host - 1) & ~(unsigned long long)(host - 1);
	to = z->pos & ~(unsigned long long)(host - 1);
	if (to <= from || to - from < (1ull << 20))
		return;
	madvise((void *)(td->map + from), to - from, MADV_DONTNEED);
	z->released = to;
}

/**
 * tracedat_next_chunk() - decompress CPU @cpu's next chunk into z->buf
 * @td: the file
 * @cpu: the CPU, its data set by tracedat_set_cpu_chunks()
 * @z: the walk's state; z->left 0 means no chunk is left
 * @npages: gets the pages now in z->buf
 *
 * Return: 0, or -EINVAL with "cpuN chunk at offset N: zstd: ..." in @td.
 */
int tracedat_next_chunk(struct tracedat *td, int cpu, struct tracedat_chunks *z,
			unsigned long long *npages)
{
	unsigned long long end = td->cpu[cpu].offset + td->cpu[cpu].size;
	uint32_t csize, usize;
	const char *bad;

	if (chunk_header(td, cpu, z->pos, end, &csize, &usize))
		return -EINVAL;
	if (usize > z->cap)	/* the open-time walk saw every chunk */
		return tracedat_fail(td, "cpu%d chunk at offset %llu: changed since open", cpu, z->pos);
	bad = inflate_block(td, td->map + z->pos + 8, csize, z->buf, usize);
	if (bad)
		return tracedat_fail(td, "cpu%d chunk at offset %llu: %s: %s", cpu, z->pos,
				     codec_name(td), bad);
	z->at = z->pos;
	z->pos += 8ull + csize;
	z->left--;
	*npages = usize / td->page_size;
	release_read_bytes(td, z);
	return 0;
}

/** tracedat_free_codec() - the decompressor's state, if any */
void tracedat_free_codec(struct tracedat *td)
{
	ZSTD_freeDCtx(td->zstd);
	td->zstd = NULL;
}
