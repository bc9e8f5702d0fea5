// SPDX-License-Identifier: GPL-2.0
/*
 * series-formats.c - the series' event formats for trace-builder (see
 * series-formats.h).  The series' event ids come from another kernel
 * build and collide with the stock fixtures': each system is moved to ids
 * of its own.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series-formats.h"
#include "tmpdir.h"
#include "fixture-formats.h"
#include "trace-builder.h"

#define COMMON_SIZE 8

static const struct {
	const char *from, *prefix;
	int shift;
} systems[] = {
	{ "tracepoints/formats/drm_fence", "drm_fence-", 1000 },
	{ "tracepoints/formats/sync_file", "sync_file-", 1000 },
	{ "tracepoints/formats/dma_fence", "dma_fence-", 2000 },
};

/* Copy @from to @dir/@prefix@name, its "ID: n" moved by @shift. */
static int copy_format(const char *from, const char *dir, const char *prefix, const char *name,
		       int shift)
{
	char path[512], line[512];
	FILE *in = fopen(from, "r"), *out;
	int id;

	snprintf(path, sizeof(path), "%s/%s%s", dir, prefix, name);
	out = fopen(path, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "ID: %d", &id) == 1)
			fprintf(out, "ID: %d\n", id + shift);
		else
			fputs(line, out);
	}
	fclose(in);
	return fclose(out);
}

/**
 * formats_copy() - copy the event formats of folder @from into @dir
 * @from: a folder of tracefs format files (its README is left out)
 * @dir: where the copies go, named @prefix and the file's name
 * @prefix: "" or a system's "name-"
 * @shift: added to every event id, "ID: n" (0: the ids as they are)
 *
 * Return: 0, or non-zero if a file could not be read or written.
 */
int formats_copy(const char *from, const char *dir, const char *prefix, int shift)
{
	DIR *d = opendir(from);
	struct dirent *e;
	char path[512];
	int err = !d;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", from, e->d_name);
		err |= copy_format(path, dir, prefix, e->d_name, shift);
	}
	if (d)
		closedir(d);
	return err;
}

int series_formats_make(char *dir, size_t len)
{
	if (tmpdir_make(dir, len, "test-series-fmt") || formats_copy(TB_FIXTURES, dir, "", 0))
		return -1;
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (formats_copy(systems[i].from, dir, systems[i].prefix, systems[i].shift))
			return -1;
	return 0;
}

void series_formats_remove(const char *dir)
{
	if (tmpdir_remove(dir))
		fprintf(stderr, "could not remove %s\n", dir);
}

void payload_init(struct payload *p, size_t format_size)
{
	memset(p, 0, sizeof(*p));
	p->fixed = p->len = format_size - COMMON_SIZE;
}

void payload_num(struct payload *p, size_t format_offset, uint64_t v, size_t size)
{
	memcpy(p->b + format_offset - COMMON_SIZE, &v, size);	/* little-endian, as the fixtures */
}

/* The string after the fields; its __data_loc word: length << 16 | record offset. */
void payload_str(struct payload *p, size_t format_offset, const char *s)
{
	size_t n = strlen(s) + 1;

	payload_num(p, format_offset, (uint64_t)n << 16 | (p->len + COMMON_SIZE), 4);
	memcpy(p->b + p->len, s, n);
	p->len += n;
}

/**
 * series_fence_error() - dma_fence_error: @fence failed with @err
 */
void series_fence_error(struct payload *p, const struct series_fence *fence, int err)
{
	payload_init(p, 44);
	payload_str(p, 8, fence->driver);
	payload_str(p, 12, fence->timeline);
	payload_num(p, 16, fence->id, 8);
	payload_num(p, 24, fence->context, 8);
	payload_num(p, 32, fence->seqno, 8);
	payload_num(p, 40, (uint32_t)err, 4);
}

/**
 * series_member() - dma_fence_member: @member is member @index of the
 * merged fence @array, whose struct dma_fence is at @container
 */
void series_member(struct payload *p, uint64_t container, const struct series_fence *array,
		   unsigned int index, const struct series_fence *member)
{
	payload_init(p, 72);
	payload_num(p, 8, container, 8);
	payload_num(p, 16, array->context, 8);
	payload_num(p, 24, array->seqno, 8);
	payload_num(p, 32, index, 4);
	payload_str(p, 36, member->driver);
	payload_str(p, 40, member->timeline);
	payload_num(p, 56, member->context, 8);
	payload_num(p, 64, member->seqno, 8);
}

/*
 * The layout out_create, out_discard and the plane waits share: the
 * commit, a CRTC or plane id, the fence; the 6th field is crtc_name,
 * error, interruptible or ret.
 */
static void commit_fence(struct payload *p, uint64_t commit, uint32_t id, uint64_t context,
			 uint64_t seqno)
{
	payload_init(p, 52);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, id, 4);
	payload_num(p, 32, context, 8);
	payload_num(p, 40, seqno, 8);
}

