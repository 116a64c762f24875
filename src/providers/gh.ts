/**
 * The only code that runs the GitHub CLI. `gh` is looked up on PATH like any command, so a
 * stand-in placed first on PATH (the tests' fake) is used exactly as the real one would be.
 */
import { spawn } from 'node:child_process';
import { GhFailed } from '../errors.js';

export type GhRunner = (args: string[]) => Promise<string>;

/** Runs `gh <args>` and returns stdout; throws GhFailed on any failure. */
export function runGh(cwd: string): GhRunner {
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn('gh', args, { cwd, env: { ...process.env, GH_PROMPT_DISABLED: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e: NodeJS.ErrnoException) =>
        reject(new GhFailed(args, e.code === 'ENOENT' ? 'gh is not installed or not on PATH (https://cli.github.com)' : e.message)),
      );
      child.on('close', (code) => {
        if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
        const text = Buffer.concat(err).toString('utf8');
        const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? `exit ${code}`;
        reject(new GhFailed(args, line));
      });
    });
}

/** Runs a `gh` read that prints JSON and parses it. */
export async function ghJson<T>(gh: GhRunner, args: string[]): Promise<T> {
  const text = await gh(args);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GhFailed(args, `printed something that is not JSON: ${text.slice(0, 80)}`);
  }
}
