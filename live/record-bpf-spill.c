// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-spill.c - record --bpf's capture-time store (see
 * record-bpf-spill.h): records in one buffer, written out when it is full,
 * read back at the end in buffer-sized chunks.
 *
 * Every record starts with a struct fr_event: a BPF record as it came off
 * the ring (the most of them, so they carry nothing more), or with a type
 * of ours (SPILL_*) one of the others.  Bytes count here: the kernel
 * copies each into the file's pages while the traced work waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-bpf-spill.h"
#include "say.h"

#define SPILL_BUF (256 << 10)		/* bytes: the capture's memory for it */
#define RAW_MAX 4096			/* a tracefs event is less than a page */

/* Our own records' fr_event.type, 0x200 up, clear of enum fr_type's */
enum spill_kind { SPILL_RAW = 0x200, SPILL_LOST, SPILL_MARK };

/* One of ours: RAW a series event (ts its time, value its length, its bytes after), LOST a drop count, MARK a watermark. */
struct spill_own {
	struct fr_event hdr;
	uint64_t value;
};

struct spill {
	struct capture *c;
	int fd, failed;
	unsigned char *buf;
	size_t used;
	uint64_t records;
};

static size_t padded(size_t len)
{
	return (len + 7) & ~(size_t)7;
}

struct spill *spill_new(struct capture *c)
{
	struct spill *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	s->buf = malloc(SPILL_BUF);
	s->fd = s->buf ? capture_open_tmp(c, "spill") : -1;
	if (s->fd < 0) {
		spill_free(s);
		return NULL;
	}
	memset(s->buf, 0, SPILL_BUF);	/* resident now, not page by page in a storm */
	return s;
}

