// SPDX-License-Identifier: GPL-2.0
/*
 * model-contexts.c - fence contexts and the rows they are counted in (see
 * struct ft_timeline and struct ft_context in model.h).
 *
 * Real drivers and every SYNC_IOC_MERGE take a fresh context per fence, so
 * contexts grow with the trace while named timelines do not.  A context
 * costs a struct ft_context and its index slot (model-context-table.c); a
 * row with histograms goes only to a context that holds a second fence (or
 * a CRTC's), and to each group.  A merge context's fences count in its group at once (merges
 * are grouped however many fences they hold); a lone context's one fence
 * waits in its struct ft_context until the end of the trace, when it goes
 * into its group, unless a second fence gives the context its own row
 * first: then it goes there, so no fence is counted in both.
 */
#include <stdio.h>
#include <string.h>

#include "model-internal.h"

static int is_merge_driver(const char *driver)
{
	return !strcmp(driver, "dma_fence_array") || !strcmp(driver, "dma_fence_chain");
}

/* CRTC out-fence timelines are rows of their own from the start (display). */
static int is_crtc_name(const char *name)
{
	return !strncmp(name, "CRTC:", 5);
}

/* FNV-1a over driver, a NUL, and name: the group's key (merges: driver only). */
static uint64_t name_hash(const char *driver, const char *name)
{
	uint64_t h = 14695981039346656037ull;

	for (const char *p = driver; ; p++) {
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
		if (!*p)
			break;
	}
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}

static int group_is(const struct ft_timeline *g, const char *driver, const char *name, int merge)
{
	return g->merge == merge && !strcmp(g->driver, driver) && (merge || !strcmp(g->name, name));
}

/* The group of (@driver, @name), or of merges of @driver; created on first sight. */
static uint32_t group_get(struct ft_model *m, const char *driver, const char *name, int merge)
{
	struct ft_fences *fc = &m->fences;
	uint64_t h = name_hash(driver, merge ? "" : name);
	struct ft_timeline *g;
	uint32_t idx;

	if (keymap_get(&fc->group_of_name, h, &idx) && group_is(&fc->groups.items[idx], driver, name, merge))
		return idx;
	if (keymap_get(&fc->group_of_name, h, &idx))	/* a hash collision: rare, so a scan */
		for (idx = 0; idx < fc->groups.n; idx++)
			if (group_is(&fc->groups.items[idx], driver, name, merge))
				return idx;
	g = vec_push(&fc->groups);
	if (!g || (!keymap_get(&fc->group_of_name, h, &idx) &&
		   keymap_put(&fc->group_of_name, h, fc->groups.n - 1))) {
		m->error = 1;
		return FT_NONE;
	}
	snprintf(g->driver, sizeof(g->driver), "%s", driver);
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->merge = merge;
	g->crtc = -1;
	g->group = FT_NONE;
	return fc->groups.n - 1;
}

/* Context @c's own row, named @driver @name; c->row was its group (or FT_NONE). */
static struct ft_timeline *row_new(struct ft_model *m, struct ft_context *c, const char *driver,
				   const char *name)
{
	struct ft_fences *fc = &m->fences;
	struct ft_timeline *t = vec_push(&fc->timelines);

	if (!t) {
		m->error = 1;
		return NULL;
	}
	t->context = c->context;
	t->first_ts = c->first_ts;
	t->crtc = -1;
	t->group = FT_NONE;
	t->home = c->row;
	snprintf(t->driver, sizeof(t->driver), "%s", driver);
	snprintf(t->name, sizeof(t->name), "%s", name);
	c->row = fc->timelines.n - 1;
	c->flags |= FT_CTX_OWN;
	model_timeline_created(m, t);
	return t;
}

/**
 * model_context_get() - the context of @ev, created on first sight
 *
 * Return: its index in model.fences.contexts, or FT_NONE when memory ran
 * out (m->error is set).
 */
uint32_t model_context_get(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fences *fc = &m->fences;
	char driver[MODEL_NAME_LEN], name[MODEL_NAME_LEN];
	struct ft_context *c;
	uint32_t idx = model_context_find(&fc->contexts, ev->v[FT_CONTEXT]);

	if (idx != FT_NONE)
		return idx;
	idx = model_context_add(&fc->contexts, ev->v[FT_CONTEXT]);
	if (idx == FT_NONE) {
		m->error = 1;
		return FT_NONE;
	}
	c = ft_context_at(&fc->contexts, idx);
	c->first_ts = ev->ts;
	ft_event_str(m->dec, ev, FT_DRIVER, driver, sizeof(driver));
	ft_event_str(m->dec, ev, FT_TIMELINE, name, sizeof(name));
	if (is_merge_driver(driver))
		c->flags = FT_CTX_MERGE;
	c->row = is_crtc_name(name) ? FT_NONE : group_get(m, driver, name, c->flags & FT_CTX_MERGE);
	if (c->row == FT_NONE || fc->each_context)
		return row_new(m, c, driver, name) ? idx : FT_NONE;
	if (c->flags & FT_CTX_MERGE)
		fc->groups.items[c->row].contexts++;
	return idx;
}

/* The far part of context @ctx, made on first need; NULL: memory ran out. */
static struct ft_context_far *far_get(struct ft_model *m, uint32_t ctx)
{
	struct ft_fences *fc = &m->fences;
	struct ft_context *c = ft_context_at(&fc->contexts, ctx);
	struct ft_context_far *far;
	uint32_t idx;

