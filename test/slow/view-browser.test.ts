/**
 * `git handoff view` in a real browser (issue 27): Debian's chromium driven by
 * playwright-core (test/helpers/browser.ts), on the fixture of test/helpers/view-fixture.ts.
 * Screenshots of each view: test-artifacts/view/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, openPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/repo.js';

describe.skipIf(!CHROMIUM)(`the browser harness${CHROMIUM ? '' : ' (skipped: chromium is not installed; apt-get install chromium)'}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a file:// page reaches no network at all, and its errors and dialogs are recorded', async () => {
    const file = join(tempDir(), 'probe.html');
    writeFileSync(
      file,
      `<!doctype html><title>probe</title><p id="p">probe</p>
<img src="http://192.0.2.1/x.png"><img src="http://127.0.0.1:9/y.png">
<script>fetch('https://example.com/').catch(() => {}); alert('from the page'); throw new Error('boom');</script>`,
    );
    const w = await openPage(browser, { network: 'none' });
    try {
      await w.page.goto(pathToFileURL(file).href);
      await expect.poll(() => w.blocked.length).toBeGreaterThanOrEqual(3);
      expect(w.blocked.sort()).toEqual(['http://127.0.0.1:9/y.png', 'http://192.0.2.1/x.png', 'https://example.com/']);
      expect(w.dialogs).toEqual(['alert: from the page']);
      expect(w.errors.some((e) => e.includes('pageerror: boom'))).toBe(true);
      expect(await w.page.textContent('#p')).toBe('probe');
    } finally {
      await w.close();
    }
  });

  it('a live page may reach 127.0.0.1 and nothing else', async () => {
    const w = await openPage(browser, { network: 'loopback' });
    try {
      await w.page.route('http://127.0.0.1:1/page', (r) =>
        r.fulfill({ contentType: 'text/html', body: '<img src="http://192.0.2.1/z.png"><img src="http://localhost:1/l.png">' }),
      );
      await w.page.goto('http://127.0.0.1:1/page');
      await expect.poll(() => w.blocked.length).toBe(2);
      expect(w.blocked.sort()).toEqual(['http://192.0.2.1/z.png', 'http://localhost:1/l.png']);
    } finally {
      await w.close();
    }
  });
});
