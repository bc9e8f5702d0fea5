// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - raw trace records to struct ft_event (see decode.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "decode.h"

struct catalogue_event {
	const char *system, *name;
	enum ft_set set;
};

struct catalogue_field {
	enum ft_event_id event;
	const char *name;
	enum ft_slot slot;
	int optional;
};

#define CAT_EVENT(id, sys, nm, st) [FT_EV_##id] = { sys, nm, st },
static const struct catalogue_event events[FT_EV_COUNT] = { FT_EVENTS(CAT_EVENT) };
#undef CAT_EVENT

#define CAT_FIELD(id, field, slot, opt) { FT_EV_##id, #field, slot, opt },
static const struct catalogue_field fields[] = { FT_FIELDS(CAT_FIELD) };
#undef CAT_FIELD

static const char *const set_names[FT_SET_COUNT] = {
	[FT_SET_DMA_FENCE] = "dma_fence:*",
	[FT_SET_VBLANK] = "drm:drm_vblank_event*",
	[FT_SET_SERIES] = "drm_fence:* (fence-trace series)",
	[FT_SET_DMA_SERIES] = "dma_fence_error/_member (fence-trace series)",
	[FT_SET_SCHED] = "sched:sched_wakeup/_switch (record --sched)",
};

const char *ft_event_name(enum ft_event_id id) { return events[id].name; }
const char *ft_event_system(enum ft_event_id id) { return events[id].system; }
enum ft_set ft_event_set(enum ft_event_id id) { return events[id].set; }
const char *ft_set_name(enum ft_set set) { return set_names[set]; }

/* A drm_fence_commit_stall stage as trace-cmd prints it, "?" when unknown. */
const char *ft_stall_stage_name(int stage)
{
	static const char *const names[FT_STALL_STAGE_COUNT] = FT_STALL_STAGE_NAMES;

	return stage >= 0 && stage < FT_STALL_STAGE_COUNT ? names[stage] : "?";
}

static void note_problem(struct ft_decoder *d, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(d->problems);

	if (len + 2 >= sizeof(d->problems))
		return;
	if (len)
		d->problems[len++] = ';', d->problems[len++] = ' ';
	snprintf(d->problems + len, sizeof(d->problems) - len, fmt, a, b);
}

