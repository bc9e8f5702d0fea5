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
 * Lanes by "name|sub line", each with the spans it draws: a CRTC's commits
 * and out-fences (each commit of the workload asks for an out-fence, so
 * as many of each), a plane's in-fence waits, a timeline's fences, a
 * task's waits.  Plane lanes are keyed by name only (their sub line names
 * the CRTC by index, which the report does not give).
 */
export function expectedLanes(rep) {
  const lanes = new Map(), onCrtc = new Set();
  for (const c of rep.crtcs) {
    const t = outTimeline(rep, c);
    if (t) onCrtc.add(t);
    lanes.set(`${c.name || 'CRTC ' + c.crtc}|${c.driver} · ${t ? t.timeline : '?'}`, t ? 2 * t.fences : 0);
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

// Late frames whose blocking fence is known: an arrow each, from the
// blocking fence's signal (on its timeline's lane) to where the frame
// landed (on its CRTC's lane): its out-fence's signal (a flip the trace
// holds lies microseconds from it), never the end of the trace.
export function expectedArrows(rep) {
  const arrows = [];
  for (const c of rep.crtcs)
    for (const l of c.late_frames)
      if (l.blocking && l.blocking.context !== null && l.blocking.signal_ns !== null)
        arrows.push({ from: l.blocking.signal_ns, to: l.signal_ns, crtc: c.name || 'CRTC ' + c.crtc,
                      timeline: `${l.blocking.timeline}|${l.blocking.driver} · context ${l.blocking.context}` });
  return arrows;
}

// The stalls that held up a frame: the waits a user looks for.
export const blockedWaits = rep => rep.stalls.filter(s => s.out_fence_seqno !== null && s.signaled);
