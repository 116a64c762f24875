/** The view server's checks on a request, in their order (docs/view.md "The server"), on plain values. */
import { describe, expect, it } from 'vitest';
import { presentedToken, refusal, type ViewRequest } from '../../src/core/view-request.js';

const PORT = 4242;
const TOKEN = 'A'.repeat(43);
const req = (over: Partial<ViewRequest> & { headers?: ViewRequest['headers'] } = {}): ViewRequest => ({
  method: 'GET',
  url: `/?token=${TOKEN}`,
  ...over,
  headers: { host: `127.0.0.1:${PORT}`, ...over.headers },
});

describe('refusal', () => {
  it.each([
    ['the page with its token', req(), null],
    ['localhost by name', req({ headers: { host: `LOCALHOST:${PORT}` } }), null],
    ['the same origin', req({ headers: { origin: `http://127.0.0.1:${PORT}` } }), null],
    ['HEAD', req({ method: 'HEAD' }), null],
    ['another host', req({ headers: { host: 'evil.example' } }), 421],
    ['the right host on another port', req({ headers: { host: `127.0.0.1:${PORT + 1}` } }), 421],
    ['no Host at all', req({ headers: { host: undefined } }), 421],
    ['another origin', req({ headers: { origin: 'http://evil.example' } }), 403],
    ['origin null (a file, a sandbox)', req({ headers: { origin: 'null' } }), 403],
    ['https on our port is another origin', req({ headers: { origin: `https://127.0.0.1:${PORT}` } }), 403],
    ['POST', req({ method: 'POST' }), 405],
    ['OPTIONS', req({ method: 'OPTIONS' }), 405],
    ['no token', req({ url: '/' }), 403],
    ['a wrong token', req({ url: `/?token=${'B'.repeat(43)}` }), 403],
    ['a prefix of the token', req({ url: `/?token=${TOKEN.slice(0, 20)}` }), 403],
    ['the token as a Bearer header', req({ url: '/api/versions', headers: { authorization: `Bearer ${TOKEN}` } }), null],
    ['the token as the cookie', req({ url: '/api/versions', headers: { cookie: `other=1; handoff_view=${TOKEN}` } }), null],
    ['a foreign host is refused before a missing token', req({ url: '/', headers: { host: 'evil' } }), 421],
  ])('%s', (_what, r, status) => {
    expect(refusal(r, PORT, TOKEN)?.status ?? null).toBe(status);
  });

  it('names the cause in one line', () => {
    expect(refusal(req({ method: 'PUT' }), PORT, TOKEN)!.message).toBe('the view is read-only: PUT is refused');
    expect(refusal(req({ url: '/' }), PORT, TOKEN)!.message).toMatch(/^a token is needed/);
  });
});

describe('presentedToken', () => {
  it('takes the query first, then Bearer, then the cookie', () => {
    expect(presentedToken(req({ url: '/?token=q', headers: { authorization: 'Bearer b', cookie: 'handoff_view=c' } }))).toBe('q');
    expect(presentedToken(req({ url: '/', headers: { authorization: 'Bearer b', cookie: 'handoff_view=c' } }))).toBe('b');
    expect(presentedToken(req({ url: '/', headers: { cookie: 'x=1; handoff_view=c' } }))).toBe('c');
    expect(presentedToken(req({ url: '/', headers: { cookie: 'handoff_view_x=c' } }))).toBeNull();
  });
});
