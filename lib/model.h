/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the fence and display model built from decoded events, in one
 * streaming pass: timelines (fence contexts), live fences, waits, CRTCs,
 * vblank pipes, and the late frames found on the way.  Memory follows the
 * live fences and the number of timelines, not the number of events.
 *
 * A fence's key is (context, seqno), both truncated to 32 bits by the
 * dma_fence events.  Every dma_fence_init is a fence of its own, even when
 * its key is live: then it is either a duplicate (sw_sync makes one for a
 * value already pending and drops it at once: counted as duplicates, not
 * as destroyed unsignalled) or a collision (stub fences are all (0, 0);
 * 64-bit seqnos that differ only above bit 31): counted as key_reused,
 * both fences live on.  A key reused after its fence was destroyed is
 * neither: a new fence, and a seqno regression if it goes back.
 *
 * Which of a key's live fences an event means: with the series (patch
 * 0005), the dma_fence events carry the fence's identity (the kernel's
 * dma_fence_trace_id(), field "fence"), and the event means the live
 * fence made with it, exactly.  Without it (a stock kernel, record --bpf's
 * files, where it is 0), model-identity.c infers it from the order of
 * events and the tasks that sent them.
 */
#ifndef FENCE_TRACE_MODEL_H
#define FENCE_TRACE_MODEL_H

#include <stdint.h>

#include "decode.h"
#include "hist.h"
#include "model-frames.h"
#include "keymap.h"
#include "vec.h"

#define MODEL_NAME_LEN 48
#define MODEL_MAX_INFLIGHT 64		/* unsignalled out-fences tracked per trace */
#define MODEL_VBLANK_RING 256		/* recent vblanks remembered per pipe */
#define MODEL_LANDED_RING 16		/* frames that landed, for passes beside the model */
#define MODEL_MAX_LATE 4096		/* late frames kept with full detail */
#define MODEL_MAX_REPEAT_RUNS 4096	/* runs of repeated vblanks kept (idle ones: counted) */
#define MODEL_MAX_FAILED 1024		/* failed frames kept with detail, per CRTC */
#define MODEL_MAX_WAITS 256		/* waits in progress at one time */
#define MODEL_LONG_WAIT_NS 1000000ull	/* a wait this long really waited */
#define MODEL_STALL_NS 33000000ull	/* default: report waits this long as stalls */
#define MODEL_MAX_LOST_WINDOWS 1024	/* spans with lost events, kept exactly */
#define MODEL_MAX_MEMBERS 8		/* members of a merged fence remembered */

/*
 * A row of the timelines table: one fence context's own (a context that
 * held two fences or more, or a CRTC's), or a group of contexts.  Groups
 * gather what would otherwise be thousands of one-fence rows: contexts
 * that only ever held one fence, by driver and timeline name, and the
 * merges (dma_fence_array, dma_fence_chain), by kind.  Per context, the
 * model keeps only a struct ft_context unless asked for every context's
 * row (model.fences.each_context: --by context, the timeline page).
 */
struct ft_timeline {
	uint64_t context;		/* own rows; groups 0 */
	char driver[MODEL_NAME_LEN], name[MODEL_NAME_LEN];
	uint64_t fences, signaled, destroyed_unsignaled, unsignaled_at_end;
	uint64_t errors;		/* signalled with an error (series' dma_fence_error) */
	uint64_t out_of_order;		/* seqno not after the last init's (key not live) */
	uint64_t key_reused;		/* created while its key was live: collisions */
	uint64_t duplicates;		/* ... and dropped at once (model-identity.c) */
	uint64_t first_ts, last_ts;	/* span of its events, for lost-event checks */
	int crtc;			/* index in model.display.crtcs, or -1 */
	uint32_t group;			/* own rows: the group that counts it too, or
					 * FT_NONE (each_context only; else FT_NONE) */
	uint32_t home;			/* own rows: the group of its driver and name
					 * (FT_NONE: a CRTC's) */
	int merge;			/* groups: of merged fences (by driver) */
	uint64_t contexts;		/* groups: the contexts counted in it */
	uint64_t members;		/* members named by dma_fence_member (series) */
	struct hist latency;		/* init -> signaled */
	struct hist emit_latency;	/* emit -> signaled */
};

