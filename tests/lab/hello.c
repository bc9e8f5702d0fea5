// SPDX-License-Identifier: GPL-2.0
/*
 * hello - a stand-in for "your own program" in the run-guest tests: prints
 * its arguments, one per line in brackets, and exits with the status
 * given by the environment variable HELLO_EXIT (default 0).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	const char *code = getenv("HELLO_EXIT");

	printf("%s: argc=%d\n", argv[0], argc);
	for (int i = 1; i < argc; i++)
		printf("[%s]\n", argv[i]);
	return code ? atoi(code) : 0;
}
