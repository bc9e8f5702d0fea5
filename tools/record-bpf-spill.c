// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-spill.c - record --bpf's capture-time store (see
 * record-bpf-spill.h): records in one buffer, written out when it is full,
 * read back at the end in buffer-sized chunks.
 *
 * Every record is a struct fr_event: a BPF record as it came off the ring
 * (the most of them, so they carry nothing more), or with a type of ours
 * (SPILL_*) one of the others, a series event's bytes after it.  Bytes
 * count here: each is copied into the file's pages by the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-bpf-spill.h"

#define SPILL_BUF (256 << 10)		/* bytes: the capture's memory for it */
#define RAW_MAX 4096			/* a tracefs event is less than a page */

/* fr_event.type of our own records; a: RAW its length, LOST its count, MARK the watermark */
enum spill_kind { SPILL_RAW = 0x200, SPILL_LOST, SPILL_MARK };

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

/* One of ours: @a as its kind says, then @len bytes padded to 8. */
static int append(struct spill *s, uint16_t kind, int cpu, uint64_t ts, uint64_t a,
		  const void *data, size_t len)
{
	struct fr_event h = { .ts = ts, .a = a, .cpu = (uint16_t)cpu, .type = kind };
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
	unsigned char *at = reserve(s, sizeof(*e));

	if (!at)
		return -1;
	memcpy(at, e, sizeof(*e));
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
static int damaged(const struct fr_event *h)
{
	fprintf(stderr, "fence-trace record: the spill file next to the trace is damaged (record type %#x, a %llu)\n",
		h->type, (unsigned long long)h->a);
	return -1;
}

/* The bytes a record takes, itself included; 0 when it makes no sense. */
static size_t record_size(const struct fr_event *h)
{
	if (h->type < FR_TYPES || h->type == SPILL_LOST || h->type == SPILL_MARK)
		return sizeof(*h);
	if (h->type == SPILL_RAW && h->a <= RAW_MAX)
		return sizeof(*h) + padded(h->a);
	return 0;
}

static int deliver(const struct fr_event *h, const unsigned char *data,
		   const struct spill_reader *r, void *ctx)
{
	switch (h->type) {
	case SPILL_RAW:
		return r->raw(ctx, h->cpu, h->ts, data, h->a);
	case SPILL_LOST:
		r->lost(ctx, h->cpu, h->a);
		return 0;
	case SPILL_MARK:
		return r->mark(ctx, h->a);
	}
	return r->event(ctx, h);
}

/*
 * Deliver the whole records in buf[0, *fill); move what is left of a
 * record cut by the chunk's end to the front.  Return: 0 or -1.
 */
static int deliver_chunk(struct spill *s, size_t *fill, const struct spill_reader *r, void *ctx)
{
	size_t at = 0, size;
	struct fr_event h;

	while (*fill - at >= sizeof(h)) {
		memcpy(&h, s->buf + at, sizeof(h));	/* the buffer is 8-byte aligned only */
		size = record_size(&h);
		if (!size)
			return damaged(&h);
		if (*fill - at < size)
			break;
		if (deliver(&h, s->buf + at + sizeof(h), r, ctx))
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
			fprintf(stderr, "fence-trace record: cannot read back the spill file: %s\n",
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