#define FT_NONE UINT32_MAX
/* Direct-mapped by pid in front of ft_fences.made_last: looked up on every
 * dma_fence event, so one probe, not a hash map's. */
#define FT_MADE_LAST_CACHE 1024

/*
 * Every fence context, in 32 bytes: contexts grow with the trace (a merge
 * or a real driver's job takes a fresh one), so this is what a long trace
 * pays per context.  A context whose single fence has not (yet) earned it
 * a row of its own keeps that fence's outcome here; it goes into its
 * group's row at the end of the trace, or into the context's own row if a
 * second fence comes.  What few such fences need beyond 32 bits of
 * latency (an emit, an error, a latency of 4.3 s or more) waits in a
 * struct ft_context_far instead.
 */
struct ft_context {
	uint64_t context;
	uint64_t first_ts;		/* its first event */
	uint32_t row;			/* FT_CTX_OWN: its own row in fences.timelines;
					 * else its group's in fences.groups */
	uint32_t last_seqno;		/* of its last dma_fence_init */
	uint32_t latency;		/* of its one fence, when signalled (not FT_CTX_FAR) */
	uint32_t flags;			/* FT_CTX_* */
};

enum {
	FT_CTX_MERGE = 1,		/* a dma_fence_array or _chain context */
	FT_CTX_OWN = 2,			/* row is its own */
	FT_CTX_FENCED = 4,		/* has held a fence */
	/* its one fence, pending (below): */
	FT_CTX_SIGNALED = 8,
	FT_CTX_EMITTED = 16,
	FT_CTX_DESTROYED = 32,		/* ... destroyed unsignalled */
	FT_CTX_UNSIGNALED_AT_END = 64,
	FT_CTX_FAR = 128,		/* its latency, emit latency, errors: in fences.far */
	FT_CTX_WAITED = 256,		/* counted in its group's waits row (model-wait.c) */
	FT_CTX_POLLED = 512,		/* ... polls row */
	FT_CTX_PENDING = FT_CTX_SIGNALED | FT_CTX_EMITTED | FT_CTX_DESTROYED |
			 FT_CTX_UNSIGNALED_AT_END | FT_CTX_FAR,
};

/* A pending fence's latencies and errors that struct ft_context lacks room for. */
struct ft_context_far {
	uint64_t latency, emit_latency;
	uint32_t errors;
};

/*
 * The fence contexts, in the order first seen: in chunks that never move
 * or grow (no doubling slack, no copy), and an index by context id of 4
 * bytes a slot (the id is in the context itself).
 */
#define FT_CTX_CHUNK 2048u

struct ft_contexts {
	VEC(struct ft_context *) chunks;	/* FT_CTX_CHUNK contexts each */
	unsigned int n;
	uint32_t *index;		/* 1 + place in chunks, at the id's hash; 0 free */
	uint32_t index_cap;
};

/* Context @i (< @cs->n) of @cs. */
static inline struct ft_context *ft_context_at(const struct ft_contexts *cs, uint32_t i)
{
	return &cs->chunks.items[i / FT_CTX_CHUNK][i % FT_CTX_CHUNK];
}