/**
 * series_out_create() - drm_fence_out_create: @commit made out-fence
 * (@context, @seqno) for CRTC @crtc, named @crtc_name
 */
void series_out_create(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t context,
		       uint64_t seqno, const char *crtc_name)
{
	commit_fence(p, commit, crtc, context, seqno);
	payload_str(p, 48, crtc_name);
}

/**
 * series_out_discard() - drm_fence_out_discard: failed @commit (@err)
 * dropped its out-fence (@context, @seqno) unsignalled
 */
void series_out_discard(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t context,
			uint64_t seqno, int err)
{
	commit_fence(p, commit, crtc, context, seqno);
	payload_num(p, 48, (uint32_t)err, 4);
}

/**
 * series_commit() - drm_fence_commit: an atomic ioctl (@flags) of the
 * event's task (common_pid), commit @commit
 */
void series_commit(struct payload *p, uint64_t commit, uint32_t flags)
{
	payload_init(p, 48);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, flags, 4);
}

/**
 * series_plane() - drm_fence_plane: @commit puts plane @plane on CRTC
 * @crtc, with in-fence (@context, @seqno)
 */
void series_plane(struct payload *p, uint64_t commit, uint32_t plane, uint32_t crtc,
		  uint64_t context, uint64_t seqno)
{
	payload_init(p, 52);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, plane, 4);
	payload_num(p, 20, crtc, 4);
	payload_num(p, 32, context, 8);
	payload_num(p, 40, seqno, 8);
}

/**
 * series_plane_wait_begin() - drm_fence_wait_begin: @commit starts waiting
 * for plane @plane's in-fence (@context, @seqno)
 */
void series_plane_wait_begin(struct payload *p, uint64_t commit, uint32_t plane,
			     uint64_t context, uint64_t seqno)
{
	commit_fence(p, commit, plane, context, seqno);
}

/**
 * series_plane_wait_end() - drm_fence_wait_end: that wait is over, with
 * @ret (its duration is the reader's, from the begin)
 */
void series_plane_wait_end(struct payload *p, uint64_t commit, uint32_t plane, uint64_t context,
			   uint64_t seqno, int ret)
{
	commit_fence(p, commit, plane, context, seqno);
	payload_num(p, 48, (uint32_t)ret, 4);
}

/**
 * series_plane_wait() - the begin (@end 0) or the end (ret 0) of @commit's
 * wait for plane @plane's in-fence (@context, @seqno), in @p.  Returns the
 * event's name.
 */
const char *series_plane_wait(struct payload *p, int end, uint64_t commit, uint32_t plane,
			      uint64_t context, uint64_t seqno)
{
	if (end) {
		series_plane_wait_end(p, commit, plane, context, seqno, 0);
		return "drm_fence_wait_end";
	}
	series_plane_wait_begin(p, commit, plane, context, seqno);
	return "drm_fence_wait_begin";
}

/**
 * series_flip_done() - drm_fence_flip_done: @commit flipped on CRTC
 * @crtc at vblank @vblank
 */
void series_flip_done(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t vblank)
{
	payload_init(p, 40);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, crtc, 4);
	payload_num(p, 24, vblank, 8);
}

/**
 * series_cleanup_done() - drm_fence_cleanup_done: @commit cleaned up
 */
void series_cleanup_done(struct payload *p, uint64_t commit)
{
	payload_init(p, 16);
	payload_num(p, 8, commit, 8);
}

/**
 * series_commit_stall() - drm_fence_commit_stall: @commit on CRTC @crtc
 * waited @duration_ns at @stage for commit @waits_on, which returned @ret
 */
void series_commit_stall(struct payload *p, uint64_t commit, uint32_t crtc, int64_t waits_on,
			 int stage, int ret, uint64_t duration_ns)
{
	payload_init(p, 48);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, crtc, 4);
	payload_num(p, 24, (uint64_t)waits_on, 8);
	payload_num(p, 32, (uint32_t)stage, 4);
	payload_num(p, 36, (uint32_t)ret, 4);
	payload_num(p, 40, duration_ns, 8);
}

/**
 * series_commit_failed() - drm_fence_commit_failed: @commit failed with @err
 */
void series_commit_failed(struct payload *p, uint64_t commit, int err)
{
	payload_init(p, 20);
	payload_num(p, 8, commit, 8);
	payload_num(p, 16, (uint32_t)err, 4);
}

/**
 * series_poll() - sync_file_poll_begin or _ready (one layout): @sync_file
 * polled for @fence (@context, @seqno)
 */
void series_poll(struct payload *p, uint64_t sync_file, uint64_t fence, uint64_t context,
		 uint64_t seqno)
{
	payload_init(p, 40);
	payload_num(p, 8, sync_file, 8);
	payload_num(p, 16, fence, 8);
	payload_num(p, 24, context, 8);
	payload_num(p, 32, seqno, 8);
}
