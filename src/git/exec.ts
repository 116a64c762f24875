import { GitFailed } from '../errors.js';
import { firstLine, run, start, tryRun, type RunResult } from '../process/run.js';

/** git's exit code, stdout and stderr (the runner's result). */
export type GitResult = RunResult;

export interface GitRunOptions {
  cwd?: string;
  input?: string | Buffer | NodeJS.ReadableStream;
  env?: NodeJS.ProcessEnv;
  /** Read-only calls run with GIT_OPTIONAL_LOCKS=0, so a read never takes a lock a writer waits on (docs/architecture.md). */
  readOnly?: boolean;
  /** network steps: stop git once the call has run this long */
  deadlineMs?: number;
  /** network steps: stop git once it has printed nothing (progress included) for this long */
  stallMs?: number;
}

function gitEnv(opts: GitRunOptions): NodeJS.ProcessEnv | undefined {
  return opts.readOnly ? { ...opts.env, GIT_OPTIONAL_LOCKS: '0' } : opts.env;
}

/** Runs one git command and collects its output; never throws on a non-zero exit. */
export function runGit(args: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  return tryRun('git', args, { ...opts, env: gitEnv(opts) });
}

/** Runs git and returns stdout as text, throwing GitFailed on a non-zero exit. */
export async function git(args: string[], opts: GitRunOptions = {}): Promise<string> {
  const failure = (r: RunResult) => new GitFailed(`git ${args[0]} failed: ${firstLine(r.stderr) || `exit ${r.code}`}`, { args });
  return (await run('git', args, { ...opts, env: gitEnv(opts), failure })).stdout.toString('utf8');
}

export { firstLine };

/** Starts a long-lived git (a batch fed as work comes, a listing read as it comes) with git's environment for these options. */
export function startGit(args: string[], opts: Pick<GitRunOptions, 'cwd' | 'env' | 'readOnly'> = {}): ReturnType<typeof start> {
  return start('git', args, { cwd: opts.cwd, env: gitEnv(opts) });
}

/** Runs `git <first> | git <second>` with both processes started at once; returns the second's output. */
export async function pipeGit(first: string[], second: string[], opts: GitRunOptions = {}): Promise<GitResult> {
  const a = start('git', first, { cwd: opts.cwd, env: gitEnv(opts) });
  a.stdin.end();
  a.stderr.resume();
  const firstCode = new Promise<number | null>((res, rej) => {
    a.on('error', rej);
    a.on('close', res);
  });
  firstCode.catch(() => {}); // awaited below, once the second process is done
  const b = await tryRun('git', second, { cwd: opts.cwd, env: gitEnv(opts), input: a.stdout });
  return { ...b, code: (await firstCode) || b.code };
}
