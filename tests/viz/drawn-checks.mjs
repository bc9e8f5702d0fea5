// SPDX-License-Identifier: GPL-2.0
// drawn-checks.mjs - the timeline page checked by what it draws against
// what `fence-trace report --json` says of the same trace: a label per
// lane, the spans each lane draws, an arrow per late frame from its
// blocking fence's signal to where it landed, and each wait that held up a frame
// painted in the legend's colours.  Colours come from the legend (what a
// user reads them by), positions from the view range the page prints.
import { drawnFrame, hexOf } from './canvas-log.mjs';
import { countSpans, showRange } from './span-count.mjs';
import { reportOf, seriesCommits, expectedLanes, laneKey, expectedArrows, blockedWaits } from './expect-report.mjs';

const settle = page => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
const sorted = a => [...a].sort();
const TOLERANCE_PX = 2;

async function legendColours(page) {
  const pairs = await page.evaluate(() => [...document.querySelectorAll('#ft-legend > span')]
    .map(s => [s.textContent.trim(), getComputedStyle(s.querySelector('i')).backgroundColor]));
  return re => { const p = pairs.find(([text]) => re.test(text)); return p ? hexOf(p[1]) : null; };
}

// The canvas's pixel at (x, y) in CSS pixels, as "#rrggbb".
const pixel = (page, x, y) => page.evaluate(([x, y]) => {
  const d = devicePixelRatio, p = document.getElementById('ft-canvas').getContext('2d')
    .getImageData(Math.floor(x * d), Math.floor(y * d), 1, 1).data;
  return '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join('');
}, [x, y]);

// Nanoseconds of the trace clock -> canvas x, by the range the page prints.
async function xMapping(page, frame) {
  const text = await page.locator('#ft-range').innerText();
  const m = /view (-?[\d.]+) s – (-?[\d.]+) s/.exec(text);
  if (!m) throw new Error('no view range in "' + text + '"');
  const s0 = Number(m[1]), s1 = Number(m[2]);
  return ns => frame.labelW + (ns / 1e9 - s0) * frame.plotW / (s1 - s0);
}

// At "fit all" the view starts at the page's time 0: its first event.
async function startNs(page) {
  const m = /view (-?[\d.]+) s/.exec(await page.locator('#ft-range').innerText());
  return Math.round(Number(m[1]) * 1e9);
}

function checkLabels(frame, want, ok) {
  const drawn = frame.lanes.map(laneKey);
  ok(JSON.stringify(sorted(drawn)) === JSON.stringify(sorted(want.keys())),
     `lane labels: one per CRTC, plane, timeline and waiting task of the report (${drawn.length})`,
     { drawn, report: [...want.keys()] });
}

async function checkSpans(page, want, colours, ok) {
  const counted = await countSpans(page, colours);
  for (const [key, n] of want) {
    const c = counted.find(e => laneKey(e.lane) === key);
    const drawn = c ? c.rows.reduce((a, b) => a + b, 0) : -1;
    ok(c && c.unresolved === 0 && drawn === n, `lane "${key.replace('|', '" (')}): ${n} spans drawn, as in the report`,
       c ? { drawn, rows: c.rows, unresolved: c.unresolved } : 'no such lane');
  }
}

function checkArrows(frame, rep, series, xOf, late, minArrows, ok) {
  const want = expectedArrows(rep, series), drawn = frame.arrows.filter(a => a.colour === late);
  const laneOf = key => frame.lanes.find(l => laneKey(l) === key || l.name === key);
  const inLane = (l, y) => l && y >= l.top && y < l.bottom;
  ok(drawn.length === want.length && want.length >= minArrows,
     `late-frame arrows: ${drawn.length} drawn, ${want.length} late frames with a blocking fence in the report (at least ${minArrows})`,
     drawn);
  for (const w of want) {
    const xa = xOf(w.from), xb = xOf(w.to), xc = xOf(w.toAlt);
    const near = x => Math.abs(x - xb) <= TOLERANCE_PX || Math.abs(x - xc) <= TOLERANCE_PX;
    const hit = drawn.find(a => Math.abs(a.from[0] - xa) <= TOLERANCE_PX && near(a.to[0]) &&
                                inLane(laneOf(w.timeline), a.from[1]) && inLane(laneOf(w.crtc), a.to[1]));
    ok(hit !== undefined, `an arrow from ${w.timeline.split('|')[0]}'s signal (x ${xa.toFixed(1)}) to where the frame landed on ${w.crtc} (x ${xc.toFixed(1)}, its flip, or ${xb.toFixed(1)}, its out-fence's signal)`,
       { from: [xa, w.timeline], to: [xb, w.crtc], drawn, lanes: frame.lanes.map(l => [l.name, l.top, l.bottom]) });
  }
}

// A wait that held up a frame, zoomed to: its task lane shows the wait
// colour from its start to its end; with the series, its plane lane shows
// the colour the legend gives the timeline it waited for.
async function checkBlockedWaits(page, fit, rep, colour, ok) {
  const waits = blockedWaits(rep), box = await page.locator('#ft-canvas').boundingBox();
  ok(waits.length > 0, `the report has waits that held up a frame (${waits.length})`);
  for (const w of waits) {
    // the trace's clock -> the page's: by the page's start, as the fit view printed it
    const start = fit.startNs;
    await showRange(page, box, fit, w.start_ns - start, w.end_ns - start);
    const frame = await drawnFrame(page, colour(/^vblank$/)), xOf = await xMapping(page, frame);
    const tl = rep.timelines.find(t => t.context === w.context);
    const lanes = [[`${w.comm}-${w.pid}`, colour(/^wait /)]];
    if (w.plane !== null)
      lanes.push([`plane ${w.plane}`, colour(new RegExp('^plane waited for ' + (tl ? tl.timeline : '?') + '$'))]);
    for (const [name, want] of lanes) {
      const lane = frame.lanes.find(l => l.name === name), seen = [];
      for (const f of [0.2, 0.5, 0.8]) {
        const x = xOf(w.start_ns + (w.end_ns - w.start_ns) * f);
        const ys = lane ? lane.rows.map(r => r[0].y + 5) : [];
        seen.push(await Promise.all(ys.map(y => pixel(page, x, y))));
      }
      ok(want && seen.length && seen.every(row => row.includes(want)),
         `the ${((w.end_ns - w.start_ns) / 1e6).toFixed(1)} ms wait at ${(w.start_ns / 1e9).toFixed(6)} s on ${tl ? tl.timeline : w.context} is painted ${want} on lane "${name}"`,
         { seen });
    }
  }
}

/**
 * checkDrawing() - the page's drawing against the report of @trace
 * @ok: the TAP reporter, ok(cond, what, detail)
 */
export async function checkDrawing(page, trace, minArrows, ok) {
  const rep = reportOf(trace), series = seriesCommits(trace), colour = await legendColours(page);
  const colours = { tick: colour(/^vblank$/), merged: colour(/^merged/) };
  const want = expectedLanes(rep, series);
  await page.mouse.move(0, 0);		// no tooltip over the canvas
  await page.click('#ft-fit');
  await settle(page);
  const frame = await drawnFrame(page, colours.tick), xOf = await xMapping(page, frame);
  frame.startNs = await startNs(page);
  checkLabels(frame, want, ok);
  checkArrows(frame, rep, series, xOf, colour(/^late frame/), minArrows, ok);
  await checkBlockedWaits(page, frame, rep, colour, ok);
  await checkSpans(page, want, colours, ok);
}
