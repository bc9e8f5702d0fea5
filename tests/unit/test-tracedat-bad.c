// SPDX-License-Identifier: GPL-2.0
#include "unit.h"
int run_tracedat_bad_tests(void) { return 0; }
