// SPDX-License-Identifier: GPL-2.0
/* fuzz-drm-map.c - libFuzzer harness: any bytes as a FILE.drm sidecar. */
#include <stdint.h>
#include <stdio.h>

#include "drm-map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct drm_map map;
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");

	if (!in)
		return 0;
	drm_map_read(&map, in);
	drm_map_find(&map, "vkms", 51, "crtc-0");
	fclose(in);
	return 0;
}
