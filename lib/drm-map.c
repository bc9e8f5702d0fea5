// SPDX-License-Identifier: GPL-2.0
/*
 * drm-map.c - FILE.drm: DRM devices and CRTCs next to a trace (see drm-map.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "drm-map.h"
#include "parse-num.h"

struct device_name {
	unsigned int minor;
	char driver[32];
};

/* "device MINOR DRIVER" lines so far, to give CRTC lines their driver. */
static const char *driver_of(const struct device_name *devs, unsigned int n, unsigned int minor)
{
	for (unsigned int i = 0; i < n; i++)
		if (devs[i].minor == minor)
			return devs[i].driver;
	return NULL;
}

/* Split @line into at most @max space-separated fields; return their count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
		if (n == max)
			return -1;
		f[n++] = t;
	}
	return n;
}

/**
 * drm_map_read() - parse FILE.drm; malformed lines are counted, not fatal
 *
 * Return: 0, or -1 on a read error.
 */
int drm_map_read(struct drm_map *map, FILE *in)
{
	struct device_name devs[DRM_MAP_MAX];
	unsigned int n_devs = 0;
	char line[256], *f[6];

	memset(map, 0, sizeof(*map));
	while (fgets(line, sizeof(line), in)) {
		struct drm_map_crtc *c = &map->crtcs[map->n_crtcs];
		const char *driver;
		int n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = split(line, f, 6);
		if (n == 3 && !strcmp(f[0], "device") && n_devs < DRM_MAP_MAX &&
		    !parse_uint(f[1], 1u << 20, &devs[n_devs].minor) && strlen(f[2]) < 32) {
			strcpy(devs[n_devs++].driver, f[2]);
			continue;
		}
		if (n == 5 && !strcmp(f[0], "crtc") && map->n_crtcs < DRM_MAP_MAX &&
		    !parse_uint(f[1], 1u << 20, &c->minor) && !parse_uint(f[2], 1u << 30, &c->id) &&
		    strlen(f[3]) < 32 && !parse_uint(f[4], 1024, &c->index) &&
		    (driver = driver_of(devs, n_devs, c->minor))) {
			strcpy(c->name, f[3]);
			strcpy(c->driver, driver);
			map->n_crtcs++;
			continue;
		}
		if (n == 4 && !strcmp(f[0], "plane"))
			continue;
		map->skipped++;
	}
	return ferror(in) ? -1 : 0;
}

const struct drm_map_crtc *drm_map_find(const struct drm_map *map, const char *driver,
					unsigned int id, const char *name)
{
	for (unsigned int i = 0; i < map->n_crtcs; i++) {
		const struct drm_map_crtc *c = &map->crtcs[i];

		if (c->id == id && !strcmp(c->driver, driver) && !strcmp(c->name, name))
			return c;
	}
	return NULL;
}

static void write_device(FILE *out, const char *dir, unsigned int minor)
{
	char path[512], line[256], driver[32] = "", name[32];
	unsigned int id, index = 0;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%u/name", dir, minor);
	in = fopen(path, "r");
	if (!in)
		return;
	if (fscanf(in, "%31s", driver) != 1)
		driver[0] = '\0';
	fclose(in);
	if (!driver[0])
		return;
	fprintf(out, "device %u %s\n", minor, driver);
	snprintf(path, sizeof(path), "%s/%u/state", dir, minor);
	in = fopen(path, "r");
	while (in && fgets(line, sizeof(line), in)) {
		if (sscanf(line, "crtc[%u]: %31s", &id, name) == 2)
			fprintf(out, "crtc %u %u %s %u\n", minor, id, name, index++);
		else if (sscanf(line, "plane[%u]: %31s", &id, name) == 2)
			fprintf(out, "plane %u %u %s\n", minor, id, name);
	}
	if (in)
		fclose(in);
}

/* Describe every primary node (minor < 64) under @debugfs_dri in @out. */
int drm_map_write_from_debugfs(FILE *out, const char *debugfs_dri)
{
	DIR *d = opendir(debugfs_dri);
	struct dirent *e;

	if (!d)
		return -1;
	fprintf(out, "# fence-trace DRM devices and CRTCs, from %s\n", debugfs_dri);
	while ((e = readdir(d))) {
		unsigned int minor;

		if (parse_uint(e->d_name, 1u << 20, &minor) == 0 && minor < 64)
			write_device(out, debugfs_dri, minor);
	}
	closedir(d);
	return ferror(out) ? -1 : 0;
}
