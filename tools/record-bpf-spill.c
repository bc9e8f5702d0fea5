// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-spill.c - record --bpf's capture-time store (see
 * record-bpf-spill.h): tagged records in one buffer, written out when it
 * is full, read back at the end in buffer-sized chunks.
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

enum spill_kind { SPILL_EVENT = 1, SPILL_RAW, SPILL_LOST, SPILL_MARK };

/* Every record: this, then @len bytes padded to 8. */
struct spill_hdr {
	uint16_t kind, cpu;
	uint32_t len;
	uint64_t value;			/* RAW: ts; LOST: count; MARK: watermark */
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

static int append(struct spill *s, uint16_t kind, int cpu, uint64_t value, const void *data,
		  size_t len)
{
	struct spill_hdr h = { .kind = kind, .cpu = (uint16_t)cpu, .len = (uint32_t)len, .value = value };
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
	s->records++;
	return append(s, SPILL_EVENT, e->cpu, 0, e, sizeof(*e));
}

int spill_raw(struct spill *s, int cpu, uint64_t ts, const void *data, size_t size)
{
	if (cpu < 0 || size > RAW_MAX)
		return 0;	/* not one the pages could take either */
	s->records++;
	return append(s, SPILL_RAW, cpu, ts, data, size);
}

int spill_lost(struct spill *s, int cpu, uint64_t count)
{
	return append(s, SPILL_LOST, cpu, count, NULL, 0);
}

int spill_mark(struct spill *s, uint64_t watermark)
{
	return append(s, SPILL_MARK, 0, watermark, NULL, 0);
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
static int damaged(const struct spill_hdr *h)
{
	fprintf(stderr, "fence-trace record: the spill file next to the trace is damaged (record kind %u, %u bytes)\n",
		h->kind, h->len);
	return -1;
}

static int deliver(const struct spill_hdr *h, const unsigned char *data,
		   const struct spill_reader *r, void *ctx)
{
	struct fr_event e;

	switch (h->kind) {
	case SPILL_EVENT:
		if (h->len != sizeof(e))
			break;
		memcpy(&e, data, sizeof(e));	/* the buffer keeps 8-byte alignment only */
		return r->event(ctx, &e);
	case SPILL_RAW:
		return r->raw(ctx, h->cpu, h->value, data, h->len);
	case SPILL_LOST:
		r->lost(ctx, h->cpu, h->value);
		return 0;
	case SPILL_MARK:
		return r->mark(ctx, h->value);
	}
	return damaged(h);
}

/*
 * Deliver the whole records in buf[0, *fill); move what is left of a
 * record cut by the chunk's end to the front.  Return: 0 or -1.
 */
static int deliver_chunk(struct spill *s, size_t *fill, const struct spill_reader *r, void *ctx)
{
	size_t at = 0;
	struct spill_hdr h;

	while (*fill - at >= sizeof(h)) {
		memcpy(&h, s->buf + at, sizeof(h));
		if (h.len > RAW_MAX)
			return damaged(&h);
		if (*fill - at < sizeof(h) + padded(h.len))
			break;
		if (deliver(&h, s->buf + at + sizeof(h), r, ctx))
			return -1;
		at += sizeof(h) + padded(h.len);
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
