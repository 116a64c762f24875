/**
 * `git handoff view` at 50,000 versions (issue 27 "Fast at scale"), in chromium: the first
 * screen (the newest versions) from navigation start to the first node visible, older pages
 * loaded as the graph is scrolled, the document kept small (only the rows on screen are
 * drawn), and the server's memory bounded while every page is read. The figures are printed
 * and saved in test-artifacts/view/scale.json; the assertions are generous bounds against a
 * hang (the target, under a second, is `npm run bench`'s to report on a quiet machine).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, CHROMIUM, launchBrowser, openPage, screenshot, type Watched } from '../helpers/browser.js';
import { handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';
import { hasView, request, startView, type RunningView } from '../helpers/view.js';
import { buildLargeHistory } from '../helpers/view-fixture.js';

const VERSIONS = 50_000;
const ready = !!CHROMIUM && hasView(TestRepo.init());
const figures: Record<string, number> = {};
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 200 });

/** The server's resident memory now and at its peak, in KiB (/proc, Linux). */
function memory(pid: number): { rssKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKb: kb('VmRSS'), peakKb: kb('VmHWM') };
}

describe.skipIf(!ready)(`the view at ${VERSIONS.toLocaleString('en')} versions${ready ? '' : ' (skipped: chromium or git handoff view is missing)'}`, () => {
  let repo: TestRepo;
  let view: RunningView;
  let browser: Browser;
  let newest: string;
  beforeAll(async () => {
    const t = Date.now();
    repo = buildLargeHistory(VERSIONS);
    figures.fixtureSeconds = (Date.now() - t) / 1000;
    newest = handoff(repo, ['log', '--json', '-n', '1', '--all']).json.versions[0].version;
    view = await startView(repo);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await view?.stop('SIGTERM');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'scale.json'), `${JSON.stringify({ versions: VERSIONS, ...figures }, null, 2)}\n`);
    console.log(`view at ${VERSIONS} versions: ${JSON.stringify(figures)}`);
  });

  /** Opens the page; resolves with the ms from navigation start to the first node in the document and to the frame that painted it. */
  async function firstScreen(w: Watched): Promise<{ inserted: number; painted: number }> {
    await w.page.addInitScript(() => {
      const mark = window as unknown as { firstNode?: number; firstPaint?: number };
      new MutationObserver((_, obs) => {
        if (mark.firstNode === undefined && document.querySelector('[data-testid="node"]')) {
          mark.firstNode = performance.now();
          requestAnimationFrame(() => requestAnimationFrame(() => (mark.firstPaint = performance.now())));
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await w.page.goto(view.url, { waitUntil: 'commit' });
    await w.page.locator('[data-testid="node"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    await poll(() => w.page.evaluate(() => (window as unknown as { firstPaint?: number }).firstPaint !== undefined)).toBe(true);
    return w.page.evaluate(() => {
      const mark = window as unknown as { firstNode: number; firstPaint: number };
      return { inserted: mark.firstNode, painted: mark.firstPaint };
    });
  }

  it('the first screen shows the newest versions, its time from navigation start reported', async () => {
    for (const run of ['cold', 'warm'] as const) {
      const w = await openPage(browser, { network: 'loopback' });
      try {
        const t = await firstScreen(w);
        figures[`firstScreenMs_${run}`] = Math.round(t.painted);
        figures[`firstNodeInsertedMs_${run}`] = Math.round(t.inserted);
        expect(t.painted, `the first screen (${run}) took ${Math.round(t.painted)} ms`).toBeLessThan(20_000);
        const first = await w.page.locator('[data-testid="node"]').first().getAttribute('data-version');
        expect(first, `the first node: ${await w.page.locator('[data-testid="node"]').first().innerText()}`).toBe(newest);
        if (run === 'warm') await screenshot(w.page, 'scale-first-screen');
        expect(w.errors).toEqual([]);
        expect(w.blocked).toEqual([]);
      } finally {
        await w.close();
      }
    }
  });

  it('scrolling loads older pages while the document holds only the rows on screen', async () => {
    const w = await openPage(browser, { network: 'loopback' });
    try {
      await firstScreen(w);
      const state = () =>
        w.page.evaluate(() => {
          const nodes = [...document.querySelectorAll('[data-testid="node"]')];
          return {
            nodes: nodes.length,
            elements: document.getElementsByTagName('*').length,
            ids: nodes.map((n) => n.getAttribute('data-version')!),
            status: document.querySelector('[data-testid="status"]')?.textContent ?? '',
          };
        });
      const loaded = (s: { status: string }) => Number(/^(\d+) versions?/.exec(s.status)?.[1] ?? NaN);
      const start = await state();
      expect(start.nodes).toBeGreaterThan(0);
      expect(loaded(start)).toBeLessThan(VERSIONS);
      figures.firstScreenNodes = start.nodes;
      // scroll to the end of what is loaded, five times, each time waiting for the next page
      let last = loaded(start);
      let maxGapMs = 0;
      for (let i = 0; i < 5; i++) {
        const gap = await w.page.evaluate(async () => {
          const g = document.querySelector('[data-testid="graph"]') as HTMLElement;
          let prev = performance.now();
          let max = 0;
          // a scroll of the whole loaded list in 30 frames, measuring the longest frame
          const step = g.scrollHeight / 30;
          for (let k = 0; k < 30; k++) {
            g.scrollTop += step;
            await new Promise((r) => requestAnimationFrame(r));
            const now = performance.now();
            max = Math.max(max, now - prev);
            prev = now;
          }
          g.scrollTop = g.scrollHeight;
          return max;
        });
        maxGapMs = Math.max(maxGapMs, gap);
        await poll(async () => loaded(await state())).toBeGreaterThan(last);
        last = loaded(await state());
      }
      const end = await state();
      figures.loadedAfterScrolling = last;
      figures.longestFrameWhileScrollingMs = Math.round(maxGapMs);
      figures.nodesInDocumentAfterScrolling = end.nodes;
      figures.elementsInDocumentAfterScrolling = end.elements;
      expect(last).toBeGreaterThan(loaded(start));
      // the rows drawn now are older ones, and no more of them than a screen or two
      expect(end.ids.filter((id) => start.ids.includes(id))).toEqual([]);
      expect(end.nodes).toBeLessThanOrEqual(Math.max(200, start.nodes * 2));
      expect(end.elements).toBeLessThan(5000);
      expect(maxGapMs, 'a frame while scrolling').toBeLessThan(5000);
      await screenshot(w.page, 'scale-scrolled');
      expect(w.errors).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it("the server's memory stays bounded while every page of versions is read", async () => {
    const pid = view.child.pid!;
    figures.serverRssKbAfterFirstScreens = memory(pid).rssKb;
    const auth = { Authorization: `Bearer ${view.token}` };
    let cursor: string | null = null;
    let seen = 0;
    const t = Date.now();
    for (let pages = 0; pages < 1000; pages++) {
      const r = await request(view.port, `/api/versions?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth, ms: 120_000 });
      expect(r.status, r.body.slice(0, 300)).toBe(200);
      const doc = JSON.parse(r.body);
      seen += doc.versions.length;
      cursor = doc.next_cursor;
      if (!cursor) break;
    }
    figures.pagingAllSeconds = (Date.now() - t) / 1000;
    expect(seen).toBe(VERSIONS);
    const m = memory(pid);
    figures.serverRssKbAfterPagingAll = m.rssKb;
    figures.serverPeakRssKb = m.peakKb;
    expect(m.peakKb, `the server's peak RSS, ${Math.round(m.peakKb / 1024)} MiB`).toBeLessThan(1024 * 1024);
  });
});
