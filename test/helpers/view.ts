/**
 * `git handoff view` as a user starts it (the packed CLI, the repository's isolated env):
 * waits for its one stdout line, and stops it with a signal, reporting how it exited.
 * Plain HTTP requests with any header (Host included) for the refusal tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { cliPath } from './cli.js';
import type { TestRepo } from './repo.js';

export interface RunningView {
  /** the first line it printed */
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  /** everything the server printed so far */
  stdout(): string;
  stderr(): string;
  /** sends `signal` and resolves with the exit code and signal once it exited (SIGKILL after `ms`) */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Whether the packed CLI has a `view` command (the browser and server suites skip without). */
export function hasView(repo: TestRepo): boolean {
  return spawnSync('git', ['handoff', 'view', '-h'], { cwd: repo.dir, env: { ...repo.env, PATH: cliPath() }, stdio: 'ignore' }).status === 0;
}

const LINE = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+)$/;

/**
 * Starts the installed bin, `git-handoff view ...`, so that a signal sent reaches the server
 * itself and its exit code is the server's. With `via: 'git'`, `git handoff view ...` in a
 * process group of its own, as a terminal runs it (a Ctrl-C goes to the whole group:
 * `stop('SIGINT')` then signals the group).
 */
export async function startView(repo: TestRepo, args: string[] = [], opts: { via?: 'bin' | 'git'; ms?: number } = {}): Promise<RunningView> {
  const ms = opts.ms ?? 30_000;
  const group = opts.via === 'git';
  const [cmd, argv] = group ? ['git', ['handoff', 'view', ...args]] : ['git-handoff', ['view', ...args]];
  const child = spawn(cmd, argv, { cwd: repo.dir, env: { ...repo.env, PATH: cliPath() }, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (err += b));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop: RunningView['stop'] = async (signal = 'SIGTERM', within = 10_000) => {
    const t = Date.now();
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    if (child.exitCode === null && child.signalCode === null) kill(signal);
    const timer = setTimeout(() => kill('SIGKILL'), within);
    const r = await exited;
    clearTimeout(timer);
    return { ...r, ms: Date.now() - t };
  };
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`git handoff view printed no URL within ${ms} ms: ${out}${err}`)), ms);
    const look = () => {
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    };
    child.stdout!.on('data', look);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`git handoff view exited with ${code} before printing its URL: ${out}${err}`));
    });
  }).catch(async (e) => {
    await stop('SIGKILL');
    throw e;
  });
  const m = LINE.exec(line);
  if (!m) {
    await stop('SIGKILL');
    throw new Error(`git handoff view printed ${JSON.stringify(line)}, not http://127.0.0.1:PORT/?token=TOKEN`);
  }
  return { url: line, port: Number(m[1]), token: m[2], child, stdout: () => out, stderr: () => err, stop };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to 127.0.0.1 (or `host`), with exactly these headers (Host may be forged). */
export function request(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; host?: string; family?: 4 | 6; ms?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: opts.host ?? '127.0.0.1',
        family: opts.family,
        port,
        path,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        agent: false,
        timeout: opts.ms ?? 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${path} within ${opts.ms ?? 10_000} ms`)));
    req.on('error', reject);
    req.end();
  });
}