static void resolve_field(struct ft_decoder *d, struct tep_event *event,
			  const struct catalogue_field *cf)
{
	struct tep_format_field *f = tep_find_field(event, cf->name);
	struct ft_field_ref *ref = &d->fields[cf->event][cf->slot];

	if (!f) {
		if (!cf->optional) {
			note_problem(d, "%s lacks field %s", events[cf->event].name, cf->name);
			d->have_event[cf->event] = 0;
		}
		return;
	}
	ref->offset = f->offset;
	ref->size = f->size;
	ref->is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	ref->is_array = (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) ==
			(TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING) && f->size > 0;
	ref->is_string = !!(f->flags & TEP_FIELD_IS_DYNAMIC) || ref->is_array;
	/* A numeric slot needs a number of a size we can load. */
	ref->present = ref->is_string == (cf->slot >= FT_NUM_SLOTS) &&
		       (ref->is_string || f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
	if (!ref->present && !cf->optional) {
		note_problem(d, "%s field %s has an unexpected type", events[cf->event].name, cf->name);
		d->have_event[cf->event] = 0;
	}
}

/* The numeric fields of each event, and the record size they need. */
static void plan_loads(struct ft_decoder *d)
{
	for (int id = 0; id < FT_EV_COUNT; id++) {
		d->n_loads[id] = 0;
		d->load_mask[id] = 0;
		d->min_size[id] = 0;
		for (int s = 0; s < FT_NUM_SLOTS; s++) {
			const struct ft_field_ref *f = &d->fields[id][s];
			unsigned int end = (unsigned int)(f->offset + f->size);

			if (!f->present)
				continue;
			d->loads[id][d->n_loads[id]++] = (struct ft_load){
				f->offset, (uint8_t)s, (uint8_t)f->size, (uint8_t)f->is_signed };
			d->load_mask[id] |= 1u << s;
			if (end > d->min_size[id])
				d->min_size[id] = end;
		}
	}
}

static int resolve_common(struct ft_decoder *d, struct tep_event *any)
{
	struct tep_format_field *type = tep_find_common_field(any, "common_type");
	struct tep_format_field *pid = tep_find_common_field(any, "common_pid");

	if (!type || !pid || (type->size != 2 && type->size != 4) || pid->size != 4)
		return -1;
	d->type_offset = type->offset;
	d->type_size = type->size;
	d->pid_offset = pid->offset;
	return 0;
}

/**
 * ft_decoder_init() - find the catalogue's events and fields in @tep
 *
 * Events or fields the trace lacks are not an error (a stock kernel has no
 * series events); they are listed in @d->problems.  Return: 0, or -1 when
 * no catalogue event is in the trace at all ... which is still readable:
 * the caller decides.
 */
int ft_decoder_init(struct ft_decoder *d, struct tep_handle *tep, char *err, size_t errlen)
{
	struct tep_event *any = NULL;
	int max_id = 0, fence_or_vblank = 0;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	for (int i = 0; i < FT_EV_COUNT; i++) {
		struct tep_event *e = tep_find_event_by_name(tep, events[i].system, events[i].name);

		if (!e)
			continue;
		d->have_event[i] = 1;
		max_id = e->id > max_id ? e->id : max_id;
		any = e;
		fence_or_vblank |= events[i].set != FT_SET_SCHED;
	}
	if (!fence_or_vblank) {	/* the scheduler's events alone are not our trace */
		snprintf(err, errlen, "the trace has none of the fence or vblank events");
		return -1;
	}
	if (resolve_common(d, any)) {
		snprintf(err, errlen, "the trace's events lack common_type/common_pid");
		return -1;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct tep_event *e;

		if (!d->have_event[fields[i].event])
			continue;
		e = tep_find_event_by_name(tep, events[fields[i].event].system,
					   events[fields[i].event].name);
		resolve_field(d, e, &fields[i]);
	}
	plan_loads(d);
	d->n_types = max_id + 1;
	d->by_type = malloc(d->n_types * sizeof(*d->by_type));
	if (!d->by_type) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(d->by_type, 0xff, d->n_types * sizeof(*d->by_type));
	for (int i = 0; i < FT_EV_COUNT; i++) {
		struct tep_event *e;

		if (!d->have_event[i])
			continue;
		e = tep_find_event_by_name(tep, events[i].system, events[i].name);
		d->by_type[e->id] = i;
		d->have_set[events[i].set] = 1;
	}
	return 0;
}

void ft_decoder_free(struct ft_decoder *d)
{
	free(d->by_type);
	d->by_type = NULL;
}

static uint64_t load(const struct ft_decoder *d, const unsigned char *p, int size, int is_signed)
{
	uint64_t v = 0;

	if (!d->swap) {
		switch (size) {
		case 1: return is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
		case 2: { uint16_t x; memcpy(&x, p, 2); return is_signed ? (uint64_t)(int64_t)(int16_t)x : x; }
		case 4: { uint32_t x; memcpy(&x, p, 4); return is_signed ? (uint64_t)(int64_t)(int32_t)x : x; }
		default: memcpy(&v, p, 8); return v;
		}
	}
	return tep_read_number(d->tep, p, size);
}

_Static_assert(FT_NUM_SLOTS <= 32, "struct ft_event's loaded mask has 32 bits");

/*
 * Zero the slots the last event filled and this one will not: the others
 * are 0 already, or about to be loaded.  A memset of every slot was a fifth
 * of the decoder's cost, and events of one kind follow each other.
 */
static void clear_stale(struct ft_event *ev, uint32_t will_load)
{
	uint32_t stale = ev->loaded & ~will_load;

	while (stale) {
		ev->v[__builtin_ctz(stale)] = 0;
		stale &= stale - 1;
	}
	ev->loaded = will_load;
}

/**
 * ft_decode() - decode one record
 *
 * @ev is reused: zeroed by the caller before its first use, it is cleared
 * here of only what the previous event left (struct ft_event's loaded).
 *
 * Return: 1 when @rec is a catalogue event (filled into @ev), 0 when it is
 * another event (counted in d->unknown), -1 when it is too short for its
 * own format (counted in d->malformed).
 */
int ft_decode(struct ft_decoder *d, struct tep_record *rec, struct ft_event *ev)
{
	const unsigned char *data = rec->data;
	unsigned int type;
	int id;

	if (rec->size < d->type_offset + d->type_size || rec->size < d->pid_offset + 4) {
		d->malformed++;
		return -1;
	}
	type = (unsigned int)load(d, data + d->type_offset, d->type_size, 0);
	id = type < d->n_types ? d->by_type[type] : -1;
	if (id < 0) {
		d->unknown++;
		return 0;
	}
	ev->id = id;
	ev->cpu = rec->cpu;
	ev->ts = rec->ts;
	ev->missed = rec->missed_events;
	ev->pid = (int)load(d, data + d->pid_offset, 4, 1);
	ev->data = data;
	ev->size = rec->size;
	if ((unsigned int)rec->size < d->min_size[id]) {
		d->malformed++;
		return -1;
	}
	clear_stale(ev, d->load_mask[id]);
	for (unsigned int k = 0; k < d->n_loads[id]; k++) {
		const struct ft_load *l = &d->loads[id][k];

		ev->v[l->slot] = load(d, data + l->offset, l->size, l->is_signed);
	}
	return 1;
}

/* A string of @ev (__data_loc, or in place), copied into @buf; "" when absent or damaged. */
const char *ft_event_str(const struct ft_decoder *d, const struct ft_event *ev,
			 enum ft_slot slot, char *buf, size_t len)
{
	const struct ft_field_ref *f = &d->fields[ev->id][slot];
	unsigned int loc, off, n;

	buf[0] = '\0';
	if (!f->present || !f->is_string || len == 0)
		return buf;
	if (f->is_array) {	/* in place: at most its size, NUL or not */
		off = (unsigned int)f->offset;
		n = (unsigned int)f->size;
	} else {
		if (f->offset + 4 > (int)ev->size)
			return buf;
		loc = (unsigned int)load(d, ev->data + f->offset, 4, 0);
		off = loc & 0xffff;
		n = loc >> 16;
	}
	if (off >= ev->size || n > ev->size - off)
		return buf;
	n = strnlen((const char *)ev->data + off, n);
	if (n >= len)
		n = len - 1;
	memcpy(buf, ev->data + off, n);
	buf[n] = '\0';
	return buf;
}
