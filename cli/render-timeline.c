// SPDX-License-Identifier: GPL-2.0
/*
 * render-timeline.c - what `timeline` and `export` share: read a trace,
 * write it with one of output/'s timeline writers, say what went wrong.
 */
#include <stdio.h>

#include "render-timeline.h"

/**
 * tl_render() - read @path, write it with @write to @out_path
 * @cmd: the command's name, for messages
 * @d: filled with what was collected (for the caller's summary); freed by
 *     the caller with tl_free() in every case
 *
 * What `timeline` and `export` share.  Return: 0, or 1 after saying why.
 */
int tl_render(const char *cmd, const char *path, const char *out_path, tl_writer write,
	      struct tl_data *d)
{
	struct analysis a;
	char err[256];
	FILE *out;
	int ret = 1;

	if (tl_collect(d, &a, path, err, sizeof(err))) {
		fprintf(stderr, "fence-trace %s: %s\n", cmd, err);
		goto out;
	}
	out = fopen(out_path, "w");
	if (!out) {
		fprintf(stderr, "fence-trace %s: cannot create %s: %m\n", cmd, out_path);
		goto out;
	}
	if (write(out, d, &(struct tl_source){ path, a.info.clock }) | fclose(out))
		fprintf(stderr, "fence-trace %s: cannot write %s\n", cmd, out_path);
	else
		ret = 0;
out:
	analysis_free(&a);
	return ret;
}
