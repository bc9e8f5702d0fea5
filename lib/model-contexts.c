// SPDX-License-Identifier: GPL-2.0
/*
 * model-contexts.c - fence contexts and the rows they are counted in (see
 * struct ft_timeline and struct ft_context in model.h).
 *
 * Real drivers and every SYNC_IOC_MERGE take a fresh context per fence, so
 * contexts grow with the trace while named timelines do not.  A context
 * costs a struct ft_context (and its keymap slot); a row with histograms
 * goes only to a context that holds a second fence (or a CRTC's), and to
 * each group.  A merge context's fences count in its group at once (merges
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

/* Context @c's own row, named @driver @name. */
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
	snprintf(t->driver, sizeof(t->driver), "%s", driver);
	snprintf(t->name, sizeof(t->name), "%s", name);
	c->timeline = fc->timelines.n - 1;
	model_timeline_created(m, t);
	return t;
}

/**
 * model_context_get() - the context of @ev, created on first sight
 *
 * Return: it, or NULL when memory ran out (m->error is set).
 */
struct ft_context *model_context_get(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fences *fc = &m->fences;
	char driver[MODEL_NAME_LEN], name[MODEL_NAME_LEN];
	struct ft_context *c;
	uint32_t idx;

	if (keymap_get(&fc->of_context, ev->v[FT_CONTEXT], &idx))
		return &fc->contexts.items[idx];
	if (vec_reserve(&fc->contexts, fc->contexts.n) ||
	    keymap_put(&fc->of_context, ev->v[FT_CONTEXT], fc->contexts.n)) {
		m->error = 1;
		return NULL;
	}
	c = vec_push(&fc->contexts);
	c->context = ev->v[FT_CONTEXT];
	c->first_ts = ev->ts;
	c->timeline = c->group = FT_NONE;
	ft_event_str(m->dec, ev, FT_DRIVER, driver, sizeof(driver));
	ft_event_str(m->dec, ev, FT_TIMELINE, name, sizeof(name));
	if (is_merge_driver(driver))
		c->flags = FT_CTX_MERGE;
	if (!is_crtc_name(name))
		c->group = group_get(m, driver, name, c->flags & FT_CTX_MERGE);
	if (c->group == FT_NONE || fc->each_context)
		return row_new(m, c, driver, name) ? c : NULL;
	if (c->flags & FT_CTX_MERGE)
		fc->groups.items[c->group].contexts++;
	return c;
}

/* The one fence (or none) that lone context @c kept, into row @t. */
static void pending_into(struct ft_model *m, struct ft_timeline *t, const struct ft_context *c)
{
	uint64_t last = c->first_ts + (c->flags & FT_CTX_SIGNALED ? c->latency : 0);

	t->fences += c->fences;
	t->errors += c->errors;
	t->destroyed_unsignaled += !!(c->flags & FT_CTX_DESTROYED);
	t->unsignaled_at_end += !!(c->flags & FT_CTX_UNSIGNALED_AT_END);
	if (!t->first_ts || c->first_ts < t->first_ts)
		t->first_ts = c->first_ts;
	t->last_ts = last > t->last_ts ? last : t->last_ts;
	if (!(c->flags & FT_CTX_SIGNALED))
		return;
	t->signaled++;
	if (hist_add(&t->latency, c->latency) ||
	    ((c->flags & FT_CTX_EMITTED) && hist_add(&t->emit_latency, c->emit_latency)))
		m->error = 1;
}

/* A lone context's second fence: from now on it is a row of its own. */
struct ft_timeline *model_context_promote(struct ft_model *m, struct ft_context *c)
{
	const struct ft_timeline *g = &m->fences.groups.items[c->group];
	struct ft_timeline *t = row_new(m, c, g->driver, g->name);

	if (!t)
		return NULL;
	pending_into(m, t, c);
	c->flags &= FT_CTX_MERGE;
	c->errors = 0;
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

	for (unsigned int i = 0; i < fc->contexts.n; i++) {
		struct ft_context *c = &fc->contexts.items[i];
		struct ft_timeline *g = c->group != FT_NONE ? &fc->groups.items[c->group] : NULL;

		if (!g || (c->timeline == FT_NONE && (c->flags & FT_CTX_MERGE)))
			continue;
		if (c->timeline == FT_NONE) {
			pending_into(m, g, c);
			g->contexts++;
		} else if ((c->flags & FT_CTX_MERGE) || c->fences <= 1) {
			struct ft_timeline *t = &fc->timelines.items[c->timeline];

			row_into(m, g, t);
			t->group = c->group;
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
	vec_free(&fc->contexts);
	keymap_free(&fc->of_context);
	keymap_free(&fc->group_of_name);
}
