// SPDX-License-Identifier: GPL-2.0
/*
 * stall-debugfs.c - the kernel's own view of a stall, read from debugfs
 * the moment `fence-trace stall` reports it: the series' per-CRTC
 * fence_timeline file (the CRTC's issued and signalled seqnos, its pending
 * out-fences, the in-fences its commits wait on) and sync/info (the
 * sw_sync timelines and, with the series, the live sync_files).
 *
 * Which CRTC is stuck: the one whose file lists a wait on the stuck fence,
 * or the CRTC a commit stall names.  When none matches, every CRTC's file
 * is shown, since the kernel's view is the point.  A file that is not there
 * (a stock kernel has no fence_timeline) is said to be absent.
 */
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json-str.h"
#include "stall-debugfs.h"

#define TIMELINE_GLOB "/sys/kernel/debug/dri/*/crtc-*/fence_timeline"
#define SYNC_INFO "/sys/kernel/debug/sync/info"
#define MAX_LINES 64

struct dfile {
	char lines[MAX_LINES][256];
	unsigned int n;
};

static int dfile_read(const char *path, struct dfile *d)
{
	FILE *f = fopen(path, "r");

	d->n = 0;
	if (!f)
		return -1;
	while (d->n < MAX_LINES && fgets(d->lines[d->n], sizeof(d->lines[0]), f))
		d->lines[d->n][strcspn(d->lines[d->n], "\n")] = '\0', d->n++;
	fclose(f);
	return 0;
}

/* Does this CRTC's file name the fence (a wait line) or the CRTC (its first line)? */
static int dfile_matches(const struct dfile *d, const struct stall_target *t)
{
	char want[96];

	if (t->crtc >= 0) {
		snprintf(want, sizeof(want), "crtc=%lld ", t->crtc);
		return d->n && !strncmp(d->lines[0], want, strlen(want));
	}
	snprintf(want, sizeof(want), " context=%" PRIu64 " seqno=%" PRIu64 " ", t->context, t->seqno);
	for (unsigned int i = 0; i < d->n; i++)
		if (!strncmp(d->lines[i], "wait ", 5) && (!t->context || strstr(d->lines[i], want)))
			return 1;
	return 0;
}

static void dfile_print(const char *path, const struct dfile *d, const char *why, int json)
{
	if (json) {
		fprintf(stdout, "{\"path\": ");
		json_str(stdout, path);
		fprintf(stdout, ", \"lines\": [");
		for (unsigned int i = 0; i < d->n; i++) {
			fprintf(stdout, "%s", i ? ", " : "");
			json_str(stdout, d->lines[i]);
		}
		fprintf(stdout, "]}");
		return;
	}
	printf("  debugfs %s%s:\n", path, why);
	for (unsigned int i = 0; i < d->n; i++)
		printf("    %s\n", d->lines[i]);
}

/* The matching CRTCs' files, else all of them; how many there are. */
static size_t timelines(const struct stall_target *t, int json)
{
	static struct dfile d;
	glob_t g;
	size_t shown = 0;

	if (glob(TIMELINE_GLOB, 0, NULL, &g))
		return 0;
	for (int pass = 0; pass < 2 && !shown; pass++)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			if (dfile_read(g.gl_pathv[i], &d) || (pass == 0 && !dfile_matches(&d, t)))
				continue;
			if (json && shown)
				fprintf(stdout, ", ");
			dfile_print(g.gl_pathv[i], &d, pass ? " (does not name it)" :
				    t->crtc >= 0 ? " (the CRTC)" : t->context ? " (lists the wait)" :
				    " (a commit waits on an in-fence)", json);
			shown++;
		}
	globfree(&g);
	return shown;
}

void stall_debugfs_text(const struct stall_target *t)
{
	static struct dfile d;

	if (!timelines(t, 0))
		printf("  debugfs %s: absent (a kernel without the fence-trace series, or no debugfs)\n",
		       TIMELINE_GLOB);
	if (dfile_read(SYNC_INFO, &d))
		printf("  debugfs %s: absent (no debugfs, or a kernel without CONFIG_SW_SYNC)\n", SYNC_INFO);
	else
		dfile_print(SYNC_INFO, &d, "", 0);
}

/* ", \"debugfs\": {...}": null for what is absent. */
void stall_debugfs_json(const struct stall_target *t)
{
	static struct dfile d;

	fprintf(stdout, ", \"debugfs\": {\"fence_timeline\": [");
	timelines(t, 1);
	fprintf(stdout, "], \"sync_info\": ");
	if (dfile_read(SYNC_INFO, &d)) {
		fprintf(stdout, "null}");
		return;
	}
	dfile_print(SYNC_INFO, &d, "", 1);
	fprintf(stdout, "}");
}

/**
 * stall_debugfs_find_wait() - the series' fence_timeline line of a commit's
 * wait on the fence (@context, @seqno): its commit, plane, age and names
 * @context: the fence's context
 * @seqno: and seqno
 * @w: filled when found
 *
 * Return: 0 when a CRTC's file lists the wait, -1 otherwise (no series).
 */
int stall_debugfs_find_wait(uint64_t context, uint64_t seqno, struct debugfs_wait *w)
{
	static struct dfile d;
	unsigned long long commit, ctx, seq;
	long long age;
	unsigned int plane;
	int found = -1;
	glob_t g;

	if (glob(TIMELINE_GLOB, 0, NULL, &g))
		return -1;
	for (size_t i = 0; i < g.gl_pathc && found; i++) {
		if (dfile_read(g.gl_pathv[i], &d))
			continue;
		for (unsigned int l = 0; l < d.n && found; l++) {
			memset(w, 0, sizeof(*w));
			if (sscanf(d.lines[l], "wait commit=%llu plane=%u context=%llu seqno=%llu age_ns=%lld signalled=0 driver=%31s timeline=%63[^\n]",
				   &commit, &plane, &ctx, &seq, &age, w->driver, w->timeline) >= 5 &&
			    ctx == context && seq == seqno) {
				w->commit = commit;
				w->plane = plane;
				w->age_ns = age;
				found = 0;
			}
		}
	}
	globfree(&g);
	return found;
}
