/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - turn raw trace records into struct ft_event, driven by the
 * catalogue (tracepoints/catalogue.h).  Field handles are resolved once
 * per file; per record, a table lookup and a few fixed-offset loads.
 */
#ifndef FENCE_TRACE_DECODE_H
#define FENCE_TRACE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "../tracepoints/catalogue.h"

struct tep_handle;
struct tep_record;

struct ft_event {
	enum ft_event_id id;
	int cpu;
	int pid;
	uint64_t ts;
	long long missed;		/* events lost on this CPU just before */
	uint64_t v[FT_NUM_SLOTS];	/* numeric fields by slot; 0 if absent */
	uint32_t loaded;		/* the slots of v[] the last ft_decode() filled */
	const unsigned char *data;	/* the raw record, for string fields */
	unsigned int size;
};

struct ft_field_ref {
	int offset, size;
	int is_signed, is_string, present;
	int is_array;			/* a string in place (char comm[16]), not __data_loc */
};

/* A numeric field ft_decode() loads: where from, into which slot. */
struct ft_load {
	int offset;
	uint8_t slot, size, is_signed;
};

struct ft_decoder {
	struct tep_handle *tep;
	int type_offset, type_size, pid_offset;
	int swap;			/* file endianness differs from ours */
	unsigned int n_types;
	int16_t *by_type;		/* tep event id -> ft_event_id, or -1 */
	int have_event[FT_EV_COUNT];
	int have_set[FT_SET_COUNT];
	struct ft_field_ref fields[FT_EV_COUNT][FT_ALL_SLOTS];
	/* per event, its numeric fields only: the hot loop reads no absent slot */
	struct ft_load loads[FT_EV_COUNT][FT_NUM_SLOTS];
	unsigned int n_loads[FT_EV_COUNT];
	uint32_t load_mask[FT_EV_COUNT];	/* the slots of loads[], as bits */
	unsigned int min_size[FT_EV_COUNT];	/* shorter records are malformed */
	char problems[512];		/* missing events/fields, for the report */
	unsigned long long unknown, malformed;
};

int ft_decoder_init(struct ft_decoder *d, struct tep_handle *tep, char *err, size_t errlen);
void ft_decoder_free(struct ft_decoder *d);
/* @ev: zeroed before its first use, then handed back each time (see ft_decode()) */
int ft_decode(struct ft_decoder *d, struct tep_record *rec, struct ft_event *ev);
const char *ft_event_str(const struct ft_decoder *d, const struct ft_event *ev,
			 enum ft_slot slot, char *buf, size_t len);
const char *ft_event_name(enum ft_event_id id);
const char *ft_event_system(enum ft_event_id id);
enum ft_set ft_event_set(enum ft_event_id id);
const char *ft_set_name(enum ft_set set);
const char *ft_stall_stage_name(int stage);

#endif
