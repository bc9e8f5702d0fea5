// SPDX-License-Identifier: GPL-2.0
/*
 * report-json-fields.c - JSON pieces the display and frames sections of
 * `report --json` both write: a value or null, a late frame's blocking
 * in-fence.
 */
#include <inttypes.h>
#include <stdio.h>

#include "json-str.h"
#include "report.h"

/* @v, or null when the trace does not give it. */
void report_json_u64_or_null(FILE *out, int known, uint64_t v)
{
	if (known)
		fprintf(out, "%" PRIu64, v);
	else
		fprintf(out, "null");
}

/* The in-fence a late frame waited on last, or null. */
void report_json_blocking(FILE *out, const struct ft_model *m, const struct ft_blocking *b)
{
	if (!b->known) {
		fprintf(out, "null");
		return;
	}
	if (b->plane >= 0)
		fprintf(out, "{\"plane\": %d, \"driver\": ", b->plane);
	else
		fprintf(out, "{\"plane\": null, \"driver\": ");
	json_str(out, b->ctx != FT_NONE ? model_context_row(m, b->ctx)->driver : "");
	fprintf(out, ", \"timeline\": ");
	json_str(out, b->ctx != FT_NONE ? model_context_row(m, b->ctx)->name : "");
	fprintf(out, ", \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"wait_ns\": %" PRIu64
		", \"signal_ns\": %" PRIu64, b->context, b->seqno, b->wait_ns, b->signal_ts);
	if (b->merged)
		fprintf(out, ", \"merged\": {\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}}",
			b->merged_context, b->merged_seqno);
	else
		fprintf(out, ", \"merged\": null}");
}
