/* SPDX-License-Identifier: GPL-2.0 */
/* stall-before-names.h - what a wait found at start is (stall-before-names.c). */
#ifndef FENCE_TRACE_STALL_BEFORE_NAMES_H
#define FENCE_TRACE_STALL_BEFORE_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "fence-waiters.h"
#include "kallsyms.h"
#include "stall-before.h"

int before_is_fence_wait(const struct fw_task *t, const struct ksyms *k);
int before_on_stack(const struct fw_task *t, const struct ksyms *k, const char *name);
int before_stack_text(const struct fw_task *t, const struct ksyms *k, int from, char *buf, size_t len);
void before_where(const struct fw_task *t, const struct ksyms *k, char *buf, size_t len);
void before_names(uint64_t fence, uint64_t context, uint64_t seqno, uint64_t ops,
		  const struct fw_file *files, size_t n_files, const char *kernel_timeline,
		  const struct ksyms *k, struct before_names *n);

#endif
