/**
 * Driving real `git commit` with the installed hooks: the packed CLI first on PATH, so the
 * hook shims find `git-handoff` exactly as on a user's machine.
 */
import { readdirSync, readFileSync, statSync, existsSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cliPath } from './cli.js';
import { tempDir, type TestRepo } from './repo.js';

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git with the CLI on PATH (so installed hooks run git-handoff). */
export function gitWithHooks(repo: TestRepo, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): GitRun {
  const r = repo.gitRaw(args, { env: { PATH: cliPath(), ...opts.env }, input: opts.input });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `git commit` of `files` (or an empty commit) with the hooks running. */
export function commitWithHooks(
  repo: TestRepo,
  message: string,
  files: Record<string, string> = {},
  opts: { env?: NodeJS.ProcessEnv; args?: string[] } = {},
): GitRun & { head: string } {
  for (const [p, c] of Object.entries(files)) repo.write(p, c);
  if (Object.keys(files).length) repo.git('add', '--', ...Object.keys(files));
  const r = gitWithHooks(repo, ['commit', '-q', '--allow-empty', '-m', message, ...(opts.args ?? [])], { env: opts.env });
  return { ...r, head: repo.head() };
}

/** Lines of git-handoff's own output on stderr. */
export function handoffLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('git-handoff'));
}

/** Every file under `dir` (relative path -> bytes as base64 + mode), for byte-identical checks. */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const rel = prefix + name;
      if (skip(rel)) continue;
      const abs = join(d, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs, `${rel}/`);
      else out[rel] = `${(st.mode & 0o777).toString(8)} ${readFileSync(abs).toString('base64')}`;
    }
  };
  walk(dir, '');
  return out;
}

/** A PATH with the tools git and the hook scripts use, and no `tool` (e.g. git-handoff) on it. */
export function pathWithout(tool: string): string {
  const bin = tempDir('handoff-path-');
  for (const t of ['git', 'sh', 'dirname', 'basename', 'cat', 'wc', 'env']) {
    const found = execFileSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).trim();
    symlinkSync(found, join(bin, t));
  }
  if (existsSync(join(bin, tool))) throw new Error(`${tool} is one of the tools pathWithout keeps`);
  return bin;
}
