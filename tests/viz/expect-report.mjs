// SPDX-License-Identifier: GPL-2.0
// expect-report.mjs - what the timeline page of a trace must show, from
// `fence-trace report --json` of the same trace (the analyses' own
// output, not the page's data): its lanes with their labels and span
// counts, its late-frame arrows, its blocked waits.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function reportOf(trace) {
  const ft = process.env.FENCE_TRACE || join(here, '../../build/bin/fence-trace');
  return JSON.parse(execFileSync(ft, ['report', '--json', trace], { maxBuffer: 64 << 20 }).toString());
}

// The out-fence timeline of a CRTC: DRM names it "CRTC:<id>-<name>".
const outTimeline = (rep, c) => rep.timelines.find(t => t.timeline.startsWith(`CRTC:${c.crtc}-`));

/*
 * The series' atomic commits and flips in @trace, as trace-cmd (not
 * fence-trace) reads them: commits[crtc index] counts the commits on that
 * CRTC (TEST_ONLY ones left out: nothing reaches the screen), flipNs[commit
 * id] is the time of its drm_fence_flip_done, refusedOnly[CRTC id] counts
 * the commits refused before drm_fence_commit (named by their out-fence's
 * drm_fence_out_discard alone).  null when the trace has
 * no drm_fence_commit event (a stock kernel's).
 */
export function seriesCommits(trace) {
  const text = execFileSync('trace-cmd', ['report', trace],
                            { maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const commits = [], flipNs = new Map(), seen = new Set(), discarded = new Map();
  let any = false;
  for (const line of text.split('\n')) {
    const m = /\s(\d+)\.(\d{6}): (drm_fence_commit|drm_fence_flip_done|drm_fence_out_discard):\s+commit=(\d+) (.*)$/.exec(line);
    if (!m) continue;
    if (m[3] === 'drm_fence_flip_done') {
      flipNs.set(Number(m[4]), Number(m[1]) * 1e9 + Number(m[2]) * 1e3);
      continue;
    }
    if (m[3] === 'drm_fence_out_discard') {	// a commit refused in its check has no drm_fence_commit
      discarded.set(Number(m[4]), Number((/crtc=(\d+)/.exec(m[5]) || [])[1]));
      continue;
    }
    any = true;
    seen.add(Number(m[4]));
    const mask = /crtc_mask=0x([0-9a-f]+)/.exec(m[5]), flags = /flags=(\S*)/.exec(m[5]);
    if (!mask || (flags && flags[1].includes('TEST_ONLY'))) continue;
    const bits = parseInt(mask[1], 16);
    for (let i = 0; i < 32; i++)
      if (bits & (1 << i)) commits[i] = (commits[i] || 0) + 1;
  }
  // by CRTC object id: the refused commits only their out-fence's discard names
  const refusedOnly = new Map();
  for (const [id, crtc] of discarded)
    if (!seen.has(id)) refusedOnly.set(crtc, (refusedOnly.get(crtc) || 0) + 1);
  return any ? { commits, flipNs, refusedOnly } : null;
}

/*
 * Lanes by "name|sub line", each with the spans it draws: a CRTC's commits
 * and out-fences (with the series, the commits the trace holds; without
 * it, one inferred commit per out-fence), its frames expected (those
 * judged) and actual (all that landed), its failed frames (those the
 * report keeps), a plane's in-fence waits, a
 * timeline's fences, a task's waits.  Plane lanes are keyed by name only
 * (their sub line names the CRTC by index, which the report does not give).
 */
export function expectedLanes(rep, series) {
  const lanes = new Map(), onCrtc = new Set();
  for (const c of rep.crtcs) {
    const t = outTimeline(rep, c);
    if (t) onCrtc.add(t);
    const commits = series ? (series.commits[c.index] || 0) + (series.refusedOnly.get(c.crtc) || 0)
      : t ? t.fences : 0;
    lanes.set(`${c.name || 'CRTC ' + c.crtc}|${c.driver} · ${t ? t.timeline : '?'}`, t ? t.fences + commits : commits);
  }
  // the frame timeline: an expected lane (the frames judged) and an actual one (every frame that
  // landed), and a failed one (the failed frames kept) where there are any
  for (const f of rep.frames) {
    const c = rep.crtcs.find(c => c.crtc === f.crtc), name = c && c.name ? c.name : 'CRTC ' + f.crtc;
    if (f.new_vblanks > 0) {
      lanes.set(`${name} expected|commit → target vblank`, f.judged);
      lanes.set(`${name} actual|commit → landed vblank, by class`, f.new_vblanks);
    }
    if (f.failed_frames.length > 0)
      lanes.set(`${name} failed|rejected: out-fence made → dropped`, f.failed_frames.length);
  }
  for (const p of rep.waits.by_plane)
    lanes.set(`plane ${p.plane}|in-fence waits`, p.waits);
  for (const t of rep.timelines)
    if (!onCrtc.has(t))
      lanes.set(`${t.timeline}|${t.driver} · context ${t.context}`, t.fences);
  for (const t of rep.waits.by_task)
    lanes.set(`${t.comm}-${t.pid}|waits`, t.waits);
  return lanes;
}

// The drawn lane's key in expectedLanes()'s terms.
export const laneKey = l => l.name.startsWith('plane ') ? l.name + '|' + l.sub.replace(/ · CRTC .*$/, '')
                                                         : l.name + '|' + l.sub;

// The frames section's class of a late frame (crtc, out-fence seqno).
const classOf = (rep, crtc, seq) => {
  const f = rep.frames.find(f => f.crtc === crtc), l = f && f.late_frames.find(l => l.out_fence_seqno === seq);
  return l ? l : null;
};

// Late frames whose in-fence signalled past the deadline (class producer,
// or producer contributing) and whose blocking fence is known: an arrow each, from the
// blocking fence's signal (on its timeline's lane) to where the frame
// landed (on its CRTC's lane): its commit's flip when the trace holds one,
// else its out-fence's signal; never the end of the trace.  Both are
// given (to, toAlt): the out-fence's dma_fence_signaled event follows the
// flip, by microseconds, or by milliseconds when a TCG vCPU was held up
// in between.
export function expectedArrows(rep, series) {
  const arrows = [];
  for (const c of rep.crtcs)
    for (const l of c.late_frames) {
      const k = classOf(rep, c.crtc, l.out_fence_seqno);
      if (!k || (k.class !== 'producer' && !k.contributing.includes('producer')))
        continue;
      if (l.blocking && l.blocking.context !== null && l.blocking.signal_ns !== null)
        arrows.push({ from: l.blocking.signal_ns, to: l.signal_ns,
                      toAlt: series && series.flipNs.has(l.commit) ? series.flipNs.get(l.commit) : l.signal_ns,
                      crtc: c.name || 'CRTC ' + c.crtc,
                      timeline: `${l.blocking.timeline}|${l.blocking.driver} · context ${l.blocking.context}` });
    }
  return arrows;
}

// The stalls that held up a frame: the waits a user looks for.
export const blockedWaits = rep => rep.stalls.filter(s => s.out_fence_seqno !== null && s.signaled);
