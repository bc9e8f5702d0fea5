// SPDX-License-Identifier: GPL-2.0
/* test-workload-plan.c - fence-workload's command line. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "workload-plan.h"

static int parse(struct workload_plan *plan, char *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "fence-workload";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	return plan_parse_args(plan, argc, argv, err, 256);
}

static void test_defaults_and_overrides(void **state)
{
	static const char *const args[] = { "-n", "20", "-A", "4", "--slow", "3:B:40",
					     "--never", "7:A", "--error", "9:b", "--nonblock",
					     "--share-never", "--close-in-fences", "--say-waits",
					     "--release-on-usr1", NULL };
	struct workload_plan plan;
	char err[256] = "";
	unsigned int ms;

	(void)state;
	assert_int_equal(parse(&plan, err, args), 0);
	assert_int_equal(plan.frames, 20);
	assert_int_equal(plan.nonblock, 1);
	assert_int_equal(plan.share_never, 1);
	assert_int_equal(plan.close_in, 1);
	assert_int_equal(plan.say_waits, 1);
	assert_int_equal(plan.release_on_usr1, 1);
	assert_int_equal(plan_fate(&plan, 3, 1, &ms), FATE_SLOW);
	assert_int_equal(ms, 40);
	assert_int_equal(plan_fate(&plan, 3, 0, &ms), FATE_NORMAL);
	assert_int_equal(ms, 4);
	assert_int_equal(plan_fate(&plan, 7, 0, &ms), FATE_NEVER);
	assert_int_equal(plan_fate(&plan, 9, 1, &ms), FATE_ERROR);
	assert_int_equal(plan_fate(&plan, 0, 1, &ms), FATE_NORMAL);
	assert_int_equal(ms, 5);
}

/* --hold, --queue, --starve and --reject: which frames, how long. */
static void test_hold_and_queue(void **state)
{
	static const char *const args[] = { "-n", "30", "--hold", "4:50", "--hold", "9:20", "--queue", "7",
					     "--slow", "6:B:40", "--starve", "12:30", "--reject", "15", "--reject", "0",
					     NULL };
	struct workload_plan plan;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&plan, err, args), 0);
	assert_int_equal(plan_hold_ms(&plan, 4), 50);
	assert_int_equal(plan_hold_ms(&plan, 9), 20);
	assert_int_equal(plan_hold_ms(&plan, 5), 0);
	assert_true(plan_queued(&plan, 7));
	assert_false(plan_queued(&plan, 6));
	assert_false(plan_queued(&plan, 8));
	assert_int_equal(plan_starve_ms(&plan, 12), 30);
	assert_int_equal(plan_starve_ms(&plan, 4), 0);
	assert_true(plan_rejected(&plan, 15));
	assert_true(plan_rejected(&plan, 0));
	assert_false(plan_rejected(&plan, 14));
	assert_false(plan_rejected(&plan, 7));
}

/* --poll and --epoll are two ways of one wait; the last given counts. */
static void test_poll_kinds(void **state)
{
	static const char *const poll[] = { "--poll", NULL }, *const epoll[] = { "--epoll", NULL };
	static const char *const both[] = { "--epoll", "--poll", NULL };
	struct workload_plan plan;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&plan, err, poll), 0);
	assert_int_equal(plan.poll, POLL_WITH_POLL);
	assert_int_equal(parse(&plan, err, epoll), 0);
	assert_int_equal(plan.poll, POLL_WITH_EPOLL);
	assert_int_equal(parse(&plan, err, both), 0);
	assert_int_equal(plan.poll, POLL_WITH_POLL);
}

struct bad_case {
	const char *const args[6];
	const char *message;
};

