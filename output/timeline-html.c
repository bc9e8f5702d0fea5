// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-html.c - one self-contained HTML file: the page template
 * viz/timeline.html with viz/timeline.css, viz/timeline.js and the data
 * (tl_write_data()) spliced in at its markers.  The three viz/ files are
 * compiled into the binary (the Makefile generates viz-assets.c with
 * xxd -i), so the page needs nothing but itself.
 */
#include <string.h>

#include "timeline.h"

extern unsigned char viz_timeline_html[], viz_timeline_css[], viz_timeline_js[];
extern unsigned int viz_timeline_html_len, viz_timeline_css_len, viz_timeline_js_len;

enum part { PART_CSS, PART_JS, PART_DATA, PART_COUNT };

static const char *const markers[PART_COUNT] = { "/*@CSS@*/", "/*@JS@*/", "/*@DATA@*/" };

/* The next marker in [p, end), or NULL; *which says whose. */
static const char *next_marker(const char *p, const char *end, enum part *which)
{
	const char *best = NULL;

	for (int i = 0; i < PART_COUNT; i++) {
		const char *q = memmem(p, (size_t)(end - p), markers[i], strlen(markers[i]));

		if (q && (!best || q < best)) {
			best = q;
			*which = (enum part)i;
		}
	}
	return best;
}

static int write_part(FILE *out, enum part which, const struct tl_data *d,
		      const struct tl_source *src)
{
	switch (which) {
	case PART_CSS: return fwrite(viz_timeline_css, 1, viz_timeline_css_len, out) == viz_timeline_css_len ? 0 : -1;
	case PART_JS: return fwrite(viz_timeline_js, 1, viz_timeline_js_len, out) == viz_timeline_js_len ? 0 : -1;
	default: return tl_write_data(out, d, src);
	}
}

/**
 * tl_write_html() - the timeline page for @d
 *
 * The data sits in a <script type="application/json"> element: every
 * string in it is escaped by json_str(), so no "</script" can occur.
 */
int tl_write_html(FILE *out, const struct tl_data *d, const struct tl_source *src)
{
	const char *p = (const char *)viz_timeline_html;
	const char *end = p + viz_timeline_html_len;
	enum part which = PART_CSS;
	const char *m;

	while ((m = next_marker(p, end, &which))) {
		if (fwrite(p, 1, (size_t)(m - p), out) != (size_t)(m - p) ||
		    write_part(out, which, d, src))
			return -1;
		p = m + strlen(markers[which]);
	}
	fwrite(p, 1, (size_t)(end - p), out);
	return ferror(out) ? -1 : 0;
}
