// The rows of `git handoff view` (issue 27, docs/view.md) in `npm run bench`, on each fixture:
// - the server's start (spawn to its URL printed);
// - the first screen over HTTP: what the page fetches before it draws (the page, its script and
//   style sheet in parallel, then the first page of versions and the work items in parallel),
//   timed from the first request to the last byte, on a running server;
// - the first screen in a headless chromium (Debian's, through playwright-core), from
//   navigation start to the frame that painted the first node, where chromium is installed;
// - a page of 500 versions 4,500 deep (older pages are read as the user scrolls);
// - the server's resident memory after those, and its peak (/proc, Linux);
// and on the 5k fixture the size of the `view --html` file.
// (the functions passed to page.evaluate and addInitScript run in the page)
/* global window, document, MutationObserver, requestAnimationFrame */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const CHROMIUM = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => existsSync(p)) ?? null;

function startView(cwd, env) {
  const t = process.hrtime.bigint();
  const child = spawn('git-handoff', ['view'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (b) => (err += b));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`git handoff view printed no URL in 120 s: ${err}`)), 120_000);
    child.on('exit', (code) => reject(new Error(`git handoff view exited ${code}: ${err}`)));
    child.stdout.on('data', (b) => {
      out += b;
      const m = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ child, url: m[0].trim(), port: Number(m[1]), token: m[2], startMs: Number(process.hrtime.bigint() - t) / 1e6 });
    });
  });
}

function stopView(v) {
  return new Promise((resolve) => {
    if (v.child.exitCode !== null) return resolve();
    const t = setTimeout(() => v.child.kill('SIGKILL'), 10_000);
    v.child.once('exit', () => (clearTimeout(t), resolve()));
    v.child.kill('SIGTERM');
  });
}

/** GET `path` with the token; resolves with the body once it is all read. */
function get(v, path) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: v.port, path, agent: false, headers: { Authorization: `Bearer ${v.token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${path}: ${res.statusCode} ${body.slice(0, 200)}`))));
    });
    req.on('error', reject);
  });
}

async function httpFirstScreen(v) {
  const t = process.hrtime.bigint();
  await get(v, `/?token=${v.token}`);
  await Promise.all([get(v, '/app.js'), get(v, '/app.css')]);
  await Promise.all([get(v, '/api/versions?limit=100'), get(v, '/api/items')]);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** The time of the page of 500 versions that starts 4,500 versions deep (the tenth). */
async function deepPage(v) {
  let cursor = null;
  let ms = 0;
  for (let i = 0; i < 10; i++) {
    const t = process.hrtime.bigint();
    const doc = JSON.parse(await get(v, `/api/versions?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    ms = Number(process.hrtime.bigint() - t) / 1e6;
    cursor = doc.next_cursor;
    if (!cursor) break;
  }
  return ms;
}

function memoryKb(pid) {
  if (!existsSync(`/proc/${pid}/status`)) return null;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function chromium() {
  if (!CHROMIUM) return null;
  try {
    const { chromium: c } = await import('playwright-core');
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    return await c.launch({ executablePath: CHROMIUM, headless: true, args: [...(root ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'] });
  } catch {
    return null;
  }
}

/** ms from navigation start to the frame after the first node was put in the document, in a fresh context. */
async function browserFirstScreen(browser, v) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    // nothing but the server: a page that reached elsewhere would measure the network
    await context.route('**/*', (r) => (new URL(r.request().url()).hostname === '127.0.0.1' ? r.continue() : r.abort()));
    const page = await context.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid="node"]')) {
          obs.disconnect();
          requestAnimationFrame(() => requestAnimationFrame(() => (window.firstPaint = performance.now())));
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(v.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.firstPaint !== undefined, null, { timeout: 120_000, polling: 50 });
    return await page.evaluate(() => window.firstPaint);
  } finally {
    await context.close();
  }
}

export async function benchView({ fixtures, env, work, row, skipped, median, log }) {
  const help = spawnSync('git', ['handoff', 'view', '-h'], { cwd: fixtures[0].dir, env, encoding: 'utf8' });
  if (help.status !== 0) {
    for (const f of fixtures) skipped('view: first screen', f.name, 'no view command', 1);
    return;
  }
  const browser = await chromium();
  try {
    for (const f of fixtures) {
      log(`view, ${f.name}:`);
      const v = await startView(f.dir, env);
      try {
        row('view: server start to its URL printed', f.name, v.startMs, 1000, 'the 1 s budget', null);
        const runs = [];
        await httpFirstScreen(v); // warm-up
        for (let i = 0; i < 5; i++) runs.push(await httpFirstScreen(v));
        row('view: first screen over HTTP (page, script, style, 100 newest versions, items)', f.name, median(runs), 1000, 'the 1 s budget', 1);
        if (browser) {
          const times = [];
          for (let i = 0; i < 4; i++) times.push(await browserFirstScreen(browser, v));
          // the first, on a server that has just started, reported on its own; the target on the median of the rest
          row('view: first screen in chromium, the first navigation (start to first node painted)', f.name, times[0], 1000, 'the 1 s budget', null);
          row('view: first screen in chromium (navigation start to first node painted)', f.name, median(times.slice(1)), 1000, 'the 1 s budget', 1);
        } else skipped('view: first screen in chromium', f.name, 'chromium or playwright-core is not installed', 1);
        const deepRuns = [];
        for (let i = 0; i < 3; i++) deepRuns.push(await deepPage(v));
        row('view: a page of 500 versions 4,500 deep (scrolling)', f.name, median(deepRuns), 1000, 'the 1 s budget', null);
        const mem = memoryKb(v.child.pid);
        if (mem) {
          row('view: server RSS after the first screens and deep pages', f.name, mem.rss, 200 * 1024, 'the 200 MiB budget', 1, 'KB');
          row('view: server peak RSS', f.name, mem.peak, 200 * 1024, 'the 200 MiB budget', 1, 'KB');
        } else skipped('view: server RSS', f.name, 'no /proc', 1);
      } finally {
        await stopView(v);
      }
    }
  } finally {
    await browser?.close();
  }
  // The --html file of the 5k fixture.
  const small = fixtures.find((f) => f.versions === 5000);
  if (!/--html/.test(help.stdout)) skipped('view --html file size', '5k versions', 'no --html option', 1);
  else if (small) {
    const file = join(work, 'view-5k.html');
    const t = process.hrtime.bigint();
    const r = spawnSync('git', ['handoff', 'view', '--html', file], { cwd: small.dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`git handoff view --html failed: ${r.stderr}`);
    row('view --html: writing the file', small.name, ms, 10_000, 'the 10 s budget', null);
    row('view --html: file size', small.name, statSync(file).size / 1024, 5 * 1024, 'a few MB (5 MiB)', 1, 'KB');
  }
}
