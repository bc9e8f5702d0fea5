/* SPDX-License-Identifier: GPL-2.0 */
/*
 * own-instance.h - fence-trace's private tracefs instances, and the
 * clean-up of those left by processes that are gone (own-instance.c).
 */
#ifndef FENCE_TRACE_OWN_INSTANCE_H
#define FENCE_TRACE_OWN_INSTANCE_H

struct tracefs_instance;

struct tracefs_instance *own_instance_create(const char *kind);

#endif
