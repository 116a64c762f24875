/**
 * `git handoff view` in a real browser (issue 27): Debian's chromium driven by
 * playwright-core (test/helpers/browser.ts), on the fixture of test/helpers/view-fixture.ts
 * (branches, a divergence, a rebase, a squash merge, a relay, a work item, hostile text, a
 * private version). What a person sees is compared with what the CLI says of the same
 * history. The live page may reach 127.0.0.1 only; the --html file, opened over file://,
 * nothing at all. No test may leave a console error, a page error or a dialog behind.
 * Screenshots of each view: test-artifacts/view/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, openPage, screenshot, type Watched } from '../helpers/browser.js';
import { handoff } from '../helpers/cli.js';
import { tempDir, TestRepo } from '../helpers/repo.js';
import { hasView, startView, type RunningView } from '../helpers/view.js';
import { buildViewFixture, HOSTILE, logOf, PRIVATE_SUMMARY, type ViewFixture } from '../helpers/view-fixture.js';

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
      await poll(() => w.blocked.length).toBeGreaterThanOrEqual(3);
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
      await poll(() => w.blocked.length).toBe(2);
      expect(w.blocked.sort()).toEqual(['http://192.0.2.1/z.png', 'http://localhost:1/l.png']);
    } finally {
      await w.close();
    }
  });
});

const probe = TestRepo.init();
const viewReady = !!CHROMIUM && hasView(probe);
const htmlReady = viewReady && /--html/.test(handoff(probe, ['view', '-h']).stdout);
const why = (ready: boolean, what: string) =>
  ready ? '' : CHROMIUM ? ` (skipped: ${what} is not there yet)` : ' (skipped: chromium is not installed; apt-get install chromium)';

/** expect.poll with room for a machine shared by many (its default gives up after 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

const node = (id: string) => `[data-testid="node"][data-version="${id}"]`;

/** Every node, edge and selection the page draws, as data. */
async function drawn(page: Page) {
  return page.evaluate(() => ({
    nodes: [...document.querySelectorAll('[data-testid="node"]')].map((n) => ({
      version: n.getAttribute('data-version'),
      diverged: n.getAttribute('data-diverged') === 'true',
      selected: n.getAttribute('aria-selected') === 'true',
      text: (n as HTMLElement).innerText,
    })),
    edges: [...document.querySelectorAll('[data-testid="edge"]')].map((e) => ({
      kind: e.getAttribute('data-kind'),
      from: e.getAttribute('data-from'),
      to: e.getAttribute('data-to'),
    })),
  }));
}

/**
 * Nothing that content could have made: no image, no handler attribute, no link but plain
 * http(s), no inline script but the page's own (none in the live page; the file's, allowed by
 * its hash, counted in the file as written).
 */
