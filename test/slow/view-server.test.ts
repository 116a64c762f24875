/**
 * The server of `git handoff view` (issue 27, docs/view.md "The server") refuses what it
 * must, from a real client on this machine: no token or a wrong one, a foreign Host (DNS
 * rebinding) or Origin, a method that writes, and any connection that does not come to
 * 127.0.0.1; it writes nothing, and it stops cleanly on SIGINT and SIGTERM, freeing its port
 * even with an event stream open.
 */
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { hasView, request, startView, type RunningView } from '../helpers/view.js';

function smallRepo(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  const w = handoff(repo, ['write', '--json', '--summary', 'the view is served']);
  expect(w.code, w.stderr).toBe(0);
  return repo;
}

/** Resolves with the error code of a TCP connection to host:port, or 'connected'. */
function connectResult(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 3000 });
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('timeout', () => {
      s.destroy();
      resolve('timeout');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

/** This machine's addresses but loopback (a link-local IPv6 one with its interface). */
const otherAddresses = () =>
  Object.entries(networkInterfaces()).flatMap(([name, list]) =>
    (list ?? []).filter((a) => !a.internal).map((a) => (a.family === 'IPv6' && a.scopeid ? `${a.address}%${name}` : a.address)),
  );

const probe = TestRepo.init();
const available = hasView(probe);

describe.skipIf(!available)(`the view's server refuses what it must${available ? '' : ' (skipped: no git handoff view command yet)'}`, () => {
  let repo: TestRepo;
  let view: RunningView;
  let refsBefore: string;
  beforeAll(async () => {
    repo = smallRepo();
    refsBefore = repo.git('for-each-ref', '--format=%(refname) %(objectname)');
    view = await startView(repo);
  });
  afterAll(async () => {
    await view?.stop('SIGKILL');
  });

  it('prints exactly one line, its URL with a 43-character token', async () => {
    await new Promise((r) => setTimeout(r, 300));
    expect(view.stdout()).toBe(`${view.url}\n`);
    expect(view.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers the page with its token, and sets the cookie the page uses', async () => {
    const ok = await request(view.port, `/?token=${view.token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("script-src 'self'");
    expect(ok.headers['content-security-policy']).toContain("default-src 'none'");
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    const cookie = String(ok.headers['set-cookie'] ?? '');
    expect(cookie).toContain(`handoff_view=${view.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const byCookie = await request(view.port, '/api/versions', { headers: { Cookie: `handoff_view=${view.token}` } });
    expect(byCookie.status).toBe(200);
    expect(JSON.parse(byCookie.body).versions).toHaveLength(1);
    const byBearer = await request(view.port, '/api/versions', { headers: { Authorization: `Bearer ${view.token}` } });
    expect(byBearer.status).toBe(200);
  });

  it('refuses a request without the token, or with a wrong one (403), on every route', async () => {
    const wrong = view.token.slice(0, -1) + (view.token.endsWith('A') ? 'B' : 'A');
    for (const path of ['/', '/app.js', '/app.css', '/api/versions', '/api/items', '/api/events', `/api/search?q=view`]) {
      expect((await request(view.port, path)).status, `${path} without a token`).toBe(403);
      const sep = path.includes('?') ? '&' : '?';
      expect((await request(view.port, `${path}${sep}token=${wrong}`)).status, `${path} with a wrong token`).toBe(403);
      expect((await request(view.port, path, { headers: { Cookie: `handoff_view=${wrong}` } })).status, `${path} with a wrong cookie`).toBe(403);
      expect((await request(view.port, path, { headers: { Authorization: `Bearer ${wrong}` } })).status, `${path} with a wrong bearer`).toBe(403);
    }
    const body = (await request(view.port, '/api/versions')).body;
    expect(body).not.toContain('the view is served');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with the token', async () => {
    const auth = { Authorization: `Bearer ${view.token}` };
    for (const host of [
      'evil.example',
      `evil.example:${view.port}`,
      `127.0.0.1:${view.port + 1}`,
      `localhost.evil.example:${view.port}`,
      `[::1]:${view.port}`,
    ]) {
      const r = await request(view.port, '/api/versions', { headers: { ...auth, Host: host } });
      expect([421, 403], `Host: ${host}`).toContain(r.status);
      expect(r.body).not.toContain('the view is served');
    }
    for (const host of [`127.0.0.1:${view.port}`, `localhost:${view.port}`])
      expect((await request(view.port, '/api/versions', { headers: { ...auth, Host: host } })).status, `Host: ${host}`).toBe(200);
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${view.port}`,
      'null',
      `http://127.0.0.1:${view.port + 1}`,
      `https://127.0.0.1:${view.port}`,
    ]) {
      const r = await request(view.port, '/api/versions', { headers: { ...auth, Origin: origin } });
      expect(r.status, `Origin: ${origin}`).toBe(403);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await request(view.port, '/api/versions', { headers: { ...auth, Origin: `http://127.0.0.1:${view.port}` } })).status).toBe(200);
  });

  it('refuses every method but GET and HEAD (405), and writes nothing', async () => {
    const auth = { Authorization: `Bearer ${view.token}` };
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await request(view.port, '/api/versions', { method, headers: auth });
      expect(r.status, method).toBe(405);
      expect(String(r.headers.allow)).toMatch(/GET/);
    }
    expect((await request(view.port, `/?token=${view.token}`, { method: 'HEAD' })).status).toBe(200);
    expect(repo.git('for-each-ref', '--format=%(refname) %(objectname)')).toBe(refsBefore);
  });

  it('listens on 127.0.0.1 only: every other address of this machine refuses the connection', async () => {
    expect(await connectResult('127.0.0.1', view.port)).toBe('connected');
    // 127.0.0.2 is this machine's loopback too: a server bound to 0.0.0.0 would answer there
    expect(await connectResult('127.0.0.2', view.port)).toBe('ECONNREFUSED');
    // an IPv4 address of this machine refuses outright; an IPv6 one may also be unusable here
    for (const address of otherAddresses().filter((a) => net.isIPv4(a)))
      expect(await connectResult(address, view.port), `${address}:${view.port}`).toBe('ECONNREFUSED');
    for (const address of ['::1', ...otherAddresses().filter((a) => !net.isIPv4(a))]) {
      const r = await connectResult(address, view.port);
      expect(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EHOSTUNREACH'], `${address}:${view.port}`).toContain(r);
    }
  });
});

/** An open Server-Sent Events stream, as a page left open keeps one. */
function openEvents(view: RunningView): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(view.port, '127.0.0.1', () => {
      s.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${view.port}\r\nAuthorization: Bearer ${view.token}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    let got = '';
    s.on('data', (b) => {
      got += b;
      if (got.includes('event: tip')) resolve(s);
    });
    s.on('error', reject);
    setTimeout(() => reject(new Error(`no event: tip within 10 s: ${got}`)), 10_000);
  });
}

async function expectPortFreed(port: number): Promise<void> {
  expect(await connectResult('127.0.0.1', port)).toBe('ECONNREFUSED');
  // something else can listen on it at once
  await new Promise<void>((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
  });
}

describe.skipIf(!available)(`the view's server stops cleanly${available ? '' : ' (skipped: no git handoff view command yet)'}`, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`on ${signal}: exit 0 within seconds, an open event stream not holding it, the port freed`, async () => {
      const view = await startView(smallRepo());
      const events = await openEvents(view);
      const stopped = await view.stop(signal, 15_000);
      events.destroy();
      expect(stopped, view.stderr()).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(5000);
      await expectPortFreed(view.port);
      expect(view.stderr()).toBe('');
    });
  }

  it('Ctrl-C on `git handoff view` in a terminal (SIGINT to its process group) stops git and the server, the port freed', async () => {
    const view = await startView(smallRepo(), [], { via: 'git' });
    const events = await openEvents(view);
    const stopped = await view.stop('SIGINT', 15_000);
    events.destroy();
    // git itself dies of the SIGINT, as for any command stopped by Ctrl-C; the server exits with it
    expect(stopped.ms).toBeLessThan(5000);
    await expectPortFreed(view.port);
    expect(view.stderr()).toBe('');
  });
});
