// SPDX-License-Identifier: GPL-2.0
#include "unit.h"
int run_tracedat_compat_tests(void) { return 0; }
