/**
 * Situations that tell whether "latest" is one answer (issue 22): a branch rebased with a
 * handoff per commit, built from a seed so that the hex order of the copied notes' targets
 * varies from run to run. Shared by the e2e test (a few seeds) and the slow suite (many).
 */
import { expect } from 'vitest';
import { TestRepo } from './repo.js';
import { handoff } from './cli.js';
import { commitWithHooks, gitWithHooks } from './hooks.js';

/** What every reader says is the latest version (and its summary). */
export interface ReadersSay {
  reader: string;
  /** undefined: the reader names no version id (export), only its content */
  version: string | null | undefined;
  summary?: string | null;
}

/** The latest version as each reader names it, in the current branch's selection. */
export function readersSay(repo: TestRepo): ReadersSay[] {
  const out: ReadersSay[] = [];
  const show = handoff(repo, ['show', '--json']).json;
  out.push({ reader: 'show --json', version: show?.version ?? null, summary: show?.handoff?.summary ?? null });
  const tilde = handoff(repo, ['show', '--json', '--version', '~0']).json;
  out.push({ reader: 'show --version ~0', version: tilde?.version ?? null, summary: tilde?.handoff?.summary ?? null });
  const log = handoff(repo, ['log', '--json']).json;
  out.push({ reader: 'log (first row)', version: log?.versions?.[0]?.version ?? null, summary: log?.versions?.[0]?.summary ?? null });
  const diff = handoff(repo, ['diff', '--json']).json;
  if (diff?.ok) out.push({ reader: 'diff (new)', version: diff.new });
  // export prints the handoff itself: its summary says which version it is
  const exp = handoff(repo, ['export', '--format', 'json']);
  if (exp.code === 0) out.push({ reader: 'export', version: undefined, summary: JSON.parse(exp.stdout).summary ?? null });
  return out;
}

/** Every reader names `version`. */
export function expectAllSay(repo: TestRepo, version: string, summary: string): void {
  for (const r of readersSay(repo)) {
    if (r.version !== undefined) expect(r.version, `${r.reader} names the latest`).toBe(version);
    if (r.summary !== undefined && r.summary !== null) expect(r.summary, `${r.reader}'s summary`).toBe(summary);
  }
}

/** A tiny deterministic generator, so a failing seed can be run again. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

export function installedRepo(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('chore: start', { 'README.md': 'start\n' });
  expect(handoff(repo, ['init']).code).toBe(0);
  return repo;
}

/**
 * A branch of `n` commits with a handoff written after each (a note added to the last), then
 * `git rebase main` after main moved. Returns the last version written and its summary.
 */
export function rebasedBranch(repo: TestRepo, n: number, seed: number): { last: string; summary: string; note: string } {
  const rnd = seeded(seed * 7919 + n);
  const tag = () => Math.floor(rnd() * 1e9).toString(36);
  repo.git('checkout', '-q', '-b', `topic-${seed}-${n}`);
  let last = '';
  let summary = '';
  const note = `user note ${tag()}`;
  for (let i = 0; i < n; i++) {
    const file = `f-${tag()}.txt`;
    expect(commitWithHooks(repo, `feat: step ${i} ${tag()}`, { [file]: `${tag()}\n` }).code).toBe(0);
    summary = `step ${i} of ${n}: ${tag()}`;
    const w = handoff(repo, ['write', '--json', '--summary', summary, ...(i === n - 1 ? ['--add-note', note] : [])]);
    expect(w.code, w.stderr).toBe(0);
    last = w.json.version;
  }
  const branch = repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
  repo.git('checkout', '-q', 'main');
  commitWithHooks(repo, `feat: main moves ${tag()}`, { [`m-${tag()}.txt`]: 'm\n' });
  repo.git('checkout', '-q', branch);
  const r = gitWithHooks(repo, ['rebase', 'main']);
  expect(r.code, r.stderr).toBe(0);
  return { last, summary, note };
}
