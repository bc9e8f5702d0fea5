// SPDX-License-Identifier: GPL-2.0
// frame-checks.mjs - the timeline page's frame timeline against the
// frames section of `fence-trace report --json` of the same trace: each
// CRTC's actual lane holds its frames by class, each drawn in the colour
// the legend gives that class; each run of repeats is a band of its
// blame's legend colour under the vblank ticks; a click on a late frame
// or a band gives its class or blame and its cause; each failed frame is
// on its CRTC's failed lane in its outcome's legend colour, and a click on
// it gives the commit and error the report gives.
import { drawnFrame, hexOf } from './canvas-log.mjs';
import { showRange } from './span-count.mjs';

const settle = page => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
const api = (page, expr, arg) => page.evaluate(expr, arg);

async function legend(page) {
  const pairs = await page.evaluate(() => [...document.querySelectorAll('#ft-legend > span')]
    .map(s => [s.textContent.trim(), getComputedStyle(s.querySelector('i')).backgroundColor]));
  return text => { const p = pairs.find(([t]) => t === text); return p ? hexOf(p[1]) : null; };
}

const pixel = (page, x, y) => page.evaluate(([x, y]) => {
  const r = document.getElementById('ft-canvas').getBoundingClientRect(), d = devicePixelRatio;
  const p = document.getElementById('ft-canvas').getContext('2d')
    .getImageData(Math.floor((x - r.left) * d), Math.floor((y - r.top) * d), 1, 1).data;
  return '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join('');
}, [x, y]);

const legendText = cls => cls === 'on-time' ? 'frame on time' : cls === 'not-judged' ? 'frame not judged' : 'late frame: ' + cls;

function checkCounts(rep, frames, ok) {
  for (const f of rep.frames) {
    const mine = frames.filter(x => x.crtc === rep.frames.indexOf(f));
    const by = cls => mine.filter(x => x.cls === cls).length;
    const want = { 'on-time': f.on_time, ...f.late_by_class };
    ok(mine.length === f.new_vblanks && Object.entries(want).every(([c, n]) => by(c) === n) &&
       mine.filter(x => x.judged).length === f.judged,
       `CRTC ${f.crtc}: the actual lane has the report's ${f.new_vblanks} frames, ${f.judged} judged, by class as the report`,
       { report: want, page: Object.fromEntries(Object.keys(want).map(c => [c, by(c)])) });
  }
}

async function checkColours(page, frames, colour, ok) {
  const wrong = [];
  for (const f of frames) {
    const p = await api(page, i => window.fenceTimeline.locate('fact', i), f.i);
    const seen = await pixel(page, p.x, p.y), want = colour(legendText(f.cls));
    if (!want || seen !== want) wrong.push({ seq: f.seq, cls: f.cls, seen, want });
  }
  ok(frames.length > 0 && wrong.length === 0, `each of ${frames.length} frames is drawn in its class's legend colour`, wrong);
}

async function checkRepeats(page, rep, colour, ok) {
  const runs = await api(page, () => window.fenceTimeline.repeats());
  const want = rep.frames.flatMap((f, ci) => f.repeat_runs.map(r => ({ crtc: ci, first: r.first_vblank, count: r.count, blame: r.blame })));
  ok(JSON.stringify(runs.map(({ crtc, first, count, blame }) => ({ crtc, first, count, blame }))) === JSON.stringify(want),
     `the page's ${runs.length} runs of repeats are the report's`, { page: runs, report: want });
  const wrong = [];
  for (const r of runs.filter(r => r.t0 >= 0 && r.t1 >= 0)) {
    const p = await api(page, i => window.fenceTimeline.locateRepeat(i), r.i);
    const seen = await pixel(page, p.x, p.y);
    if (seen !== colour('repeated vblank: ' + r.blame)) wrong.push({ ...r, seen });
  }
  ok(wrong.length === 0, 'each run of repeats is a band of its blame\'s legend colour under the vblank ticks', wrong);
  return runs.find(r => r.t0 >= 0 && r.t1 >= 0);
}

// Click @kind item @i where the page says it is; the selection it makes.
async function clickOn(page, where) {
  await page.mouse.click(where.x, where.y);
  await settle(page);
  return api(page, () => window.fenceTimeline.selected());
}

// The summary's CRTC table: its failed column is the report's failed count, marked bad when not 0.
async function checkFailed(page, rep, ok) {
  const rows = await page.evaluate(() => {
    const t = [...document.querySelectorAll('#ft-summary table')].find(t => t.rows[0].cells[0].textContent === 'CRTC');
    const k = t ? [...t.rows[0].cells].findIndex(c => c.textContent === 'failed') : -1;
    return t && k >= 0 ? [...t.rows].slice(1).map(r => [r.cells[k].textContent, r.cells[k].className]) : null;
  });
  const cell = f => f.failed === null ? '?' : f.failed_or_lost ? `${f.failed} (+${f.failed_or_lost}?)` : String(f.failed);
  const want = rep.frames.map(f => [cell(f), f.failed > 0 ? 'ft-bad' : '']);
  ok(rows && JSON.stringify(rows) === JSON.stringify(want),
     `the CRTC table's failed column is the report's (${want.map(w => w[0]).join(', ')}), marked when not 0`, { page: rows, report: want });
}

