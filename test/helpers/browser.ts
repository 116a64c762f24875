/**
 * A real browser for the slow suites: Debian's `chromium` driven by `playwright-core`
 * through its `executablePath` (playwright-core downloads nothing). Every page opened here
 * has the network cut to what the test allows (127.0.0.1 for the live view, nothing at all
 * for a file:// page), and records what a test must find empty: console errors, page
 * errors, dialogs (an `alert` from hostile content) and requests that were refused.
 * Screenshots go to test-artifacts/view/ at the package root (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's chromium (the package `.ci/run` installs), or null where it is missing. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? null;

export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/view');

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is not installed (apt-get install chromium)');
  const { chromium } = await import('playwright-core');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // chromium refuses to start its sandbox as root; nothing outside 127.0.0.1 is loaded anyway
    args: [...(root ? ['--no-sandbox'] : []), '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

/** What a page did that a test asserts on. */
export interface Watched {
  page: Page;
  context: BrowserContext;
  /** console messages of type error, and uncaught exceptions (`pageerror`) */
  errors: string[];
  /** dialogs opened (alert, confirm, prompt): each one is dismissed */
  dialogs: string[];
  /** requests the network rule refused */
  blocked: string[];
  /** every request the page made (URL), allowed or not */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A fresh context and page. `network: 'loopback'` lets requests to 127.0.0.1 through and
 * refuses every other; `network: 'none'` refuses every request that is not the file:// page
 * itself, and sets the context offline.
 */
export async function openPage(browser: Browser, opts: { network: 'loopback' | 'none'; viewport?: { width: number; height: number } }): Promise<Watched> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const errors: string[] = [];
  const dialogs: string[] = [];
  const blocked: string[] = [];
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    let allowed = false;
    try {
      const u = new URL(url);
      allowed = opts.network === 'loopback' ? (u.protocol === 'http:' || u.protocol === 'ws:') && u.hostname === '127.0.0.1' : u.protocol === 'file:';
    } catch {
      allowed = false;
    }
    if (allowed) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  if (opts.network === 'none') await context.setOffline(true);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss().catch(() => {});
  });
  return { page, context, errors, dialogs, blocked, requests, close: () => context.close() };
}

/** Saves a full-page screenshot as test-artifacts/view/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
