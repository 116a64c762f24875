/**
 * Runs the installed CLI as a user would: `git handoff ...` with the packed package's bin
 * first on PATH.
 */
import { spawn, spawnSync } from 'node:child_process';
import { inject } from 'vitest';
import type { TestRepo } from './repo.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export function cliPath(): string {
  return `${inject('binDir')}:${process.env.PATH}`;
}

export function handoff(
  repo: TestRepo,
  args: string[],
  opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; via?: 'git' | 'bin' } = {},
): CliResult {
  const env = { ...repo.tick(), PATH: cliPath(), ...opts.env };
  const [cmd, argv] = opts.via === 'bin' ? ['git-handoff', args] : ['git', ['handoff', ...args]];
  const r = spawnSync(cmd, argv as string[], { cwd: opts.cwd ?? repo.dir, env, input: opts.input ?? '', encoding: 'utf8' });
  let json: any = undefined;
  if (args.includes('--json')) {
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = undefined;
    }
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}

/** Like `handoff`, but returns at once: for processes that must run at the same time. */
export function handoffAsync(repo: TestRepo, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  const env = { ...repo.tick(), PATH: cliPath(), ...opts.env };
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['handoff', ...args], { cwd: opts.cwd ?? repo.dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: any = undefined;
      if (args.includes('--json')) {
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
    child.stdin.end(opts.input ?? '');
  });
}
