// SPDX-License-Identifier: GPL-2.0
// bench.mjs - frame times of a timeline page in headless Chromium: load,
// then STEPS wheel zooms in and out around the cursor and STEPS drags,
// each followed by the drawn frame; prints the draw times the page
// measured (window.fenceTimeline.frameTimes) and the wall time per step.
// Page load is taken from the page's own navigation timing, so browser
// start-up is not in it: HTML parse + script (data decoding, lanes) until
// DOMContentLoaded, then the first frame's draw.
//
//   node tests/viz/bench.mjs PAGE.html [STEPS]
import { openPage } from './browser.mjs';

const [html, stepsArg = '50'] = process.argv.slice(2);
const steps = Number(stepsArg);
const t0 = Date.now();
const { page, outside, errors, close } = await openPage(html);
const loadMs = Date.now() - t0;
const frame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
const stats = a => {
  const s = [...a].sort((x, y) => x - y);
  return { n: s.length, median: s[s.length >> 1], max: s[s.length - 1] };
};
try {
  await frame();
  const load = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { read: nav.responseEnd, dom: nav.domContentLoadedEventEnd, first: window.fenceTimeline.frameTimes()[0] };
  });
  const counts = await page.evaluate(() => window.fenceTimeline.counts());
  const box = await page.locator('#ft-canvas').boundingBox();
  const x = box.x + 210 + (box.width - 210) * 0.4, y = box.y + 40;
  const skip = (await page.evaluate(() => window.fenceTimeline.frameTimes())).length;
  const idle = [];	// the harness's own cost: two animation frames, no input
  for (let i = 0; i < 20; i++) { const s = Date.now(); await frame(); idle.push(Date.now() - s); }
  const wall = [];
  await page.mouse.move(x, y);
  for (let i = 0; i < steps; i++) {	// zoom in then out again: every level of detail
    const s = Date.now();
    await page.mouse.wheel(0, i < steps / 2 ? -250 : 250);
    await frame();
    wall.push(Date.now() - s);
  }
  await page.click('#ft-fit');
  for (let i = 0; i < steps; i++) {	// pans, half of them zoomed in 8x
    if (i === steps / 2) for (let k = 0; k < 4; k++) await page.keyboard.press('w');
    const s = Date.now();
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (i % 2 ? -120 : 120), y);
    await page.mouse.up();
    await frame();
    wall.push(Date.now() - s);
  }
  const draws = (await page.evaluate(() => window.fenceTimeline.frameTimes())).slice(skip);
  const d = stats(draws), w = stats(wall);
  console.log(`page: ${counts.events} events, ${counts.fences} fences, ${counts.waits} waits, ${counts.vblanks} vblanks; browser start + load ${loadMs} ms`);
  console.log(`page load: file read ${load.read.toFixed(0)} ms, parse + script until DOMContentLoaded ` +
              `${load.dom.toFixed(0)} ms, first frame ${load.first.toFixed(1)} ms: ${(load.dom + load.first).toFixed(0)} ms`);
  console.log(`draw time over ${d.n} zoom/pan frames: median ${d.median.toFixed(2)} ms, max ${d.max.toFixed(2)} ms`);
  console.log(`input-to-frame wall time over ${w.n} steps: median ${w.median} ms, max ${w.max} ms ` +
              `(harness alone, two idle frames: median ${stats(idle).median} ms)`);
  if (errors.length || outside.length) console.log('problems:', errors, outside);
  process.exitCode = errors.length || outside.length || d.max >= 50 ? 1 : 0;
} finally {
  await close();
}