async function inertDocument(page: Page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      images: document.querySelectorAll('img, image, iframe, object, embed, video, audio').length,
      handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}[${a.name}]`)),
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !/^https?:\/\//.test(h)),
      scripts: [...document.querySelectorAll('script')].filter((s) => !s.src && s.type !== 'application/json').length,
      svgs: document.querySelectorAll('svg foreignObject, svg script, svg [href^="javascript"]').length,
    };
  });
}

/** The lines of `text` without trailing spaces, blank lines dropped. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean);

/** The document a file written by view --html embeds, as JSON text (docs/view.md "The file"). */
function embedded(path: string): string {
  const m = /<script type="application\/json" id="handoff-data">([\s\S]*?)<\/script>/.exec(readFileSync(path, 'utf8'));
  if (!m) throw new Error(`${path} has no handoff-data block`);
  const block = JSON.parse(m[1]);
  return block.encoding === 'gzip+base64' ? gunzipSync(Buffer.from(block.data, 'base64')).toString('utf8') : m[1];
}

/** The inline scripts a file written by view --html holds (the page's own). */
const ownScripts = (path: string) => [...readFileSync(path, 'utf8').matchAll(/<script\b(?![^>]*application\/json)[^>]*>/g)].length;

function clean(w: Watched, allowedBlocked: string[] = []) {
  expect(w.errors, 'console and page errors').toEqual([]);
  expect(w.dialogs, 'dialogs opened').toEqual([]);
  expect(
    w.blocked.filter((u) => !allowedBlocked.includes(u)),
    'requests the page made off 127.0.0.1',
  ).toEqual([]);
}

describe.skipIf(!viewReady)(`the live view in chromium${why(viewReady, 'git handoff view')}`, () => {
  let f: ViewFixture;
  let view: RunningView;
  let browser: Browser;
  beforeAll(async () => {
    f = buildViewFixture();
    view = await startView(f.repo);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await view?.stop('SIGTERM');
  });

  /** The page opened on the URL the server printed, its first nodes drawn. */
  async function live(): Promise<Watched> {
    const w = await openPage(browser, { network: 'loopback' });
    await w.page.goto(view.url);
    await w.page.locator('[data-testid="node"]').first().waitFor({ state: 'visible', timeout: 15_000 });
    return w;
  }

  it('draws every version as a node, the lineage as edges of each kind, the divergence marked', async () => {
    const w = await live();
    try {
      const all = logOf(f.repo).map((r) => r.version);
      await poll(async () => (await drawn(w.page)).nodes.length).toBe(all.length);
      const d = await drawn(w.page);
      expect(d.nodes.map((n) => n.version).sort()).toEqual([...all].sort());
      const kinds = new Set(d.edges.map((e) => e.kind));
      for (const k of ['continues', 'diverged', 'rewrite', 'squash', 'relay']) expect(kinds, `an edge of kind ${k}`).toContain(k);
      // the edges join what the history joins
      const has = (kind: string, from: string, to?: string) => d.edges.some((e) => e.kind === kind && e.from === from && (to === undefined || e.to === to));
      expect(has('diverged', f.v.divergedA, f.v.squashLanded) || has('diverged', f.v.divergedB, f.v.squashLanded)).toBe(true);
      expect(has('relay', f.v.relayed, f.v.relay)).toBe(true);
      expect(has('continues', f.v.parser[1], f.v.parser[0])).toBe(true);
      expect(has('rewrite', f.v.parser[0]) || has('rewrite', f.v.parser[1])).toBe(true);
      expect(has('squash', f.v.squashLanded)).toBe(true);
      // the heads of main's divergence: the hostile version (newest) and the side it did not continue
      const diverged = d.nodes.filter((n) => n.diverged).map((n) => n.version!);
      const heads = [f.v.divergedA, f.v.divergedB, f.v.hostile];
      expect(diverged).toContain(f.v.hostile);
      expect(diverged.filter((id) => heads.includes(id))).toHaveLength(2);
      for (const id of [f.v.mainStart, ...f.v.parser, f.v.relay]) expect(diverged, `${id} is no head of a divergence`).not.toContain(id);
      // the hostile summary is drawn as its text
      expect(d.nodes.find((n) => n.version === f.v.hostile)!.text).toContain(HOSTILE.summary);
      await screenshot(w.page, 'live-graph');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('a click on a version shows its bookmark as git handoff show prints it', async () => {
    const w = await live();
    try {
      for (const id of [f.v.divergedB, f.v.relay, f.v.squashLanded]) {
        await w.page.click(node(id));
        const bm = w.page.locator('[data-testid="bookmark"]');
        await poll(() => bm.getAttribute('data-version')).toBe(id);
        await poll(async () => (await bm.innerText()).includes(`handoff ${id.slice(0, 12)}`)).toBe(true);
        const shown = lines(await bm.innerText());
        const cli = handoff(f.repo, ['show', '--version', id, '--all']);
        expect(cli.code, cli.stderr).toBe(0);
        for (const l of lines(cli.stdout)) expect(shown, `the bookmark of ${id.slice(0, 12)} shows: ${l}`).toContain(l);
        expect((await drawn(w.page)).nodes.find((n) => n.version === id)!.selected).toBe(true);
      }
      await screenshot(w.page, 'live-bookmark');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('shift-click on a second version shows the diff of the two, as git handoff diff prints it', async () => {
    const w = await live();
    try {
      await w.page.click(node(f.v.parser[0]));
      await w.page.click(node(f.v.parser[1]), { modifiers: ['Shift'] });
      const diff = w.page.locator('[data-testid="diff"]');
      await poll(() => diff.getAttribute('data-new')).toBe(f.v.parser[1]);
      expect(await diff.getAttribute('data-old')).toBe(f.v.parser[0]);
      const cli = handoff(f.repo, ['diff', f.v.parser[0], f.v.parser[1], '--all']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toContain('RFC 4180');
      await poll(async () => (await diff.innerText()).includes('RFC 4180')).toBe(true);
      const shown = lines(await diff.innerText());
      for (const l of lines(cli.stdout)) expect(shown, `the diff shows: ${l}`).toContain(l);
      await screenshot(w.page, 'live-diff');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('search answers what git handoff search --json answers, in its order; a result opens its version', async () => {
    const w = await live();
    try {
      for (const q of ['grammar', 'parser session', 'script']) {
        const cli = handoff(f.repo, ['search', '--json', ...q.split(' ')]);
        const want = (cli.json?.results ?? []).map((h: { version: string }) => h.version);
        expect(want.length, `the CLI finds ${q}`).toBeGreaterThan(0);
        await w.page.fill('[data-testid="search"]', q);
        await w.page.press('[data-testid="search"]', 'Enter');
        await poll(() => w.page.$$eval('[data-testid="result"]', (rs) => rs.map((r) => r.getAttribute('data-version')))).toEqual(want);
      }
      await screenshot(w.page, 'live-search');
      const first = await w.page.locator('[data-testid="result"]').first().getAttribute('data-version');
      await w.page.locator('[data-testid="result"]').first().click();
      await poll(() => w.page.locator('[data-testid="bookmark"]').getAttribute('data-version')).toBe(first);
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('j/k and the arrow keys move the selection along the graph, Enter opens the bookmark', async () => {
    const w = await live();
    try {
      const order = (await drawn(w.page)).nodes.map((n) => n.version!);
      const selected = async () => (await drawn(w.page)).nodes.filter((n) => n.selected).map((n) => n.version);
      await w.page.click(node(order[0]));
      await w.page.locator('[data-testid="graph"]').focus();
      await w.page.keyboard.press('j');
      await poll(selected).toEqual([order[1]]);
      await w.page.keyboard.press('ArrowDown');
      await poll(selected).toEqual([order[2]]);
      await w.page.keyboard.press('k');
      await poll(selected).toEqual([order[1]]);
      await w.page.keyboard.press('ArrowDown');
      await w.page.keyboard.press('ArrowUp');
      await poll(selected).toEqual([order[1]]);
      await w.page.keyboard.press('Enter');
      const bm = w.page.locator('[data-testid="bookmark"]');
      await poll(() => bm.getAttribute('data-version')).toBe(order[1]);
      await poll(async () => (await bm.innerText()).includes(`handoff ${order[1].slice(0, 12)}`)).toBe(true);
      await screenshot(w.page, 'live-keyboard');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('the filters narrow the graph to a branch, a session, an author, a date', async () => {
    const w = await live();
    try {
      const versions = async () => (await drawn(w.page)).nodes.map((n) => n.version).sort();
      const parser = logOf(f.repo, ['--branch', 'feature/parser']).map((r) => r.version);
      await w.page.selectOption('[data-testid="filter-branch"]', 'feature/parser');
      await poll(versions).toEqual([...parser].sort());
      await screenshot(w.page, 'live-filter-branch');
      await w.page.selectOption('[data-testid="filter-branch"]', '');
      await w.page.fill('[data-testid="filter-session"]', 'sess-hostile');
      await poll(versions).toEqual([f.v.hostile]);
      await w.page.fill('[data-testid="filter-session"]', '');
      const authors = await w.page.$$eval('[data-testid="filter-author"] option', (os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      expect(authors).toEqual(['Ada Tester <ada@example.com>']);
      await w.page.selectOption('[data-testid="filter-author"]', authors[0]);
      await poll(async () => (await versions()).length).toBe(logOf(f.repo).length);
      await w.page.selectOption('[data-testid="filter-author"]', '');
      await w.page.fill('[data-testid="filter-date"]', '2030-01-01');
      await poll(versions).toEqual([]);
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('the work items show their state and receipts', async () => {
    const w = await live();
    try {
      const item = w.page.locator(`[data-testid="item"][data-item="${f.item.workItem}"]`);
      await item.waitFor({ timeout: 10_000 });
      expect(await item.getAttribute('data-state')).toBe('in-progress');
      const text = await item.innerText();
      expect(text).toContain('Parse the config');
      for (const id of f.item.receipts) expect(text).toContain(id);
      await item.scrollIntoViewIfNeeded();
      await screenshot(w.page, 'live-items');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('the hostile version renders as text and runs nothing', async () => {
    const w = await live();
    try {
      await w.page.click(node(f.v.hostile));
      const bm = w.page.locator('[data-testid="bookmark"]');
      await poll(async () => (await bm.innerText()).includes(HOSTILE.note)).toBe(true);
      const text = await bm.innerText();
      for (const literal of [HOSTILE.summary, HOSTILE.note, HOSTILE.nextStep, HOSTILE.guard]) expect(text).toContain(literal);
      // terminal escapes shown as the CLI shows them, none kept raw
      expect(text).not.toMatch(/[\x1b\x07\x9b]/);
      expect(text).toContain('^[[31mred');
      expect(text).toContain(
        lines(handoff(f.repo, ['show', '--version', f.v.hostile]).stdout)
          .find((l) => l.includes('last discussed'))!
          .trim(),
      );
      // the same in the search results, which hold the hostile snippets
      await w.page.fill('[data-testid="search"]', 'alert');
      await w.page.press('[data-testid="search"]', 'Enter');
      await w.page.locator('[data-testid="result"]').first().waitFor();
      await w.page.waitForTimeout(300);
      expect(await inertDocument(w.page)).toEqual({ images: 0, handlers: [], links: [], scripts: 0, svgs: 0 });
      await screenshot(w.page, 'live-hostile');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it("the README's screenshot: the graph and a relay's bookmark (copied to docs/view.png by hand)", async () => {
    const w = await live();
    try {
      await w.page.setViewportSize({ width: 1280, height: 560 });
      await w.page.click(node(f.v.relay));
      await poll(async () => (await w.page.locator('[data-testid="bookmark"]').innerText()).includes(`handoff ${f.v.relay.slice(0, 12)}`)).toBe(true);
      await screenshot(w.page, 'readme');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('a version written while the page is open appears without a reload', async () => {
    const w = await live();
    try {
      await w.page.evaluate(() => ((window as unknown as { sameDocument: number }).sameDocument = 42));
      const before = (await drawn(w.page)).nodes.length;
      const r = handoff(f.repo, ['write', '--json', '--session', 'sess-live', '--summary', 'written while the page was open']);
      expect(r.code, r.stderr).toBe(0);
      await w.page.locator(node(r.json.version)).waitFor({ state: 'visible', timeout: 15_000 });
      expect((await drawn(w.page)).nodes.length).toBe(before + 1);
      expect(await w.page.evaluate(() => (window as unknown as { sameDocument?: number }).sameDocument)).toBe(42);
      expect(await w.page.locator(node(r.json.version)).innerText()).toContain('written while the page was open');
      await screenshot(w.page, 'live-new-version');
      clean(w);
    } finally {
      await w.close();
    }
  });
});

describe.skipIf(!htmlReady)(`the --html file in chromium, over file:// with no network${why(htmlReady, 'git handoff view --html')}`, () => {
  let f: ViewFixture;
  let browser: Browser;
  let file: string;
  let withEncrypted: string;
  beforeAll(async () => {
    f = buildViewFixture();
    const dir = tempDir('handoff-view-html-');
    file = join(dir, 'history.html');
    withEncrypted = join(dir, 'history-with-encrypted.html');
    for (const [out, extra] of [
      [file, []],
      [withEncrypted, ['--include-encrypted']],
    ] as const) {
      const r = handoff(f.repo, ['view', '--html', out, ...extra]);
      expect(r.code, r.stderr).toBe(0);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function opened(path: string): Promise<Watched> {
    const w = await openPage(browser, { network: 'none' });
    await w.page.goto(pathToFileURL(path).href);
    await w.page.locator('[data-testid="node"]').first().waitFor({ state: 'visible', timeout: 15_000 });
    return w;
  }

  it('is one file: no external asset, a strict CSP, the shared versions only by default', () => {
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="[^"]*default-src 'none'/);
    expect(html).toMatch(/connect-src 'none'/);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
    expect(html).not.toContain(PRIVATE_SUMMARY);
    expect(embedded(file)).not.toContain(PRIVATE_SUMMARY);
    expect(embedded(withEncrypted)).toContain(PRIVATE_SUMMARY);
    expect(embedded(file)).toContain(JSON.stringify(HOSTILE.note).slice(1, -1));
    // one script, the page's own; the hostile text is in the data block with its '<' escaped
    expect(ownScripts(file)).toBe(1);
    expect(html).not.toContain(HOSTILE.note);
    expect(html).not.toContain('<img');
  });

  it('draws the graph with its edges and the divergence, shows bookmarks and a diff, and reaches nothing', async () => {
    const w = await opened(file);
    try {
      const shared = logOf(f.repo)
        .filter((r: any) => r.visibility === 'shared')
        .map((r) => r.version);
      await poll(async () => (await drawn(w.page)).nodes.length).toBe(shared.length);
      const d = await drawn(w.page);
      expect(d.nodes.map((n) => n.version).sort()).toEqual([...shared].sort());
      expect(d.nodes.map((n) => n.version)).not.toContain(f.v.encrypted);
      const kinds = new Set(d.edges.map((e) => e.kind));
      for (const k of ['continues', 'diverged', 'rewrite', 'squash', 'relay']) expect(kinds, `an edge of kind ${k}`).toContain(k);
      expect(d.nodes.filter((n) => n.diverged).map((n) => n.version)).toContain(f.v.hostile);
      await screenshot(w.page, 'file-graph');
      await w.page.click(node(f.v.relay));
      const bm = w.page.locator('[data-testid="bookmark"]');
      await poll(async () => (await bm.innerText()).includes(`handoff ${f.v.relay.slice(0, 12)}`)).toBe(true);
      const shown = lines(await bm.innerText());
      // (a file made at one time shows a notice such as "stale" as it was then; the handoff's own lines must match)
      for (const l of lines(handoff(f.repo, ['show', '--version', f.v.relay, '--all']).stdout).filter((l) => !/^warning: /.test(l)))
        expect(shown, `the bookmark shows: ${l}`).toContain(l);
      await screenshot(w.page, 'file-bookmark');
      await w.page.click(node(f.v.parser[0]));
      await w.page.click(node(f.v.parser[1]), { modifiers: ['Shift'] });
      await poll(async () => (await w.page.locator('[data-testid="diff"]').innerText()).includes('RFC 4180')).toBe(true);
      await screenshot(w.page, 'file-diff');
      await w.page.locator('[data-testid="graph"]').focus();
      await w.page.keyboard.press('j');
      await poll(async () => (await drawn(w.page)).nodes.filter((n) => n.selected).length).toBe(1);
      await w.page.fill('[data-testid="search"]', 'grammar');
      await w.page.press('[data-testid="search"]', 'Enter');
      await poll(async () => (await w.page.$$('[data-testid="result"]')).length).toBeGreaterThan(0);
      const found = await w.page.$$eval('[data-testid="result"]', (rs) => rs.map((r) => r.getAttribute('data-version')));
      for (const id of found) expect(shared).toContain(id);
      expect(found).toContain(f.v.divergedB);
      clean(w);
      expect(w.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('the hostile version renders as text and runs nothing in the file either', async () => {
    const w = await opened(file);
    try {
      await w.page.click(node(f.v.hostile));
      const bm = w.page.locator('[data-testid="bookmark"]');
      await poll(async () => (await bm.innerText()).includes(HOSTILE.note)).toBe(true);
      const text = await bm.innerText();
      for (const literal of [HOSTILE.summary, HOSTILE.note, HOSTILE.nextStep, HOSTILE.guard]) expect(text).toContain(literal);
      expect(text).not.toMatch(/[\x1b\x07\x9b]/);
      expect(await inertDocument(w.page)).toEqual({ images: 0, handlers: [], links: [], scripts: ownScripts(file), svgs: 0 });
      await screenshot(w.page, 'file-hostile');
      clean(w);
    } finally {
      await w.close();
    }
  });

  it('with --include-encrypted, the private version is there and the banner says so', async () => {
    const w = await opened(withEncrypted);
    try {
      const banner = w.page.locator('[data-testid="encrypted-banner"]');
      await banner.waitFor({ state: 'visible' });
      expect(await banner.innerText()).toMatch(/encrypted/);
      await w.page.click(node(f.v.encrypted));
      await poll(async () => (await w.page.locator('[data-testid="bookmark"]').innerText()).includes(PRIVATE_SUMMARY)).toBe(true);
      await screenshot(w.page, 'file-encrypted');
      clean(w);
    } finally {
      await w.close();
    }
    const plain = await opened(file);
    try {
      expect(await plain.page.locator('[data-testid="encrypted-banner"]').count()).toBe(0);
      clean(plain);
    } finally {
      await plain.close();
    }
  });
});