struct ft_fence {
	uint64_t key;
	uint64_t id;			/* the kernel's identity of it (series), 0 none */
	uint32_t ctx, seqno;		/* ctx: index in model.fences.contexts */
	uint64_t init_ts, emit_ts, signal_ts;
	int init_pid;
	int signaled;
	uint32_t newer;			/* the next newer live fence of its key, or FT_NONE */
	int twinned;			/* has shared its key with another live fence */
	int error;			/* from dma_fence_error (series), 0 none */
	uint32_t members;		/* 1 + index in model.members.sets, 0 none */
	uint32_t long_wait;		/* out-fences: 1 + index of a long wait it ends */
	/* out-fences (CRTC timelines) only: the commit's critical path */
	int is_out;
	uint64_t block_key, block_start, block_end, block_signal;
	uint64_t block_via;		/* the merged fence waited on, 0 none */
	int block_long;			/* that wait took >= MODEL_LONG_WAIT_NS */
	int block_pid;
	int block_signal_known;		/* block_signal was traced, not the wait's end */
	int in_error;			/* an in-fence it waited on had this error (series) */
	uint64_t discard_commit;	/* series: the failed commit that discarded it, 0 none */
	int discard_err;		/* that commit's error */
	struct ft_wakeup block_wakeup;	/* the blocking wait's waiter: woken, run (sched) */
};

struct ft_task_name {
	char comm[16];
};

/* An open wait's task as the scheduler's events follow it (model-sched.c). */
struct ft_wake_track {
	uint64_t ts;			/* its last sched_wakeup in the wait, 0 none */
	uint64_t from;			/* holders count from here: the wakeup, or when
					 * it left the CPU it was woken on */
	uint64_t held_ns;
	int cpu;			/* woken onto */
	int held_by;			/* longest holder so far, FT_HELD_UNKNOWN none */
	int ran;			/* switched in since */
	int on_cpu;			/* woken while still running: no switch in needed */
};

struct ft_open_wait {
	int pid;
	uint64_t key, start;
	struct ft_wake_track wake;
};

struct ft_wait_stat {
	uint64_t id;			/* pid, context index, plane id, or
					 * FT_WAIT_GROUP | group index */
	uint64_t count, total_ns, max_ns;
	uint64_t interrupted;		/* ended before the fence signalled (a plane
					 * wait: with an error); polls: 0 */
	uint64_t contexts;		/* FT_WAIT_GROUP rows: the contexts summed */
	struct hist h;
};

/* A by_timeline id: a group's row, where its merge contexts' waits go (model-wait.c). */
#define FT_WAIT_GROUP (1ull << 63)

struct ft_pipe {
	int pipe;
	uint64_t vblanks, missed;
	uint32_t last_seq;
	uint64_t last_ts;
	struct hist period;
	uint64_t ring_ts[MODEL_VBLANK_RING];
	uint32_t ring_seq[MODEL_VBLANK_RING];
	unsigned int ring_n, ring_head;
};

struct ft_crtc {
	uint32_t crtc_id;
	char name[MODEL_NAME_LEN];
	char driver[MODEL_NAME_LEN];	/* of its out-fences: the KMS driver */
	uint64_t context;
	unsigned int timeline;		/* its out-fence timeline (an own row) */
	int pipe;			/* learnt from signal/vblank pairing; -1 unknown */
	uint64_t frames, unpaired, fake_vblank, late_count;
	uint64_t discarded;		/* out-fences of failed commits (series) */
	struct hist out_latency;
	struct ft_late_frame *late;
	unsigned int n_late;
	struct ft_failed_frame *failed;	/* the first MODEL_MAX_FAILED */
	unsigned int n_failed;
	struct ft_repeat_run *runs;	/* the first MODEL_MAX_REPEAT_RUNS, idle aside */
	unsigned int n_runs;
	uint64_t runs_total;
	struct ft_frame_stats fs;
};

/*
 * When @l was ready from @from on (its submission, or its commit tail's
 * start): its last in-fence signalled, its waiter woken, no earlier
 * commit in the way.
 */
static inline uint64_t ft_late_ready_from(const struct ft_late_frame *l, uint64_t from)
{
	uint64_t r = from;

	if (l->woken_ns > r)
		r = l->woken_ns;
	if (l->ready_ns > r)
		r = l->ready_ns;
	if (l->queued_until_ns > r)
		r = l->queued_until_ns;
	return r;
}