	if ((c->flags & FT_CTX_FAR) && keymap_get(&fc->far_of, ctx, &idx))
		return &fc->far.items[idx];
	if (vec_reserve(&fc->far, fc->far.n) || keymap_put(&fc->far_of, ctx, fc->far.n)) {
		m->error = 1;
		return NULL;
	}
	far = vec_push(&fc->far);
	far->latency = c->latency;
	c->flags |= FT_CTX_FAR;
	return far;
}

/* Lone context @ctx's one fence signalled: kept until its row is known. */
void model_context_signaled(struct ft_model *m, uint32_t ctx, uint64_t latency, int emitted,
			    uint64_t emit_latency)
{
	struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);
	struct ft_context_far *far;

	c->flags |= FT_CTX_SIGNALED | (emitted ? FT_CTX_EMITTED : 0);
	if (!emitted && latency < UINT32_MAX && !(c->flags & FT_CTX_FAR)) {
		c->latency = (uint32_t)latency;
		return;
	}
	far = far_get(m, ctx);
	if (!far)
		return;
	far->latency = latency;
	far->emit_latency = emitted ? emit_latency : 0;
}

/* An error on lone context @ctx's fence (or on one from before the trace). */
void model_context_error(struct ft_model *m, uint32_t ctx)
{
	struct ft_context_far *far = far_get(m, ctx);

	if (far)
		far->errors++;
}

/* What lone context @ctx keeps of its fence: latencies, errors. */
static struct ft_context_far pending_of(const struct ft_model *m, uint32_t ctx)
{
	const struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);
	struct ft_context_far p = { .latency = c->latency };
	uint32_t idx;

	if ((c->flags & FT_CTX_FAR) && keymap_get(&m->fences.far_of, ctx, &idx))
		p = m->fences.far.items[idx];
	return p;
}

/* The one fence (or none) that lone context @ctx kept, into row @t. */
static void pending_into(struct ft_model *m, struct ft_timeline *t, uint32_t ctx)
{
	const struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);
	struct ft_context_far p = pending_of(m, ctx);
	uint64_t last = c->first_ts + (c->flags & FT_CTX_SIGNALED ? p.latency : 0);

	t->fences += !!(c->flags & FT_CTX_FENCED);
	t->errors += p.errors;
	t->destroyed_unsignaled += !!(c->flags & FT_CTX_DESTROYED);
	t->unsignaled_at_end += !!(c->flags & FT_CTX_UNSIGNALED_AT_END);
	if (!t->first_ts || c->first_ts < t->first_ts)
		t->first_ts = c->first_ts;
	t->last_ts = last > t->last_ts ? last : t->last_ts;
	if (!(c->flags & FT_CTX_SIGNALED))
		return;
	t->signaled++;
	if (hist_add(&t->latency, p.latency) ||
	    ((c->flags & FT_CTX_EMITTED) && hist_add(&t->emit_latency, p.emit_latency)))
		m->error = 1;
}

/* A lone context's second fence: from now on it is a row of its own. */
struct ft_timeline *model_context_promote(struct ft_model *m, uint32_t ctx)
{
	struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);
	const struct ft_timeline *g = &m->fences.groups.items[c->row];
	struct ft_timeline *t = row_new(m, c, g->driver, g->name);

	if (!t)
		return NULL;
	pending_into(m, t, ctx);
	c->flags &= ~FT_CTX_PENDING;
	return t;
}

/* Own row @t (every context's: each_context) counted into group @g as well. */
static void row_into(struct ft_model *m, struct ft_timeline *g, const struct ft_timeline *t)
{
	g->fences += t->fences;
	g->signaled += t->signaled;
	g->errors += t->errors;
	g->destroyed_unsignaled += t->destroyed_unsignaled;
	g->unsignaled_at_end += t->unsignaled_at_end;
	g->out_of_order += t->out_of_order;
	g->key_reused += t->key_reused;
	g->duplicates += t->duplicates;
	g->members += t->members;
	if (!g->first_ts || t->first_ts < g->first_ts)
		g->first_ts = t->first_ts;
	g->last_ts = t->last_ts > g->last_ts ? t->last_ts : g->last_ts;
	if (hist_merge(&g->latency, &t->latency) || hist_merge(&g->emit_latency, &t->emit_latency))
		m->error = 1;
}

/*
 * The end of the trace: lone contexts into their groups; with
 * each_context, every context that a group counts (merges, and contexts
 * that held one fence or none) summed into it as well.
 */
void model_contexts_finish(struct ft_model *m)
{
	struct ft_fences *fc = &m->fences;

	for (uint32_t i = 0; i < fc->contexts.n; i++) {
		const struct ft_context *c = ft_context_at(&fc->contexts, i);
		struct ft_timeline *t = c->flags & FT_CTX_OWN ? &fc->timelines.items[c->row] : NULL;
		uint32_t group = t ? t->home : c->row;
		struct ft_timeline *g = group != FT_NONE ? &fc->groups.items[group] : NULL;

		if (!g || (!t && (c->flags & FT_CTX_MERGE)))
			continue;
		if (!t) {
			pending_into(m, g, i);
			g->contexts++;
		} else if ((c->flags & FT_CTX_MERGE) || t->fences <= 1) {
			row_into(m, g, t);
			t->group = group;
			g->contexts++;
		}
	}
}

void model_contexts_free(struct ft_fences *fc)
{
	for (unsigned int i = 0; i < fc->groups.n; i++) {
		hist_free(&fc->groups.items[i].latency);
		hist_free(&fc->groups.items[i].emit_latency);
	}
	vec_free(&fc->groups);
	vec_free(&fc->far);
	keymap_free(&fc->far_of);
	model_context_table_free(&fc->contexts);
	keymap_free(&fc->group_of_name);
}
