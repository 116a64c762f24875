/**
 * Whether the view's server answers a request (docs/view.md "The server"): the checks in
 * their order, on plain values, so the refusals are tested without a server. The server is
 * read-only and local, but a page on another site can still make a browser talk to it (DNS
 * rebinding through `Host`, a cross-site request carrying `Origin`): each check closes one
 * of those doors, and the token closes the rest.
 */
import { timingSafeEqual } from 'node:crypto';

export interface ViewRequest {
  method: string;
  /** the request's path and query, as sent */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface Refusal {
  status: 421 | 403 | 405;
  message: string;
}

/** The cookie the page `/?token=...` sets, so that its own requests need not carry the token. */
export const TOKEN_COOKIE = 'handoff_view';

const one = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h[0] : h);

/** The hosts a request may name: this port on the loopback address, by number or by name. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The token a request carries: `?token=`, the cookie, or `Authorization: Bearer`. */
export function presentedToken(req: ViewRequest): string | null {
  const q = new URL(req.url, 'http://127.0.0.1').searchParams.get('token');
  if (q) return q;
  const auth = one(req.headers.authorization);
  const bearer = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (bearer) return bearer[1];
  const cookie = one(req.headers.cookie);
  for (const part of cookie ? cookie.split(';') : []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === TOKEN_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** null when the request may be answered; else the status and the one line that says why. */
export function refusal(req: ViewRequest, port: number, token: string): Refusal | null {
  const host = one(req.headers.host);
  if (!host || !allowedHosts(port).includes(host.toLowerCase()))
    return { status: 421, message: `this server answers only for 127.0.0.1:${port} (Host: ${host ?? 'none'})` };
  const origin = one(req.headers.origin);
  if (origin !== undefined && !allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`))
    return { status: 403, message: `requests from another origin are refused (${origin})` };
  if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, message: `the view is read-only: ${req.method} is refused` };
  const given = presentedToken(req);
  if (!given || !sameToken(given, token)) return { status: 403, message: given ? 'wrong token' : 'a token is needed: open the URL the command printed' };
  return null;
}