static const struct bad_case bad[] = {
	{ { "-n", "ten" }, "--frames: 'ten' is not a whole number" },
	{ { "-n", "-1" }, "--frames: '-1' is not a whole number" },
	{ { "-n", "0" }, "--frames must be at least 1" },
	{ { "-A", "5x" }, "--delay-a: '5x' is not a whole number" },
	{ { "--slow", "3:B" }, "bad frame override '3:B'" },
	{ { "--slow", "3:C:5" }, "bad frame override '3:C:5'" },
	{ { "--never", "3:A:5" }, "bad frame override '3:A:5'" },
	{ { "--never", "12:A" }, "override names frame 12, but only 10 frames" },
	{ { "--share-never", "--slow", "1:B:5" }, "--share-never needs a --never fence to share" },
	{ { "--vgem", "--error", "1:A" }, "--error needs sw_sync fences: vgem cannot fail a fence" },
	{ { "--poll", "--close-in-fences" }, "--close-in-fences and --poll (or --epoll) exclude each other" },
	{ { "--epoll", "--close-in-fences" }, "--close-in-fences and --poll (or --epoll) exclude each other" },
	{ { "--epoll", "--merge" }, "--merge and --poll (or --epoll) exclude each other" },
	{ { "--no-overlay", "--error", "1:B" }, "override names producer B" },
	{ { "--hold", "3" }, "--hold: bad '3' (want FRAME:MS" },
	{ { "--hold", "3:x" }, "--hold: bad '3:x'" },
	{ { "--hold", "12:5" }, "--hold names frame 12, but only 10 frames" },
	{ { "--queue", "0" }, "--queue: bad '0' (want a frame from 1" },
	{ { "--queue", "10" }, "--queue 10: needs a frame below --frames" },
	{ { "--queue", "3", "--slow", "3:A:40" }, "--queue 3: needs" },
	{ { "--queue", "3", "--hold", "3:20" }, "--queue 3: needs" },
	{ { "--queue", "3", "--poll" }, "--queue 3: needs" },
	{ { "--queue", "3", "--queue", "4" }, "--queue 4: needs a frame below --frames, not --poll, not queued behind a queued frame" },
	{ { "--nonblock", "--queue", "3", "--ebusy", "2" }, "--queue 3 and --ebusy/--behind 2 exclude each other" },
	{ { "--starve", "3:" }, "--starve: bad '3:'" },
	{ { "--starve", "3:40", "--nonblock" }, "--starve 3: needs a frame below --frames whose commit blocks" },
	{ { "--starve", "3:4" }, "--starve 3:4: hold the CPU at least 5 ms (the fences signal 1 ms after it is taken)" },
	{ { "--starve", "3:40", "--queue", "4" }, "--starve 3: needs" },
	{ { "--reject", "x" }, "--reject: bad 'x' (want a frame from 0" },
	{ { "--reject", "10" }, "--reject 10: needs a frame below --frames" },
	{ { "--reject", "3", "--queue", "3" }, "--reject 3: needs" },
	{ { "--reject", "3", "--queue", "4" }, "--reject 3: needs" },
	{ { "--reject", "3", "--slow", "3:B:40" }, "--reject 3: needs" },
	{ { "--reject", "3", "--error", "3:A" }, "--reject 3: needs" },
	{ { "--reject", "3", "--starve", "3:40" }, "--reject 3: needs" },
	{ { "--reject", "3", "--hold", "3:40" }, "--reject 3: needs" },
	{ { "--nonblock", "--reject", "3", "--ebusy", "3" }, "--reject 3: needs" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--device" }, "option '--device' needs an argument" },
	{ { "stray" }, "unexpected argument 'stray'" },
};

static void test_bad_arguments(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct workload_plan plan;
		char err[256] = "";

		if (parse(&plan, err, bad[i].args) != -1)
			fail_msg("case %zu accepted", i);
		if (!strstr(err, bad[i].message))
			fail_msg("case %zu: message '%s', want '%s'", i, err, bad[i].message);
	}
}

/* What `fence-workload --help` prints: main() puts workload_usage out when
 * plan_parse_args() returns 1. */
static const char *help_text(void)
{
	return workload_usage;
}

/* Whether the parser knows @opt (given without an argument). */
static int accepted(const char *opt)
{
	const char *const args[] = { opt, NULL };
	struct workload_plan plan;
	char err[256] = "";

	return parse(&plan, err, args) >= 0 || !strstr(err, "unknown option");
}

/* Whether the parser says @opt needs an argument. */
static int wants_argument(const char *opt)
{
	const char *const args[] = { opt, NULL };
	struct workload_plan plan;
	char err[256] = "";

	return parse(&plan, err, args) == -1 && strstr(err, "needs an argument");
}

/* The help's option lines: "  -n, --frames N" or "      --slow F:P:MS";
 * a metavar is one space after the name, the description two or more. */
struct help_opt {
	char shrt, lng[32];
	int arg;
};

