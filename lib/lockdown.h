/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown.h - the kernel's lockdown level (lockdown.c), and what a
 * refusal means to the user: root, or the level, or neither.
 */
#ifndef FENCE_TRACE_LOCKDOWN_H
#define FENCE_TRACE_LOCKDOWN_H

#include <stddef.h>

#define LOCKDOWN_PATH "/sys/kernel/security/lockdown"

const char *lockdown_level_at(const char *path, char *buf, size_t len);
const char *lockdown_level(char *buf, size_t len);
int lockdown_confidential(void);
const char *refusal_hint(int err, const char *otherwise);

#endif
