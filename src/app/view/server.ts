/**
 * `git handoff view`: the read-only local server (docs/view.md "The server"). It listens on
 * 127.0.0.1 only, answers a request only once `refusal` (src/core/view-request.ts) has none,
 * serves the page, its script and style sheet and the data API, and pushes the notes ref's
 * moves to the page as Server-Sent Events. It stops on SIGINT or SIGTERM.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { NOTES_REF, type Repo } from '../../git/repo.js';
import { refusal, TOKEN_COOKIE } from '../../core/view-request.js';
import { ViewApi } from './api.js';
import { clientAsset, livePage, SERVER_CSP } from './page.js';
import { tryRun } from '../../process/run.js';
import { PortInUse, UsageError } from '../../errors.js';

/** How often the notes ref is looked at for a new version (one file read, no git). */
const POLL_MS = 1000;
/** A comment line this often keeps an idle event stream open through proxies and timeouts. */
const KEEPALIVE_MS = 15_000;

export interface ViewOptions {
  port: number;
  open: boolean;
  /** the URL, once listening (the command prints it) */
  listening: (at: { url: string; port: number }) => void;
  /** one line of what went wrong without stopping the server (an opener that failed) */
  notice: (line: string) => void;
}

const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': SERVER_CSP,
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendJson(res: ServerResponse, status: number, doc: unknown): void {
  send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(doc)}\n`);
}

/** The platform's opener: `open` on macOS, `start` through cmd on Windows, else xdg-open. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Serves until SIGINT or SIGTERM; resolves with the exit code. */
export async function serveView(repo: Repo, opts: ViewOptions): Promise<number> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new UsageError(`view: --port needs a port number, not '${opts.port}'`);
  const token = randomBytes(32).toString('base64url');
  const api = new ViewApi(repo);
  let port = 0;
  const streams = new Set<ServerResponse>();
  let lastTip: string | null = await repo.resolveRef(NOTES_REF);

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      opts.notice(`git handoff view: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'InternalError', message: 'internal error' } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const no = refusal({ method: req.method ?? '', url: req.url ?? '/', headers: req.headers }, port, token);
    if (no) return send(res, no.status, 'text/plain; charset=utf-8', `${no.message}\n`, no.status === 405 ? { allow: 'GET, HEAD' } : {});
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') {
      return send(res, 200, 'text/html; charset=utf-8', livePage(), {
        'set-cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }
    if (url.pathname === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', clientAsset('js'));
    if (url.pathname === '/app.css') return send(res, 200, 'text/css; charset=utf-8', clientAsset('css'));
    if (url.pathname === '/api/events') return openStream(res);
    const answer = url.pathname.startsWith('/api/') ? await api.answer(url.pathname, url.searchParams) : null;
    if (!answer) return sendJson(res, 404, { ok: false, error: { code: 'NotFound', message: `no such page: ${url.pathname}` } });
    sendJson(res, answer.status, answer.body);
  }

  function openStream(res: ServerResponse): void {
    res.writeHead(200, { ...BASE_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    if (res.req.method === 'HEAD') return void res.end();
    res.write(`event: tip\ndata: ${JSON.stringify({ tip: lastTip })}\n\n`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  let polling = false;
  const poll = setInterval(() => {
    if (polling || !streams.size) return;
    polling = true;
    void repo
      .resolveRef(NOTES_REF)
      .then((tip) => {
        if (tip === lastTip) return;
        lastTip = tip;
        for (const s of streams) s.write(`event: tip\ndata: ${JSON.stringify({ tip })}\n\n`);
      })
      .catch(() => undefined)
      .finally(() => (polling = false));
  }, POLL_MS);
  const keepAlive = setInterval(() => streams.forEach((s) => s.write(': keep-alive\n\n')), KEEPALIVE_MS);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new PortInUse(`view: port ${opts.port} is in use on 127.0.0.1; pick another with --port, or 0 for any free one`) : e),
    );
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  // The signal handlers first: whoever reads the URL may send SIGINT the moment it is printed.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      clearInterval(poll);
      clearInterval(keepAlive);
      for (const s of streams) s.end();
      server.close(
        () =>
          void api.close().then(
            () => resolve(0),
            () => resolve(0),
          ),
      );
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  opts.listening({ url, port });
  api.prefetch();
  if (opts.open) {
    const [cmd, args] = opener(url);
    void tryRun(cmd, args, { deadlineMs: 10_000 })
      .then((r) => r.code !== 0 && opts.notice(`git handoff view: ${cmd} could not open the browser (exit ${r.code}); open the URL yourself`))
      .catch((e: Error) => opts.notice(`git handoff view: ${cmd} could not open the browser (${e.message}); open the URL yourself`));
  }
  return stopped;
}
