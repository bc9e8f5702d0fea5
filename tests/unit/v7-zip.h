/* SPDX-License-Identifier: GPL-2.0 */
/*
 * v7-zip.h - write a compressed copy of an uncompressed trace.dat v7, as
 * trace-cmd lays one out, for the tests and the fuzz harness.
 */
#ifndef FENCE_TRACE_V7_ZIP_H
#define FENCE_TRACE_V7_ZIP_H

#include <stddef.h>

enum v7_zip_codec { V7_ZSTD, V7_ZLIB };

/*
 * v7_zip() - compress @in (@len bytes of a "none" v7 file) with @codec,
 * flyrecord data in chunks of @chunk_pages pages; *@out (malloc'd, the
 * caller frees it) gets the file, *@outlen its size.  Returns 0, or -1
 * when @in is not an uncompressed v7 file this can follow.
 */
int v7_zip(const unsigned char *in, size_t len, enum v7_zip_codec codec,
	   unsigned int chunk_pages, unsigned char **out, size_t *outlen);

#endif