void spill_free(struct spill *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

static int flush(struct spill *s)
{
	if (s->failed)
		return -1;
	if (capture_write_all(s->fd, s->buf, s->used)) {
		s->failed = errno ? errno : EIO;
		return capture_say_write_failed(s->c, s->failed);
	}
	s->c->spilled_bytes += s->used;
	s->used = 0;
	return 0;
}

/* Room for @bytes more in the buffer, or -1 once a write has failed. */
static unsigned char *reserve(struct spill *s, size_t bytes)
{
	unsigned char *at;

	if (s->failed || (s->used + bytes > SPILL_BUF && flush(s)))
		return NULL;
	at = s->buf + s->used;
	s->used += bytes;
	return at;
}

/* One of ours, then @len bytes padded to 8. */
static int append(struct spill *s, uint16_t kind, int cpu, uint64_t ts, uint64_t value,
		  const void *data, size_t len)
{
	struct spill_own h = { .hdr = { .ts = ts, .cpu = (uint16_t)cpu, .type = kind }, .value = value };
	unsigned char *at = reserve(s, sizeof(h) + padded(len));

	if (!at)
		return -1;
	memcpy(at, &h, sizeof(h));
	if (len)
		memcpy(at + sizeof(h), data, len);
	return 0;
}

int spill_event(struct spill *s, const struct fr_event *e)
{
	unsigned int size = fr_size(e->type);
	unsigned char *at;

	if (!size)
		return 0;	/* not an event: nothing the pages could take */
	at = reserve(s, size);
	if (!at)
		return -1;
	memcpy(at, e, size);
	s->records++;
	return 0;
}

int spill_raw(struct spill *s, int cpu, uint64_t ts, const void *data, size_t size)
{
	if (cpu < 0 || size > RAW_MAX)
		return 0;	/* not one the pages could take either */
	s->records++;
	return append(s, SPILL_RAW, cpu, ts, size, data, size);
}

int spill_lost(struct spill *s, int cpu, uint64_t count)
{
	return append(s, SPILL_LOST, cpu, 0, count, NULL, 0);
}

int spill_mark(struct spill *s, uint64_t watermark)
{
	return append(s, SPILL_MARK, 0, 0, watermark, NULL, 0);
}

uint64_t spill_records(const struct spill *s)
{
	return s->records;
}

int spill_failed(const struct spill *s)
{
	return s->failed;
}

/* Only a write from outside could do it: the file is ours and unlinked. */
static int damaged(const struct spill_own *h)
{
	say("the spill file next to the trace is damaged (record type %#x)",
		h->hdr.type);
	return -1;
}

/*
 * The bytes the record at @at takes, itself included, judged by the
 * header at hand (@h: as much of it as @avail holds); 0 when it makes no
 * sense.
 */
static size_t record_size(const struct spill_own *h, size_t avail)
{
	unsigned int size = fr_size(h->hdr.type);

	if (size)
		return size;
	if (h->hdr.type == SPILL_LOST || h->hdr.type == SPILL_MARK)
		return sizeof(*h);
	if (h->hdr.type != SPILL_RAW)
		return 0;
	if (avail < sizeof(*h))
		return sizeof(*h);	/* its length is in the part not read yet */
	return h->value <= RAW_MAX ? sizeof(*h) + padded(h->value) : 0;
}

static int deliver(const unsigned char *at, const struct spill_reader *r, void *ctx)
{
	struct spill_own h;
	union {
		struct fr_event hdr;
		struct fr_fence fence;
		struct fr_vblank vblank;
	} e;

	memcpy(&h.hdr, at, sizeof(h.hdr));	/* the buffer is 8-byte aligned only */
	if (fr_size(h.hdr.type)) {
		memcpy(&e, at, fr_size(h.hdr.type));
		return r->event(ctx, &e.hdr);
	}
	memcpy(&h, at, sizeof(h));
	switch (h.hdr.type) {
	case SPILL_RAW:
		return r->raw(ctx, h.hdr.cpu, h.hdr.ts, at + sizeof(h), h.value);
	case SPILL_LOST:
		r->lost(ctx, h.hdr.cpu, h.value);
		return 0;
	}
	return r->mark(ctx, h.value);
}

/*
 * Deliver the whole records in buf[0, *fill); move what is left of a
 * record cut by the chunk's end to the front.  Return: 0 or -1.
 */
static int deliver_chunk(struct spill *s, size_t *fill, const struct spill_reader *r, void *ctx)
{
	size_t at = 0, size, avail;
	struct spill_own h;

	while ((avail = *fill - at) >= sizeof(h.hdr)) {
		memset(&h, 0, sizeof(h));
		memcpy(&h, s->buf + at, avail < sizeof(h) ? avail : sizeof(h));
		size = record_size(&h, avail);
		if (!size)
			return damaged(&h);
		if (avail < size)
			break;
		if (deliver(s->buf + at, r, ctx))
			return -1;
		at += size;
	}
	memmove(s->buf, s->buf + at, *fill - at);
	*fill -= at;
	return 0;
}

/*
 * Give the disk back as soon as a chunk is in memory: the pages about to
 * be written may need it (a full disk stopped the capture).  Where the file
 * system cannot punch holes, the spill keeps its blocks to the end.
 */
static void free_read(struct spill *s, off_t *freed, off_t upto)
{
	upto = upto / 4096 * 4096;
	if (upto <= *freed)
		return;
	fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, *freed, upto - *freed);
	*freed = upto;
}

int spill_read_back(struct spill *s, const struct spill_reader *r, void *ctx)
{
	off_t off = 0, freed = 0;
	size_t fill = 0;
	ssize_t n;

	if (!s->failed && s->used)
		flush(s);	/* a failure is said; what reached the file is read */
	for (;;) {
		n = pread(s->fd, s->buf + fill, SPILL_BUF - fill, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			say("cannot read back the spill file: %s",
				strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;	/* a record cut by a failed write ends it */
		off += n;
		fill += (size_t)n;
		free_read(s, &freed, off);
		if (deliver_chunk(s, &fill, r, ctx))
			return -1;
	}
}
