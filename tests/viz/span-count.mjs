// SPDX-License-Identifier: GPL-2.0
// span-count.mjs - how many spans a lane of the timeline page draws, read
// from its drawing.  The page paints spans narrower than a pixel as one
// pixel (grey when several start in it, their own colour when one does),
// so a lane's rows are read at "fit all", and every pixel that does not
// resolve to one span is zoomed into (wheel and drag, as a user would)
// until it does.  A span is counted once: in the range its start falls in.
import { drawnFrame } from './canvas-log.mjs';

const settle = page => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
const view = page => page.evaluate(() => window.fenceTimeline.view());
const MAX_DEPTH = 8;

// Zoom and pan until the view holds [a, b) with a margin, about 3 * (b - a) wide.
export async function showRange(page, canvasBox, frame, a, b) {
  const want = Math.max((b - a) * 3, 1000), c = (a + b) / 2, y = canvasBox.y + 10;
  await page.click('#ft-fit');
  await settle(page);
  for (let step = 0; step < 12; step++) {
    const v = await view(page), span = v.end - v.start;
    const f = Math.max(want / span, 1 / 40);	// one wheel turn zooms 40x at most
    // the time that stays put under the cursor, chosen to bring c to the middle
    const fixed = f === 1 ? c : (c - f * span / 2 - v.start * f) / (1 - f);
    const x = frame.labelW + (fixed - v.start) * frame.plotW / span;
    if (f < 0.999 && x > frame.labelW && x < frame.labelW + frame.plotW) {
      await page.mouse.move(canvasBox.x + x, y);
      await page.mouse.wheel(0, Math.log(f) / 0.002);
      await settle(page);
    }
    const v2 = await view(page), span2 = v2.end - v2.start;
    const off = ((v2.start + v2.end) / 2 - c) * frame.plotW / span2;	// px to move right
    if (Math.abs(off) > 1 && Math.abs(off) < frame.plotW / 2) {
      const x0 = canvasBox.x + frame.labelW + frame.plotW / 2;
      await page.mouse.move(x0, y);
      await page.mouse.down();
      await page.mouse.move(x0 + Math.sign(off) * 20, y);
      await page.mouse.move(x0 + off, y);
      await page.mouse.up();
      await settle(page);
    }
    const v3 = await view(page);
    if (v3.start <= a && v3.end >= b && v3.end - v3.start <= want * 1.5)
      return v3;
    if (f >= 0.999 && Math.abs(off) <= 1)
      break;
  }
  const v = await view(page);
  throw new Error(`could not show [${a}, ${b}) (view ${v.start}..${v.end})`);
}

// Spans of row @y (a lane's row, by its y) starting in [a, b) in this
// frame, and the pixel ranges there that must be looked at closer.
function readRow(frame, v, lane, y, a, b, merged) {
  const rects = frame.lanes.find(l => l.top === lane.top).rows.find(r => r[0].y === y) || [];
  const tOf = x => v.start + (x - frame.labelW) * (v.end - v.start) / frame.plotW;
  let count = 0, prev = null;
  const closer = [];
  for (const r of rects) {
    const pixel = r.w === 1 && Number.isInteger(r.x);
    if (prev && prev.fill === merged && r.x === prev.x + 1) { prev = null; continue; }	// a merged run's tail
    prev = pixel ? r : null;
    const t0 = tOf(r.x), t1 = pixel ? tOf(r.x + 1) : t0;
    if (t1 < a || t0 >= b) continue;	// at the left edge: started before (or at) the view's start
    if (!pixel || (r.fill !== merged && t0 >= a && t1 <= b)) count++;
    else closer.push([Math.max(t0, a), Math.min(t1, b)]);
  }
  // neighbouring pixels are looked at together
  const joined = [];
  for (const [lo, hi] of closer) {
    const last = joined[joined.length - 1];
    if (last && lo - last[1] < (hi - lo) * 4) last[1] = hi; else joined.push([lo, hi]);
  }
  return { count, closer: joined };
}

/**
 * countSpans() - spans drawn in each row of each lane, resolved to single spans
 * @page: the timeline page (drawing recorded, see canvas-log.mjs)
 * @colours: { tick, merged } of the legend
 *
 * Returns, for each lane drawn at "fit all": { lane, rows: [count...], unresolved }.
 */
export async function countSpans(page, colours) {
  const canvasBox = await page.locator('#ft-canvas').boundingBox();
  await page.click('#ft-fit');
  await settle(page);
  const fit = await drawnFrame(page, colours.tick), v = await view(page), out = [];
  for (const lane of fit.lanes) {
    const rows = [];
    let unresolved = 0;
    for (const row of lane.rows) {
      const y = row[0].y;
      let { count, closer } = readRow(fit, v, lane, y, -Infinity, Infinity, colours.merged);
      for (let depth = 1; closer.length; depth++) {
        const next = [];
        for (const [a, b] of closer) {
          if (depth > MAX_DEPTH || b - a < 1) { unresolved++; continue; }
          const vz = await showRange(page, canvasBox, fit, a, b);
          const r = readRow(await drawnFrame(page, colours.tick), vz, lane, y, a, b, colours.merged);
          count += r.count;
          next.push(...r.closer);
        }
        closer = next;
      }
      rows.push(count);
    }
    out.push({ lane, rows, unresolved });
  }
  await page.click('#ft-fit');
  await settle(page);
  return out;
}
