// SPDX-License-Identifier: GPL-2.0
/*
 * v7-zip-main.c - v7-zip IN OUT zstd|zlib [CHUNK_PAGES]: write OUT, a
 * compressed copy of IN, an uncompressed trace.dat v7 (`trace-cmd convert
 * --file-version 7 --compression none` makes one of any trace.dat).
 * Debian's trace-cmd writes only zstd: this made the zlib fixture.
 * CHUNK_PAGES defaults to trace-cmd's 10.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "v7-zip.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *p = NULL;
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (p = malloc(n)) && fread(p, 1, n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	*len = p ? (size_t)n : 0;
	fclose(f);
	return p;
}

int main(int argc, char **argv)
{
	unsigned char *in, *out;
	size_t len, outlen;
	FILE *f;

	if (argc < 4 || argc > 5 || (strcmp(argv[3], "zstd") && strcmp(argv[3], "zlib"))) {
		fprintf(stderr, "usage: v7-zip IN OUT zstd|zlib [CHUNK_PAGES]\n");
		return 2;
	}
	in = slurp(argv[1], &len);
	if (!in) {
		fprintf(stderr, "v7-zip: cannot read %s\n", argv[1]);
		return 1;
	}
	if (v7_zip(in, len, strcmp(argv[3], "zstd") ? V7_ZLIB : V7_ZSTD,
		   argc == 5 ? (unsigned int)atoi(argv[4]) : 10, &out, &outlen)) {
		fprintf(stderr, "v7-zip: %s is not an uncompressed little-endian v7 file it can follow\n",
			argv[1]);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, outlen, f) != outlen || fclose(f)) {
		fprintf(stderr, "v7-zip: cannot write %s\n", argv[2]);
		return 1;
	}
	free(in);
	free(out);
	return 0;
}
