// SPDX-License-Identifier: GPL-2.0
// browser.mjs - open a timeline page in Debian's headless Chromium
// (playwright-core, no downloaded browser) with every request that is not
// file: or data: recorded and refused.  Shared by timeline-test.mjs and
// the benchmark.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// @init: a script to run in the page before its own (a drawing recorder).
export async function openPage(htmlPath, { width = 1400, height = 900, init = null } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'ft-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true, args: ARGS, viewport: { width, height },
  });
  const outside = [], errors = [];
  // Every request the page makes goes through here: the page must need nothing.
  await context.route('**/*', route => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  if (init) await context.addInitScript(init);
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', e => errors.push(String(e)));
  page.on('dialog', d => { errors.push('dialog opened: ' + d.message()); d.dismiss(); });
  page.on('console', m => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  await page.goto(pathToFileURL(htmlPath).href);
  await page.waitForFunction(() => window.fenceTimeline !== undefined, null, { timeout: 60000 });
  const close = async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); };
  return { page, outside, errors, close };
}
