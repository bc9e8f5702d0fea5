// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report.c - libFuzzer harness: any bytes as a trace.dat, through the
 * whole of `report`'s path (reader, decoder, model, text and JSON outputs).
 * A damaged file must give an error, never a crash, hang or leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct report_opts o = { SEC_ALL, NULL, -1, -1, -1 };
	struct report_info ri = { path, 6, 2, "mono", NULL, NULL };
	struct analysis a;
	char err[256];
	FILE *f, *null;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz-report-%d.dat", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (analysis_run(&a, path, NULL, err, sizeof(err)) == 0) {
		null = fopen("/dev/null", "w");
		report_text(null, &a.model, &ri, &o);
		report_json(null, &a.model, &ri, &o);
		report_csv(null, &a.model, &ri, &o);
		fclose(null);
	}
	analysis_free(&a);
	return 0;
}
