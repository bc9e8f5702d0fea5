// SPDX-License-Identifier: GPL-2.0
// hostile-test.mjs - a page whose trace names a timeline
// "</script><script>alert(1)</script>": the page must load, run no
// injected script (no dialog), and show the name as text.  TAP.
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
  ok(errors.length === 0, 'no dialog, script or console error', errors);
  ok(outside.length === 0, 'no request leaves the page', outside);
} finally {
  await close();
}
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
