/* SPDX-License-Identifier: GPL-2.0 */
/* model-internal.h - how the model's files call each other; not for users. */
#ifndef FENCE_TRACE_MODEL_INTERNAL_H
#define FENCE_TRACE_MODEL_INTERNAL_H

#include "model.h"

/* model-store.c */
uint64_t model_event_key(const struct ft_event *ev);
struct ft_fence *model_fence_find(struct ft_model *m, uint64_t key);
const struct ft_fence *model_fence_get(const struct ft_model *m, uint64_t key);
struct ft_fence *model_fence_of_id(struct ft_model *m, uint64_t id);
uint64_t model_event_id(const struct ft_model *m, const struct ft_event *ev);
struct ft_fence *model_event_fence(struct ft_model *m, const struct ft_event *ev);
struct ft_timeline *model_context_target(struct ft_model *m, const struct ft_context *c);

/* model-context-table.c */
uint32_t model_context_find(const struct ft_contexts *cs, uint64_t context);
uint32_t model_context_add(struct ft_contexts *cs, uint64_t context);
void model_context_table_free(struct ft_contexts *cs);

/* model-contexts.c */
uint32_t model_context_get(struct ft_model *m, const struct ft_event *ev);
struct ft_timeline *model_context_promote(struct ft_model *m, uint32_t ctx);
void model_context_signaled(struct ft_model *m, uint32_t ctx, uint64_t latency, int emitted,
			    uint64_t emit_latency);
void model_context_error(struct ft_model *m, uint32_t ctx);
void model_contexts_finish(struct ft_model *m);
void model_contexts_free(struct ft_fences *fc);

/* model-identity.c */
int model_untraced_duplicate(struct ft_model *m, uint32_t ci, uint64_t key);
void model_twin_link(struct ft_model *m, struct ft_fence *oldest, uint32_t idx);
int model_twin_unlink(struct ft_model *m, struct ft_fence *f);
struct ft_fence *model_signal_target(struct ft_model *m, const struct ft_event *ev);
struct ft_fence *model_destroy_target(struct ft_model *m, const struct ft_event *ev, uint32_t made_last,
				      int *dup, uint32_t *given);
uint32_t model_made_last_take(struct ft_model *m, const struct ft_event *ev);
int model_made_last_put(struct ft_model *m, int pid, uint32_t idx);

/* model-fences.c */
void model_fence_event(struct ft_model *m, const struct ft_event *ev, uint32_t made_last);
void model_fences_finish(struct ft_model *m);
void model_fences_free(struct ft_fences *fc);

/* model-display.c */
void model_timeline_created(struct ft_model *m, struct ft_timeline *t);
void model_out_fence_created(struct ft_model *m, struct ft_fence *f);
void model_out_fence_signaled(struct ft_model *m, struct ft_fence *f, const struct ft_event *ev);
void model_inflight_remove(struct ft_model *m, uint32_t fence_idx);
void model_vblank(struct ft_model *m, const struct ft_event *ev);
void model_vblank_delivered(struct ft_model *m, const struct ft_event *ev);
void model_display_finish(struct ft_model *m);
void model_display_free(struct ft_display *d);

/* model-vblank-ring.c */
struct ft_pipe *model_pipe_find(const struct ft_model *m, int pipe);
struct ft_pipe *model_pipe_get(struct ft_model *m, int pipe);
uint64_t model_vblank_time(const struct ft_model *m, int pipe, uint32_t seq, int *estimated);
int model_target_vblank(const struct ft_pipe *p, uint64_t submit, uint32_t landing, uint32_t *seq);

/* model-frames.c */
void model_frame_landed(struct ft_model *m, struct ft_crtc *c, struct ft_late_frame *l,
			int target_known, uint64_t landed_ns);
void model_frames_finish(struct ft_model *m);
void model_frame_stage_late(struct ft_model *m, uint64_t context, uint64_t commit, int hw_done,
			    uint64_t ts);

/* model-failed-frames.c */
void model_frame_failed(struct ft_model *m, const struct ft_fence *out, uint64_t ended_ns);

/* model-commit.c */
void model_commit_event(struct ft_model *m, const struct ft_event *ev);
void model_commit_enrich(struct ft_model *m, uint64_t out_key, struct ft_late_frame *l);
void model_commits_free(struct ft_commits *cs);

/* model-members.c */
void model_fence_member(struct ft_model *m, const struct ft_event *ev);
void model_members_release(struct ft_model *m, struct ft_fence *f);
void model_members_free(struct ft_members *ms);

/* model-wait.c */
void model_long_wait_outcome(struct ft_model *m, const struct ft_fence *out, enum ft_outcome o,
			     uint64_t ts, int err);
void model_long_wait_ret(struct ft_model *m, const struct ft_event *ev, uint64_t key);
void model_poll_begin(struct ft_model *m, const struct ft_event *ev, uint64_t key);
void model_poll_ready(struct ft_model *m, const struct ft_event *ev);
void model_plane_wait_done(struct ft_model *m, uint32_t plane, uint64_t ns, int ret);
void model_wait_start(struct ft_model *m, const struct ft_event *ev, uint64_t key);
void model_wait_end(struct ft_model *m, const struct ft_event *ev, uint64_t key);
void model_sched_wakeup(struct ft_model *m, const struct ft_event *ev);
void model_sched_switch(struct ft_model *m, const struct ft_event *ev);
struct ft_wakeup model_wakeup_of(const struct ft_open_wait *o, uint64_t end, uint64_t signal_ts);
void model_waits_free(struct ft_waits *w);

#endif
