// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown.c - the kernel's lockdown level, from securityfs, and the hint
 * an error of tracefs or BPF gets: "run as root" is wrong advice to root
 * on a kernel whose lockdown=confidentiality refuses tracefs and BPF's
 * reads of kernel memory (as Secure Boot setups may configure).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockdown.h"
#include "read-file.h"

/**
 * lockdown_level_at() - the level in force, as @path says it: the
 * bracketed word of "none [integrity] confidentiality"
 * @path: securityfs's lockdown file (a test's stand-in)
 * @buf: where the word is kept
 * @len: its size
 *
 * Return: the word in @buf, or NULL when the file is absent (no lockdown
 * LSM, securityfs not mounted), unreadable or not of that shape.
 */
const char *lockdown_level_at(const char *path, char *buf, size_t len)
{
	char *text = read_file(path, NULL), *open, *close;
	const char *level = NULL;

	open = text ? strchr(text, '[') : NULL;
	close = open ? strchr(open, ']') : NULL;
	if (close && close > open + 1 && (size_t)(close - open - 1) < len) {
		snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
		level = buf;
	}
	free(text);
	return level;
}

const char *lockdown_level(char *buf, size_t len)
{
	return lockdown_level_at(LOCKDOWN_PATH, buf, len);
}

/* Return: 1 when lockdown=confidentiality is in force, else 0. */
int lockdown_confidential(void)
{
	char buf[32];
	const char *level = lockdown_level(buf, sizeof(buf));

	return level && !strcmp(level, "confidentiality");
}

/**
 * refusal_hint() - what to add to an error message about tracefs or a BPF
 * program: " (...)", or @otherwise when neither root nor lockdown explains
 * @err
 * @err: the error, a positive errno
 * @otherwise: the caller's own hint ("" for none)
 *
 * Lockdown's refusals come as EPERM from tracefs and as a verifier
 * rejection (EINVAL: the program calls a helper the level takes away)
 * from BPF, so the level is looked at for any error.
 */
const char *refusal_hint(int err, const char *otherwise)
{
	if ((err == EPERM || err == EACCES || err == EROFS) && geteuid() != 0)
		return " (run as root)";
	if (lockdown_confidential())
		return " (kernel lockdown=confidentiality refuses it; lockdown=integrity does not)";
	return otherwise;
}