/* Frames of @c judged against a known target vblank: on time or late. */
static inline uint64_t ft_frames_judged(const struct ft_crtc *c)
{
	return c->fs.on_time + c->late_count;
}

/* A commit in flight, from the series' events (drm_fence:*). */
struct ft_commit {
	uint64_t id, ts, out_key;
	int pid, has_out;
	uint32_t flags, crtc;
	int block_known, block_long, block_plane;
	uint64_t block_key, block_wait_ns, block_end, block_via;
	uint64_t block_signal;		/* its fence's signal, or the wait's end */
	uint64_t stall_end;		/* it stopped waiting for an earlier commit */
	uint64_t tail_ns, hw_done_ns;	/* its commit tail began; hw_done; 0 untraced */
	int block_pid;			/* the task of the plane wait that blocked it */
	int in_error;			/* an in-fence it waited on had this error */
};

struct ft_failed_commit {
	uint64_t commit, ts;
	int err, had_out_fence;
	uint32_t crtc;
	int discarded;			/* drm_fence_out_discard named its out-fence */
	uint64_t discarded_context, discarded_seqno;
};

struct ft_commit_stall {		/* a commit waiting behind an earlier one */
	uint64_t commit, ts, duration_ns;
	int64_t waits_on;		/* the earlier commit, -1 unknown */
	uint32_t crtc;
	int stage, ret;			/* enum ft_stall_stage; what the wait returned */
};

#define MODEL_MAX_LISTED 1024		/* failed commits, stalls kept with detail */
#define MODEL_MAX_POLLS 256		/* sync_file polls in progress */
#define MODEL_POLLS_DONE 64		/* sync_file polls that ended, kept */
#define MODEL_CLEANED_COMMITS 64	/* commits kept past cleanup for their out-fence */

struct ft_open_poll {
	uint64_t sync_file, start, key;
	int pid;
};

/* What became of the commit a long wait held up. */
enum ft_outcome {
	FT_OUTCOME_UNKNOWN,		/* no commit, or the trace ended first */
	FT_OUTCOME_SHOWN,		/* its out-fence signalled: the frame went out */
	FT_OUTCOME_DISCARDED,		/* the commit failed, out-fence discarded (series) */
	FT_OUTCOME_DROPPED,		/* out-fence destroyed unsignalled */
};

/* A dma_fence wait that lasted at least the stall threshold. */
struct ft_long_wait {
	uint64_t start, end, key;
	int pid;
	int signaled;			/* was the fence signalled when the wait ended? */
	int error;			/* the fence's error (series' dma_fence_error), 0 none */
	uint32_t out_seqno;		/* the out-fence of the commit it held up, 0 none */
	uint64_t out_context;
	uint64_t member_key;		/* merged fence: the member that signalled last, 0 none */
	int member_error;
	uint64_t commit;		/* series: the commit and plane whose wait it was, 0 none */
	uint32_t plane;
	int ret_known, ret;		/* series: what the commit's wait returned */
	enum ft_outcome outcome;
	uint64_t outcome_ts;
	int outcome_err;		/* DISCARDED: the commit's error */
};

/* The members of a live merged fence (series' dma_fence_member). */
struct ft_member_set {
	uint64_t container;		/* its key; 0 when the slot is free */
	unsigned int n, total;		/* kept, and named by the events */
	uint64_t keys[MODEL_MAX_MEMBERS];
};

/*
 * Per CPU: the last drm_vblank_event_delivered, then the out-fence signal
 * it was paired with, waiting for the drm_vblank_event (same pipe and
 * sequence) that a real vblank interrupt traces next.  Drivers without
 * vblank interrupts (fake vblank at commit completion) never trace it.
 */
struct ft_delivered {
	int valid, pipe;
	uint32_t seq;
	uint64_t ts;
	int pending;			/* a signal awaits its vblank event */
	unsigned int crtc;
	struct ft_late_frame frame;
	int no_target;			/* the frame's target vblank is not known */
};

