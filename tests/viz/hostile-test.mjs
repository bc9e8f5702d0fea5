// SPDX-License-Identifier: GPL-2.0
// hostile-test.mjs - a page whose trace names a timeline
// "</script><script>alert(1)</script>": the page must load, run no
// injected script (no dialog), and show the name as text.  Its trace has
// stock events only: no plane lanes (the header says why), inferred
// commits.  TAP.
//
//   node tests/viz/hostile-test.mjs PAGE.html NAME
import { openPage } from './browser.mjs';

const [html, name] = process.argv.slice(2);
const { page, outside, errors, close } = await openPage(html);
let n = 0, failed = 0;
const ok = (c, what, d) => { n++; if (!c) failed++; console.log(`${c ? 'ok' : 'not ok'} ${n} - ${what}`); if (!c) console.log('# ' + JSON.stringify(d)); };
try {
  const lanes = await page.evaluate(() => window.fenceTimeline.lanes().map(l => l.name));
  ok(lanes.includes(name), 'the hostile timeline name is a lane name, verbatim', lanes);
  const header = await page.locator('#ft-summary').innerText();
  ok(header.includes(name), 'the header shows it as text', header);
  const scripts = await page.evaluate(() => document.scripts.length);
  ok(scripts === 2, `only the page's own two script elements (${scripts})`);
  // the synthetic trace has only stock events: no plane lanes, and the header says why
  const counts = await page.evaluate(() => window.fenceTimeline.counts());
  const note = await page.evaluate(() => window.fenceTimeline.note());
  ok(counts.series === false && !(await page.evaluate(() => window.fenceTimeline.lanes())).some(l => l.kind === 'plane') &&
     /No plane lanes: this trace has no drm_fence:\* events/.test(note), 'stock trace: no plane lanes, and the header says why', [counts, note]);
  const cw = await page.evaluate(() => window.fenceTimeline.commitWithWaits());
  ok(counts.commits > 0 && cw && cw.inferred && cw.waits.every(w => w.kind === 'wait'),
     'stock trace: commits inferred from out-fences, with the waits that held them up', [counts, cw]);
  ok(errors.length === 0, 'no dialog, script or console error', errors);
  ok(outside.length === 0, 'no request leaves the page', outside);
} finally {
  await close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
