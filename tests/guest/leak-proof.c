// SPDX-License-Identifier: GPL-2.0
/*
 * leak-proof - cases that leak on purpose, run by tests/run-tests
 * (guest_leak_proof) to prove that the lab's leak checks can fail:
 *
 *   leaks-an-fd     opens /dev/null and keeps it, then passes: the TAP
 *                   runner must report it "not ok", naming the fd
 *   closes-its-fd   the same, closing it: must stay "ok"
 *   holds-a-fence   (separate) creates a sw_sync fence and sits on its
 *                   sync_file; run in the background past the guest's
 *                   command, it must fail run-guest's fence balance and
 *                   live sync_file count
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "sync.h"
#include "tap.h"

static int test_leaks_an_fd(void)
{
	CHECK(open("/dev/null", O_RDONLY) >= 0, "open /dev/null");
	return TAP_PASS;
}

static int test_closes_its_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	CHECK(fd >= 0, "open /dev/null");
	close(fd);
	return TAP_PASS;
}

/* Until the runner's deadline kills it: long past the guest's command. */
static int test_holds_a_fence(void)
{
	int timeline = sw_sync_timeline_open();
	int fence = sw_sync_fence_create(timeline, 1, "leak-proof");

	CHECK(timeline >= 0 && fence >= 0, "sw_sync fence");
	tap_diag("holding sync_file fd %d", fence);
	for (;;)
		pause();
}

static const struct tap_case cases[] = {
	{ "leaks-an-fd", test_leaks_an_fd, 10, 0 },
	{ "closes-its-fd", test_closes_its_fd, 10, 0 },
	{ "holds-a-fence", test_holds_a_fence, 60, 1 },
};

int main(int argc, char **argv)
{
	return tap_main(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
