import { GitFailed } from '../errors.js';

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** set when the call was stopped: it ran past `deadlineMs`, or was silent for `stallMs` */
  stopped?: 'deadline' | 'stall';
}

export interface GitRunOptions {
  cwd?: string;
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  /** Read-only calls run with GIT_OPTIONAL_LOCKS=0 (DESIGN.md "Storage in git notes"). */
  readOnly?: boolean;
  /** network steps (issue 14): stop git once the call has run this long */
  deadlineMs?: number;
  /** network steps: stop git once it has printed nothing (progress included) for this long */
  stallMs?: number;
}

/** After SIGTERM (git removes its lock and temporary files on it), SIGKILL this much later. */
const KILL_GRACE_MS = 1500;

/** Runs one git command and collects its output; never throws on a non-zero exit. */
export function runGit(args: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...opts.env };
    if (opts.readOnly) env.GIT_OPTIONAL_LOCKS = '0';
    // child_process is loaded on first use: `show` and quiet hooks never spawn.
    const child = process.getBuiltinModule('node:child_process').spawn('git', args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let stopped: GitResult['stopped'];
    const timers: NodeJS.Timeout[] = [];
    const stop = (why: 'deadline' | 'stall') => {
      if (stopped || child.exitCode !== null) return;
      stopped = why;
      child.kill('SIGTERM');
      timers.push(setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), KILL_GRACE_MS));
    };
    if (opts.deadlineMs !== undefined) timers.push(setTimeout(() => stop('deadline'), Math.max(0, opts.deadlineMs)));
    let stall: NodeJS.Timeout | undefined;
    const alive = () => {
      if (opts.stallMs === undefined || stopped) return;
      if (stall) clearTimeout(stall);
      stall = setTimeout(() => stop('stall'), opts.stallMs);
    };
    alive();
    child.stdout.on('data', (b: Buffer) => (out.push(b), alive()));
    child.stderr.on('data', (b: Buffer) => (err.push(b), alive()));
    child.on('error', reject);
    child.on('close', (code) => {
      for (const t of timers) clearTimeout(t);
      if (stall) clearTimeout(stall);
      resolve({ code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), ...(stopped ? { stopped } : {}) });
    });
    child.stdin.on('error', () => {}); // git may exit before reading all input
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs git and returns stdout as text, throwing GitFailed on a non-zero exit. */
export async function git(args: string[], opts: GitRunOptions = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new GitFailed(`git ${args[0]} failed: ${firstLine(r.stderr) || `exit ${r.code}`}`, { args });
  return r.stdout.toString('utf8');
}

export function firstLine(s: string): string {
  return s.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
}

/** Runs `git <first> | git <second>` with both processes started at once; returns the second's output. */
export function pipeGit(first: string[], second: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...opts.env };
    if (opts.readOnly) env.GIT_OPTIONAL_LOCKS = '0';
    const { spawn } = process.getBuiltinModule('node:child_process');
    const a = spawn('git', first, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    const b = spawn('git', second, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    a.stdout.pipe(b.stdin);
    b.stdin.on('error', () => {});
    const out: Buffer[] = [];
    let err = '';
    b.stdout.on('data', (c: Buffer) => out.push(c));
    b.stderr.on('data', (c: Buffer) => (err += c.toString()));
    a.on('error', reject);
    b.on('error', reject);
    let firstCode: number | null = null;
    a.on('close', (code) => (firstCode = code));
    b.on('close', (code) => resolve({ code: firstCode || code || 0, stdout: Buffer.concat(out), stderr: err }));
  });
}
