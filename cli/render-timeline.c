// SPDX-License-Identifier: GPL-2.0
/*
 * render-timeline.c - what `timeline` and `export` share: read a trace,
 * write it with one of output/'s timeline writers, say what went wrong
 * (after the command's name, as say() does for every command).
 */
#include <stdio.h>

#include "render-timeline.h"
#include "say.h"

/**
 * tl_render() - read @path, write it with @write to @out_path
 * @d: filled with what was collected (for the caller's summary); freed by
 *     the caller with tl_free() in every case
 *
 * What `timeline` and `export` share.  Return: 0, or 1 after saying why.
 */
int tl_render(const char *path, const char *out_path, tl_writer write, struct tl_data *d)
{
	struct analysis a;
	char err[256];
	FILE *out;
	int ret = 1;

	if (tl_collect(d, &a, path, err, sizeof(err))) {
		say("%s", err);
		goto out;
	}
	out = fopen(out_path, "w");
	if (!out) {
		say("cannot create %s: %m", out_path);
		goto out;
	}
	if (write(out, d, &(struct tl_source){ path, a.info.clock }) | fclose(out))
		say("cannot write %s", out_path);
	else
		ret = 0;
out:
	analysis_free(&a);
	return ret;
}
