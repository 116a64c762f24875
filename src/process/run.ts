/**
 * The one process runner: everything that starts a program (git through ../git/exec.ts,
 * gh, tmux, ps) starts it here. `tryRun` collects the output and never throws on a non-zero
 * exit; `run` is the same call that throws the caller's error instead. Both reject with the
 * operating system's error when the program cannot start at all (ENOENT: not installed).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** set when the call was stopped: it ran past `deadlineMs`, or was silent for `stallMs` */
  stopped?: 'deadline' | 'stall';
}

export interface StartOptions {
  cwd?: string;
  /** merged over this process's environment */
  env?: NodeJS.ProcessEnv;
}

export interface RunOptions extends StartOptions {
  /** what the program reads on stdin (nothing when absent); a stream is piped in */
  input?: string | Buffer | NodeJS.ReadableStream;
  /** stop the program once the call has run this long */
  deadlineMs?: number;
  /** stop the program once it has printed nothing (stderr included) for this long */
  stallMs?: number;
}

/** After SIGTERM (git removes its lock and temporary files on it), SIGKILL this much later. */
const KILL_GRACE_MS = 1500;

/**
 * Starts `command` with all three streams piped, for callers that talk to a long-lived
 * process (git cat-file --batch, the write helper). child_process is loaded on first use:
 * commands that never start a program do not pay for it.
 */
export function start(command: string, args: string[], opts: StartOptions = {}): ChildProcessWithoutNullStreams {
  const env = opts.env ? { ...process.env, ...opts.env } : process.env;
  return process.getBuiltinModule('node:child_process').spawn(command, args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs `command` and collects its output; never throws on a non-zero exit. */
export function tryRun(command: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = start(command, args, opts);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let stopped: RunResult['stopped'];
    const timers: NodeJS.Timeout[] = [];
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const stop = (why: 'deadline' | 'stall') => {
      if (stopped || exited()) return;
      stopped = why;
      child.kill('SIGTERM');
      timers.push(setTimeout(() => !exited() && child.kill('SIGKILL'), KILL_GRACE_MS));
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
    // 'close' waits for every copy of the pipes: a program the child started (ssh, a remote
    // helper) can keep them open after the child itself is gone. Once it has exited, what it
    // wrote is read for a moment, then the pipes are let go, so no deadline is outlived.
    child.on('exit', () => {
      timers.push(
        setTimeout(
          () => {
            child.stdout.destroy();
            child.stderr.destroy();
          },
          stopped ? 100 : KILL_GRACE_MS,
        ),
      );
    });
    child.on('close', (code) => {
      for (const t of timers) clearTimeout(t);
      if (stall) clearTimeout(stall);
      resolve({ code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), ...(stopped ? { stopped } : {}) });
    });
    child.stdin.on('error', () => {}); // the program may exit before reading all input
    const input = opts.input;
    if (input !== undefined && typeof input !== 'string' && !Buffer.isBuffer(input)) input.pipe(child.stdin);
    else child.stdin.end(input ?? '');
  });
}

/** `tryRun`, throwing `failure(result)` when the program exits non-zero. */
export async function run(command: string, args: string[], opts: RunOptions & { failure: (r: RunResult) => Error }): Promise<RunResult> {
  const r = await tryRun(command, args, opts);
  if (r.code !== 0) throw opts.failure(r);
  return r;
}

/** The first non-blank line of a program's message, trimmed ('' when there is none). */
export function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  );
}