static size_t help_options(struct help_opt *o, size_t max)
{
	const char *line = help_text();
	size_t n = 0;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char s = 0, l[32];
		int end = 0;

		/* (sscanf's spaces would match a newline too: the indent is checked first) */
		if (!strncmp(line, "  -", 3) && sscanf(line, "  -%c, --%31[a-z0-9-]%n", &s, l, &end) == 2 && end) {
		} else if (!strncmp(line, "      --", 8) && sscanf(line, "      --%31[a-z0-9-]%n", l, &end) == 1 && end) {
			s = 0;
		} else {
			continue;
		}
		if (n == max)
			break;
		o[n].shrt = s;
		snprintf(o[n].lng, sizeof(o[n].lng), "%s", l);
		o[n++].arg = line[end] == ' ' && line[end + 1] != ' ' && line[end + 1] != '\n';
	}
	return n;
}

/* Every option --help lists is accepted, with an argument when it shows one. */
static void test_help_lists_what_parses(struct help_opt *o, size_t n)
{
	char opt[40];

	for (size_t i = 0; i < n; i++) {
		snprintf(opt, sizeof(opt), "--%s", o[i].lng);
		if (!accepted(opt))
			fail_msg("--help lists %s, the parser does not know it", opt);
		if (wants_argument(opt) != o[i].arg)
			fail_msg("--help shows %s %s an argument, the parser disagrees", opt,
				 o[i].arg ? "with" : "without");
		snprintf(opt, sizeof(opt), "-%c", o[i].shrt);
		if (o[i].shrt && (!accepted(opt) || wants_argument(opt) != o[i].arg))
			fail_msg("--help lists %s for --%s, the parser disagrees", opt, o[i].lng);
	}
}

static size_t listed_with_prefix(const struct help_opt *o, size_t n, const char *p, int *exact)
{
	size_t k = 0;

	*exact = 0;
	for (size_t i = 0; i < n; i++) {
		k += strncmp(o[i].lng, p, strlen(p)) == 0;
		*exact |= strcmp(o[i].lng, p) == 0;
	}
	return k;
}

/*
 * Every option the parser accepts is listed.  getopt_long takes any
 * unambiguous prefix, so probe "--P" for every prefix P of a listed name
 * and every such prefix extended by one character: the parser must accept
 * exactly those with one listed name (or an exact name) below them.  An
 * unlisted option branches off some listed prefix: there it is the only
 * name, or it makes a listed one ambiguous, and the answers differ.
 */
static void test_parser_accepts_only_what_is_listed(struct help_opt *o, size_t n)
{
	static const char more[] = "abcdefghijklmnopqrstuvwxyz-0123456789";
	char p[40], opt[44];
	int exact;

	for (size_t i = 0; i < n; i++) {
		for (size_t len = 0; len <= strlen(o[i].lng); len++) {
			for (size_t c = 0; c < sizeof(more) - 1; c++) {
				snprintf(p, sizeof(p), "%.*s%c", (int)len, o[i].lng, more[c]);
				snprintf(opt, sizeof(opt), "--%s", p);
				if (accepted(opt) != (listed_with_prefix(o, n, p, &exact) == 1 || exact))
					fail_msg("%s: the parser %s it, --help says otherwise", opt,
						 accepted(opt) ? "accepts" : "refuses");
			}
		}
	}
	for (int c = 1; c < 128; c++) {
		int listed = 0;

		if (!isalnum(c))
			continue;
		for (size_t i = 0; i < n; i++)
			listed |= o[i].shrt == c;
		snprintf(opt, sizeof(opt), "-%c", c);
		if (accepted(opt) != listed)
			fail_msg("%s: the parser %s it, --help says otherwise", opt, listed ? "refuses" : "accepts");
	}
}

static void test_help(void **state)
{
	static const char *const args[] = { "--help", NULL }, *const short_args[] = { "-h", NULL };
	struct help_opt o[40];
	struct workload_plan plan;
	char err[256];
	size_t n = help_options(o, 40);

	(void)state;
	assert_int_equal(parse(&plan, err, args), 1);
	assert_int_equal(parse(&plan, err, short_args), 1);
	assert_true(strncmp(help_text(), "usage: fence-workload ", 22) == 0);
	assert_true(n >= 17);		/* the options of today's parser; fewer: the help lost lines */
	test_help_lists_what_parses(o, n);
	test_parser_accepts_only_what_is_listed(o, n);
}

int run_workload_plan_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_overrides),
		cmocka_unit_test(test_poll_kinds),
		cmocka_unit_test(test_hold_and_queue),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests_name("workload_plan", tests, NULL, NULL);
}