/* Fences and timelines (model-fences.c); lookups in model-store.c. */
/*
 * Which live fence the last init, signal or destroy meant (slots of
 * ft_fences.slab; FT_NONE: none), for passes that follow fences beside
 * the model (timeline-collect.c) and must not guess again from the key.
 */
struct ft_fence_step {
	uint32_t slot;		/* made, signalled or destroyed; FT_NONE: no live
				 * fence (made before the trace, a duplicate never
				 * traced, a signal of an already signalled key) */
	uint32_t given;		/* a duplicate's destroy: the fence its signal
				 * went back to (model-identity.c), else FT_NONE */
	uint8_t duplicate;	/* the destroy was a duplicate's */
};

struct ft_fences {
	VEC(struct ft_timeline) timelines;	/* own rows */
	VEC(struct ft_timeline) groups;
	struct ft_contexts contexts;
	VEC(struct ft_context_far) far;		/* of FT_CTX_FAR contexts */
	struct keymap far_of;			/* context index -> index in far */
	struct keymap group_of_name;		/* hash of driver, name -> groups */
	int each_context;			/* every context gets its own row too */
	VEC(struct ft_fence) slab;	/* live fences, and free slots (key 0) */
	struct vec_free free;
	struct keymap of_key;
	struct keymap of_id;		/* identity -> slot, for fences made with one */
	int have_ids;			/* an init carried one: events are followed by it */
	struct keymap made_last;	/* pid -> slot of the fence its last dma_fence event
					 * made (its init), while it did nothing since; the
					 * pids the cache below has no room for */
	struct ft_made_last { int32_t pid; uint32_t slot; } made_last_cache[FT_MADE_LAST_CACHE];
	uint64_t signal_unknown;	/* signals of fences created before the trace */
	struct ft_fence_step step;	/* what the last dma_fence event did */
};

struct ft_wait_stats {
	VEC_FIELDS(struct ft_wait_stat);
	struct keymap of_id;		/* id -> index in items */
};

/* dma_fence waits, sync_file polls, plane waits (model-wait.c). */
struct ft_waits {
	struct ft_open_wait open[MODEL_MAX_WAITS];
	unsigned int n_open;
	struct ft_wait_stats by_task, by_timeline;
	struct ft_open_poll open_polls[MODEL_MAX_POLLS];
	unsigned int n_open_polls;
	struct ft_wait_stats poll_by_task, poll_by_timeline, by_plane;
	struct ft_long_wait long_waits[MODEL_MAX_LISTED];
	unsigned int n_long_waits;
	uint64_t long_waits_total;
	uint64_t stall_ns;		/* waits this long are listed as stalls */
	uint64_t unmatched, dropped;	/* ends without a start; starts not kept */
	/* the last sync_file polls that ended, for the repeats they explain */
	struct { uint64_t start, end; } polls_done[MODEL_POLLS_DONE];
	unsigned int polls_done_n, polls_done_head;
};

/*
 * A frame that landed, as the frame timeline judged it then (model-frames.c),
 * for passes that follow the model (timeline-collect.c reads them with
 * model_landed() after each event).
 */
enum ft_landed_outcome { FT_LANDED_NOT_JUDGED, FT_LANDED_ON_TIME, FT_LANDED_LATE };

struct ft_landed {
	uint32_t crtc;			/* index in display.crtcs */
	enum ft_landed_outcome outcome;
	int late;			/* its index in that CRTC's late frames, -1 none
					 * (the final class is there: model_frames_finish) */
	uint64_t landed_ns;		/* the vblank it landed on */
	struct ft_late_frame frame;
};

/* CRTCs, vblank pipes, out-fences in flight (model-display.c). */
struct ft_display {
	VEC(struct ft_crtc) crtcs;
	VEC(struct ft_pipe) pipes;
	uint32_t inflight[MODEL_MAX_INFLIGHT];	/* fence slots of unsignalled out-fences */
	unsigned int n_inflight;
	struct ft_delivered *delivered;		/* per CPU */
	int64_t latch_margin_ns;		/* given by the user; -1: estimate it */
	struct ft_landed landed[MODEL_LANDED_RING];	/* the last frames that landed */
	uint64_t landed_total;
};

