/**
 * Real git servers on 127.0.0.1 for the slow suites: `git daemon` (git://), smart
 * HTTP through `git http-backend` behind lighttpd, and a fault-injecting TCP proxy. Every
 * process started here is stopped by `stop()`; callers do that in afterAll/finally.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

export interface Server {
  /** the URL of the repository `name` (a folder under the served root) */
  url(name: string): string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((res) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        res(true);
      });
      c.on('error', () => res(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not listen on ${port} within ${ms} ms`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** `git daemon` serving every repository under `root`, pushes allowed. */
export async function startGitDaemon(root: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    'git',
    [
      'daemon',
      '--reuseaddr',
      `--base-path=${root}`,
      '--export-all',
      '--enable=receive-pack',
      '--listen=127.0.0.1',
      `--port=${port}`,
      '--max-connections=64',
      root,
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (b) => (err = (err + b).slice(-2000)));
  try {
    await waitForPort(port, child, 'git daemon');
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${err.trim()}`);
  }
  return { port, url: (name) => `git://127.0.0.1:${port}/${name}`, stop: stopper(child) };
}

export const LIGHTTPD = ['/usr/sbin/lighttpd', '/usr/bin/lighttpd', '/usr/local/sbin/lighttpd'].find((p) => existsSync(p)) ?? null;

export function httpBackend(): string | null {
  const r = spawnSync('git', ['--exec-path'], { encoding: 'utf8' });
  const p = join(r.stdout.trim(), 'git-http-backend');
  return existsSync(p) ? p : null;
}

/** Smart HTTP: lighttpd running `git http-backend` as CGI for every repository under `root`. */
export async function startLighttpd(root: string, confDir: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const backend = httpBackend();
  if (!LIGHTTPD || !backend) throw new Error('lighttpd or git http-backend is missing');
  const port = await freePort();
  const conf = join(confDir, 'lighttpd.conf');
  writeFileSync(
    conf,
    [
      `server.document-root = "${root}"`,
      `server.bind = "127.0.0.1"`,
      `server.port = ${port}`,
      `server.modules = ("mod_alias", "mod_cgi", "mod_setenv")`,
      `server.errorlog = "${join(confDir, 'lighttpd-error.log')}"`,
      `server.max-connections = 256`,
      `alias.url = ("/git" => "${backend}")`,
      `$HTTP["url"] =~ "^/git" {`,
      `  cgi.assign = ("" => "")`,
      `  setenv.set-environment = ("GIT_PROJECT_ROOT" => "${root}", "GIT_HTTP_EXPORT_ALL" => "1", "GIT_CONFIG_NOSYSTEM" => "1", "GIT_CONFIG_GLOBAL" => "/dev/null")`,
      `}`,
      '',
    ].join('\n'),
  );
  const child = spawn(LIGHTTPD, ['-D', '-f', conf], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (b) => (err += b));
  try {
    await waitForPort(port, child, 'lighttpd');
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${err.trim()}`);
  }
  return { port, url: (name) => `http://127.0.0.1:${port}/git/${name}`, stop: stopper(child) };
}

export type FaultMode = 'pass' | 'blackhole' | 'reset' | 'drop' | `delay:${number}` | `truncate:${number}` | `pass-first:${number}`;

/** The fault proxy (test/helpers/fault-proxy.mjs) in front of `upstreamPort`. */
export async function startFaultProxy(upstreamPort: number, mode: FaultMode): Promise<{ port: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fault-proxy.mjs'), String(upstreamPort), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b) => {
      out += b;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`fault proxy exited with ${code}`)));
  });
  return { port, stop: stopper(child) };
}

/** Runs a command asynchronously (so many can run at once); resolves with its outcome and how long it took. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - start }));
    child.stdin.end(opts.input ?? '');
  });
}
