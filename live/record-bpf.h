/* SPDX-License-Identifier: GPL-2.0 */
/* record-bpf.h - the BPF recorder behind `fence-trace record --bpf`. */
#ifndef FENCE_TRACE_RECORD_BPF_H
#define FENCE_TRACE_RECORD_BPF_H

#include <linux/types.h>

#include "fence-record.h"
#include "record-capture.h"

int bpfrec_setup(struct capture *c);
/* record's marker line (capture/capture-mark.c) into the trace, once set up. */
int bpfrec_mark(struct capture *c);
int bpfrec_drain(struct capture *c);
int bpfrec_finish(struct capture *c);
void bpfrec_progress(struct capture *c, double seconds);
void bpfrec_teardown(struct capture *c);

#endif
