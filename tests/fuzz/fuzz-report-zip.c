// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report-zip.c - libFuzzer harness: the input, an uncompressed
 * trace.dat v7, is compressed (zstd for an even size, zlib for an odd one;
 * 2-page chunks, so that small inputs make several) by tests/unit/v7-zip.c
 * before `report`'s whole path reads it.  The fuzzer's changes so reach
 * past the decompressor's own checks into the sections and pages it
 * yields.  An input v7-zip cannot follow is read as it is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze.h"
#include "report.h"
#include "v7-zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct report_opts o = { SEC_ALL, NULL, -1, -1, -1, 0 };
	struct report_info ri = { path, 7, 2, "mono", NULL, NULL, 0, 0 };
	unsigned char *zipped = NULL;
	size_t len = size;
	struct analysis a;
	char err[256];
	FILE *f, *null;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz-report-zip-%d.dat", (int)getpid());
	if (v7_zip(data, size, size % 2 ? V7_ZLIB : V7_ZSTD, 2, &zipped, &len))
		len = size;
	f = fopen(path, "w");
	if (!f) {
		free(zipped);
		return 0;
	}
	fwrite(zipped ? zipped : data, 1, len, f);
	fclose(f);
	free(zipped);
	if (analysis_run(&a, path, NULL, err, sizeof(err)) == 0) {
		null = fopen("/dev/null", "w");
		report_text(null, &a.model, &ri, &o);
		report_json(null, &a.model, &ri, &o);
		fclose(null);
	}
	analysis_free(&a);
	return 0;
}