// The errors the workload's refusals bring (--reject: ENOSPC; EBUSY), by
// number as the report gives them, by name as the page does.
const ERROR_NAMES = { '-28': '-ENOSPC', '-16': '-EBUSY', '-22': '-EINVAL' };

// The report's failed frames on the page: the same ones (the recording
// this runs on has a refused frame: at least one), a lane per CRTC that
// has any, each drawn (zoomed to: a rejection lasts under a millisecond)
// in the legend's colour for its outcome, and a click on it gives the
// report's commit and error.
async function checkFailedFrames(page, rep, colour, ok) {
  const key = f => `${f.crtc}:${f.seq}:${f.lost}`;
  const failed = await api(page, () => window.fenceTimeline.failedFrames());
  const want = rep.frames.flatMap((f, ci) => f.failed_frames.map(x => ({ crtc: ci, seq: x.out_fence_seqno,
    lost: x.events_lost, commit: x.commit, error: x.error })));
  ok(want.length > 0 && JSON.stringify(failed.map(key).sort()) === JSON.stringify(want.map(key).sort()),
     `the page's ${failed.length} failed frames are the report's (at least one)`, { page: failed.map(key), report: want.map(key) });
  const lanes = (await api(page, () => window.fenceTimeline.lanes())).filter(l => l.kind === 'failed');
  ok(lanes.length === new Set(want.map(f => f.crtc)).size && lanes.every(l => l.name.endsWith(' failed')),
     `a failed lane per CRTC with failed frames (${lanes.length})`, lanes);
  const box = await page.locator('#ft-canvas').boundingBox();
  for (const f of failed.slice(0, 4)) {
    await page.click('#ft-fit');
    await settle(page);
    await showRange(page, box, await drawnFrame(page, colour('vblank')), f.t0, f.t1);
    const p = await api(page, i => window.fenceTimeline.locate('ffail', i), f.i);
    const seen = await pixel(page, p.x, p.y), legendColour = colour(f.lost ? 'frame failed or lost' : 'frame failed');
    ok(legendColour && seen === legendColour, `failed frame out-fence #${f.seq} is drawn in the legend's colour for it`,
       { seen, legendColour });
    const sel = await clickOn(page, p), r = want.find(w => w.crtc === f.crtc && w.seq === f.seq) || {};
    const field = k => sel && (sel.fields.find(x => x[0] === k) || [])[1];
    const error = r.error === null ? /^not traced/ : new RegExp('^' + (ERROR_NAMES[r.error] || '-E[A-Z0-9]+') + '$');
    ok(sel && sel.kind === 'ffail' && field('commit id') === (r.commit === null ? 'not traced (needs the series)' : String(r.commit)) &&
       error.test(field('error') || ''),
       `a click on failed frame out-fence #${f.seq} gives its commit and error as the report (${r.commit}, ${r.error})`, sel);
  }
}

/**
 * checkFrames() - the frame lanes and repeat bands of the page against @rep
 * @ok: the TAP reporter, ok(cond, what, detail)
 */
export async function checkFrames(page, rep, ok) {
  await page.mouse.move(0, 0);
  await page.click('#ft-fit');
  await settle(page);
  const frames = await api(page, () => window.fenceTimeline.frames()), colour = await legend(page);
  const lanes = (await api(page, () => window.fenceTimeline.lanes())).filter(l => l.kind === 'frames');
  ok(lanes.length === 2 * rep.frames.filter(f => f.new_vblanks > 0).length &&
     lanes.every((l, k) => l.name.endsWith(k % 2 ? ' actual' : ' expected')),
     'an expected and an actual lane per CRTC with frames', lanes);
  checkCounts(rep, frames, ok);
  await checkFailed(page, rep, ok);
  await checkColours(page, frames, colour, ok);
  const run = await checkRepeats(page, rep, colour, ok);
  const late = frames.find(f => f.late >= 0);
  if (late) {
    const sel = await clickOn(page, await api(page, i => window.fenceTimeline.locate('fact', i), late.i));
    const field = k => sel && (sel.fields.find(f => f[0] === k) || [])[1];
    ok(sel && sel.kind === 'fact' && field('class') === late.cls && /\S/.test(field('cause') || ''),
       `a click on late frame out-fence #${late.seq} gives its class (${late.cls}) and its cause`, sel);
  }
  if (run) {
    const sel = await clickOn(page, await api(page, i => window.fenceTimeline.locateRepeat(i), run.i));
    ok(sel && sel.kind === 'repeat' && sel.fields.some(f => f[0] === 'blame' && f[1] === run.blame),
       `a click on the band of vblanks ${run.first}.. gives its blame (${run.blame})`, sel);
  }
  await checkFailedFrames(page, rep, colour, ok);	// last: it zooms in
  await page.click('#ft-fit');
  await settle(page);
}
