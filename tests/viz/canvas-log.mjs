// SPDX-License-Identifier: GPL-2.0
// canvas-log.mjs - what the timeline page draws, as a user would see it:
// every fillRect, fillText and stroked line on its canvas is recorded
// (an init script wraps the 2D context before the page runs), and a frame
// is read back as lanes (their label text and y range), span rectangles
// per lane row, and arrows.  Nothing here reads the page's data or code.

// Runs in the page, before its script: record the canvas's drawing calls.
function recorder() {
  const P = CanvasRenderingContext2D.prototype, log = [];
  let path = [];
  Object.defineProperty(window, '__ftDrawn', { value: log });
  const ours = c => c.canvas && c.canvas.id === 'ft-canvas';
  const wrap = (name, note) => {
    const orig = P[name];
    P[name] = function (...a) { if (ours(this)) note(this, a); return orig.apply(this, a); };
  };
  wrap('fillRect', (c, a) => log.push({ op: 'rect', x: a[0], y: a[1], w: a[2], h: a[3], fill: c.fillStyle }));
  wrap('fillText', (c, a) => log.push({ op: 'text', text: String(a[0]), x: a[1], y: a[2], font: c.font }));
  wrap('beginPath', () => { path = []; });
  wrap('moveTo', (c, a) => path.push([a[0], a[1]]));
  wrap('lineTo', (c, a) => path.push([a[0], a[1]]));
  wrap('stroke', c => log.push({ op: 'line', points: path.slice(), stroke: c.strokeStyle }));
}
export const RECORDER = `(${recorder.toString()})();`;

// Draw the current view once more and return what was drawn; @tick is
// the colour of vblank ticks (the legend's), which are not spans.
export async function drawnFrame(page, tick) {
  const log = await page.evaluate(() => {
    window.__ftDrawn.length = 0;
    window.fenceTimeline.draw();
    return window.__ftDrawn.slice();
  });
  return parseFrame(log, tick);
}

// The page paints, in order: background, axis, lanes (vblank ticks and
// span rows), arrows, then the label column over the left edge with a
// separator under each lane.
export function parseFrame(log, tick) {
  const rects = log.filter(e => e.op === 'rect');
  const bg = rects[0];					// the whole plot
  const labelsAt = rects.findIndex(r => r.x === 0 && r.y === 0 && r !== bg && r.w < bg.w);
  const labelW = rects[labelsAt].w, width = bg.w;
  const texts = log.filter(e => e.op === 'text' && e.x < labelW);
  const lanes = [];
  for (let k = 0; k < texts.length; k += 2)		// the name, then a smaller sub line
    lanes.push({ name: texts[k].text, sub: texts[k + 1] ? texts[k + 1].text : '', top: texts[k].y - 4 });
  const seps = rects.slice(labelsAt).filter(r => r.x === 0 && r.h === 1 && r.w === width);
  lanes.forEach((l, k) => { l.bottom = seps[k] ? seps[k].y + 1 : Infinity; });
  // spans: what the lane phase paints below the axis, but grid lines
  // (taller than a lane row) and vblank ticks
  const top = lanes.length ? lanes[0].top : 0;
  const spans = rects.slice(1, labelsAt).filter(r => r.y >= top && r.x >= labelW && r.h < 20 && r.fill !== tick);
  for (const l of lanes) {
    const mine = spans.filter(r => r.y >= l.top && r.y < l.bottom);
    l.rows = [...new Set(mine.map(r => r.y))].sort((a, b) => a - b).map(y => mine.filter(r => r.y === y));
  }
  const arrows = log.filter(e => e.op === 'line' && e.points.length === 2)
    .map(e => ({ from: e.points[0], to: e.points[1], colour: e.stroke }));
  return { lanes, arrows, labelW, plotW: width - labelW, width };
}

// "#rrggbb" of a CSS colour as getComputedStyle gives it: rgb(r, g, b).
export function hexOf(css) {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  if (!m) return css;
  return '#' + m.slice(1, 4).map(v => Number(v).toString(16).padStart(2, '0')).join('');
}