/* Atomic commits, from the series (model-commit.c). */
/* A plane's in-fence wait begun (series), for an end that carries no duration. */
struct ft_plane_wait_open {
	uint64_t commit, ts;
	uint32_t plane;
	int open;
};

#define MODEL_OPEN_PLANE_WAITS 32	/* a commit waits on its planes one at a time */

struct ft_commits {
	VEC(struct ft_commit) slab;	/* commits in flight, and free slots */
	struct ft_plane_wait_open open_waits[MODEL_OPEN_PLANE_WAITS];
	unsigned int open_waits_next;
	struct vec_free free;
	struct keymap of_id, of_out;
	struct ft_failed_commit failed[MODEL_MAX_LISTED];
	struct ft_commit_stall stalls[MODEL_MAX_LISTED];
	unsigned int n_failed, n_stalls;
	uint64_t failed_total, stalls_total;
	/* cleaned up before their out-fence's signal was traced (see model-commit.c) */
	struct ft_commit cleaned[MODEL_CLEANED_COMMITS];
	unsigned int cleaned_next;
};

/* Members of merged fences, from the series (model-members.c). */
struct ft_members {
	VEC(struct ft_member_set) sets;
	struct vec_free free;
};

struct ft_model {
	struct ft_decoder *dec;
	struct ft_fences fences;
	struct ft_waits waits;
	struct ft_display display;
	struct ft_commits commits;
	struct ft_members members;
	/* the event stream and what it lost (model.c) */
	unsigned int n_cpus;
	uint64_t *cpu_last_ts;			/* per CPU: last event time */
	/* per CPU, from sched_switch (model-sched.c): when, and to which task */
	uint64_t *cpu_switch_ts;
	int *cpu_current;			/* -1: not seen */
	struct keymap holder_of_pid;		/* a holder's pid: index in holder_names */
	VEC(struct ft_task_name) holder_names;	/* as their switches named them */
	struct { uint64_t from, to; } lost_windows[MODEL_MAX_LOST_WINDOWS];
	unsigned int n_lost_windows;
	int lost_windows_overflow;
	uint64_t events, lost, lost_unknown, first_ts, last_ts;
	int lost_exact;			/* lost is the recorder's overrun count */
	uint64_t missing;		/* of lost: taken by the recorder, not in the file */
	int error;			/* allocation failure: the model is incomplete */
};

int model_init(struct ft_model *m, struct ft_decoder *dec, unsigned int cpus);
void model_add(struct ft_model *m, const struct ft_event *ev);
void model_finish(struct ft_model *m);
void model_free(struct ft_model *m);
int model_lost_between(const struct ft_model *m, uint64_t from, uint64_t to);
void model_lost_everywhere(struct ft_model *m);
const struct ft_fence *model_wait_commit(const struct ft_model *m, int pid, uint64_t start);
const struct ft_fence_step *model_fence_step(const struct ft_model *m);
const struct ft_landed *model_landed(const struct ft_model *m, uint64_t n);
uint32_t model_fence_slot(const struct ft_model *m, const struct ft_fence *f);
uint64_t model_late_member(const struct ft_model *m, uint64_t key, int *error);
uint32_t model_context_index(const struct ft_model *m, uint64_t context);
int model_dups_traced(const struct ft_model *m);
const struct ft_timeline *model_context_row(const struct ft_model *m, uint32_t ctx);
uint32_t model_context_timeline(const struct ft_model *m, uint32_t ctx);
uint32_t model_context_group(const struct ft_model *m, uint32_t ctx);

/* A task that held a woken waiter's CPU, named by its switch (NULL: not named). */
const char *model_holder_name(const struct ft_model *m, int pid);

#endif
