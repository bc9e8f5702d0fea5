/* SPDX-License-Identifier: GPL-2.0 */
/* release-usr1.h - fence-workload --release-on-usr1: SIGUSR1 ends a --slow delay. */
#ifndef FENCE_TRACE_RELEASE_USR1_H
#define FENCE_TRACE_RELEASE_USR1_H

#include "producer.h"

int release_block_usr1(void);
int release_on_usr1(struct producer *producers, unsigned int n);

#endif
