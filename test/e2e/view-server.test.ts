/**
 * `git handoff view`: the packed CLI's server on 127.0.0.1 (docs/view.md): one URL line,
 * the refusals in their order, the page's CSP and cookie, the data API answering what the
 * CLI answers, the event stream seeing a new version, and a clean stop on SIGTERM/SIGINT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts the bin itself (not through git: a signal must reach the server) and reads its one stdout line. */
function startView(repo: TestRepo, args: string[] = []): Promise<{ child: ChildProcess; line: string; stdout: () => string }> {
  const child = spawn('git-handoff', ['view', ...args], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b) => (err += b));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no URL in 20 s: ${err}`)), 20_000);
    child.stdout!.on('data', (b) => {
      out += b;
      if (out.includes('\n')) {
        clearTimeout(t);
        resolve({ child, line: out.split('\n')[0], stdout: () => out });
      }
    });
    child.on('exit', (code) => reject(new Error(`view exited ${code}: ${err}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

describe('git handoff view (the server)', () => {
  let repo: TestRepo;
  let child: ChildProcess;
  let port: number;
  let token: string;
  let url: string;
  let stdout: () => string;
  const ids: string[] = [];

  beforeAll(async () => {
    repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    handoff(repo, ['write', '--summary', 'first: <script>alert(1)</script> <img src=x onerror=alert(2)> \x1b]52;c;aGk=\x07 javascript:alert(3)']);
    repo.commit('feat: two', { 'a.txt': '2\n' });
    handoff(repo, ['write', '--summary', 'second version', '--session', 's-2']);
    handoff(repo, ['write', '--summary', 'third version', '--session', 's-3']);
    ids.push(...handoff(repo, ['log', '--all', '--json']).json.versions.map((v: any) => v.version));
    const started = await startView(repo);
    child = started.child;
    stdout = started.stdout;
    url = started.line;
    const m = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+)$/.exec(url)!;
    port = Number(m[1]);
    token = m[2];
  });
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints exactly one line, the URL with a token of 32+ url-safe characters, on 127.0.0.1', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32,}$/);
    expect(stdout()).toBe(`${url}\n`);
  });

  it('serves the page with the token, its CSP and an HttpOnly SameSite=Strict cookie; the cookie then opens /app.js', async () => {
    const page = await get(port, `/?token=${token}`);
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.body).toContain('<script src="/app.js"></script>');
    expect(page.body).not.toMatch(/(src|href)="https?:/);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^handoff_view=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const js = await get(port, '/app.js', { cookie: cookie.split(';')[0] });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.body.length).toBeGreaterThan(1000);
    const css = await get(port, '/app.css', { authorization: `Bearer ${token}` });
    expect(css.status).toBe(200);
  });

  it('refuses: no token or a wrong one 403, a foreign Host 421, a foreign Origin 403, POST 405', async () => {
    expect((await get(port, '/')).status).toBe(403);
    expect((await get(port, '/api/versions')).status).toBe(403);
    expect((await get(port, `/?token=${token.slice(0, -1)}x`)).status).toBe(403);
    expect((await get(port, '/api/versions', { authorization: 'Bearer nope' })).status).toBe(403);
    expect((await get(port, `/?token=${token}`, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await get(port, `/?token=${token}`, { host: 'localhost:1' })).status).toBe(421);
    expect((await get(port, `/?token=${token}`, { host: `localhost:${port}` })).status).toBe(200);
    expect((await get(port, `/api/versions?token=${token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, `/api/versions?token=${token}`, { origin: 'null' })).status).toBe(403);
    expect((await get(port, `/api/versions?token=${token}`, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    const post = await get(port, `/api/versions?token=${token}`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await get(port, `/api/versions?token=${token}`, {}, 'DELETE')).status).toBe(405);
  });

  it('/api/versions pages through every version in the order log --all lists them', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const p1 = JSON.parse((await get(port, '/api/versions?limit=2', auth)).body);
    expect(p1.versions.map((v: any) => v.version)).toEqual(ids.slice(0, 2));
    expect(p1.next_cursor).toBe('2');
    const p2 = JSON.parse((await get(port, `/api/versions?limit=2&cursor=${p1.next_cursor}`, auth)).body);
    expect(p2.versions.map((v: any) => v.version)).toEqual(ids.slice(2));
    expect(p2.next_cursor).toBeNull();
    const row = p1.versions[0];
    expect(Object.keys(row)).toEqual([
      'version',
      'target',
      'date',
      'branch',
      'valid',
      'session_id',
      'status',
      'summary',
      'continues',
      'author',
      'origin',
      'signature',
      'visibility',
      'readable',
      'head',
      'diverged',
      'moved',
      'relay',
    ]);
    expect(row).toMatchObject({ summary: 'third version', session_id: 's-3', branch: 'main', head: true, diverged: false, moved: null, relay: null });
    expect(row.continues).toEqual([ids[1]]);
    // the terminal escape in the first summary is made visible, not passed on
    expect(p2.versions[0].summary).toContain('^[]52;c;aGk=^G');
    const bad = await get(port, '/api/versions?limit=0', auth);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('UsageError');
  });

  it('/api/version, /api/diff and /api/search answer what show, diff and search answer', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const v = JSON.parse((await get(port, `/api/version/${ids[2]}`, auth)).body);
    expect(v.version).toBe(ids[2]);
    expect(v.bookmark).toBe(handoff(repo, ['show', '--version', ids[2], '--all']).stdout.replace('\x1b]52;c;aGk=\x07', '^[]52;c;aGk=^G'));
    expect(v.bookmark).toContain('<script>alert(1)</script>');
    expect(v.bookmark).not.toContain('\x1b');
    const d = JSON.parse((await get(port, `/api/diff?old=${ids[1]}&new=${ids[0]}`, auth)).body);
    expect(d.text).toBe(handoff(repo, ['diff', ids[1], ids[0], '--all']).stdout);
    expect(d.changes).toEqual(handoff(repo, ['diff', ids[1], ids[0], '--all', '--json']).json.changes);
    const s = JSON.parse((await get(port, '/api/search?q=version', auth)).body);
    const cli = handoff(repo, ['search', 'version', '--json']).json;
    expect(s.results.map((h: any) => h.version)).toEqual(cli.results.map((h: any) => h.version));
    expect(s.results.length).toBe(2);
    expect((await get(port, '/api/version/ffffffffffff', auth)).status).toBe(404);
    expect((await get(port, '/api/diff?old=~1', auth)).status).toBe(400);
    const items = JSON.parse((await get(port, '/api/items', auth)).body);
    expect(items).toEqual({ ok: true, items: [] });
    expect((await get(port, '/api/nothing', auth)).status).toBe(404);
  });

  it('/api/events says the tip at once and again when a new version is written', async () => {
    const events: string[] = [];
    const req = request({ host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } });
    const got = new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no new tip in 10 s: ${events.join('|')}`)), 10_000);
      req.on('response', (res) => {
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          events.push(c);
          if (events.length === 1) handoff(repo, ['write', '--summary', 'fourth, while the view runs']);
          if (events.join('').split('event: tip').length - 1 >= 2) {
            clearTimeout(t);
            resolve();
          }
        });
      });
      req.on('error', reject);
    });
    req.end();
    await got;
    req.destroy();
    const tips = [...events.join('').matchAll(/data: (\{.*\})/g)].map((m) => JSON.parse(m[1]).tip);
    expect(tips[0]).toBe(ids[0]);
    expect(tips[1]).toBe(repo.git('rev-parse', 'refs/notes/handoff').trim());
  });

  it('stops cleanly on SIGTERM (exit 0), a listing left in the middle not holding it', async () => {
    // one row of four: the walk (a git log and a cat-file) waits for the next page
    const page = JSON.parse((await get(port, '/api/versions?limit=1', { authorization: `Bearer ${token}` })).body);
    expect(page.next_cursor).toBe('1');
    const t0 = Date.now();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('--json prints one document; SIGINT stops it (exit 0); a bad --port is a usage error', async () => {
    const j = await startView(repo, ['--json']);
    const doc = JSON.parse(j.line);
    expect(Object.keys(doc)).toEqual(['ok', 'url', 'port']);
    expect(doc.url).toBe(`http://127.0.0.1:${doc.port}/?${doc.url.split('?')[1]}`);
    j.child.kill('SIGINT');
    expect(await exited(j.child)).toBe(0);
    const bad = handoff(repo, ['view', '--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port needs a port number/);
  });
});
