/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FENCE_TRACE_RENDER_TIMELINE_H
#define FENCE_TRACE_RENDER_TIMELINE_H

#include "timeline.h"

int tl_render(const char *path, const char *out_path, tl_writer write, struct tl_data *d);

#endif
